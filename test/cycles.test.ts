import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTeam, engTeam, insertIssue, setFlag, UNKNOWN_ID } from './projects.fixtures.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let member: { token: string; user: any };
let guest: { token: string; user: any };
before(async () => {
  t = await startTestApp();
  member = await t.register('Cycle Member');
  guest = await t.userWithRole('guest', { teams: ['ENG'] });
});
after(() => t.close());

const DAY = 86_400_000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const create = (body: Record<string, unknown>, token = member.token) =>
  t.post('/api/cycles', { startsAt: at(-1), endsAt: at(13), ...body }, token);

describe('POST /api/cycles', () => {
  test('numbers cycles per team, defaulting to the first team; keys accepted', async () => {
    const eng = await engTeam(t);
    const ops = await createTeam(t, 'OPS');
    const a = await create({});
    assert.equal(a.status, 201, JSON.stringify(a.body));
    assert.equal(a.body.cycle.teamId, eng.id);
    assert.equal(a.body.cycle.number, 1);
    const b = await create({ teamId: 'ENG', name: '  Sprint 2 ', description: 'goals' });
    assert.equal(b.body.cycle.number, 2);
    assert.equal(b.body.cycle.name, 'Sprint 2');
    assert.equal(b.body.cycle.description, 'goals');
    const c = await create({ teamId: ops.id });
    assert.equal(c.body.cycle.teamId, ops.id);
    assert.equal(c.body.cycle.number, 1);
    const d = await create({ teamId: 'ops' });
    assert.equal(d.body.cycle.number, 2);
    const list = await t.get(`/api/cycles?teamId=${ops.id}`, member.token);
    assert.deepEqual(
      list.body.cycles.map((x: any) => x.number),
      [2, 1],
    );
    assert.equal(list.body.pageInfo.total, 2);
  });

  test('concurrent creates in one team get distinct numbers', async () => {
    const team = await createTeam(t, 'RACE');
    const results = await Promise.all(Array.from({ length: 6 }, () => create({ teamId: team.id })));
    assert.ok(results.every((r) => r.status === 201));
    const numbers = results.map((r) => r.body.cycle.number).sort((x, y) => x - y);
    assert.deepEqual(numbers, [1, 2, 3, 4, 5, 6]);
  });

  test('status is derived from dates', async () => {
    const current = (await create({ startsAt: at(-1), endsAt: at(1) })).body.cycle;
    assert.equal(current.status, 'current');
    assert.deepEqual([current.isActive, current.isPast, current.isFuture], [true, false, false]);
    const past = (await create({ startsAt: at(-10), endsAt: at(-3) })).body.cycle;
    assert.equal(past.status, 'past');
    assert.equal(past.isPast, true);
    const upcoming = (await create({ startsAt: at(3), endsAt: at(10) })).body.cycle;
    assert.equal(upcoming.status, 'upcoming');
    assert.equal(upcoming.isFuture, true);
  });

  const bad: [string, Record<string, unknown>, string][] = [
    ['endsAt before startsAt', { startsAt: at(2), endsAt: at(1) }, '/endsAt'],
    ['endsAt equal to startsAt', { startsAt: at(2), endsAt: at(2) }, '/endsAt'],
    ['malformed startsAt', { startsAt: 'tomorrow' }, '/startsAt'],
    ['date without time', { startsAt: '2026-01-01' }, '/startsAt'],
    ['unknown team', { teamId: UNKNOWN_ID }, '/teamId'],
    ['unknown team key', { teamId: 'NOPE' }, '/teamId'],
    ['unknown field', { number: 7 }, '/number'],
  ];
  for (const [what, body, field] of bad) {
    test(`400 for ${what}`, async () => {
      const res = await create(body);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.details[0].field, field);
    });
  }

  test('400 when startsAt is missing', async () => {
    const res = await t.post('/api/cycles', { endsAt: at(1) }, member.token);
    assert.equal(res.status, 400);
  });
});

