// The GraphQL API through the real @linear/sdk client, continued: comments,
// labels, projects, cycles, roles and errors, webhooks, query cost.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  FeatureNotAccessibleLinearError,
  ForbiddenLinearError,
  InvalidInputLinearError,
  type LinearClient,
} from '@linear/sdk';
import { apiKeyFor, gql, sdk, startGraphqlApp } from './graphql-helpers.js';
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

describe('comments, labels, projects, cycles', () => {
  test('comments on an issue', async () => {
    const issue = (await (await client.createIssue({ teamId, title: 'With comments' })).issue)!;
    const c = await client.createComment({ issueId: issue.id, body: 'First' });
    assert.equal(c.success, true);
    const comment = (await c.comment)!;
    await client.createComment({ issueId: issue.identifier, body: 'Reply', parentId: comment.id });
    const list = await issue.comments();
    assert.deepEqual(list.nodes.map((n) => n.body).sort(), ['First', 'Reply']);
    // The SDK's Comment.children() sends no comment id, so ask directly.
    const children = await gql(
      base,
      key,
      'query($id: String) { comment(id: $id) { children { nodes { body } } } }',
      {
        id: comment.id,
      },
    );
    assert.deepEqual(children.body.data.comment.children.nodes, [{ body: 'Reply' }]);
    await client.updateComment(comment.id, { body: 'First, edited' });
    assert.equal((await client.comment({ id: comment.id })).body, 'First, edited');
    const del = await client.deleteComment(comment.id);
    assert.equal(del.entityId, comment.id);
  });

  test('labels: create, update, list issues, delete', async () => {
    const created = await client.createIssueLabel({ name: 'Regression', color: '#ff0000', teamId });
    const label = (await created.issueLabel)!;
    await client.updateIssueLabel(label.id, { name: 'Regressions' });
    assert.equal((await client.issueLabel(label.id)).name, 'Regressions');
    const issue = (await (
      await client.createIssue({ teamId, title: 'Labelled', labelIds: [label.id] })
    ).issue)!;
    assert.deepEqual(
      (await label.issues()).nodes.map((i) => i.id),
      [issue.id],
    );
    const del = await client.deleteIssueLabel(label.id);
    assert.equal(del.entityId, label.id);
  });

  test('projects with their issues', async () => {
    const p = await client.createProject({ name: 'Launch', teamIds: [teamId] });
    const project = (await p.project)!;
    await client.createIssue({ teamId, title: 'In project', projectId: project.id });
    assert.deepEqual(
      (await project.issues()).nodes.map((i) => i.title),
      ['In project'],
    );
    assert.deepEqual(
      (await project.teams()).nodes.map((x) => x.key),
      ['ENG'],
    );
    await client.updateProject(project.id, { name: 'Launch v2', statusId: 'started' });
    const again = await client.project(project.id);
    assert.equal(again.name, 'Launch v2');
    assert.equal(again.state, 'started');
    assert.ok((await client.projects()).nodes.some((x) => x.id === project.id));
  });

  test('cycles with their issues', async () => {
    const now = Date.now();
    const c = await client.createCycle({
      teamId,
      startsAt: new Date(now - 86_400_000),
      endsAt: new Date(now + 6 * 86_400_000),
    });
    const cycle = (await c.cycle)!;
    assert.equal(cycle.isActive, true);
    await client.createIssue({ teamId, title: 'In cycle', cycleId: cycle.id });
    assert.deepEqual(
      (await cycle.issues()).nodes.map((i) => i.title),
      ['In cycle'],
    );
    await client.updateCycle(cycle.id, { name: 'Sprint 1' });
    assert.equal((await client.cycle(cycle.id)).name, 'Sprint 1');
    assert.equal((await (await client.team(teamId)).activeCycle)?.id, cycle.id);
  });
});

