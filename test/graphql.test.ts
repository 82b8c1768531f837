// The GraphQL API through the real @linear/sdk client (and raw HTTP where the
// SDK hides what we check): auth, reads, writes, paging, filters, errors.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  AuthenticationLinearError,
  InvalidInputLinearError,
  LinearClient,
  LinearDocument,
} from '@linear/sdk';
import { sql } from 'kysely';
import { gql, startGraphqlApp } from './graphql-helpers.js';
import type { TestApp } from './support/harness.js';

let t: TestApp;
let base: string;
let key: string;
let client: LinearClient;
let teamId: string;

before(async () => {
  ({ t, base, key, client, teamId } = await startGraphqlApp());
});
after(() => t.close());

describe('authentication', () => {
  test('a bare API key, a Bearer key and a Bearer login token all work', async () => {
    for (const auth of [key, `Bearer ${key}`, `Bearer ${t.adminToken}`, t.adminToken]) {
      const res = await gql(base, auth, '{ viewer { email admin } }');
      assert.equal(res.status, 200, auth.slice(0, 10));
      assert.equal(res.body.data.viewer.admin, true);
    }
  });

  test('no or bad credentials: 401 and AuthenticationLinearError', async () => {
    const res = await gql(base, undefined, '{ viewer { id } }');
    assert.equal(res.status, 401);
    assert.equal(res.body.errors[0].extensions.type, 'authentication error');
    assert.equal(typeof res.body.errors[0].extensions.userPresentableMessage, 'string');
    const bad = new LinearClient({ apiKey: `tw_${'x'.repeat(43)}`, apiUrl: `${base}/graphql` });
    await assert.rejects(() => bad.viewer, AuthenticationLinearError);
  });

  test('a body that is not JSON is answered in the GraphQL error shape', async () => {
    const res = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: key },
      body: '{ nope',
    });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { errors: { extensions: { type: string } }[] };
    assert.equal(body.errors[0]!.extensions.type, 'invalid input');
  });

  test('GET /graphql serves GraphiQL from the built web UI, with no external resources', async () => {
    const res = await fetch(`${base}/graphql`);
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /<title>Trackway GraphiQL<\/title>/);
    assert.match(html, /<script[^>]+src="\/assets\/graphiql-[^"]+\.js"/);
    assert.doesNotMatch(html, /(src|href)="https?:/);
  });
});

describe('reads', () => {
  test('viewer, organization, teams with their states and labels', async () => {
    const viewer = await client.viewer;
    assert.equal(viewer.email, 'admin@example.com');
    const org = await client.organization;
    assert.equal(typeof org.name, 'string');
    const team = await client.team(teamId);
    assert.equal(team.key, 'ENG');
    const states = await team.states();
    assert.deepEqual(states.nodes.map((s) => s.type).sort(), [
      'backlog',
      'canceled',
      'canceled',
      'completed',
      'started',
      'started',
      'unstarted',
    ]);
    const labels = await team.labels();
    assert.ok(labels.nodes.some((l) => l.name === 'Bug'));
    assert.equal((await client.team('ENG')).id, teamId);
  });
});

