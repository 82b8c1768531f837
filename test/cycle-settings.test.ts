// A team's cycle settings over REST (PATCH /api/teams/:id/cycle-settings) and
// GraphQL (Team's cycle fields, teamUpdate): who may change them, the bounds,
// and the same values through every door.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { apiKeyFor, gql } from './graphql-helpers.js';
import { createTeam, UNKNOWN_ID } from './projects.fixtures.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let base: string;
let member: { token: string; user: any };
let guest: { token: string; user: any };
let owner: { token: string; user: any };
let team: { id: string; key: string };
before(async () => {
  // The worker is driven by test/cycle-worker.test.ts; here only the settings.
  t = await startTestApp({}, { cycleWorker: false });
  base = await t.listen();
  team = await createTeam(t, 'SET');
  member = await t.register('Settings Member');
  guest = await t.userWithRole('guest', { teams: ['SET'] });
  owner = await t.register('Settings Owner');
  await t.ctx.db
    .insertInto('team_memberships')
    .values({ team_id: team.id, user_id: owner.user.id, owner: true })
    .onConflict((oc) => oc.columns(['team_id', 'user_id']).doUpdateSet({ owner: true }))
    .execute();
});
after(() => t.close());

const url = () => `/api/teams/${team.id}/cycle-settings`;
const stored = () =>
  t.ctx.db
    .selectFrom('teams')
    .select([
      'cycles_automatic',
      'cycle_duration',
      'cycle_cooldown',
      'cycle_start_day',
      'upcoming_cycle_count',
      'cycle_rollover',
    ])
    .where('id', '=', team.id)
    .executeTakeFirstOrThrow();

describe('PATCH /api/teams/:id/cycle-settings', () => {
  test('defaults: manual cycles, two weeks, Monday, two ahead, rollover on', async () => {
    const res = await t.get(`/api/teams/${team.id}`, member.token);
    assert.equal(res.status, 200);
    const {
      cyclesAutomatic,
      cycleDuration,
      cycleCooldownTime,
      cycleStartDay,
      upcomingCycleCount,
      cycleRollover,
    } = res.body.team;
    assert.deepEqual(
      { cyclesAutomatic, cycleDuration, cycleCooldownTime, cycleStartDay, upcomingCycleCount, cycleRollover },
      {
        cyclesAutomatic: false,
        cycleDuration: 2,
        cycleCooldownTime: 0,
        cycleStartDay: 1,
        upcomingCycleCount: 2,
        cycleRollover: true,
      },
    );
  });

  test("an admin and the team's owner change them, by id or key; the change is audited", async () => {
    const a = await t.patch(
      url(),
      { cyclesAutomatic: true, cycleDuration: 3, cycleStartDay: 0 },
      t.adminToken,
    );
    assert.equal(a.status, 200, JSON.stringify(a.body));
    assert.equal(a.body.team.cycleDuration, 3);
    assert.equal(a.body.team.cyclesAutomatic, true);
    const b = await t.patch(
      '/api/teams/set/cycle-settings',
      { cycleCooldownTime: 1, upcomingCycleCount: 4, cycleRollover: false },
      owner.token,
    );
    assert.equal(b.status, 200, JSON.stringify(b.body));
    assert.deepEqual(await stored(), {
      cycles_automatic: true,
      cycle_duration: 3,
      cycle_cooldown: 1,
      cycle_start_day: 0,
      upcoming_cycle_count: 4,
      cycle_rollover: false,
    });
    const audit = await t.ctx.db
      .selectFrom('audit_entries')
      .selectAll()
      .where('entity_id', '=', team.id)
      .where('type', '=', 'team.updated')
      .execute();
    assert.equal(audit.length, 2);
  });

  test('a member who does not own the team, and a guest, are refused and change nothing', async () => {
    const before = await stored();
    const m = await t.patch(url(), { cycleDuration: 1 }, member.token);
    assert.equal(m.status, 403);
    const g = await t.patch(url(), { cycleDuration: 1 }, guest.token);
    assert.equal(g.status, 403);
    // Refused before the body is read: a bad body is still a 403 for a guest.
    assert.equal((await t.patch(url(), { cycleDuration: 'x' }, guest.token)).status, 403);
    assert.equal((await t.patch(url(), { cycleDuration: 1 })).status, 401);
    assert.deepEqual(await stored(), before);
  });

  test('bad values are a 400 and change nothing; an unknown team a 404', async () => {
    const before = await stored();
    for (const body of [
      {},
      { cycleDuration: 0 },
      { cycleDuration: 9 },
      { cycleDuration: 1.5 },
      { cycleCooldownTime: -1 },
      { cycleStartDay: 7 },
      { upcomingCycleCount: 0 },
      { cyclesAutomatic: 'yes' },
      { name: 'x' },
    ]) {
      const res = await t.patch(url(), body, t.adminToken);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.ok(res.body.error?.code);
    }
    assert.equal(
      (await t.patch(`/api/teams/${UNKNOWN_ID}/cycle-settings`, { cycleDuration: 1 }, t.adminToken)).status,
      404,
    );
    assert.deepEqual(await stored(), before);
  });

  test('generated bodies: a 200 stores exactly what was sent, anything else is a 4xx that changes nothing', async () => {
    const hostile = fc.oneof(
      fc.string(),
      fc.double(),
      fc.constant(null),
      fc.array(fc.integer()),
      fc.object(),
    );
    const body = fc.oneof(
      fc.record(
        {
          cyclesAutomatic: fc.oneof(fc.boolean(), hostile),
          cycleDuration: fc.oneof(fc.integer({ min: -2, max: 12 }), hostile),
          cycleCooldownTime: fc.oneof(fc.integer({ min: -2, max: 6 }), hostile),
          cycleStartDay: fc.oneof(fc.integer({ min: -2, max: 9 }), hostile),
          upcomingCycleCount: fc.oneof(fc.integer({ min: -2, max: 12 }), hostile),
          cycleRollover: fc.oneof(fc.boolean(), hostile),
          extra: hostile,
        },
        { requiredKeys: [] },
      ),
      hostile,
    );
    const names: Record<string, string> = {
      cyclesAutomatic: 'cycles_automatic',
      cycleDuration: 'cycle_duration',
      cycleCooldownTime: 'cycle_cooldown',
      cycleStartDay: 'cycle_start_day',
      upcomingCycleCount: 'upcoming_cycle_count',
      cycleRollover: 'cycle_rollover',
    };
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const before = await stored();
        const res = await t.request('PATCH', url(), { body: b, token: t.adminToken });
        assert.ok(res.status < 500, `${res.status} ${JSON.stringify(res.body)}`);
        const after = (await stored()) as Record<string, unknown>;
        if (res.status >= 400) {
          assert.ok(res.body?.error?.code, JSON.stringify(res.body));
          assert.deepEqual(after, before);
          return;
        }
        for (const [k, v] of Object.entries(b as Record<string, unknown>)) assert.equal(after[names[k]!], v);
      }),
      { numRuns: Number(process.env['FUZZ_RUNS'] ?? 60) },
    );
  });
});

