// `notification.create` on the change stream (docs/live.md): a notification's
// recipient gets it on every stream of theirs, with exactly the shape the
// inbox UI reads; nobody else does (not the actor, not another member, not an
// admin), and no webhook is sent it. Runs on PGlite and PostgreSQL alike.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { startTestApp, type TestApp } from './support/harness.js';
import { openSse, type SseClient } from './support/sse.js';
import { type Receiver, startReceiver } from './webhooks-support.js';

let t: TestApp;
let base: string;
let rx: Receiver;
const open: SseClient[] = [];

const stream = async (token: string) => {
  const c = await openSse(base, '/api/stream', { authorization: `Bearer ${token}` });
  assert.equal(c.status, 200, JSON.stringify(c.body));
  open.push(c);
  await c.next((e) => e.event === 'ready');
  return c;
};

before(async () => {
  t = await startTestApp();
  base = await t.listen();
  rx = await startReceiver();
});
after(async () => {
  for (const c of open) c.close();
  await rx.close();
  await t.close();
});

test('a notification reaches its recipient’s streams alone, and no webhook', async () => {
  const hook = await t.post('/api/admin/webhooks', { url: rx.url }, t.adminToken); // every kind, every team
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  const actor = await t.userWithRole('member', { teams: ['ENG'] });
  const recipient = await t.userWithRole('member', { teams: ['ENG'] });
  const bystander = await t.userWithRole('member', { teams: ['ENG'] });
  const [mine, mineToo, actors, bystanders, admins] = await Promise.all([
    stream(recipient.token),
    stream(recipient.token),
    stream(actor.token),
    stream(bystander.token),
    stream(t.adminToken),
  ]);

  const created = await t.post(
    '/api/issues',
    { teamId: 'ENG', title: 'Yours now', assigneeId: recipient.user.id },
    actor.token,
  );
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const issueId = created.body.issue.id as string;
  const inbox = await t.get('/api/notifications', recipient.token);
  const [notification] = inbox.body.notifications;
  assert.equal(notification.issue.id, issueId);

  for (const c of [mine, mineToo]) {
    const e = await c.next((x) => x.event === 'notification.create');
    assert.deepEqual(e.data, {
      syncId: Number(e.id),
      type: 'notification',
      action: 'create',
      id: notification.id,
      issueId,
    });
  }
  // Everyone gets the issue itself.
  for (const c of [actors, bystanders, admins, mine]) {
    await c.next((x) => x.event === 'issue.create' && x.data.id === issueId);
  }
  for (const c of [actors, bystanders, admins]) {
    assert.ok(!c.events.some((x) => x.event.startsWith('notification')), 'someone else’s notification');
    assert.ok(!c.raw().includes(notification.id));
  }

  // The webhook got the issue, and never the notification.
  await rx.waitFor((all) => all.some((r) => r.body.data?.id === issueId), 'the issue event');
  assert.ok(!rx.received.some((r) => r.body.type === 'notification'));
  const deliveries = await sql<{ n: string }>`select count(*)::text as n from webhook_deliveries d
    join webhook_events e on e.id = d.event_id where e.type = 'notification'`.execute(t.ctx.db);
  assert.equal(deliveries.rows[0]!.n, '0');
  const scoped = await sql<{ scope: string; user_id: string }>`select scope, user_id from webhook_events
    where type = 'notification' and payload->'data'->>'id' = ${notification.id}`.execute(t.ctx.db);
  assert.deepEqual(scoped.rows, [{ scope: 'user', user_id: recipient.user.id }]);
});