describe('GET /api/cycles and /api/cycles/:id', () => {
  test('progress from the cycle issues in the list and the record', async () => {
    const c = (await create({})).body.cycle;
    for (const type of ['backlog', 'started', 'completed', 'canceled'] as const) {
      await insertIssue(t, { type, cycleId: c.id });
    }
    const one = await t.get(`/api/cycles/${c.id}`, member.token);
    assert.equal(one.status, 200);
    assert.deepEqual(one.body.cycle.progress, {
      issueCount: 3,
      completedIssueCount: 1,
      startedIssueCount: 1,
      progress: 1 / 3,
    });
    const list = await t.get('/api/cycles?teamId=ENG&limit=250', member.token);
    assert.deepEqual(list.body.cycles.find((x: any) => x.id === c.id).progress, one.body.cycle.progress);
  });

  test('an unknown team filter gives an empty list; bad paging is 400', async () => {
    const res = await t.get(`/api/cycles?teamId=${UNKNOWN_ID}`, member.token);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.cycles, []);
    assert.equal(res.body.pageInfo.total, 0);
    assert.equal((await t.get('/api/cycles?limit=0', member.token)).status, 400);
  });

  test('404 for unknown ids', async () => {
    for (const id of [UNKNOWN_ID, 'nope']) {
      assert.equal((await t.get(`/api/cycles/${id}`, member.token)).status, 404);
      assert.equal((await t.patch(`/api/cycles/${id}`, { name: 'x' }, member.token)).status, 404);
      assert.equal((await t.del(`/api/cycles/${id}`, member.token)).status, 404);
    }
  });
});

describe('PATCH and DELETE /api/cycles/:id', () => {
  test('changes fields; completing makes it past; dates are checked against stored ones', async () => {
    const c = (await create({ startsAt: at(-1), endsAt: at(5) })).body.cycle;
    const res = await t.patch(`/api/cycles/${c.id}`, { name: 'Renamed', description: null }, member.token);
    assert.equal(res.status, 200);
    assert.equal(res.body.cycle.name, 'Renamed');
    const done = await t.patch(`/api/cycles/${c.id}`, { completedAt: at(0) }, member.token);
    assert.equal(done.body.cycle.status, 'past');
    assert.ok(done.body.cycle.completedAt);
    const reopened = await t.patch(`/api/cycles/${c.id}`, { completedAt: null }, member.token);
    assert.equal(reopened.body.cycle.status, 'current');
    const badEnd = await t.patch(`/api/cycles/${c.id}`, { endsAt: at(-2) }, member.token);
    assert.equal(badEnd.status, 400);
    assert.equal(badEnd.body.error.details[0].field, '/endsAt');
    const moved = await t.patch(`/api/cycles/${c.id}`, { startsAt: at(1), endsAt: at(8) }, member.token);
    assert.equal(moved.body.cycle.status, 'upcoming');
    assert.equal((await t.patch(`/api/cycles/${c.id}`, {}, member.token)).status, 400);
    assert.equal((await t.patch(`/api/cycles/${c.id}`, { number: 9 }, member.token)).status, 400);
  });

  test('a cycle completed before its end is past on every door: REST, GraphQL (both paths) and filters', async () => {
    const c = (await create({ startsAt: at(-1), endsAt: at(5), name: 'Closed early' })).body.cycle;
    const done = await t.patch(`/api/cycles/${c.id}`, { completedAt: at(0) }, member.token);
    assert.equal(done.status, 200);
    const flags = { isActive: false, isPast: true, isFuture: false };
    const rest = (await t.get(`/api/cycles/${c.id}`, member.token)).body.cycle;
    assert.deepEqual({ isActive: rest.isActive, isPast: rest.isPast, isFuture: rest.isFuture }, flags);
    // Compiled SQL, then the resolver nodes (the app reads the setting per request).
    const config = t.ctx.config as { graphqlCompiledReads: boolean };
    for (const compiled of [true, false]) {
      config.graphqlCompiledReads = compiled;
      const res = await t
        .request('POST', '/graphql', {
          token: member.token,
          body: { query: `{ cycle(id: "${c.id}") { isActive isPast isFuture } }` },
        })
        .finally(() => {
          config.graphqlCompiledReads = true;
        });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.data.cycle, flags, compiled ? 'compiled' : 'resolvers');
    }
    const filtered = async (filter: string) =>
      (
        await t.request('POST', '/graphql', {
          token: member.token,
          body: { query: `{ cycles(filter: { ${filter}: { eq: true } }) { nodes { id } } }` },
        })
      ).body.data.cycles.nodes.map((n: { id: string }) => n.id);
    assert.ok((await filtered('isPast')).includes(c.id));
    assert.ok(!(await filtered('isActive')).includes(c.id));
  });

  test('delete keeps issues without the cycle; numbers are not reused', async () => {
    const team = await createTeam(t, 'DEL');
    const c1 = (await create({ teamId: team.id })).body.cycle;
    const issue = await insertIssue(t, { cycleId: c1.id, teamId: team.id });
    const res = await t.del(`/api/cycles/${c1.id}`, member.token);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { ok: true, id: c1.id });
    const row = await t.ctx.db
      .selectFrom('issues')
      .select('cycle_id')
      .where('id', '=', issue.id)
      .executeTakeFirst();
    assert.equal(row?.cycle_id, null);
    const c2 = (await create({ teamId: team.id })).body.cycle;
    assert.equal(c2.number, 2);
  });

  test('records cycle.create/update/remove events', async () => {
    const c = (await create({})).body.cycle;
    await t.patch(`/api/cycles/${c.id}`, { name: 'Evented' }, member.token);
    await t.del(`/api/cycles/${c.id}`, member.token);
    const events = await t.ctx.db
      .selectFrom('webhook_events')
      .selectAll()
      .where('type', '=', 'cycle')
      .orderBy('id')
      .execute();
    const mine = events.filter((e) => (e.payload as any).data.id === c.id);
    assert.deepEqual(
      mine.map((e) => e.action),
      ['create', 'update', 'remove'],
    );
    assert.deepEqual((mine[1]!.payload as any).updatedFrom, { name: null });
  });
});

