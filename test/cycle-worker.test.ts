// The cycle worker (modules/cycles/automation.ts): automatic cycles on the
// team's start day with its duration and cooldown, each created once however
// many workers run, and an ended cycle's unfinished issues rolled over to the
// next, recorded as the system's change. The clock is the test's.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startCycleWorker, syncTeamCycles } from '../src/modules/cycles/automation.js';
import { createTeam, insertIssue } from './projects.fixtures.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
before(async () => {
  t = await startTestApp({}, { cycleWorker: false });
});
after(() => t.close());

const DAY = 86_400_000;
const cyclesOf = (teamId: string) =>
  t.ctx.db.selectFrom('cycles').selectAll().where('team_id', '=', teamId).orderBy('starts_at').execute();
const settings = (teamId: string, set: Record<string, unknown>) =>
  t.ctx.db.updateTable('teams').set(set).where('id', '=', teamId).execute();
const iso = (d: Date) => d.toISOString();

describe('planning', () => {
  test('the current cycle and the upcoming ones, on the start day, with the cooldown between', async () => {
    const team = await createTeam(t, 'PLAN');
    await settings(team.id, {
      cycles_automatic: true,
      cycle_duration: 2,
      cycle_cooldown: 1,
      cycle_start_day: 1,
      upcoming_cycle_count: 2,
    });
    const now = new Date('2026-11-27T12:00:00Z'); // a Friday
    const done = await syncTeamCycles(t.ctx, team.id, now);
    assert.equal(done.created, 3);
    const cycles = await cyclesOf(team.id);
    assert.deepEqual(
      cycles.map((c) => [c.number, iso(c.starts_at), iso(c.ends_at)]),
      [
        [1, '2026-11-23T00:00:00.000Z', '2026-12-07T00:00:00.000Z'],
        [2, '2026-12-14T00:00:00.000Z', '2026-12-28T00:00:00.000Z'],
        [3, '2027-01-04T00:00:00.000Z', '2027-01-18T00:00:00.000Z'],
      ],
    );
    // Nothing more to do at the same moment; a week later still two ahead.
    assert.equal((await syncTeamCycles(t.ctx, team.id, now)).created, 0);
    assert.equal((await syncTeamCycles(t.ctx, team.id, new Date('2026-12-04T12:00:00Z'))).created, 0);
    // Once the first cycle is over, one more is planned after the last.
    const later = await syncTeamCycles(t.ctx, team.id, new Date('2026-12-15T12:00:00Z'));
    assert.deepEqual([later.created, later.completed], [1, 1]);
    const last = (await cyclesOf(team.id)).at(-1)!;
    assert.deepEqual([last.number, iso(last.starts_at)], [4, '2027-01-25T00:00:00.000Z']);
  });

  test("start day and midnight in the team's time zone", async () => {
    const team = await createTeam(t, 'TZ');
    await settings(team.id, {
      cycles_automatic: true,
      cycle_duration: 1,
      cycle_start_day: 0,
      upcoming_cycle_count: 1,
      timezone: 'America/New_York',
    });
    await syncTeamCycles(t.ctx, team.id, new Date('2026-11-27T12:00:00Z'));
    assert.deepEqual(
      (await cyclesOf(team.id)).map((c) => iso(c.starts_at)),
      ['2026-11-22T05:00:00.000Z', '2026-11-29T05:00:00.000Z'],
    );
  });

  test('teams without automatic cycles, or with cycles off, get nothing', async () => {
    const manual = await createTeam(t, 'MAN');
    const off = await createTeam(t, 'OFF');
    await settings(off.id, { cycles_automatic: true, cycles_enabled: false });
    const now = new Date('2026-11-27T12:00:00Z');
    for (const team of [manual, off]) {
      assert.deepEqual(await syncTeamCycles(t.ctx, team.id, now), { created: 0, completed: 0, moved: 0 });
      assert.equal((await cyclesOf(team.id)).length, 0);
    }
  });

  test('two workers racing create each cycle once', async () => {
    const team = await createTeam(t, 'RACE');
    await settings(team.id, { cycles_automatic: true, upcoming_cycle_count: 3 });
    const now = () => new Date('2026-11-27T12:00:00Z');
    await Promise.all([
      syncTeamCycles(t.ctx, team.id, now()),
      syncTeamCycles(t.ctx, team.id, now()),
      syncTeamCycles(t.ctx, team.id, now()),
    ]);
    assert.equal((await cyclesOf(team.id)).length, 4);
    // The claim loops themselves, two at once.
    const team2 = await createTeam(t, 'RACE2');
    await settings(team2.id, { cycles_automatic: true, upcoming_cycle_count: 3 });
    const workers = [
      startCycleWorker(t.ctx, { now, pollMs: 20 }),
      startCycleWorker(t.ctx, { now, pollMs: 20 }),
    ];
    for (let i = 0; i < 500 && (await cyclesOf(team2.id)).length < 4; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    // A few more rounds after: still four.
    await new Promise((r) => setTimeout(r, 200));
    await Promise.all(workers.map((w) => w.stop()));
    const cycles = await cyclesOf(team2.id);
    assert.deepEqual(
      cycles.map((c) => c.number),
      [1, 2, 3, 4],
    );
    assert.equal(new Set(cycles.map((c) => iso(c.starts_at))).size, 4);
  });
});

describe('rollover', () => {
  const issueRow = (id: string) =>
    t.ctx.db.selectFrom('issues').select(['cycle_id']).where('id', '=', id).executeTakeFirstOrThrow();

  test("an ended cycle's unfinished issues move to the next, as the system, with history and events", async () => {
    const team = await createTeam(t, 'ROLL');
    await settings(team.id, { cycles_automatic: true, upcoming_cycle_count: 1 });
    const start = new Date('2026-11-27T12:00:00Z');
    await syncTeamCycles(t.ctx, team.id, start);
    const [first, second] = await cyclesOf(team.id);
    const open = await insertIssue(t, { teamId: team.id, cycleId: first!.id, type: 'backlog' });
    const started = await insertIssue(t, { teamId: team.id, cycleId: first!.id, type: 'started' });
    const done = await insertIssue(t, { teamId: team.id, cycleId: first!.id, type: 'completed' });
    const canceled = await insertIssue(t, { teamId: team.id, cycleId: first!.id, type: 'canceled' });
    const elsewhere = await insertIssue(t, { teamId: team.id, cycleId: null, type: 'backlog' });
    const events = () =>
      t.ctx.db
        .selectFrom('webhook_events')
        .select(['type', 'action', 'payload'])
        .where('type', '=', 'issue')
        .execute();
    const eventsBefore = (await events()).length;

    const after = await syncTeamCycles(t.ctx, team.id, new Date(first!.ends_at.getTime() + DAY));
    assert.equal(after.moved, 2);
    assert.equal(after.completed, 1);
    assert.equal((await issueRow(open.id)).cycle_id, second!.id);
    assert.equal((await issueRow(started.id)).cycle_id, second!.id);
    assert.equal((await issueRow(done.id)).cycle_id, first!.id);
    assert.equal((await issueRow(canceled.id)).cycle_id, first!.id);
    assert.equal((await issueRow(elsewhere.id)).cycle_id, null);

    const ended = (await cyclesOf(team.id)).find((c) => c.id === first!.id)!;
    assert.equal(iso(ended.completed_at!), iso(first!.ends_at));

    const history = await t.ctx.db
      .selectFrom('issue_history')
      .selectAll()
      .where('issue_id', 'in', [open.id, started.id])
      .execute();
    assert.equal(history.length, 2);
    for (const h of history) {
      assert.equal(h.actor_id, null);
      assert.deepEqual((h.changes as any).cycleId, { from: first!.id, to: second!.id });
    }
    assert.equal((await events()).length - eventsBefore, 2);
    // Over REST the history shows the change with no actor.
    const rest = await t.get(`/api/issues/${open.id}/history`, t.adminToken);
    assert.equal(rest.status, 200, JSON.stringify(rest.body));
  });

  test('with rollover off the issues stay; the cycle is completed all the same', async () => {
    const team = await createTeam(t, 'STAY');
    await settings(team.id, { cycles_automatic: true, upcoming_cycle_count: 1, cycle_rollover: false });
    await syncTeamCycles(t.ctx, team.id, new Date('2026-11-27T12:00:00Z'));
    const [first] = await cyclesOf(team.id);
    const open = await insertIssue(t, { teamId: team.id, cycleId: first!.id });
    const after = await syncTeamCycles(t.ctx, team.id, new Date(first!.ends_at.getTime() + DAY));
    assert.deepEqual([after.moved, after.completed], [0, 1]);
    assert.equal((await issueRow(open.id)).cycle_id, first!.id);
  });
});
