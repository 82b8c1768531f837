// The triage queue (docs/triage.md): a team's triageEnabled (admins only, REST
// and GraphQL), where new issues land while it is on, and the snooze that hides
// an issue from the queue until its time, with the filter the queue reads.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import { startTestApp, type TestApp } from './support/harness.js';
import { registerDynamic, tokensFor } from './support/oauth-app.js';

let t: TestApp;
let base: string;
let member: { token: string; user: any };
let outsider: { token: string; user: any };
let guest: { token: string; user: any };
let team: any;
let states: any[];

const stateOfType = (type: string) => states.find((s) => s.type === type)!;

/** The queue as the web page reads it: the team's triage issues not snoozed past `now`, oldest first. */
const queueFilter = (now: Date) => ({
  state: { type: { eq: 'triage' } },
  or: [{ snoozedUntilAt: { null: true } }, { snoozedUntilAt: { lte: now.toISOString() } }],
});
async function queue(token: string, now = new Date()) {
  const filter = encodeURIComponent(JSON.stringify(queueFilter(now)));
  const res = await t.get(`/api/issues?teamId=${team.id}&sort=createdAt&order=asc&filter=${filter}`, token);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as { issues: any[]; pageInfo: { total: number } };
}

const gql = async (token: string, query: string, variables: Record<string, unknown> = {}) =>
  (await t.post('/graphql', { query, variables }, token)).body;

before(async () => {
  t = await startTestApp({ publicUrl: 'http://127.0.0.1' });
  base = (await t.listen()).replace('localhost', '127.0.0.1');
  (t.config as { publicUrl: string }).publicUrl = base;
  member = await t.register('Tia Teammate');
  outsider = await t.register('Otto Outsider');
  const res = await t.post('/api/teams', { key: 'TRI', name: 'Triage team' }, t.adminToken);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  team = res.body.team;
  guest = await t.userWithRole('guest', { teams: [team.id] });
  // A public team takes everyone; the outsider leaves it (and still sees it, as members see public teams).
  const left = await t.del(`/api/teams/${team.id}/members/${outsider.user.id}`, t.adminToken);
  assert.equal(left.status, 200, JSON.stringify(left.body));
});
after(() => t?.close());

describe('triageEnabled', () => {
  test('admins turn it on over REST; the team gets its triage state; others are refused', async () => {
    assert.equal(team.triageEnabled, false);
    for (const who of [member, guest]) {
      const refused = await t.patch(`/api/teams/${team.id}`, { triageEnabled: true }, who.token);
      assert.equal(refused.status, 403, JSON.stringify(refused.body));
    }
    const bad = await t.patch(`/api/teams/${team.id}`, { triageEnabled: 'yes' }, t.adminToken);
    assert.equal(bad.status, 400);
    assert.equal((await t.get(`/api/teams/${team.id}`, t.adminToken)).body.team.triageEnabled, false);

    const res = await t.patch(`/api/teams/${team.id}`, { triageEnabled: true }, t.adminToken);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.team.triageEnabled, true);
    states = (await t.get(`/api/workflow-states?teamId=${team.id}`, member.token)).body.workflowStates;
    const triage = states.filter((s) => s.type === 'triage');
    assert.equal(triage.length, 1);
    assert.ok(
      triage[0].position < Math.min(...states.filter((s) => s.type !== 'triage').map((s) => s.position)),
      'the triage state comes first',
    );
    // Turning it on again creates no second state.
    await t.patch(`/api/teams/${team.id}`, { triageEnabled: true }, t.adminToken);
    const again = (await t.get(`/api/workflow-states?teamId=${team.id}`, member.token)).body.workflowStates;
    assert.equal(again.filter((s: any) => s.type === 'triage').length, 1);
  });

  test('GraphQL teamUpdate holds it; Team.triageEnabled and triageIssueState read it; members are refused', async () => {
    const q = `mutation($id: String!, $on: Boolean) { teamUpdate(id: $id, input: { triageEnabled: $on }) {
      success team { triageEnabled triageIssueState { id type } } } }`;
    const refused = await gql(member.token, q, { id: team.id, on: false });
    assert.ok(refused.errors?.length, JSON.stringify(refused));
    const off = await gql(t.adminToken, q, { id: team.id, on: false });
    assert.deepEqual(off.data.teamUpdate.team, { triageEnabled: false, triageIssueState: null });
    const on = await gql(t.adminToken, q, { id: team.id, on: true });
    assert.deepEqual(on.data.teamUpdate.team, {
      triageEnabled: true,
      triageIssueState: { id: stateOfType('triage').id, type: 'triage' },
    });
    // A guest of the team reads it too.
    const read = await gql(guest.token, `query($id: String!) { team(id: $id) { triageEnabled } }`, {
      id: team.id,
    });
    assert.equal(read.data.team.triageEnabled, true);
  });

  test('property: any body on PATCH /api/teams is a 200 or a 4xx, and a refused one changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            triageEnabled: fc.oneof(
              fc.boolean(),
              fc.constant(null),
              fc.string({ maxLength: 5 }),
              fc.integer(),
            ),
            name: fc.oneof(fc.constant('Triage team'), fc.string({ maxLength: 3 })),
          },
          { requiredKeys: ['triageEnabled'] },
        ),
        async (body) => {
          const before = (await t.get(`/api/teams/${team.id}`, t.adminToken)).body.team;
          const res = await t.patch(`/api/teams/${team.id}`, body, t.adminToken);
          assert.ok(res.status === 200 || (res.status >= 400 && res.status < 500), `${res.status}`);
          if (res.status !== 200) {
            const now = (await t.get(`/api/teams/${team.id}`, t.adminToken)).body.team;
            assert.deepEqual(now, before);
          }
        },
      ),
      { numRuns: 25 },
    );
    // Leave it on, named as before, for what follows.
    const reset = await t.patch(
      `/api/teams/${team.id}`,
      { triageEnabled: true, name: 'Triage team' },
      t.adminToken,
    );
    assert.equal(reset.status, 200);
  });
});

