// The hosted tracker's importer end to end: instance A is seeded through its
// REST API and listens; instance B imports it through A's GraphQL API with
// @linear/sdk's client (modules/import/linear.ts), as it would import the
// hosted tracker. Then: a dry run first writes nothing; the import carries
// dates, authors, parent/child, relations, links and the original keys
// (searchable); a second run creates nothing; a run that fails part-way and
// is run again completes with no duplicates.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type GraphqlRequest, linearSource } from '../src/modules/import/linear.js';
import { runImport } from '../src/modules/import/runner.js';
import type { Actor } from '../src/platform/context.js';
import { apiKeyFor } from './graphql-helpers.js';
import { startTestApp, type TestApp } from './support/harness.js';

let a: TestApp;
let b: TestApp;
let baseA: string;
let keyA: string;
let adminB: Actor;
const bobEmail = `bob-${Date.now()}@source.example`;
const ids: Record<string, string> = {};

async function ok(res: { status: number; body: any }, what: string) {
  assert.ok(res.status >= 200 && res.status < 300, `${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

before(async () => {
  [a, b] = await Promise.all([startTestApp(), startTestApp()]);
  baseA = await a.listen();
  keyA = await apiKeyFor(a, a.adminToken);
  const me = await b.get('/api/auth/me', b.adminToken);
  adminB = {
    id: me.body.user.id,
    role: 'admin',
    name: me.body.user.name,
    email: me.body.user.email,
    via: 'session',
  };

  // A: team SRC, a member who comments, labels, a project with a milestone, a cycle, issues.
  const bob = await ok(
    await a.post(
      '/api/admin/users',
      { name: 'Bob Source', email: bobEmail, password: 'correct horse battery 1', role: 'member' },
      a.adminToken,
    ),
    'bob',
  );
  const team = await ok(await a.post('/api/teams', { key: 'SRC', name: 'Source' }, a.adminToken), 'team');
  ids.team = team.team.id;
  const states = (await a.get('/api/workflow-states?teamId=SRC', a.adminToken)).body.workflowStates;
  const done = states.find((s: any) => s.type === 'completed');
  const label = await ok(
    await a.post('/api/labels', { name: 'Bug', teamId: 'SRC', color: '#ff0000' }, a.adminToken),
    'label',
  );
  const project = await ok(
    await a.post('/api/projects', { name: 'Launch', teamIds: [ids.team] }, a.adminToken),
    'project',
  );
  await ok(
    await a.post(`/api/projects/${project.project.id}/milestones`, { name: 'Beta' }, a.adminToken),
    'milestone',
  );
  await ok(
    await a.post(
      '/api/cycles',
      { teamId: 'SRC', startsAt: '2026-01-05T00:00:00.000Z', endsAt: '2026-01-19T00:00:00.000Z' },
      a.adminToken,
    ),
    'cycle',
  );
  const parent = await ok(
    await a.post(
      '/api/issues',
      {
        teamId: 'SRC',
        title: 'Parent: ship the importer',
        description: 'Ünïcödé\nsecond line',
        priority: 2,
        labelIds: [label.label.id],
        projectId: project.project.id,
        assigneeId: bob.user.id,
        stateId: done.id,
      },
      a.adminToken,
    ),
    'parent',
  );
  ids.parent = parent.issue.identifier;
  const child = await ok(
    await a.post(
      '/api/issues',
      { teamId: 'SRC', title: 'Child: map states', parentId: parent.issue.id },
      a.adminToken,
    ),
    'child',
  );
  ids.child = child.issue.identifier;
  for (let i = 3; i <= 5; i++) {
    await ok(
      await a.post('/api/issues', { teamId: 'SRC', title: `Plain issue ${i}` }, a.adminToken),
      'issue',
    );
  }
  const bobToken = (await a.post('/api/auth/login', { email: bobEmail, password: 'correct horse battery 1' }))
    .body.token;
  await ok(
    await a.post(`/api/issues/${ids.parent}/comments`, { body: 'First comment, by Bob' }, bobToken),
    'comment',
  );
  await ok(
    await a.post(
      `/api/issues/${ids.parent}/relations`,
      { relatedIssueId: 'SRC-5', type: 'blocks' },
      a.adminToken,
    ),
    'relation',
  );
  await ok(
    await a.post(
      `/api/issues/${ids.parent}/attachments`,
      { title: 'Design doc', url: 'https://docs.example.com/design' },
      a.adminToken,
    ),
    'attachment',
  );
});

after(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

/** B's issues in team SRC, by title. */
async function issuesOfB() {
  const res = await b.get('/api/issues?teamId=SRC&limit=100', b.adminToken);
  if (res.status === 404 || res.status === 400) return [];
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.issues as any[];
}

describe('importing one Trackway instance into another through the GraphQL API', () => {
  test('a dry run reports what would be created and the missing users, and writes nothing', async () => {
    const report = await runImport(b.ctx, adminB, linearSource({ url: baseA, apiKey: keyA }), {
      dryRun: true,
    });
    assert.equal(report.status, 'completed');
    assert.equal(report.counts['issue.created'], 5);
    assert.equal(report.counts['team.created'], 1);
    assert.deepEqual(report.missingUsers, [bobEmail]);
    assert.equal((await b.get('/api/teams/SRC', b.adminToken)).status, 404);
  });

  test('a run that fails part-way leaves whole issues, and the next run completes it with no duplicates', async () => {
    let issuePages = 0;
    const failing: GraphqlRequest = async (query, variables) => {
      if (query.startsWith('query Issues') && ++issuePages === 2) throw new Error('connection reset');
      return (await fetchGraphql(query, variables)) as unknown;
    };
    await assert.rejects(
      runImport(b.ctx, adminB, linearSource({ url: baseA, apiKey: keyA, pageSize: 2, request: failing })),
      /connection reset/,
    );
    assert.equal((await issuesOfB()).length, 2);

    const report = await runImport(b.ctx, adminB, linearSource({ url: baseA, apiKey: keyA, pageSize: 2 }));
    assert.equal(report.status, 'completed');
    assert.equal(report.counts['issue.created'], 3, JSON.stringify(report));
    assert.deepEqual(report.errors, []);
    const issues = await issuesOfB();
    assert.equal(issues.length, 5);
    assert.equal(new Set(issues.map((i) => i.title)).size, 5);
  });

  test('the content: dates, authors, states, labels, project, parent/child, relations, links, searchable keys', async () => {
    const issues = await issuesOfB();
    const srcA = (await a.get('/api/issues?teamId=SRC&limit=100', a.adminToken)).body.issues as any[];
    const byTitle = (list: any[], t: string) => list.find((i) => i.title === t);
    for (const original of srcA) {
      const copy = byTitle(issues, original.title);
      assert.ok(copy, original.title);
      assert.equal(copy.createdAt, original.createdAt, `createdAt of ${original.title}`);
      assert.equal(copy.priority, original.priority);
      assert.ok(
        copy.description.includes(`Imported from Linear: [${original.identifier}](`),
        copy.description,
      );
    }
    const parent = byTitle(issues, 'Parent: ship the importer');
    const parentA = byTitle(srcA, 'Parent: ship the importer');
    assert.ok(parent.description.startsWith('Ünïcödé\nsecond line'));
    assert.equal(parent.completedAt, parentA.completedAt);
    const child = byTitle(issues, 'Child: map states');
    assert.equal(child.parentId, parent.id);

    // The original key finds the issue by search.
    const found = await b.get(`/api/issues?q=${encodeURIComponent(ids.child!)}`, b.adminToken);
    assert.ok(
      found.body.issues.some((i: any) => i.id === child.id),
      JSON.stringify(found.body.issues.map((i: any) => i.title)),
    );

    // Labels, project, assignee (a suspended placeholder for Bob).
    const full = (await b.get(`/api/issues/${parent.id}`, b.adminToken)).body.issue;
    assert.equal(full.labelIds.length, 1);
    assert.ok(full.projectId);
    const users = (await b.get('/api/admin/users?limit=250', b.adminToken)).body.users as any[];
    const bob = users.find((u) => u.email === bobEmail);
    assert.ok(bob);
    assert.equal(bob.status, 'suspended');
    assert.equal(full.assigneeId, bob.id);

    // The comment keeps its author and date.
    const commentsA = (await a.get(`/api/issues/${ids.parent}/comments`, a.adminToken)).body.comments;
    const comments = (await b.get(`/api/issues/${parent.id}/comments`, b.adminToken)).body.comments;
    assert.equal(comments.length, 1);
    assert.equal(comments[0].body, 'First comment, by Bob');
    assert.equal(comments[0].userId ?? comments[0].user?.id, bob.id);
    assert.equal(comments[0].createdAt, commentsA[0].createdAt);

    // The relation, the attachment and the link to the original.
    const relations = (await b.get(`/api/issues/${parent.id}/relations`, b.adminToken)).body;
    assert.equal(JSON.stringify(relations).includes('blocks'), true, JSON.stringify(relations));
    const attachments = (await b.get(`/api/issues/${parent.id}/attachments`, b.adminToken)).body.attachments;
    const urls = attachments.map((x: any) => x.url).sort();
    assert.ok(urls.includes('https://docs.example.com/design'), JSON.stringify(urls));
    assert.equal(urls.length, 2, JSON.stringify(urls));
  });

  test('running again creates nothing', async () => {
    const before = await issuesOfB();
    const report = await runImport(b.ctx, adminB, linearSource({ url: baseA, apiKey: keyA }));
    assert.equal(report.counts['issue.created'] ?? 0, 0);
    assert.equal(report.counts['issue.existing'], 5);
    assert.equal(report.counts['comment.created'] ?? 0, 0);
    assert.equal((await issuesOfB()).length, before.length);
  });
});

async function fetchGraphql(query: string, variables: Record<string, unknown>) {
  const res = await fetch(`${baseA}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: keyA },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: unknown; errors?: unknown };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}