describe('errors and roles', () => {
  test('a guest cannot create issues: ForbiddenLinearError', async () => {
    const guest = await t.userWithRole('guest', { teams: ['ENG'] });
    const guestClient = sdk(base, await apiKeyFor(t, guest.token));
    await assert.rejects(() => guestClient.createIssue({ teamId, title: 'Nope' }), ForbiddenLinearError);
    await assert.rejects(() => guestClient.webhooks(), ForbiddenLinearError);
    assert.ok((await guestClient.issues({ first: 1 })).nodes.length >= 0);
  });

  test('invalid input: unknown team, empty title, unknown field', async () => {
    await assert.rejects(() => client.createIssue({ teamId: 'NOPE', title: 'x' }), InvalidInputLinearError);
    await assert.rejects(() => client.createIssue({ teamId, title: '' }), InvalidInputLinearError);
    const res = await gql(base, key, '{ viewer { nope } }');
    assert.equal(res.status, 400);
    assert.equal(res.body.errors[0].extensions.type, 'invalid input');
  });

  test('webhooks: admins create, read, update and delete; the secret shows once', async () => {
    const created = await gql(
      base,
      key,
      'mutation($input: WebhookCreateInput!) { webhookCreate(input: $input) { success webhook { id secret resourceTypes } } }',
      { input: { url: 'https://example.com/hook', resourceTypes: ['Issue', 'Comment'] } },
    );
    const hook = created.body.data.webhookCreate.webhook;
    assert.equal(typeof hook.secret, 'string');
    assert.deepEqual(hook.resourceTypes, ['Issue', 'Comment']);
    const read = await client.webhook(hook.id);
    assert.equal(read.secret, undefined);
    await client.updateWebhook(hook.id, { label: 'CI' });
    assert.equal((await client.webhook(hook.id)).label, 'CI');
    assert.equal((await client.deleteWebhook(hook.id)).entityId, hook.id);
  });
});

describe('cost', () => {
  test('reports X-Complexity and rate-limit headers; refuses queries over 10,000', async () => {
    const ok = await gql(base, key, '{ issues(first: 10) { nodes { id title } } }');
    assert.equal(ok.status, 200);
    // 1 for the connection + 10 x (1 per node + 0.1 per scalar x 2)
    assert.equal(Number(ok.headers.get('x-complexity')), 13);
    assert.ok(Number(ok.headers.get('x-ratelimit-requests-remaining')) > 0);
    assert.ok(Number(ok.headers.get('x-ratelimit-complexity-limit')) > 0);
    const big = await gql(
      base,
      key,
      '{ issues(first: 250) { nodes { comments(first: 250) { nodes { id } } } } }',
    );
    assert.equal(big.status, 400);
    assert.equal(big.body.errors[0].extensions.type, 'invalid input');
    assert.match(big.body.errors[0].message, /cost [\d.]+ exceeds the limit of 10000/);
  });

  test('refuses queries nested deeper than the limit', async () => {
    const deep =
      '{ issues { nodes { parent { parent { parent { parent { parent { parent { parent { parent { parent { parent { parent { id } } } } } } } } } } } } } }';
    const res = await gql(base, key, deep);
    assert.equal(res.status, 400);
    assert.match(res.body.errors[0].message, /depth \d+ exceeds the limit of 12/);
  });
});

describe('feature flags', () => {
  test('with projects switched off, project reads answer "feature not accessible"', async () => {
    assert.equal((await t.patch('/api/admin/flags/projects', { enabled: false }, t.adminToken)).status, 200);
    try {
      await assert.rejects(() => client.projects(), FeatureNotAccessibleLinearError);
      const res = await gql(base, key, '{ projects { nodes { id } } }');
      assert.equal(res.body.errors[0].extensions.type, 'feature not accessible');
      assert.equal(res.body.errors[0].extensions.code, 'FEATURE_DISABLED');
    } finally {
      await t.patch('/api/admin/flags/projects', { enabled: true }, t.adminToken);
    }
    assert.ok(Array.isArray((await client.projects()).nodes));
  });
});
