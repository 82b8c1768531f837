// The per-team issue counts that unfiltered lists total from (migration 0023),
// and the per-team-and-state counts that board columns total from (migration
// 0067), stay equal to a real count through random sequences of every kind of
// write: REST and @linear/sdk creates, batches, team and state moves, archives,
// restores, deletes, and bulk SQL that bypasses the services (an import). Each
// caller's `pageInfo.total` (and GraphQL's organization.createdIssueCount) is
// checked against a count of what they may see.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { LinearClient } from '@linear/sdk';
import { sql } from 'kysely';
import { startGraphqlApp } from './graphql-helpers.js';
import type { TestApp } from './support/harness.js';

let t: TestApp;
let client: LinearClient;
const teams: { id: string; key: string; private: boolean }[] = [];
/** Each team's workflow state ids. */
const states = new Map<string, string[]>();
/** Turns through each team's states, one per check. */
let probe = 0;
let member: { token: string };
let guest: { token: string };

before(async () => {
  let teamId: string;
  ({ t, client, teamId } = await startGraphqlApp());
  teams.push({ id: teamId, key: (await client.team(teamId)).key, private: false });
  for (const [name, key, hidden] of [
    ['Counted ops', 'CNO', false],
    ['Counted secret', 'CNS', true],
  ] as const) {
    const res = await t.post('/api/teams', { name, key, private: hidden }, t.adminToken);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    teams.push({ id: res.body.team.id, key, private: hidden });
  }
  for (const team of teams) {
    const res = await t.get(`/api/workflow-states?teamId=${team.id}`, t.adminToken);
    states.set(
      team.id,
      res.body.workflowStates.map((x: { id: string }) => x.id),
    );
  }
  member = await t.userWithRole('member');
  guest = await t.userWithRole('guest', { teams: ['CNO'] });
});
after(() => t.close());

/** A small seeded generator, so a failing sequence can be replayed from its seed. */
function random(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { int, pick: <T>(list: readonly T[]) => list[int(list.length)]! };
}

type Real = Map<string, { live: number; archived: number }>;

async function realCounts(): Promise<Real> {
  const { rows } = await sql<{ team_id: string; live: string; archived: string }>`
    select team_id, count(*) filter (where archived_at is null) as live,
      count(*) filter (where archived_at is not null) as archived
    from issues group by team_id`.execute(t.ctx.db);
  return new Map(rows.map((r) => [r.team_id, { live: Number(r.live), archived: Number(r.archived) }]));
}

/** Counts by team and state, keyed `team/state`. */
async function realStateCounts(): Promise<Real> {
  const { rows } = await sql<{ key: string; live: string; archived: string }>`
    select team_id || '/' || state_id as key, count(*) filter (where archived_at is null) as live,
      count(*) filter (where archived_at is not null) as archived
    from issues group by team_id, state_id`.execute(t.ctx.db);
  return new Map(rows.map((r) => [r.key, { live: Number(r.live), archived: Number(r.archived) }]));
}

async function keptStateCounts(): Promise<Real> {
  const rows = await t.ctx.db.selectFrom('state_issue_counts').selectAll().execute();
  return new Map(
    rows
      .filter((r) => r.live !== 0 || r.archived !== 0)
      .map((r) => [`${r.team_id}/${r.state_id}`, { live: r.live, archived: r.archived }]),
  );
}

async function keptCounts(): Promise<Real> {
  const rows = await t.ctx.db.selectFrom('team_issue_counts').selectAll().execute();
  // A team with no issues may have no row or a row of zeros: both mean none.
  return new Map(
    rows
      .filter((r) => r.live !== 0 || r.archived !== 0)
      .map((r) => [r.team_id, { live: r.live, archived: r.archived }]),
  );
}

async function issueIds(): Promise<{ id: string; team_id: string; archived: boolean }[]> {
  const { rows } = await sql<{ id: string; team_id: string; archived: boolean }>`
    select id, team_id, archived_at is not null as archived from issues order by created_at, id`.execute(
    t.ctx.db,
  );
  return rows;
}

const totalFor = async (token: string, query: string) => {
  const res = await t.get(`/api/issues?limit=1${query}`, token);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.pageInfo.total as number;
};