describe('issues', () => {
  test('create by team id and by key, fetch by id and identifier', async () => {
    const a = await client.createIssue({ teamId, title: 'By id', priority: 2 });
    assert.equal(a.success, true);
    assert.equal(typeof a.lastSyncId, 'number');
    const issueA = await a.issue;
    assert.match(issueA!.identifier, /^ENG-\d+$/);
    assert.equal(issueA!.priorityLabel, 'High');
    assert.match(issueA!.url, /\/issue\/ENG-\d+\/by-id$/);
    const b = await (await client.createIssue({ teamId: 'ENG', title: 'By key' })).issue;
    assert.equal((await b!.team)!.id, teamId);
    assert.equal((await b!.state)!.type, 'backlog');
    assert.equal((await client.issue(b!.identifier)).id, b!.id);
    assert.equal((await client.issue(b!.id)).identifier, b!.identifier);
  });

  test('update state, assignee, labels and due date, also by identifier', async () => {
    const issue = (await (await client.createIssue({ teamId, title: 'To update' })).issue)!;
    const team = await client.team(teamId);
    const started = (await team.states()).nodes.find((s) => s.name === 'In Progress')!;
    const bug = (await client.issueLabels({ filter: { name: { eq: 'Bug' } } })).nodes[0]!;
    const viewer = await client.viewer;
    const res = await client.updateIssue(issue.identifier, {
      stateId: started.id,
      assigneeId: viewer.id,
      labelIds: [bug.id],
      dueDate: '2030-01-31',
    });
    assert.equal(res.success, true);
    const again = await client.issue(issue.id);
    assert.equal((await again.state)!.id, started.id);
    assert.equal((await again.assignee)!.id, viewer.id);
    assert.equal(again.dueDate, '2030-01-31');
    assert.deepEqual(
      (await again.labels()).nodes.map((l) => l.name),
      ['Bug'],
    );
    const feature = (await client.issueLabels({ filter: { name: { eq: 'Feature' } } })).nodes[0]!;
    await client.updateIssue(issue.id, { addedLabelIds: [feature.id], removedLabelIds: [bug.id] });
    assert.deepEqual(
      (await (await client.issue(issue.id)).labels()).nodes.map((l) => l.name),
      ['Feature'],
    );
  });

  test('archive hides from lists unless includeArchived; unarchive restores', async () => {
    const issue = (await (await client.createIssue({ teamId, title: 'Archive me' })).issue)!;
    const filter = { id: { eq: issue.id } };
    await client.archiveIssue(issue.id);
    assert.equal((await client.issues({ filter })).nodes.length, 0);
    const withArchived = await client.issues({ filter, includeArchived: true });
    assert.equal(withArchived.nodes.length, 1);
    assert.ok(withArchived.nodes[0]!.archivedAt);
    await client.unarchiveIssue(issue.id);
    assert.equal((await client.issues({ filter })).nodes.length, 1);
  });

  test('delete returns entityId and the issue is gone', async () => {
    const issue = (await (await client.createIssue({ teamId, title: 'Delete me' })).issue)!;
    const res = await gql(base, key, 'mutation($id: String!) { issueDelete(id: $id) { success entityId } }', {
      id: issue.id,
    });
    assert.deepEqual(res.body.data.issueDelete, { success: true, entityId: issue.id });
    await assert.rejects(() => client.issue(issue.id), InvalidInputLinearError);
  });
});

describe('filters', () => {
  let mine: string;
  before(async () => {
    const viewer = await client.viewer;
    const states = (await (await client.team(teamId)).states()).nodes;
    const started = states.find((s) => s.name === 'In Progress')!;
    const bug = (await client.issueLabels({ filter: { name: { eq: 'Bug' } } })).nodes[0]!;
    mine = (await (
      await client.createIssue({
        teamId,
        title: 'Filter target 100%_literal',
        stateId: started.id,
        assigneeId: viewer.id,
        labelIds: [bug.id],
        dueDate: '2031-06-01',
      })
    ).issue)!.id;
    await client.createIssue({ teamId, title: 'Filter other' });
  });

  const ids = async (filter: LinearDocument.IssueFilter) =>
    // 200: the SDK's Issue fragment costs about 42 points a node, so 250 of them exceed 10,000.
    (await client.issues({ filter, first: 200 })).nodes.map((i) => i.id);

  test('nested relations: state.type, assignee.email, team.key, labels.some', async () => {
    assert.ok((await ids({ state: { type: { eq: 'started' } } })).includes(mine));
    assert.ok((await ids({ assignee: { email: { eq: 'admin@example.com' } } })).includes(mine));
    assert.ok(
      (await ids({ team: { key: { eq: 'ENG' } }, labels: { some: { name: { eq: 'Bug' } } } })).includes(mine),
    );
    assert.ok(!(await ids({ labels: { every: { name: { eq: 'Feature' } } } })).includes(mine));
    assert.ok(!(await ids({ state: { type: { neq: 'started' } } })).includes(mine));
  });

  test('or, null, strings with escaped wildcards, dates absolute and relative', async () => {
    const none = await ids({ assignee: { null: true } });
    assert.ok(!none.includes(mine));
    assert.ok(none.length > 0);
    const either = await ids({
      or: [{ assignee: { null: true } }, { title: { startsWith: 'Filter target' } }],
    });
    assert.ok(either.includes(mine));
    assert.deepEqual(await ids({ title: { contains: '100%_lit' } }), [mine]);
    assert.deepEqual(await ids({ title: { contains: '100%_x' } }), []);
    assert.deepEqual(await ids({ title: { containsIgnoreCase: 'FILTER TARGET' } }), [mine]);
    assert.ok((await ids({ createdAt: { gt: '-P1D' } })).includes(mine));
    assert.ok(!(await ids({ createdAt: { lt: '-P1D' } })).includes(mine));
    assert.deepEqual(await ids({ dueDate: { gte: '2031-06-01', lt: '2031-06-02' } }), [mine]);
    assert.ok((await ids({ dueDate: { gt: 'P1D' } })).includes(mine));
  });

  test('REST GET /api/issues takes the same grammar as a JSON filter parameter', async () => {
    const filter = encodeURIComponent(
      JSON.stringify({ state: { type: { eq: 'started' } }, title: { startsWith: 'Filter target' } }),
    );
    const res = await t.get(`/api/issues?filter=${filter}`, t.adminToken);
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.issues.map((i: { id: string }) => i.id),
      [mine],
    );
    assert.equal((await t.get('/api/issues?filter=%7Bnope', t.adminToken)).status, 400);
    const bad = await t.get(
      `/api/issues?filter=${encodeURIComponent('{"createdAt":{"gt":"soon"}}')}`,
      t.adminToken,
    );
    assert.equal(bad.status, 400);
  });

  test('searchIssues finds by words of the title, with a total count', async () => {
    const found = await client.searchIssues('filter targ');
    assert.deepEqual(
      found.nodes.map((n) => n.id),
      [mine],
    );
    assert.equal(found.totalCount, 1);
    assert.equal((await client.searchIssues('zzzz-nothing')).nodes.length, 0);
  });

  test('history records state changes with their from and to states', async () => {
    const issue = (await (await client.createIssue({ teamId, title: 'With history' })).issue)!;
    const states = (await (await client.team(teamId)).states()).nodes;
    await client.updateIssue(issue.id, { stateId: states.find((x) => x.name === 'In Progress')!.id });
    const res = await gql(
      base,
      key,
      'query($id: String!) { issue(id: $id) { history { nodes { fromState { name } toState { name } actor { email } } } } }',
      { id: issue.id },
    );
    const moves = res.body.data.issue.history.nodes.filter((n: { toState: unknown }) => n.toState);
    assert.deepEqual(moves, [
      {
        fromState: { name: 'Backlog' },
        toState: { name: 'In Progress' },
        actor: { email: 'admin@example.com' },
      },
    ]);
  });

  test('a malformed filter value is invalid input', async () => {
    await assert.rejects(
      () => client.issues({ filter: { createdAt: { gt: 'yesterday' } } }),
      InvalidInputLinearError,
    );
  });
});

