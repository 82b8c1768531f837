// REST issue reads whose JSON PostgreSQL builds from the read model
// (GET /api/issues and /api/issues/:id, the writes' answers) must answer
// exactly what the service's records give when presented by hand (the oracle
// below, which was REST's presenter before the read model), key order
// included, for every role of the visibility world and every issue (a list's
// entries each as its GET answers); and REST's branchName, labelIds and
// pullRequestMarker must be GraphQL's. Some issues get pull requests linked
// (several, a commit, an archived one), whose marker the oracle works out
// from the attachments by docs/git.md's rule.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import { DEFAULT_BRANCH_FORMAT } from '../src/modules/issues/branch-format.js';
import { branchName, issueUrl, priorityLabel } from '../src/modules/issues/fields.js';
import { IssueSchema } from '../src/modules/issues/present.js';
import { getIssue, type IssueRecord } from '../src/modules/issues/service.js';
import type { Actor } from '../src/platform/context.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { buildWorld, ROLES, type Role, type World, worldActors } from './support/visibility-fixture.js';

let t: TestApp;
let world: World;
let actors: Record<Role, Actor>;
const tokens = {} as Record<Role, string>;

before(async () => {
  t = await startTestApp();
  world = await buildWorld(t);
  actors = await worldActors(t, world);
  for (const role of ROLES) {
    tokens[role] = world.tokens[role];
  }
  const users = await t.ctx.db.selectFrom('users').select(['id', 'name', 'status']).execute();
  people = new Map(users.map((u) => [u.id, { name: u.name, app: u.status === 'app' }]));
  await linkPullRequests();
});

/** Links pull requests to three issues of different teams, in states the marker orders. */
async function linkPullRequests() {
  const issues = await t.ctx.db
    .selectFrom('issues')
    .select(['id', 'team_id'])
    .where('archived_at', 'is', null)
    .orderBy('identifier')
    .execute();
  const picked = issues.filter((i, n) => issues.findIndex((j) => j.team_id === i.team_id) === n).slice(0, 3);
  assert.equal(picked.length, 3);
  const link = async (issueId: string, number: number) => {
    const res = await t.post(
      '/graphql',
      {
        query: `mutation($i: String!, $u: String!) { attachmentLinkGitHubPR(issueId: $i, url: $u, title: "PR") { success attachment { id } } }`,
        variables: { i: issueId, u: `https://github.com/acme/api/pull/${number}` },
      },
      tokens.admin,
    );
    assert.equal(res.body.data?.attachmentLinkGitHubPR?.success, true, JSON.stringify(res.body));
    return res.body.data.attachmentLinkGitHubPR.attachment.id as string;
  };
  const set = (id: string, metadata: object, minutesAgo: number, archived = false) =>
    t.ctx.db
      .updateTable('attachments')
      .set({
        metadata: sql`metadata || ${JSON.stringify(metadata)}::jsonb`,
        updated_at: sql`now() - make_interval(mins => ${minutesAgo})`,
        ...(archived ? { archived_at: sql`now()` } : {}),
      } as never)
      .where('id', '=', id)
      .execute();
  const [a, b, c] = [picked[0]!, picked[1]!, picked[2]!];
  await set(await link(a.id, 1), { status: 'merged', checks: { sha: 'x', state: 'failure', each: {} } }, 1);
  await set(await link(a.id, 2), { status: 'open', checks: { sha: 'y', state: 'pending', each: {} } }, 5);
  await set(await link(a.id, 3), { status: 'closed' }, 0);
  await set(await link(b.id, 4), { kind: 'commit', status: 'open' }, 0);
  await set(await link(b.id, 5), { status: 'draft' }, 3);
  await set(await link(c.id, 6), { status: 'open' }, 0, true);
  const rows = await t.ctx.db
    .selectFrom('attachments')
    .select(['id', 'issue_id', 'source_type', 'metadata', 'updated_at'])
    .where('archived_at', 'is', null)
    .execute();
  markers = new Map();
  const rank = ['approved', 'inReview', 'open', 'draft', 'merged'];
  const order = (s: string) => (rank.includes(s) ? rank.indexOf(s) : 5);
  const pulls = rows.filter(
    (r) =>
      ['github', 'gitlab', 'gitea'].includes(r.source_type ?? '') && (r.metadata as any)?.kind !== 'commit',
  );
  for (const issueId of new Set(pulls.map((p) => p.issue_id))) {
    const mine = pulls
      .filter((p) => p.issue_id === issueId)
      .sort(
        (x, y) =>
          order((x.metadata as any).status) - order((y.metadata as any).status) ||
          y.updated_at.getTime() - x.updated_at.getTime(),
      );
    const lead = mine[0]!;
    const m = lead.metadata as any;
    markers.set(issueId, {
      count: mine.length,
      status: m.status,
      checks: m.checks?.state ?? null,
      host: lead.source_type,
    });
  }
  assert.deepEqual(
    picked.map((p) => markers.get(p.id) ?? null),
    [
      { count: 3, status: 'open', checks: 'pending', host: 'github' },
      { count: 1, status: 'draft', checks: null, host: 'github' },
      null,
    ],
  );
}

