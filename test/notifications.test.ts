// Subscriptions and the inbox over REST: each kind of notification, none for
// the actor's own change, none for whoever cannot see the issue (a member
// outside a private team, a guest outside the team), mentions by display
// name (an ambiguous one mentions nobody), manual unsubscribe, read/unread,
// archive, snooze, read-all and the unread count, bad input, and the
// statement count of an inbox page.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { listInboxJson } from '../src/modules/notifications/service.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { StatementCounter } from './support/statement-counter.js';

type Person = { token: string; user: any; name: string };
let t: TestApp;
let alice: Person; // member of ENG and the private VLT
let bob: Person; // member of ENG
let carol: Person; // member of ENG
let gina: Person; // guest of ENG
let otto: Person; // guest of no team
let states: Record<string, string>;

async function person(role: 'member' | 'guest', teams: string[], name: string): Promise<Person> {
  const p = await t.userWithRole(role, { teams });
  await t.ctx.db.updateTable('users').set({ display_name: name }).where('id', '=', p.user.id).execute();
  return { token: p.token, user: p.user, name };
}

before(async () => {
  t = await startTestApp();
  const tag = Math.random().toString(36).slice(2, 7);
  alice = await person('member', ['ENG'], `alice${tag}`);
  bob = await person('member', ['ENG'], `bob${tag}`);
  carol = await person('member', ['ENG'], `carol${tag}`);
  gina = await person('guest', ['ENG'], `gina${tag}`);
  otto = await person('guest', [], `otto${tag}`);
  const vault = await t.post('/api/teams', { name: 'Vault', key: 'VLT', private: true }, t.adminToken);
  assert.equal(vault.status, 201, JSON.stringify(vault.body));
  assert.ok((await t.post('/api/teams/VLT/members', { userId: alice.user.id }, t.adminToken)).status < 300);
  const res = await t.get('/api/workflow-states?teamId=ENG', t.adminToken);
  states = Object.fromEntries(res.body.workflowStates.map((s: any) => [s.name, s.id]));
});
after(() => t.close());

async function issue(by: Person, body: Record<string, unknown> = {}) {
  const res = await t.post('/api/issues', { teamId: 'ENG', title: 'Something', ...body }, by.token);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.issue;
}
async function comment(by: Person, issueId: string, body: string, parentId?: string) {
  const res = await t.post(`/api/issues/${issueId}/comments`, { body, parentId }, by.token);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.comment;
}
const inbox = async (p: Person, query = '') => {
  const res = await t.get(`/api/notifications${query}`, p.token);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.notifications as any[];
};
const about = async (p: Person, issueId: string) =>
  (await inbox(p, '?limit=250')).filter((n) => n.issue.id === issueId).map((n) => n.type);
const unread = async (p: Person) => (await t.get('/api/notifications/unread-count', p.token)).body.count;
const subscribers = async (issueId: string) =>
  (await t.ctx.db.selectFrom('issue_subscribers').select('user_id').where('issue_id', '=', issueId).execute())
    .map((r) => r.user_id)
    .sort();
