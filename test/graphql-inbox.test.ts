// The notification inbox over GraphQL through the real @linear/sdk client:
// notifications(), notification(id), updateNotification, archive/unarchive,
// the batch mutations, inboxNotifications, issue.subscribers(). A user sees
// only their own notifications, and only while they see the issue; another
// user's id answers as a missing one; bad input changes nothing; pages are
// keyset pages; a page of notifications with its relations costs as many
// statements for 2 rows as for 12.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { IssueNotification, type LinearClient, NotificationSubscriptionType } from '@linear/sdk';
import { runGraphql } from '../src/graphql/execute.js';
import { graphqlSchema } from '../src/graphql/routes.js';
import { apiKeyFor, gql, sdk, startGraphqlApp } from './graphql-helpers.js';
import type { TestApp } from './support/harness.js';
import { StatementCounter } from './support/statement-counter.js';

interface Person {
  id: string;
  token: string;
  key: string;
  client: LinearClient;
}

let t: TestApp;
let base: string;
let admin: LinearClient;
let engId: string;

before(async () => {
  ({ t, base, client: admin, teamId: engId } = await startGraphqlApp());
  const vault = await t.post('/api/teams', { name: 'Vault', key: 'VLT', private: true }, t.adminToken);
  assert.equal(vault.status, 201, JSON.stringify(vault.body));
});
after(() => t.close());

async function person(role: 'member' | 'guest', teams: string[]): Promise<Person> {
  const p = await t.userWithRole(role, { teams });
  const key = await apiKeyFor(t, p.token);
  return { id: p.user.id, token: p.token, key, client: sdk(base, key) };
}

/** An issue assigned to `to` by the admin: one issueAssignedToYou for them. */
async function assigned(to: Person, title = 'For you', teamId = engId) {
  const created = await admin.createIssue({ teamId, title, assigneeId: to.id });
  return (await created.issue)!;
}
const raw = async (c: LinearClient, query: string, variables: Record<string, unknown> = {}) =>
  (await c.client.rawRequest<any, Record<string, unknown>>(query, variables)).data;
const unread = async (p: Person) =>
  (await raw(p.client, '{ notificationsUnreadCount }')).notificationsUnreadCount;
const restInbox = async (p: Person, query = '') => {
  const res = await t.get(`/api/notifications${query}`, p.token);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.notifications as any[];
};
const idsOf = async (p: Person, vars: Record<string, unknown> = {}) =>
  (await p.client.notifications(vars)).nodes.map((n) => n.id);