/** Each issue's pull request marker, worked out from its attachments (docs/git.md). */
let markers: Map<string, unknown>;
after(() => t.close());

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Every user's name and whether it is an OAuth app's own user (actor=app). */
let people: Map<string, { name: string; app: boolean }>;
/** The creator as the role sees them (the visibility world's oracle), else null. */
const creatorFor = (r: IssueRecord, role: Role) => {
  const person = people.get(r.creator_id ?? '');
  if (!r.creator_id || !person || !(person.app || world.visible[role].has(r.creator_id))) return null;
  return { id: r.creator_id, name: person.name, app: person.app };
};

/** The oracle: a record as REST shows it to `role`, in IssueSchema's order. */
const present = (r: IssueRecord, role: Role) => ({
  id: r.id,
  identifier: r.identifier,
  number: r.number,
  title: r.title,
  description: r.description,
  priority: r.priority,
  priorityLabel: priorityLabel(r.priority),
  estimate: r.estimate,
  dueDate: r.due_date,
  teamId: r.team_id,
  stateId: r.state_id,
  assigneeId: r.assignee_id,
  creatorId: r.creator_id,
  projectId: r.project_id,
  projectMilestoneId: r.project_milestone_id,
  cycleId: r.cycle_id,
  parentId: r.parent_id,
  labelIds: r.labelIds,
  childProgress: r.childProgress,
  sortOrder: r.sort_order,
  url: issueUrl(t.ctx.config.publicUrl, r.identifier, r.title),
  branchName: branchName(DEFAULT_BRANCH_FORMAT, r.branchUser, r),
  pullRequestMarker: markers.get(r.id) ?? null,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
  startedAt: iso(r.started_at),
  completedAt: iso(r.completed_at),
  canceledAt: iso(r.canceled_at),
  archivedAt: iso(r.archived_at),
  snoozedUntilAt: iso(r.snoozed_until_at),
  snoozedById: r.snoozed_by_id,
  creator: creatorFor(r, role),
});

test("the oracle names IssueSchema's keys in its order", async () => {
  const { id } = await t.ctx.db.selectFrom('issues').select('id').executeTakeFirstOrThrow();
  const r = await getIssue(t.ctx, actors.admin, id);
  assert.deepEqual(Object.keys(present(r, 'admin')), Object.keys(IssueSchema.properties));
});

test('GET /api/issues/:id answers what the record presents, for every role and issue', async () => {
  const issues = await t.ctx.db.selectFrom('issues').select(['id', 'identifier']).execute();
  for (const role of ROLES) {
    for (const issue of issues) {
      for (const ref of [issue.id, issue.identifier.toLowerCase()]) {
        const res = await t.get(`/api/issues/${ref}`, tokens[role]);
        const record = await getIssue(t.ctx, actors[role], ref).catch(() => undefined);
        if (!record) {
          assert.equal(res.status, 404, `${role} ${issue.identifier}`);
          continue;
        }
        assert.equal(res.status, 200, `${role} ${issue.identifier}`);
        assert.equal(
          JSON.stringify(res.body),
          JSON.stringify({ issue: present(record, role) }),
          `${role} ${issue.identifier}`,
        );
      }
    }
  }
});