/** Every caller's total of every unfiltered list equals a count of what they may see. */
async function checkTotals(real: Real, label: string) {
  const byState = await realStateCounts();
  const sum = (teamIds: string[], archived: boolean) =>
    teamIds.reduce(
      (n, id) => n + (real.get(id)?.live ?? 0) + (archived ? (real.get(id)?.archived ?? 0) : 0),
      0,
    );
  const all = teams.map((x) => x.id);
  const viewers: [string, string, string[]][] = [
    ['admin', t.adminToken, all],
    ['member', member.token, teams.filter((x) => !x.private).map((x) => x.id)],
    ['guest', guest.token, [teams[1]!.id]],
  ];
  // GraphQL's organization.createdIssueCount sums the same rows (archived issues included).
  assert.equal((await client.organization).createdIssueCount, sum(all, true), `${label}: createdIssueCount`);
  for (const [who, token, visible] of viewers) {
    assert.equal(await totalFor(token, ''), sum(visible, false), `${label}: ${who}, live`);
    assert.equal(await totalFor(token, '&includeArchived=true'), sum(visible, true), `${label}: ${who}, all`);
    for (const team of teams.filter((x) => visible.includes(x.id))) {
      assert.equal(
        await totalFor(token, `&teamId=${team.key}`),
        sum([team.id], false),
        `${label}: ${who}, ${team.key}`,
      );
      // A board column: one state, of its team, of every team, and with another team (none).
      const own = states.get(team.id)!;
      const state = own[probe++ % own.length]!;
      const inState = byState.get(`${team.id}/${state}`) ?? { live: 0, archived: 0 };
      assert.equal(
        await totalFor(token, `&teamId=${team.key}&stateId=${state}`),
        inState.live,
        `${label}: ${who}, ${team.key} column`,
      );
      assert.equal(
        await totalFor(token, `&stateId=${state}&includeArchived=true`),
        inState.live + inState.archived,
        `${label}: ${who}, column of all teams, archived too`,
      );
      const other = teams.find((x) => x.id !== team.id && visible.includes(x.id));
      if (other)
        assert.equal(
          await totalFor(token, `&teamId=${other.id}&stateId=${state}`),
          0,
          `${label}: ${who}, crossed`,
        );
    }
  }
}

const restCreate = async (teamId: string, n: number) => {
  const res = await t.post('/api/issues', { teamId, title: `Counted ${n}` }, t.adminToken);
  assert.equal(res.status, 201, JSON.stringify(res.body));
};