describe('reading', () => {
  test('notifications() lists the caller’s own, newest first, as IssueNotification with its relations', async () => {
    const bob = await person('member', ['ENG']);
    const carol = await person('member', ['ENG']);
    const first = await assigned(bob, 'First');
    const second = await assigned(bob, 'Second');
    await assigned(carol, 'Not Bob’s');
    const page = await bob.client.notifications();
    assert.equal(page.nodes.length, 2);
    const [n2, n1] = page.nodes as IssueNotification[];
    assert.ok(n1 instanceof IssueNotification && n2 instanceof IssueNotification);
    assert.deepEqual(
      [n2.issueId, n1.issueId],
      [second.id, first.id],
      'newest first, same order as REST: ' + JSON.stringify((await restInbox(bob)).map((n) => n.issue.id)),
    );
    assert.equal(n1.type, 'issueAssignedToYou');
    assert.equal(n1.category, 'assignments');
    assert.equal(n1.readAt, undefined);
    assert.equal((await n1.issue)!.title, 'First');
    assert.equal((await n1.team)!.id, engId);
    assert.equal((await n1.user)!.id, bob.id);
    assert.equal((await n1.actor)!.id, (await admin.viewer).id);
    const d = await raw(
      bob.client,
      `query($id: String!) { notification(id: $id) { __typename id type ... on IssueNotification {
        title subtitle url groupingKey issue { identifier } actorInitials actorInactive } } }`,
      { id: n1.id },
    );
    assert.equal(d.notification.__typename, 'IssueNotification');
    assert.equal(d.notification.title, `${first.identifier} First`);
    assert.equal(d.notification.subtitle, 'Assigned to you');
    assert.equal(d.notification.url, first.url);
    assert.equal(d.notification.groupingKey, `issue/${first.id}`);
    assert.equal(d.notification.actorInactive, false);
    assert.ok(d.notification.actorInitials);
  });

  test('a comment notification names its comment; a reply its parent', async () => {
    const bob = await person('member', ['ENG']);
    const issue = await assigned(bob, 'Talk');
    const top = await (await admin.createComment({ issueId: issue.id, body: 'Top' })).comment;
    const bobC = sdk(base, bob.key);
    const bobComment = await (await bobC.createComment({ issueId: issue.id, body: 'Mine' })).comment;
    const reply = await (
      await admin.createComment({ issueId: issue.id, body: 'Reply', parentId: bobComment!.id })
    ).comment;
    const page = (await bob.client.notifications()).nodes as IssueNotification[];
    const byComment = new Map(page.map((n) => [n.commentId, n]));
    assert.equal(byComment.get(top!.id)?.type, 'issueNewComment');
    const r = byComment.get(reply!.id)!;
    assert.equal(r.type, 'issueNewComment');
    assert.equal(r.parentCommentId, bobComment!.id);
    assert.equal((await r.comment)!.body, 'Reply');
    assert.equal((await r.parentComment)!.body, 'Mine');
    const d = await raw(
      bob.client,
      `query($id: String!) { notification(id: $id) { ... on IssueNotification { subtitle category } } }`,
      {
        id: r.id,
      },
    );
    assert.deepEqual(d.notification, { subtitle: 'Reply to your comment', category: 'commentsAndReplies' });
  });

  test('another user’s notification answers exactly as a missing id', async () => {
    const bob = await person('member', ['ENG']);
    const carol = await person('member', ['ENG']);
    await assigned(carol, 'Carol’s');
    const theirs = (await carol.client.notifications()).nodes[0]!;
    const missing = '00000000-0000-4000-8000-000000000000';
    const errorOf = async (id: string) => {
      const res = await gql(base, bob.key, `query($id: String!) { notification(id: $id) { id } }`, { id });
      return {
        data: res.body.data,
        errors: res.body.errors.map((e: { message: string; extensions: object }) => [
          e.message,
          e.extensions,
        ]),
      };
    };
    const a = await errorOf(theirs.id);
    assert.deepEqual(a, await errorOf(missing));
    assert.match(a.errors[0][0], /Notification not found/);
    await assert.rejects(bob.client.notification(theirs.id), /not found/i);
    await assert.rejects(bob.client.notification('not-a-uuid'), /not found/i);
    assert.ok(!(await idsOf(bob, { includeArchived: true })).includes(theirs.id));
    // Admins too: one's inbox is one's own.
    assert.ok(!(await idsOf({ client: admin } as Person, { includeArchived: true })).includes(theirs.id));
    await assert.rejects(admin.notification(theirs.id), /not found/i);
  });

  test('a notification whose issue the user no longer sees disappears everywhere', async () => {
    const alice = await person('member', ['ENG', 'VLT']);
    const vault = (await admin.teams({ filter: { key: { eq: 'VLT' } } })).nodes[0]!;
    await assigned(alice, 'Secret', vault.id);
    const n = (await alice.client.notifications()).nodes[0]!;
    assert.equal((await alice.client.notification(n.id)).id, n.id);
    assert.equal(await unread(alice), 1);
    const removed = await t.request('DELETE', `/api/teams/VLT/members/${alice.id}`, { token: t.adminToken });
    assert.ok(removed.status < 300, JSON.stringify(removed.body));
    assert.deepEqual(await idsOf(alice, { includeArchived: true }), []);
    await assert.rejects(alice.client.notification(n.id), /not found/i);
    await assert.rejects(alice.client.updateNotification(n.id, { readAt: new Date() }), /not found/i);
    await assert.rejects(alice.client.archiveNotification(n.id), /not found/i);
    assert.equal(await unread(alice), 0);
  });

  test('guests have an inbox of their own; an actor they may not see is null', async () => {
    const gina = await person('guest', ['ENG']);
    const outsider = await person('member', ['VLT']);
    const issue = await assigned(gina, 'Guest work');
    const n = (await gina.client.notifications()).nodes[0]! as IssueNotification;
    assert.equal(n.issueId, issue.id);
    assert.equal((await n.actor)?.id, (await admin.viewer).id, 'the admin is in ENG, so the guest sees them');
    // A change by someone outside the guest's teams: the guest cannot see them.
    await t.post('/api/teams/ENG/members', { userId: outsider.id }, t.adminToken);
    await outsider.client.createComment({ issueId: issue.id, body: 'From outside' });
    await t.request('DELETE', `/api/teams/ENG/members/${outsider.id}`, { token: t.adminToken });
    const c = ((await gina.client.notifications()).nodes as IssueNotification[]).find((x) => x.commentId)!;
    const d = await raw(
      gina.client,
      `query($id: String!) { notification(id: $id) { actor { id name } ... on IssueNotification { actorInitials } } }`,
      {
        id: c.id,
      },
    );
    assert.deepEqual(d.notification, { actor: null, actorInitials: null });
  });
});

