// Sub-issues over REST and GraphQL: parentId on create and update (id or
// identifier), cycles refused, Issue.parent and Issue.children, the parent
// and children filters, and the REST childProgress counts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { InvalidInputLinearError, type LinearClient } from '@linear/sdk';
import { apiKeyFor, sdk, startGraphqlApp } from './graphql-helpers.js';
import { stateOf } from './projects.fixtures.js';
import type { TestApp } from './support/harness.js';

let t: TestApp;
let base: string;
let client: LinearClient;
let teamId: string;

before(async () => {
  ({ t, base, client, teamId } = await startGraphqlApp());
});
after(() => t.close());

async function restIssue(body: Record<string, unknown>, token = t.adminToken) {
  const res = await t.post('/api/issues', { title: 'Sub', ...body }, token);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.issue;
}

describe('REST', () => {
  test('parentId by identifier; childProgress counts live children by state', async () => {
    const [done, canceled] = await Promise.all([
      stateOf(t, teamId, 'completed'),
      stateOf(t, teamId, 'canceled'),
    ]);
    const parent = await restIssue({ title: 'Parent' });
    assert.deepEqual(parent.childProgress, { total: 0, completed: 0, canceled: 0 });
    const a = await restIssue({ parentId: parent.identifier, stateId: done.id });
    await restIssue({ parentId: parent.id, stateId: canceled.id });
    await restIssue({ parentId: parent.id });
    const archived = await restIssue({ parentId: parent.id });
    assert.equal(a.parentId, parent.id);
    assert.equal((await t.post(`/api/issues/${archived.id}/archive`, {}, t.adminToken)).status < 300, true);
    const read = await t.get(`/api/issues/${parent.identifier}`, t.adminToken);
    assert.deepEqual(read.body.issue.childProgress, { total: 3, completed: 1, canceled: 1 });
    const kids = await t.get(`/api/issues?parentId=${parent.id}`, t.adminToken);
    assert.equal(kids.body.pageInfo.total, 3);
    assert.ok(kids.body.issues.every((i: { parentId: string }) => i.parentId === parent.id));
    const list = await t.get(`/api/issues?limit=250`, t.adminToken);
    const inList = list.body.issues.find((i: { id: string }) => i.id === parent.id);
    assert.deepEqual(inList.childProgress, { total: 3, completed: 1, canceled: 1 });
  });

  test('a cycle is refused, an unknown parent is a 400, null detaches', async () => {
    const top = await restIssue({ title: 'Top' });
    const mid = await restIssue({ parentId: top.id });
    const loop = await t.patch(`/api/issues/${top.id}`, { parentId: mid.identifier }, t.adminToken);
    assert.equal(loop.status, 400);
    assert.equal(loop.body.error.details[0].field, '/parentId');
    const self = await t.patch(`/api/issues/${top.id}`, { parentId: top.id }, t.adminToken);
    assert.equal(self.status, 400);
    const unknown = await t.post('/api/issues', { title: 'x', parentId: 'ENG-999999' }, t.adminToken);
    assert.equal(unknown.status, 400);
    const detached = await t.patch(`/api/issues/${mid.id}`, { parentId: null }, t.adminToken);
    assert.equal(detached.status, 200);
    assert.equal(detached.body.issue.parentId, null);
  });

  test("children a caller cannot see are not counted in the parent's progress", async () => {
    const hidden = await t.post(
      '/api/teams',
      { name: 'Hidden subs', key: 'HSUB', private: true },
      t.adminToken,
    );
    assert.equal(hidden.status, 201);
    const parent = await restIssue({ title: 'Mixed parent' });
    await restIssue({ parentId: parent.id });
    await restIssue({ parentId: parent.id, teamId: 'HSUB' });
    const member = await t.register('Sub reader');
    const seen = await t.get(`/api/issues/${parent.id}`, member.token);
    assert.equal(seen.body.issue.childProgress.total, 1);
    const admin = await t.get(`/api/issues/${parent.id}`, t.adminToken);
    assert.equal(admin.body.issue.childProgress.total, 2);
  });
});

describe('GraphQL', () => {
  test('IssueCreateInput.parentId, Issue.parent, Issue.children', async () => {
    const parent = (await (await client.createIssue({ teamId, title: 'GQL parent' })).issue)!;
    const child = (await (
      await client.createIssue({ teamId, title: 'GQL child', parentId: parent.id })
    ).issue)!;
    const byIdentifier = (await (
      await client.createIssue({ teamId, title: 'GQL child 2', parentId: parent.identifier })
    ).issue)!;
    assert.equal((await child.parent)!.id, parent.id);
    assert.equal((await byIdentifier.parent)!.id, parent.id);
    const children = await parent.children();
    assert.deepEqual(children.nodes.map((n) => n.id).sort(), [child.id, byIdentifier.id].sort());
    await assert.rejects(client.updateIssue(parent.id, { parentId: child.id }), InvalidInputLinearError);
  });

  test('IssueFilter.parent and IssueFilter.children', async () => {
    const parent = (await (await client.createIssue({ teamId, title: 'Filter parent' })).issue)!;
    const child = (await (
      await client.createIssue({ teamId, title: 'Filter child', parentId: parent.id })
    ).issue)!;
    const ofParent = await client.issues({ filter: { parent: { id: { eq: parent.id } } } });
    assert.deepEqual(
      ofParent.nodes.map((n) => n.id),
      [child.id],
    );
    const withChild = await client.issues({
      filter: { children: { some: { title: { eq: 'Filter child' } } } },
    });
    assert.deepEqual(
      withChild.nodes.map((n) => n.id),
      [parent.id],
    );
    const member = await t.register('Filter member');
    const theirs = sdk(base, await apiKeyFor(t, member.token));
    const seen = await theirs.issues({ filter: { parent: { id: { eq: parent.id } } } });
    assert.deepEqual(
      seen.nodes.map((n) => n.id),
      [child.id],
    );
  });
});