describe('roles and the cycles flag', () => {
  test('guests read; writes are 403 FORBIDDEN', async () => {
    const c = (await create({})).body.cycle;
    assert.equal((await t.get('/api/cycles', guest.token)).status, 200);
    assert.equal((await t.get(`/api/cycles/${c.id}`, guest.token)).status, 200);
    for (const res of [
      await create({}, guest.token),
      await t.patch(`/api/cycles/${c.id}`, { name: 'x' }, guest.token),
      await t.del(`/api/cycles/${c.id}`, guest.token),
    ]) {
      assert.equal(res.status, 403);
      assert.equal(res.body.error.code, 'FORBIDDEN');
    }
  });

  test('flag off: every endpoint 403 FEATURE_DISABLED; flag on: works again', async () => {
    const c = (await create({})).body.cycle;
    await setFlag(t, 'cycles', false);
    try {
      for (const res of [
        await t.get('/api/cycles', member.token),
        await t.get(`/api/cycles/${c.id}`, member.token),
        await create({}),
        await t.patch(`/api/cycles/${c.id}`, { name: 'x' }, member.token),
        await t.del(`/api/cycles/${c.id}`, t.adminToken),
      ]) {
        assert.equal(res.status, 403);
        assert.equal(res.body.error.code, 'FEATURE_DISABLED');
      }
    } finally {
      await setFlag(t, 'cycles', true);
    }
    assert.equal((await t.get(`/api/cycles/${c.id}`, member.token)).status, 200);
    assert.equal((await create({})).status, 201);
  });

  test('401 without a token', async () => {
    assert.equal((await t.get('/api/cycles')).status, 401);
  });
});