describe('changing', () => {
  test('updateNotification reads, unreads and snoozes; archive and unarchive; only one’s own', async () => {
    const bob = await person('member', ['ENG']);
    const carol = await person('member', ['ENG']);
    await assigned(bob);
    const n = (await bob.client.notifications()).nodes[0]!;
    const read = await bob.client.updateNotification(n.id, { readAt: new Date() });
    assert.equal(read.success, true);
    assert.ok((await bob.client.notification(n.id)).readAt instanceof Date);
    assert.equal(await unread(bob), 0);
    await bob.client.updateNotification(n.id, { readAt: null });
    assert.equal(await unread(bob), 1);
    const until = new Date(Date.now() + 3_600_000);
    const snoozed = await raw(
      bob.client,
      `mutation($id: String!, $at: DateTime) { notificationUpdate(id: $id, input: { snoozedUntilAt: $at }) {
        success notification { id snoozedUntilAt } } }`,
      { id: n.id, at: until.toISOString() },
    );
    assert.deepEqual(snoozed.notificationUpdate, {
      success: true,
      notification: { id: n.id, snoozedUntilAt: until.toISOString() },
    });
    assert.equal(await unread(bob), 0, 'a snoozed notification is out of the inbox');
    assert.deepEqual(await idsOf(bob), [n.id], 'notifications() lists it, with its snoozedUntilAt');
    await bob.client.updateNotification(n.id, { snoozedUntilAt: null });

    const archived = await raw(
      bob.client,
      'mutation($id: String!) { notificationArchive(id: $id) { success entity { id archivedAt } } }',
      { id: n.id },
    );
    assert.equal(archived.notificationArchive.entity.id, n.id);
    assert.ok(archived.notificationArchive.entity.archivedAt);
    assert.ok((await bob.client.notification(n.id)).archivedAt instanceof Date);
    assert.deepEqual(await idsOf(bob), []);
    assert.deepEqual(await idsOf(bob, { includeArchived: true }), [n.id]);
    assert.equal((await bob.client.unarchiveNotification(n.id)).success, true);
    assert.deepEqual(await idsOf(bob), [n.id]);

    // Someone else's: not found, and nothing changed.
    await assert.rejects(carol.client.updateNotification(n.id, { readAt: new Date() }), /not found/i);
    await assert.rejects(carol.client.archiveNotification(n.id), /not found/i);
    await assert.rejects(carol.client.unarchiveNotification(n.id), /not found/i);
    const rest = (await restInbox(bob))[0];
    assert.equal(rest.readAt, null);
    assert.equal(rest.archivedAt, null);
  });

  test('bad input is a 4xx-style error and changes nothing', async () => {
    const bob = await person('member', ['ENG']);
    await assigned(bob);
    const n = (await bob.client.notifications()).nodes[0]!;
    const before = (await restInbox(bob))[0];
    const bad = await gql(
      base,
      bob.key,
      `mutation($id: String!) { notificationUpdate(id: $id, input: { snoozedUntilAt: "tomorrow", readAt: "2024-01-01T00:00:00Z" }) { success } }`,
      { id: n.id },
    );
    assert.equal(bad.status, 400);
    assert.match(JSON.stringify(bad.body.errors), /DateTime/);
    const noEntity = await gql(
      base,
      bob.key,
      `mutation { notificationMarkReadAll(input: {}, readAt: "2024-01-01T00:00:00Z") { success } }`,
    );
    assert.equal(noEntity.body.errors[0].extensions.type, 'invalid input');
    assert.equal(noEntity.body.errors[0].extensions.statusCode, 400);
    // Initiatives send no notifications; a project the caller does not see (here: none) is not found.
    await assert.rejects(
      bob.client.notificationArchiveAll({ initiativeId: n.id }),
      /must name a notification/,
    );
    await assert.rejects(bob.client.notificationArchiveAll({ projectId: n.id }), /Project not found/);
    await assert.rejects(
      bob.client.notificationArchiveAll({ projectUpdateId: n.id }),
      /Project update not found/,
    );
    await assert.rejects(bob.client.notifications({ first: 1000 }), /first/);
    await assert.rejects(bob.client.notifications({ after: 'not-a-cursor' }), /after/);
    await assert.rejects(
      bob.client.notifications({ filter: { subscriptionType: { eq: NotificationSubscriptionType.Issue } } }),
      /subscriptionType/,
    );
    assert.deepEqual((await restInbox(bob))[0], before);
  });

  test('batch mutations act on every notification about one issue, and on nothing else', async () => {
    const bob = await person('member', ['ENG']);
    const issue = await assigned(bob, 'Busy');
    await admin.createComment({ issueId: issue.id, body: 'one' });
    await admin.createComment({ issueId: issue.id, body: 'two' });
    const other = await assigned(bob, 'Quiet');
    const about = (await bob.client.notifications()).nodes.filter(
      (n) => (n as IssueNotification).issueId === issue.id,
    );
    assert.equal(about.length, 3);

    const read = await bob.client.notificationMarkReadAll({ issueId: issue.identifier }, new Date());
    assert.equal(read.success, true);
    assert.deepEqual(read.notifications.map((n) => n.id).sort(), about.map((n) => n.id).sort());
    assert.ok(read.notifications.every((n) => n.readAt instanceof Date));
    assert.equal(await unread(bob), 1, 'the other issue’s stays unread');

    const unreadAll = await bob.client.notificationMarkUnreadAll({ id: about[0]!.id });
    assert.ok(unreadAll.notifications.every((n) => n.readAt == null));
    assert.equal(unreadAll.notifications.length, 3);

    const until = new Date(Date.now() + 86_400_000);
    const snoozed = await bob.client.notificationSnoozeAll({ issueId: issue.id }, until);
    assert.ok(snoozed.notifications.every((n) => n.snoozedUntilAt?.toISOString() === until.toISOString()));
    const inbox = await bob.client.inboxNotifications();
    assert.deepEqual(
      inbox.nodes.map((n) => (n as IssueNotification).issueId),
      [other.id],
      'inboxNotifications hides snoozed ones',
    );
    await bob.client.notificationUnsnoozeAll({ issueId: issue.id }, new Date());
    assert.equal((await bob.client.inboxNotifications()).nodes.length, 4);

    const archived = await bob.client.notificationArchiveAll({ issueId: issue.id });
    assert.ok(archived.notifications.every((n) => n.archivedAt instanceof Date));
    assert.deepEqual(
      (await bob.client.notifications()).nodes.map((n) => (n as IssueNotification).issueId),
      [other.id],
    );
    assert.equal((await bob.client.inboxNotifications({ unreadOnly: true })).nodes.length, 1);

    // Someone else's notification or an issue they do not see: not found, nothing changed.
    const carol = await person('member', ['ENG']);
    await assert.rejects(carol.client.notificationArchiveAll({ id: about[0]!.id }), /not found/i);
    const hidden = await assigned(
      await person('member', ['VLT']),
      'Vaulted',
      (await admin.teams({ filter: { key: { eq: 'VLT' } } })).nodes[0]!.id,
    );
    await assert.rejects(
      carol.client.notificationMarkReadAll({ issueId: hidden.id }, new Date()),
      /Issue not found/,
    );
    assert.equal(
      (await carol.client.notificationMarkReadAll({ issueId: issue.id }, new Date())).notifications.length,
      0,
    );
    assert.equal((await restInbox(bob, '?archived=true')).length, 3);
  });

  test('updateInboxNotification marks read and snoozes, as REST’s PATCH', async () => {
    const bob = await person('member', ['ENG']);
    await assigned(bob);
    const n = (await bob.client.inboxNotifications()).nodes[0]!;
    const res = await bob.client.updateInboxNotification(n.id, { read: true });
    assert.equal(res.success, true);
    assert.ok((await bob.client.notification(n.id)).readAt instanceof Date);
    assert.deepEqual(
      res.updatedNotifications.map((x) => x.id),
      [n.id],
    );
    assert.equal(await unread(bob), 0);
  });
});