describe('where new issues land', () => {
  test("the team's members keep their state; people outside the team land in triage", async () => {
    const todo = stateOfType('unstarted');
    const mine = await t.post(
      '/api/issues',
      { teamId: team.id, title: 'From inside', stateId: todo.id },
      member.token,
    );
    assert.equal(mine.status, 201, JSON.stringify(mine.body));
    assert.equal(mine.body.issue.stateId, todo.id);

    const theirs = await t.post(
      '/api/issues',
      { teamId: team.id, title: 'From outside', stateId: todo.id },
      outsider.token,
    );
    assert.equal(theirs.status, 201, JSON.stringify(theirs.body));
    assert.equal(theirs.body.issue.stateId, stateOfType('triage').id);

    // Guests cannot create issues at all.
    const byGuest = await t.post('/api/issues', { teamId: team.id, title: 'Guest' }, guest.token);
    assert.equal(byGuest.status, 403);

    // Off again: the outsider's next issue keeps the state asked for.
    await t.patch(`/api/teams/${team.id}`, { triageEnabled: false }, t.adminToken);
    const offIssue = await t.post(
      '/api/issues',
      { teamId: team.id, title: 'While off', stateId: todo.id },
      outsider.token,
    );
    assert.equal(offIssue.body.issue.stateId, todo.id);
    await t.patch(`/api/teams/${team.id}`, { triageEnabled: true }, t.adminToken);
  });

  test('an app acting under its own name lands in triage, though its person is a member', async () => {
    const config = await registerDynamic(base, 'Intake Bot');
    const { access_token } = await tokensFor(t, base, config, 'read write', member.token, { actor: 'app' });
    const made = await t.post('/api/issues', { teamId: team.id, title: 'Filed by the bot' }, access_token);
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.equal(made.body.issue.stateId, stateOfType('triage').id);
  });
});