describe('GraphQL', () => {
  const read = `query($id: String!) { team(id: $id) { cycleDuration cycleCooldownTime cycleStartDay upcomingCycleCount } }`;
  const update = `mutation($id: String!, $input: TeamUpdateInput!) {
    teamUpdate(id: $id, input: $input) { success team { cycleDuration cycleCooldownTime cycleStartDay upcomingCycleCount } } }`;

  test('Team reads the stored settings, as REST does', async () => {
    const key = await apiKeyFor(t, member.token);
    const res = await gql(base, key, read, { id: team.id });
    const rest = (await t.get(`/api/teams/${team.id}`, member.token)).body.team;
    assert.deepEqual(res.body.data.team, {
      cycleDuration: rest.cycleDuration,
      cycleCooldownTime: rest.cycleCooldownTime,
      cycleStartDay: rest.cycleStartDay,
      upcomingCycleCount: rest.upcomingCycleCount,
    });
  });

  test("teamUpdate changes them for the team's owner; a member is refused; bad values are refused", async () => {
    const ownerKey = await apiKeyFor(t, owner.token);
    const ok = await gql(base, ownerKey, update, {
      id: team.id,
      input: { cycleDuration: 2, cycleCooldownTime: 0, cycleStartDay: 3, upcomingCycleCount: 3 },
    });
    assert.equal(ok.body.errors, undefined, JSON.stringify(ok.body));
    assert.deepEqual(ok.body.data.teamUpdate.team, {
      cycleDuration: 2,
      cycleCooldownTime: 0,
      cycleStartDay: 3,
      upcomingCycleCount: 3,
    });
    // The owner is not an admin: the team's other settings stay admins'.
    const name = await gql(base, ownerKey, update, { id: team.id, input: { name: 'Renamed' } });
    assert.equal(name.body.errors?.[0]?.extensions?.code, 'FORBIDDEN', JSON.stringify(name.body));

    const before = await stored();
    const memberKey = await apiKeyFor(t, member.token);
    const refused = await gql(base, memberKey, update, { id: team.id, input: { cycleDuration: 1 } });
    assert.equal(refused.body.errors?.[0]?.extensions?.code, 'FORBIDDEN', JSON.stringify(refused.body));
    for (const input of [{ cycleStartDay: 2.5 }, { upcomingCycleCount: 11 }, { cycleDuration: 0 }]) {
      const bad = await gql(base, ownerKey, update, { id: team.id, input });
      assert.ok(bad.body.errors?.length, JSON.stringify(input));
    }
    assert.deepEqual(await stored(), before);
  });
});