describe('paging and statements', () => {
  test('first/after and last/before walk the list by keyset; filters narrow it', async () => {
    const bob = await person('member', ['ENG']);
    for (let i = 0; i < 5; i++) await assigned(bob, `Paged ${i}`);
    const all = await idsOf(bob);
    assert.equal(all.length, 5);
    assert.deepEqual(
      all,
      (await restInbox(bob)).map((n) => n.id),
    );
    const seen: string[] = [];
    let page = await bob.client.notifications({ first: 2 });
    seen.push(...page.nodes.map((n) => n.id));
    while (page.pageInfo.hasNextPage) {
      page = await bob.client.notifications({ first: 2, after: page.pageInfo.endCursor });
      seen.push(...page.nodes.map((n) => n.id));
    }
    assert.deepEqual(seen, all);
    const back = await bob.client.notifications({
      last: 2,
      before: (await bob.client.notifications({ first: 4 })).pageInfo.endCursor,
    });
    assert.deepEqual(
      back.nodes.map((n) => n.id),
      all.slice(1, 3),
    );
    // A record costs its IssueNotification part, not every implementation's: the largest page fits.
    assert.equal((await bob.client.notifications({ first: 250 })).nodes.length, 5);
    const fetched = await (await bob.client.notifications({ first: 2 })).fetchNext();
    assert.equal(fetched.nodes.length, 4);

    const typed = await bob.client.notifications({ filter: { type: { eq: 'issueMention' } } });
    assert.equal(typed.nodes.length, 0);
    const one = await bob.client.notifications({ filter: { id: { eq: all[2] } } });
    assert.deepEqual(
      one.nodes.map((n) => n.id),
      [all[2]],
    );
    await bob.client.archiveNotification(all[0]!);
    const archived = await bob.client.notifications({
      includeArchived: true,
      filter: { archivedAt: { gt: '-P1D' } },
    });
    assert.deepEqual(
      archived.nodes.map((n) => n.id),
      [all[0]],
    );
  });

  test('issue.subscribers() pages and filters', async () => {
    const bob = await person('member', ['ENG']);
    const carol = await person('member', ['ENG']);
    const issue = await assigned(bob, 'Followed');
    await raw(carol.client, 'mutation($id: String!) { issueSubscribe(id: $id) { success } }', {
      id: issue.id,
    });
    const subs = await issue.subscribers();
    const ids = subs.nodes.map((u) => u.id);
    assert.ok(ids.includes(bob.id) && ids.includes(carol.id));
    const first = await issue.subscribers({ first: 1 });
    assert.equal(first.nodes.length, 1);
    assert.equal(first.pageInfo.hasNextPage, true);
    const next = await issue.subscribers({ first: 1, after: first.pageInfo.endCursor });
    assert.notEqual(next.nodes[0]!.id, first.nodes[0]!.id);
    const filtered = await issue.subscribers({ filter: { id: { eq: carol.id } } });
    assert.deepEqual(
      filtered.nodes.map((u) => u.id),
      [carol.id],
    );
  });

  test('a page with issue, team, actor, user and comment costs as many statements for 2 as for 12', async () => {
    const bob = await person('member', ['ENG']);
    const issue = await assigned(bob, 'Counted');
    for (let i = 0; i < 11; i++) await admin.createComment({ issueId: issue.id, body: `c${i}` });
    const actor = {
      id: bob.id,
      role: 'member' as const,
      name: 'Bob',
      email: 'bob@x',
      via: 'apiKey' as const,
    };
    const query = `query($n: Int) { notifications(first: $n) { nodes { id type readAt
      ... on IssueNotification { title url subtitle actorInitials issue { title state { name } } team { name }
        actor { name } user { name } comment { body user { name } } parentComment { body } } } } }`;
    const counts: Record<number, number> = {};
    // The caller's team access is read once and kept: warm it first, so both runs count the same work.
    for (const n of [1, 2, 12]) {
      const counter = new StatementCounter();
      const res = await runGraphql(graphqlSchema(), { ...t.ctx, db: t.ctx.db.withPlugin(counter) }, actor, {
        query,
        variables: { n },
      });
      assert.equal(res.body.errors, undefined, JSON.stringify(res.body.errors));
      assert.equal((res.body.data as any).notifications.nodes.length, n);
      counts[n] = counter.count;
    }
    console.log(`# statements: ${JSON.stringify(counts)}`);
    assert.equal(counts[12], counts[2]);
  });
});