describe('snooze', () => {
  let waiting: any;
  let accepted: any;

  before(async () => {
    const a = await t.post('/api/issues', { teamId: team.id, title: 'Snooze me' }, outsider.token);
    waiting = a.body.issue;
    const b = await t.post('/api/issues', { teamId: team.id, title: 'Accepted' }, member.token);
    accepted = b.body.issue;
  });

  test('a snoozed issue leaves the queue until its time; the caller is who snoozed it; the history records it', async () => {
    const inQueue = (await queue(member.token)).issues.map((i) => i.id);
    assert.ok(inQueue.includes(waiting.id));
    const until = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const res = await t.patch(`/api/issues/${waiting.id}`, { snoozedUntilAt: until }, member.token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.issue.snoozedUntilAt, until);
    assert.equal(res.body.issue.snoozedById, member.user.id);

    assert.ok(!(await queue(member.token)).issues.some((i) => i.id === waiting.id), 'hidden now');
    const later = new Date(Date.now() + 4 * 86_400_000);
    assert.ok(
      (await queue(member.token, later)).issues.some((i) => i.id === waiting.id),
      'back then',
    );
    // The guest's queue hides it too.
    assert.ok(!(await queue(guest.token)).issues.some((i) => i.id === waiting.id));

    const history = await t.get(`/api/issues/${waiting.id}/history`, member.token);
    assert.equal(history.status, 200, JSON.stringify(history.body));
    const entry = history.body.history.find((h: any) => h.changes.snoozedUntilAt);
    assert.ok(entry, JSON.stringify(history.body));
    assert.deepEqual(entry.changes.snoozedUntilAt, { from: null, to: until });

    // A date in the past: back in the queue now.
    const past = new Date(Date.now() - 60_000).toISOString();
    await t.patch(`/api/issues/${waiting.id}`, { snoozedUntilAt: past }, member.token);
    assert.ok((await queue(member.token)).issues.some((i) => i.id === waiting.id));
  });

  test('who may snooze, and what is refused', async () => {
    const until = new Date(Date.now() + 86_400_000).toISOString();
    const byGuest = await t.patch(`/api/issues/${waiting.id}`, { snoozedUntilAt: until }, guest.token);
    assert.equal(byGuest.status, 403);
    const notTriage = await t.patch(`/api/issues/${accepted.id}`, { snoozedUntilAt: until }, member.token);
    assert.equal(notTriage.status, 400);
    assert.match(notTriage.body.error.message, /^snoozedUntilAt: only an issue in triage/);
    for (const bad of ['tomorrow', '2016-12-31T23:59:60Z', '0000-01-01T00:00:00Z', 12]) {
      const res = await t.patch(`/api/issues/${waiting.id}`, { snoozedUntilAt: bad }, member.token);
      assert.equal(res.status, 400, `${bad}: ${JSON.stringify(res.body)}`);
    }
    const unknownUser = await t.patch(
      `/api/issues/${waiting.id}`,
      { snoozedUntilAt: until, snoozedById: '00000000-0000-4000-8000-000000000000' },
      member.token,
    );
    assert.equal(unknownUser.status, 400);
  });

  test('leaving triage wakes the issue', async () => {
    const until = new Date(Date.now() + 86_400_000).toISOString();
    await t.patch(`/api/issues/${waiting.id}`, { snoozedUntilAt: until }, member.token);
    const res = await t.patch(
      `/api/issues/${waiting.id}`,
      { stateId: stateOfType('unstarted').id },
      member.token,
    );
    assert.equal(res.status, 200);
    assert.equal(res.body.issue.snoozedUntilAt, null);
    assert.equal(res.body.issue.snoozedById, null);
  });

  test('GraphQL: issueUpdate snoozes, Issue.snoozedUntilAt/snoozedBy read it, IssueFilter.snoozedUntilAt finds it', async () => {
    const made = await t.post(
      '/api/issues',
      { teamId: team.id, title: 'Snoozed by GraphQL' },
      outsider.token,
    );
    const id = made.body.issue.id;
    const until = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const updated = await gql(
      member.token,
      `mutation($id: String!, $until: DateTime) { issueUpdate(id: $id, input: { snoozedUntilAt: $until }) {
        success issue { snoozedUntilAt snoozedBy { id } } } }`,
      { id, until },
    );
    assert.deepEqual(updated.data.issueUpdate.issue, {
      snoozedUntilAt: until,
      snoozedBy: { id: member.user.id },
    });
    const found = await gql(
      guest.token,
      `query($f: IssueFilter) { issues(filter: $f) { nodes { id snoozedUntilAt } } }`,
      { f: { team: { id: { eq: team.id } }, snoozedUntilAt: { gt: new Date().toISOString() } } },
    );
    assert.deepEqual(
      found.data.issues.nodes.map((n: any) => n.id),
      [id],
    );
    const refused = await gql(
      guest.token,
      `mutation($id: String!) { issueUpdate(id: $id, input: { snoozedUntilAt: null }) { success } }`,
      { id },
    );
    assert.ok(refused.errors?.length);
  });

  test('property: any snooze body is a 200 or a 4xx, and a refused one changes nothing', async () => {
    const made = await t.post('/api/issues', { teamId: team.id, title: 'Fuzzed snooze' }, outsider.token);
    const id = made.body.issue.id;
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            snoozedUntilAt: fc.oneof(
              fc.constant(null),
              fc
                .date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true })
                .map((d) => d.toISOString()),
              fc.string({ maxLength: 30 }),
              fc.integer(),
            ),
            snoozedById: fc.oneof(fc.constant(null), fc.uuid(), fc.constant(member.user.id), fc.string()),
          },
          { requiredKeys: [] },
        ),
        async (body) => {
          const before = (await t.get(`/api/issues/${id}`, member.token)).body.issue;
          const res = await t.patch(`/api/issues/${id}`, body, member.token);
          assert.ok(res.status === 200 || (res.status >= 400 && res.status < 500), `${res.status}`);
          if (res.status !== 200) {
            assert.deepEqual((await t.get(`/api/issues/${id}`, member.token)).body.issue, before);
          }
        },
      ),
      { numRuns: 30 },
    );
  });

  test('the snooze filter has an index', async () => {
    const { rows } = await sql<{
      indexdef: string;
    }>`select indexdef from pg_indexes where tablename = 'issues'`.execute(t.ctx.db);
    assert.ok(
      rows.some((r) => /\(snoozed_until_at\)/.test(r.indexdef)),
      rows.map((r) => r.indexdef).join('\n'),
    );
  });
});