test('GET /api/issues pages answer what the records present', async () => {
  const params = fc.record(
    {
      limit: fc.integer({ min: 1, max: 30 }),
      offset: fc.integer({ min: 0, max: 10 }),
      sort: fc.constantFrom('createdAt', 'updatedAt', 'priority', 'dueDate'),
      order: fc.constantFrom('asc', 'desc'),
      includeArchived: fc.boolean(),
      q: fc.constantFrom('pulsar', 'nebula', 'issue'),
      priority: fc.integer({ min: 0, max: 4 }),
    },
    { requiredKeys: [] },
  );
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...ROLES), params, async (role, p) => {
      const qs = new URLSearchParams(Object.entries(p).map(([k, v]) => [k, String(v)])).toString();
      const res = await t.get(`/api/issues?${qs}`, tokens[role]);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      // Each entry is the issue as its GET presents it (order and paging: issues-list, issues-keyset).
      const issues = [];
      for (const issue of res.body.issues)
        issues.push(present(await getIssue(t.ctx, actors[role], issue.id), role));
      const expected = { issues, pageInfo: res.body.pageInfo };
      assert.equal(JSON.stringify(res.body), JSON.stringify(expected), qs);
    }),
    { numRuns: 60 },
  );
});

test("REST's branchName, labelIds and pullRequestMarker are GraphQL's, for every role", async () => {
  for (const role of ROLES) {
    const rest = await t.get('/api/issues?limit=100&includeArchived=true', tokens[role]);
    const gql = await t.post(
      '/graphql',
      {
        query:
          '{ issues(first: 100, includeArchived: true) { nodes { id branchName labelIds pullRequestMarker } } }',
      },
      tokens[role],
    );
    const byId = new Map<string, { branchName: string; labelIds: string[]; pullRequestMarker: unknown }>(
      gql.body.data.issues.nodes.map((n: { id: string }) => [n.id, n]),
    );
    assert.ok(rest.body.issues.length > 0);
    for (const issue of rest.body.issues) {
      const node = byId.get(issue.id);
      assert.ok(node, `${role} ${issue.identifier}`);
      assert.equal(issue.branchName, node.branchName, `${role} ${issue.identifier}`);
      assert.deepEqual(issue.labelIds, node.labelIds, `${role} ${issue.identifier}`);
      assert.deepEqual(issue.pullRequestMarker, node.pullRequestMarker, `${role} ${issue.identifier}`);
    }
  }
});

test('a compressed page arrives whole over a socket (the handler waits for compression)', async () => {
  const base = await t.listen();
  const res = await fetch(`${base}/api/issues?limit=50&includeArchived=true`, {
    headers: { authorization: `Bearer ${tokens.admin}`, 'accept-encoding': 'gzip' },
  });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-encoding'), 'gzip');
  const body = (await res.json()) as { issues: unknown[] };
  assert.ok(body.issues.length > 3);
});

// Last: it renames an issue.
test('a write answers what its GET answers, and its event carries the same record', async () => {
  const issue = await t.ctx.db
    .selectFrom('issues')
    .select(['id'])
    .where('archived_at', 'is', null)
    .executeTakeFirstOrThrow();
  for (const role of ROLES) {
    const before = await t.get(`/api/issues/${issue.id}`, tokens[role]);
    if (before.status !== 200) continue;
    const res = await t.patch(`/api/issues/${issue.id}`, { title: `renamed by ${role}` }, tokens[role]);
    if (res.status === 403) continue;
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const read = await t.get(`/api/issues/${issue.id}`, tokens[role]);
    assert.equal(JSON.stringify(res.body), JSON.stringify(read.body), role);
    const event = await t.ctx.db
      .selectFrom('webhook_events')
      .select('payload')
      .where('type', '=', 'issue')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const data = (typeof event.payload === 'string' ? JSON.parse(event.payload) : event.payload).data;
    const admin = await t.get(`/api/issues/${issue.id}`, tokens.admin);
    // Values only: the event log stores payloads as jsonb, which keeps no key order.
    assert.deepEqual(data, admin.body.issue, role);
  }
});