test('kept counts equal a real count after random writes through every path', async () => {
  const seed = Number(process.env['COUNTS_SEED'] ?? Date.now() % 1_000_000);
  const r = random(seed);
  const kinds = [
    'rest-create',
    'sdk-batch-create',
    'rest-move',
    'sdk-batch-move',
    'rest-state',
    'sdk-batch-state',
    'sql-bulk-state',
    'rest-archive',
    'sdk-archive',
    'rest-restore',
    'sdk-restore',
    'rest-delete',
    'sdk-delete',
    'sql-import',
    'sql-bulk-archive',
    'sql-bulk-delete',
  ] as const;
  for (let i = 0; i < 6; i++) await restCreate(r.pick(teams).id, i);
  const done: string[] = [];
  for (let step = 0; step < 60; step++) {
    const kind = r.pick(kinds);
    done.push(kind);
    const issues = await issueIds();
    const live = issues.filter((x) => !x.archived);
    const archived = issues.filter((x) => x.archived);
    const team = r.pick(teams).id;
    const some = (list: typeof issues, max: number) => [
      ...new Set(Array.from({ length: 1 + r.int(max) }, () => r.pick(list).id)),
    ];
    switch (kind) {
      case 'rest-create':
        await restCreate(team, step);
        break;
      case 'sdk-batch-create':
        await client.createIssueBatch({
          issues: Array.from({ length: 1 + r.int(3) }, (_, k) => ({
            teamId: r.pick(teams).id,
            title: `Batch ${step}.${k}`,
          })),
        });
        break;
      case 'rest-move':
        if (issues.length > 0) {
          const res = await t.patch(`/api/issues/${r.pick(issues).id}`, { teamId: team }, t.adminToken);
          assert.equal(res.status, 200, JSON.stringify(res.body));
        }
        break;
      case 'sdk-batch-move':
        if (issues.length > 0) await client.updateIssueBatch(some(issues, 3), { teamId: team });
        break;
      case 'rest-state':
        if (issues.length > 0) {
          const issue = r.pick(issues);
          const res = await t.patch(
            `/api/issues/${issue.id}`,
            { stateId: r.pick(states.get(issue.team_id)!) },
            t.adminToken,
          );
          assert.equal(res.status, 200, JSON.stringify(res.body));
        }
        break;
      case 'sdk-batch-state': {
        const ofTeam = issues.filter((x) => x.team_id === team);
        if (ofTeam.length > 0)
          await client.updateIssueBatch(some(ofTeam, 3), { stateId: r.pick(states.get(team)!) });
        break;
      }
      case 'sql-bulk-state':
        if (issues.length > 0) {
          // Each to another state of its own team, as a bulk fix would.
          await sql`update issues i set state_id = (select s.id from workflow_states s
              where s.team_id = i.team_id and s.id <> i.state_id order by s.position limit 1)
            where i.id in (${sql.join(some(issues, 4))})`.execute(t.ctx.db);
        }
        break;
      case 'rest-archive':
      case 'sdk-archive':
        if (live.length > 0) {
          const id = r.pick(live).id;
          if (kind === 'sdk-archive') await client.archiveIssue(id);
          else assert.equal((await t.post(`/api/issues/${id}/archive`, {}, t.adminToken)).status, 200);
        }
        break;
      case 'rest-restore':
      case 'sdk-restore':
        if (archived.length > 0) {
          const id = r.pick(archived).id;
          if (kind === 'sdk-restore') await client.unarchiveIssue(id);
          else assert.equal((await t.post(`/api/issues/${id}/unarchive`, {}, t.adminToken)).status, 200);
        }
        break;
      case 'rest-delete':
      case 'sdk-delete':
        if (issues.length > 0) {
          const id = r.pick(issues).id;
          if (kind === 'sdk-delete') await client.deleteIssue(id);
          else assert.equal((await t.del(`/api/issues/${id}`, t.adminToken)).status, 200);
        }
        break;
      case 'sql-import': {
        // Set-based, as an import would: several rows, several teams, some archived, one statement.
        const n = 1 + r.int(4);
        await sql`insert into issues (team_id, number, identifier, title, state_id, archived_at)
          select t.id, 100000 + ${step * 10} + g, t.key || '-' || (100000 + ${step * 10} + g), 'Imported',
            (select s.id from workflow_states s where s.team_id = t.id order by s.position limit 1),
            case when g % 2 = 0 then now() end
          from generate_series(1, ${n}) g
          join teams t on t.id = (array[${sql.join(teams.map((x) => sql`${x.id}::uuid`))}])[1 + (g + ${step}) % ${teams.length}]`.execute(
          t.ctx.db,
        );
        break;
      }
      case 'sql-bulk-archive':
        if (issues.length > 0) {
          const ids = some(issues, 4);
          await sql`update issues set archived_at = case when archived_at is null then now() end
            where id in (${sql.join(ids)})`.execute(t.ctx.db);
        }
        break;
      case 'sql-bulk-delete':
        if (issues.length > 0) {
          await sql`delete from issues where id in (${sql.join(some(issues, 3))})`.execute(t.ctx.db);
        }
        break;
    }
    const real = await realCounts();
    assert.deepEqual(await keptCounts(), real, `seed ${seed}, after ${done.join(', ')}`);
    assert.deepEqual(
      await keptStateCounts(),
      await realStateCounts(),
      `seed ${seed}, by state, after ${done.join(', ')}`,
    );
    if (step % 10 === 9) await checkTotals(real, `seed ${seed}, step ${step}`);
  }
  await checkTotals(await realCounts(), `seed ${seed}, end`);
});

test('moves in opposite directions at the same time all succeed and keep the counts', async () => {
  const [a, b] = teams;
  const made: string[][] = [[], []];
  for (let i = 0; i < 8; i++) {
    for (const [side, team] of [a!, b!].entries()) {
      const res = await t.post('/api/issues', { teamId: team.id, title: `Crossing ${i}` }, t.adminToken);
      made[side]!.push(res.body.issue.id);
    }
  }
  const moves = made[0]!.flatMap((id, i) => [
    t.patch(`/api/issues/${id}`, { teamId: b!.id }, t.adminToken),
    t.patch(`/api/issues/${made[1]![i]}`, { teamId: a!.id }, t.adminToken),
  ]);
  for (const res of await Promise.all(moves)) assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(await keptCounts(), await realCounts());
  assert.deepEqual(await keptStateCounts(), await realStateCounts());
});
