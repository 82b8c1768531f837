// Progress over time (burn-up) of projects and cycles: scope in points from the
// day an issue joined until it was canceled, completion from completedAt,
// counted over the issues the caller sees.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { sampleDays } from '../src/modules/projects/progress-history.js';
import { engTeam, setFlag, stateOf } from './projects.fixtures.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
  await setFlag(t, 'projects', true);
  await setFlag(t, 'cycles', true);
});
after(() => t?.close());

const DAY = 86_400_000;
const isoDay = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);

async function issue(body: Record<string, unknown>) {
  const res = await t.post('/api/issues', { teamId: 'ENG', title: 'Progress', ...body }, t.adminToken);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.issue as { id: string };
}
/** Moves an issue's creation (and with it the default "joined" moment) back by `days`. */
const backdate = (id: string, days: number) =>
  sql`update issues set created_at = now() - make_interval(days => ${days}) where id = ${id}`.execute(
    t.ctx.db,
  );

describe('GET /api/projects/:id/progress', () => {
  test('each day counts what had joined and was not canceled, in points; completion from completedAt', async () => {
    const eng = await engTeam(t);
    const completed = await stateOf(t, eng.id, 'completed');
    const canceled = await stateOf(t, eng.id, 'canceled');
    const p = await t.post(
      '/api/projects',
      { name: 'Burn-up', teamIds: [eng.id], startDate: isoDay(-3) },
      t.adminToken,
    );
    assert.equal(p.status, 201, JSON.stringify(p.body));
    const projectId = p.body.project.id;

    const done = await issue({ projectId, estimate: 2 });
    await backdate(done.id, 2);
    await t.patch(`/api/issues/${done.id}`, { stateId: completed.id }, t.adminToken);
    await issue({ projectId }); // no estimate: 1 point, joined today
    const dropped = await issue({ projectId, estimate: 3 });
    await backdate(dropped.id, 2);
    await t.patch(`/api/issues/${dropped.id}`, { stateId: canceled.id }, t.adminToken);
    const movedIn = await issue({});
    await backdate(movedIn.id, 2);
    await t.patch(`/api/issues/${movedIn.id}`, { projectId }, t.adminToken); // joins today, through its history

    const res = await t.get(`/api/projects/${projectId}/progress`, t.adminToken);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const days = res.body.days as {
      date: string;
      scope: number;
      completedScope: number;
      issues: number;
      completedIssues: number;
    }[];
    assert.deepEqual(
      days.map((d) => d.date),
      [isoDay(-3), isoDay(-2), isoDay(-1), isoDay(0)],
    );
    assert.deepEqual(
      days.map((d) => [d.scope, d.completedScope, d.issues, d.completedIssues]),
      [
        [0, 0, 0, 0],
        [5, 0, 2, 0], // the completed and the canceled one, both 2 days old
        [5, 0, 2, 0],
        [4, 2, 3, 1], // canceled left; moved-in and new joined; one done
      ],
    );
  });

  test('a member outside a private team does not count its issues', async () => {
    const team = await t.post('/api/teams', { key: 'SEC', name: 'Secret', private: true }, t.adminToken);
    assert.equal(team.status, 201, JSON.stringify(team.body));
    const eng = await engTeam(t);
    const p = await t.post(
      '/api/projects',
      { name: 'Shared', teamIds: [eng.id, team.body.team.id] },
      t.adminToken,
    );
    const projectId = p.body.project.id;
    await issue({ projectId });
    const secret = await t.post('/api/issues', { teamId: 'SEC', title: 'Hidden', projectId }, t.adminToken);
    assert.equal(secret.status, 201, JSON.stringify(secret.body));
    const member = await t.userWithRole('member');
    const today = (token: string) =>
      t.get(`/api/projects/${projectId}/progress`, token).then((r) => r.body.days.at(-1).issues);
    assert.equal(await today(t.adminToken), 2);
    assert.equal(await today(member.token), 1);
  });

  test('unknown or malformed ids are 404, no token is 401', async () => {
    assert.equal(
      (await t.get('/api/projects/00000000-0000-4000-8000-000000000000/progress', t.adminToken)).status,
      404,
    );
    assert.equal((await t.get('/api/projects/nope/progress', t.adminToken)).status, 404);
    assert.equal((await t.get('/api/cycles/nope/progress', t.adminToken)).status, 404);
    assert.equal((await t.get('/api/projects/00000000-0000-4000-8000-000000000000/progress')).status, 401);
  });
});

describe('GET /api/cycles/:id/progress', () => {
  test('runs from the cycle start to today, and an upcoming cycle has no days yet', async () => {
    const eng = await engTeam(t);
    const cycle = await t.post(
      '/api/cycles',
      {
        teamId: eng.id,
        startsAt: new Date(Date.now() - 2.5 * DAY).toISOString(),
        endsAt: new Date(Date.now() + 5 * DAY).toISOString(),
      },
      t.adminToken,
    );
    assert.equal(cycle.status, 201, JSON.stringify(cycle.body));
    const one = await issue({ cycleId: cycle.body.cycle.id, estimate: 5 });
    await backdate(one.id, 1);
    const res = await t.get(`/api/cycles/${cycle.body.cycle.id}/progress`, t.adminToken);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const days = res.body.days as { date: string; scope: number }[];
    assert.equal(days.at(-1)!.date, isoDay(0));
    assert.equal(days.at(-1)!.scope, 5);
    assert.equal(days[0]!.scope, 0);

    const later = await t.post(
      '/api/cycles',
      {
        teamId: eng.id,
        startsAt: new Date(Date.now() + 20 * DAY).toISOString(),
        endsAt: new Date(Date.now() + 30 * DAY).toISOString(),
      },
      t.adminToken,
    );
    assert.equal(later.status, 201, JSON.stringify(later.body));
    assert.deepEqual(
      (await t.get(`/api/cycles/${later.body.cycle.id}/progress`, t.adminToken)).body.days,
      [],
    );
  });
});

describe('sampleDays', () => {
  test('a long span is sampled to at most 180 points, always ending on the last day', () => {
    const to = new Date('2026-11-24T15:00:00Z');
    const twoYears = sampleDays(new Date('2024-11-24T00:00:00Z'), to);
    assert.equal(twoYears.last, '2026-11-24');
    assert.equal(twoYears.stepDays, 5);
    const points = Math.floor((Date.parse(twoYears.last) - Date.parse(twoYears.first)) / (5 * DAY)) + 1;
    assert.ok(points <= 180 && twoYears.first >= '2024-11-24', `${points} points from ${twoYears.first}`);
    assert.deepEqual(sampleDays(to, to), { first: '2026-11-24', last: '2026-11-24', stepDays: 1 });
  });
});