describe('paging', () => {
  test('forward and back through 120 issues without gaps or repeats; orderBy updatedAt', async () => {
    await t.post('/api/teams', { key: 'PAGE', name: 'Paging' }, t.adminToken);
    // 120 issues in one statement; groups of four share a creation time, so ties
    // on the sort key must be broken by id without gaps or repeats.
    await sql`
      insert into issues (team_id, number, identifier, title, state_id, created_at, updated_at)
      select tm.id, n, 'PAGE-' || n, 'Page ' || n,
        (select id from workflow_states where team_id = tm.id order by position limit 1),
        now() - (n / 4) * interval '1 second', now() - (n / 4) * interval '1 second'
      from teams tm, generate_series(1, 120) n where tm.key = 'PAGE'`.execute(t.ctx.db);
    const filter = { team: { key: { eq: 'PAGE' } } };
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await client.issues({ filter, first: 25, ...(after ? { after } : {}) });
      seen.push(...page.nodes.map((n) => n.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor!;
    }
    assert.equal(seen.length, 120);
    assert.equal(new Set(seen).size, 120);
    const back: string[] = [];
    let before: string | undefined;
    for (;;) {
      const page = await client.issues({ filter, last: 40, ...(before ? { before } : {}) });
      back.unshift(...page.nodes.map((n) => n.id));
      if (!page.pageInfo.hasPreviousPage) break;
      before = page.pageInfo.startCursor!;
    }
    assert.deepEqual(back, seen);
    // Touch the oldest: it becomes the first by updatedAt.
    await client.updateIssue(seen[119]!, { title: 'Page touched' });
    const recent = await client.issues({
      filter,
      first: 1,
      orderBy: LinearDocument.PaginationOrderBy.UpdatedAt,
    });
    assert.equal(recent.nodes[0]!.id, seen[119]);
  });

  test('page size over 250 or negative is invalid input', async () => {
    await assert.rejects(() => client.issues({ first: 251 }), InvalidInputLinearError);
    await assert.rejects(() => client.issues({ first: -1 }), InvalidInputLinearError);
    await assert.rejects(() => client.issues({ after: 'not-a-cursor' }), InvalidInputLinearError);
  });

  test('edges carry cursors', async () => {
    const res = await gql(
      base,
      key,
      '{ issues(first: 2) { edges { cursor node { id } } pageInfo { endCursor } } }',
    );
    const edges = res.body.data.issues.edges;
    assert.equal(edges.length, 2);
    assert.equal(edges[1].cursor, res.body.data.issues.pageInfo.endCursor);
  });
});
