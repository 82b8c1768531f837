// Subscriptions and the unread count through the real @linear/sdk client
// (its GraphQL client sends the documents; the SDK has no helper for these
// fields): issueSubscribe/issueUnsubscribe change issue.subscribers, only for
// the caller and only on an issue they see; notificationsUnreadCount counts
// REST's inbox.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { LinearClient } from '@linear/sdk';
import { apiKeyFor, sdk, startGraphqlApp } from './graphql-helpers.js';
import type { TestApp } from './support/harness.js';

let t: TestApp;
let admin: LinearClient;
let member: LinearClient;
let memberId: string;
let engId: string;

before(async () => {
  let base: string;
  ({ t, base, client: admin, teamId: engId } = await startGraphqlApp());
  const m = await t.userWithRole('member', { teams: ['ENG'] });
  memberId = m.user.id;
  member = sdk(base, await apiKeyFor(t, m.token));
});
after(() => t.close());

const raw = async (c: LinearClient, query: string, variables: Record<string, unknown> = {}) => {
  const res = await c.client.rawRequest<any, Record<string, unknown>>(query, variables);
  return res.data;
};
const SUBSCRIBE = `mutation($id: String!, $userId: String) { issueSubscribe(id: $id, userId: $userId) { success issue { id } } }`;
const UNSUBSCRIBE = `mutation($id: String!) { issueUnsubscribe(id: $id) { success issue { id } } }`;
const subscriberIds = async (id: string) =>
  (await (await admin.issue(id)).subscribers()).nodes.map((u) => u.id).sort();

test('issueSubscribe and issueUnsubscribe: the caller follows an issue by hand, seen in issue.subscribers', async () => {
  const created = await admin.createIssue({ teamId: engId, title: 'Follow me' });
  const issue = (await created.issue)!;
  assert.ok(!(await subscriberIds(issue.id)).includes(memberId));
  const sub = await raw(member, SUBSCRIBE, { id: issue.identifier });
  assert.deepEqual(sub.issueSubscribe, { success: true, issue: { id: issue.id } });
  assert.ok((await subscriberIds(issue.id)).includes(memberId));
  await raw(member, UNSUBSCRIBE, { id: issue.id });
  assert.ok(!(await subscriberIds(issue.id)).includes(memberId));
});

test('subscribing someone else is refused; an issue the caller cannot see is not found; nothing changes', async () => {
  const created = await admin.createIssue({ teamId: engId, title: 'Not for others' });
  const issue = (await created.issue)!;
  const me = await admin.viewer;
  await assert.rejects(raw(member, SUBSCRIBE, { id: issue.id, userId: me.id }), /only the caller/);
  assert.ok(!(await subscriberIds(issue.id)).includes(memberId));
  const vault = await t.post('/api/teams', { name: 'Vault', key: 'VLT', private: true }, t.adminToken);
  const hidden = await admin.createIssue({ teamId: vault.body.team.id, title: 'Hidden' });
  const hiddenId = (await hidden.issue)!.id;
  await assert.rejects(raw(member, SUBSCRIBE, { id: hiddenId }), /not found/i);
  assert.ok(!(await subscriberIds(hiddenId)).includes(memberId));
});

test('notificationsUnreadCount follows the inbox', async () => {
  const count = async () => (await raw(member, '{ notificationsUnreadCount }')).notificationsUnreadCount;
  const before = await count();
  await admin.createIssue({ teamId: engId, title: 'For you', assigneeId: memberId });
  assert.equal(await count(), before + 1);
  const readAll = await t.post('/api/notifications/read-all', {}, (await t.userWithRole('member')).token);
  assert.equal(readAll.status, 200);
  assert.equal(await count(), before + 1, "another user's read-all leaves this inbox alone");
});