const total = async () =>
  Number(
    (
      await t.ctx.db
        .selectFrom('notifications')
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('who is subscribed and notified', () => {
  test('creating an assigned issue: creator and assignee subscribed, the assignee notified, the creator not', async () => {
    const i = await issue(alice, { assigneeId: bob.user.id });
    assert.deepEqual(await subscribers(i.id), [alice.user.id, bob.user.id].sort());
    assert.deepEqual(await about(bob, i.id), ['issueAssignedToYou']);
    assert.deepEqual(await about(alice, i.id), []);
    const [n] = await inbox(bob);
    assert.equal(n.issue.identifier, i.identifier);
    assert.equal(n.actor.id, alice.user.id);
    assert.equal(n.readAt, null);
  });

  test('assigning yourself notifies nobody; assigning someone else notifies them once', async () => {
    const i = await issue(alice);
    await t.patch(`/api/issues/${i.id}`, { assigneeId: alice.user.id }, alice.token);
    assert.deepEqual(await about(alice, i.id), []);
    await t.patch(`/api/issues/${i.id}`, { assigneeId: carol.user.id }, alice.token);
    assert.deepEqual(await about(carol, i.id), ['issueAssignedToYou']);
    assert.ok((await subscribers(i.id)).includes(carol.user.id));
  });

  test('a mention in a description (any case) subscribes and notifies; an edit notifies only new mentions', async () => {
    const i = await issue(alice, { description: `ask @${bob.name.toUpperCase()} and @${alice.name}` });
    assert.deepEqual(await about(bob, i.id), ['issueMention']);
    assert.deepEqual(await about(alice, i.id), [], 'mentioning yourself is no notification');
    assert.ok((await subscribers(i.id)).includes(bob.user.id));
    await t.patch(`/api/issues/${i.id}`, { description: `ask @${bob.name} and @${carol.name}` }, alice.token);
    assert.deepEqual(await about(bob, i.id), ['issueMention'], 'bob was already mentioned');
    assert.deepEqual(await about(carol, i.id), ['issueMention']);
  });

  test('a comment: subscribers get issueNewComment, the mentioned issueCommentMention (only that), the commenter nothing', async () => {
    const i = await issue(alice);
    const c = await comment(bob, i.id, `thoughts, @${carol.name}?`);
    assert.deepEqual(await about(alice, i.id), ['issueNewComment']);
    assert.deepEqual(await about(carol, i.id), ['issueCommentMention']);
    assert.deepEqual(await about(bob, i.id), []);
    const [n] = (await inbox(alice)).filter((x) => x.issue.id === i.id);
    assert.equal(n.commentId, c.id);
    assert.equal(n.parentCommentId, null);
    // bob commented, so he is subscribed: carol's answer notifies him and alice.
    await comment(carol, i.id, 'yes');
    assert.deepEqual(await about(bob, i.id), ['issueNewComment']);
    assert.deepEqual(await about(alice, i.id), ['issueNewComment', 'issueNewComment']);
  });

  test('a reply notifies the parent comment’s author even when they unsubscribed', async () => {
    const i = await issue(alice);
    const c = await comment(bob, i.id, 'question');
    assert.equal((await t.del(`/api/issues/${i.id}/subscription`, bob.token)).status, 200);
    const r = await comment(carol, i.id, 'answer', c.id);
    const mine = (await inbox(bob)).filter((x) => x.issue.id === i.id);
    assert.deepEqual(
      mine.map((n) => [n.type, n.commentId, n.parentCommentId]),
      [['issueNewComment', r.id, c.id]],
    );
  });

  test('a state change notifies subscribers but not the actor, with the new state type', async () => {
    const i = await issue(alice, { assigneeId: bob.user.id });
    await t.patch(`/api/issues/${i.id}`, { stateId: states['In Progress'] }, bob.token);
    assert.deepEqual(await about(alice, i.id), ['issueStatusChanged']);
    assert.equal((await inbox(alice)).find((n) => n.issue.id === i.id).issueStatusType, 'started');
    assert.deepEqual(await about(bob, i.id), ['issueAssignedToYou']);
  });

  test('manual unsubscribe stops notifications; subscribe by identifier starts them', async () => {
    const i = await issue(alice);
    assert.deepEqual((await t.get(`/api/issues/${i.identifier}/subscription`, alice.token)).body, {
      issueId: i.id,
      subscribed: true,
    });
    assert.equal((await t.del(`/api/issues/${i.id}/subscription`, alice.token)).body.subscribed, false);
    const sub = await t.request('PUT', `/api/issues/${i.identifier}/subscription`, { token: carol.token });
    assert.deepEqual(sub.body, { issueId: i.id, subscribed: true });
    await t.patch(`/api/issues/${i.id}`, { stateId: states.Done }, bob.token);
    assert.deepEqual(await about(alice, i.id), []);
    assert.deepEqual(await about(carol, i.id), ['issueStatusChanged']);
  });

  test('an ambiguous @name mentions nobody', async () => {
    const twin = await person('member', ['ENG'], carol.name.toUpperCase());
    const i = await issue(alice, { description: `@${carol.name}` });
    assert.deepEqual(await about(carol, i.id), []);
    assert.deepEqual(await about(twin, i.id), []);
    await t.ctx.db
      .updateTable('users')
      .set({ display_name: 'twin' })
      .where('id', '=', twin.user.id)
      .execute();
  });
});

describe('visibility', () => {
  test('a member outside a private team mentioned or assigned there gets nothing and is not subscribed', async () => {
    const res = await t.post(
      '/api/issues',
      { teamId: 'VLT', title: 'secret', description: `@${bob.name}`, assigneeId: bob.user.id },
      alice.token,
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const before = await total();
    await comment(alice, res.body.issue.id, `@${bob.name} again`);
    assert.equal(await total(), before);
    assert.deepEqual(await about(bob, res.body.issue.id), []);
    assert.deepEqual(await subscribers(res.body.issue.id), [alice.user.id]);
  });

  test('a guest in the team is notified; a guest outside it gets nothing', async () => {
    const i = await issue(alice, { description: `@${gina.name} @${otto.name}` });
    assert.deepEqual(await about(gina, i.id), ['issueMention']);
    assert.deepEqual(await about(otto, i.id), []);
    // Guests comment, and their comment notifies the issue's subscribers.
    await comment(gina, i.id, 'hello');
    assert.deepEqual(await about(alice, i.id), ['issueNewComment']);
  });

  test('an issue moved to a team the reader cannot see leaves their inbox', async () => {
    const i = await issue(alice, { assigneeId: carol.user.id });
    const n = (await inbox(carol)).find((x) => x.issue.id === i.id);
    assert.ok(n);
    const count = await unread(carol);
    const moved = await t.patch(`/api/issues/${i.id}`, { teamId: 'VLT' }, alice.token);
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.deepEqual(await about(carol, i.id), []);
    assert.equal((await t.get(`/api/notifications/${n.id}`, carol.token)).status, 404);
    assert.equal((await t.patch(`/api/notifications/${n.id}`, { read: true }, carol.token)).status, 404);
    assert.equal(await unread(carol), count - 1);
  });
});

describe('the inbox', () => {
  test('read/unread, archive/unarchive, snooze, read-all and the unread count', async () => {
    const fresh = await person('member', ['ENG'], `dora${Math.random().toString(36).slice(2, 7)}`);
    const a = await issue(alice, { assigneeId: fresh.user.id });
    const b = await issue(alice, { assigneeId: fresh.user.id });
    const c = await issue(alice, { assigneeId: fresh.user.id });
    const list = await inbox(fresh);
    assert.deepEqual(
      list.map((n) => n.issue.id),
      [c.id, b.id, a.id],
      'newest first',
    );
    assert.equal(await unread(fresh), 3);
    const [nc, nb, na] = list;

    let res = await t.patch(`/api/notifications/${na.id}`, { read: true }, fresh.token);
    assert.equal(res.status, 200);
    assert.ok(res.body.notification.readAt);
    assert.equal(await unread(fresh), 2);
    assert.deepEqual(
      (await inbox(fresh, '?unread=true')).map((n) => n.id),
      [nc.id, nb.id],
    );
    assert.deepEqual(
      (await inbox(fresh, '?unread=false')).map((n) => n.id),
      [na.id],
    );
    res = await t.patch(`/api/notifications/${na.id}`, { read: false }, fresh.token);
    assert.equal(res.body.notification.readAt, null);
    assert.equal(await unread(fresh), 3);

    await t.patch(`/api/notifications/${nb.id}`, { archived: true }, fresh.token);
    assert.deepEqual(
      (await inbox(fresh)).map((n) => n.id),
      [nc.id, na.id],
    );
    assert.deepEqual(
      (await inbox(fresh, '?archived=true')).map((n) => n.id),
      [nb.id],
    );
    assert.equal(await unread(fresh), 2);
    await t.patch(`/api/notifications/${nb.id}`, { archived: false }, fresh.token);
    assert.equal((await inbox(fresh)).length, 3);

    const later = new Date(Date.now() + 3_600_000).toISOString();
    res = await t.patch(`/api/notifications/${nc.id}`, { snoozedUntilAt: later }, fresh.token);
    assert.equal(res.body.notification.snoozedUntilAt, later);
    assert.deepEqual(
      (await inbox(fresh)).map((n) => n.id),
      [nb.id, na.id],
    );
    assert.equal(await unread(fresh), 2);
    const past = new Date(Date.now() - 1000).toISOString();
    await t.patch(`/api/notifications/${nc.id}`, { snoozedUntilAt: past }, fresh.token);
    assert.equal((await inbox(fresh)).length, 3, 'a snooze whose time has passed is back');

    await t.patch(`/api/notifications/${nc.id}`, { snoozedUntilAt: later }, fresh.token);
    res = await t.post('/api/notifications/read-all', {}, fresh.token);
    assert.deepEqual(res.body, { ok: true, count: 2 });
    assert.equal(await unread(fresh), 0);
    await t.patch(`/api/notifications/${nc.id}`, { snoozedUntilAt: null }, fresh.token);
    assert.equal(await unread(fresh), 1, 'the snoozed one was not in the inbox, so it stays unread');
    const page = await t.get('/api/notifications?limit=2&offset=1', fresh.token);
    assert.deepEqual(page.body.pageInfo, { total: 3, limit: 2, offset: 1 });
    assert.equal(page.body.notifications.length, 2);
  });

  test("someone else's notification is 404 before the body is checked; bad input is 400 and changes nothing", async () => {
    const i = await issue(alice, { assigneeId: bob.user.id });
    const n = (await inbox(bob)).find((x) => x.issue.id === i.id);
    for (const body of [{ read: true }, { snoozedUntilAt: 'soon' }]) {
      const res = await t.patch(`/api/notifications/${n.id}`, body, carol.token);
      assert.equal(res.status, 404, JSON.stringify(res.body));
    }
    assert.equal((await t.get(`/api/notifications/${n.id}`, carol.token)).status, 404);
    assert.equal((await t.get('/api/notifications/not-a-uuid', bob.token)).status, 404);
    for (const body of [
      {},
      { read: 'yes' },
      { snoozedUntilAt: 'soon' },
      { snoozedUntilAt: 5 },
      { other: 1 },
    ]) {
      const res = await t.patch(`/api/notifications/${n.id}`, body, bob.token);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(typeof (res.body.error?.code ?? res.body.code), 'string');
    }
    const again = (await t.get(`/api/notifications/${n.id}`, bob.token)).body.notification;
    assert.deepEqual(again, n);
    assert.equal((await t.get('/api/notifications?limit=0', bob.token)).status, 400);
    assert.equal((await t.get('/api/notifications')).status, 401);
    assert.equal(
      (await t.request('PUT', '/api/issues/VLT-1/subscription', { token: bob.token })).status,
      404,
    );
    assert.equal(
      (await t.request('PUT', '/api/issues/ENG-99999/subscription', { token: otto.token })).status,
      404,
    );
  });

  test("one issue's notifications change together, more of them than a page holds", async () => {
    const reader = await person('member', ['ENG'], `gus${Math.random().toString(36).slice(2, 7)}`);
    const i = await issue(alice, { assigneeId: reader.user.id });
    const other = await issue(alice, { assigneeId: reader.user.id });
    for (let n = 0; n < 55; n++) await comment(bob, i.id, `Look ${n}`);
    const mine = async (query: string) =>
      (await inbox(reader, `?limit=250${query}`)).filter((n) => n.issue.id === i.id);
    assert.equal((await mine('')).length, 56, 'assigned, then 55 comments: more than a page of 50');
    const group = (body: unknown, who = reader, target = i.identifier) =>
      t.patch(`/api/issues/${target}/notifications`, body, who.token);

    let res = await group({ archived: true });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.notifications.length, 56);
    assert.ok(res.body.notifications.every((n: any) => n.archivedAt && n.issue.id === i.id));
    assert.deepEqual(
      res.body.notifications.map((n: any) => n.createdAt),
      res.body.notifications
        .map((n: any) => n.createdAt)
        .sort()
        .reverse(),
      'newest first',
    );
    assert.equal((await mine('')).length, 0);
    assert.equal((await mine('&archived=true')).length, 56);
    assert.equal(
      (await inbox(reader)).filter((n) => n.issue.id === other.id).length,
      1,
      'other issues untouched',
    );

    res = await group({ archived: false, read: true });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal((await mine('&archived=true')).length, 0, 'every one unarchived, not only a page');
    assert.ok((await mine('')).every((n) => n.readAt));
    res = await t.patch(`/api/issues/${i.id}/notifications`, { read: false }, reader.token);
    assert.equal(res.status, 200, 'by id as well as identifier');
    assert.equal((await mine('&unread=true')).length, 56);
    const later = new Date(Date.now() + 3_600_000).toISOString();
    assert.equal((await group({ snoozedUntilAt: later })).status, 200);
    assert.equal((await mine('')).length, 0, 'snoozed out of the inbox');
    assert.equal((await group({ snoozedUntilAt: null })).status, 200);
    assert.equal((await mine('')).length, 56);

    // Someone with none about it gets an empty list; an issue they cannot see is 404 before the body.
    res = await group({ read: true }, carol);
    assert.deepEqual([res.status, res.body], [200, { notifications: [] }]);
    assert.equal((await t.patch('/api/issues/VLT-1/notifications', { read: true }, bob.token)).status, 404);
    assert.equal((await group({ snoozedUntilAt: 'soon' }, otto)).status, 404);
    assert.equal((await group({ read: true }, reader, 'ENG-99999')).status, 404);
    assert.equal((await t.request('PATCH', `/api/issues/${i.id}/notifications`, { body: {} })).status, 401);
  });

  test('any body for a group: a refusal is a 4xx that changes nothing, an answer applies it', async () => {
    const reader = await person('member', ['ENG'], `hal${Math.random().toString(36).slice(2, 7)}`);
    const i = await issue(alice, { assigneeId: reader.user.id });
    await comment(bob, i.id, 'Another');
    const stored = async () =>
      (
        await t.ctx.db
          .selectFrom('notifications')
          .select(['id', 'read_at', 'archived_at', 'snoozed_until_at'])
          .where('user_id', '=', reader.user.id)
          .orderBy('id')
          .execute()
      ).map((r) => JSON.stringify(r));
    const iso = fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true });
    const body = fc.oneof(
      fc.record(
        {
          read: fc.boolean(),
          archived: fc.boolean(),
          snoozedUntilAt: fc.oneof(
            fc.constant(null),
            iso.map((d) => d.toISOString()),
          ),
        },
        { requiredKeys: [] },
      ),
      fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const before = await stored();
        const res = await t.request('PATCH', `/api/issues/${i.identifier}/notifications`, {
          body: b,
          token: reader.token,
        });
        assert.ok(res.status < 500, `${res.status} ${JSON.stringify(res.body)}`);
        if (res.status >= 400) {
          assert.equal(res.status, 400, JSON.stringify(res.body));
          assert.deepEqual(await stored(), before);
          return;
        }
        const change = b as { read?: boolean; archived?: boolean; snoozedUntilAt?: string | null };
        assert.equal(res.body.notifications.length, 2);
        for (const n of res.body.notifications) {
          if (change.read !== undefined) assert.equal(n.readAt !== null, change.read);
          if (change.archived !== undefined) assert.equal(n.archivedAt !== null, change.archived);
          if (change.snoozedUntilAt !== undefined)
            assert.equal(n.snoozedUntilAt && new Date(n.snoozedUntilAt).toISOString(), change.snoozedUntilAt);
        }
      }),
      { numRuns: Number(process.env['FUZZ_RUNS'] ?? 60) },
    );
  });

  test('an inbox page costs the same statements for 2 and 20 notifications', async () => {
    const reader = await person('member', ['ENG'], `pat${Math.random().toString(36).slice(2, 7)}`);
    const counts: number[] = [];
    for (const n of [2, 20]) {
      while ((await inbox(reader, '?limit=250')).length < n) {
        const i = await issue(alice, { assigneeId: reader.user.id });
        await comment(bob, i.id, `@${reader.name}`);
      }
      const counter = new StatementCounter();
      const actor = {
        id: reader.user.id,
        role: 'member',
        name: reader.user.name,
        email: reader.user.email,
      } as any;
      const page = await listInboxJson(
        { ...t.ctx, db: t.ctx.db.withPlugin(counter) },
        actor,
        {},
        { limit: 50, offset: 0 },
      );
      assert.ok(JSON.parse(page).notifications.length >= n);
      counts.push(counter.count);
    }
    assert.equal(counts[0], counts[1]);
    assert.ok((counts[0] as number) <= 3, `statements: ${counts[0]}`);
  });
});
