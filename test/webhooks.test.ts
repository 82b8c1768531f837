import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { tuneWebhookDelivery } from '../src/modules/webhooks/tuning.js';
import { startWebhookWorker } from '../src/modules/webhooks/worker.js';
import { type ChangeEvent, recordEvent } from '../src/platform/outbox.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { type Receiver, signatureValid, sleep, startReceiver } from './webhooks-support.js';

let t: TestApp;
let rx: Receiver;
let member: { token: string };
before(async () => {
  t = await startTestApp();
  rx = await startReceiver();
  member = await t.register('Member');
});
after(async () => {
  await rx.close();
  await t.close();
});

// Each test registers its own endpoints; remove them so later tests see only theirs.
const created: string[] = [];
afterEach(async () => {
  for (const id of created.splice(0)) await t.del(`/api/admin/webhooks/${id}`, t.adminToken);
  rx.received.length = 0;
  rx.reply = () => ({ status: 200, body: 'ok' });
  tuneWebhookDelivery(t.ctx, { timeoutMs: 10_000, maxAttempts: 18, disableAfterMs: 3 * 86_400_000 });
});

async function createHook(body: Record<string, unknown> = {}) {
  const res = await t.post('/api/admin/webhooks', { url: rx.url, ...body }, t.adminToken);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  created.push(res.body.webhook.id);
  return res.body.webhook as { id: string; secret: string; [k: string]: unknown };
}

const actor = { id: '00000000-0000-4000-8000-000000000001', name: 'Ada', email: 'ada@example.com' };

async function emit(event: Partial<ChangeEvent> & Pick<ChangeEvent, 'type' | 'action'>) {
  return t.ctx.db.transaction().execute((trx) =>
    recordEvent(trx, {
      data: { id: `rec-${Math.random().toString(36).slice(2)}`, title: 'Hello' },
      actor,
      ...event,
    }),
  );
}

const deliveriesOf = async (id: string) => {
  const res = await t.get(`/api/admin/webhooks/${id}/deliveries?limit=100`, t.adminToken);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.deliveries as any[];
};

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, what: string, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await sleep(25);
  }
}

describe('webhook administration', () => {
  test('admins only: 401 without a token, 403 for members', async () => {
    assert.equal((await t.get('/api/admin/webhooks')).status, 401);
    assert.equal((await t.post('/api/admin/webhooks', { url: rx.url })).status, 401);
    const asMember = await t.post('/api/admin/webhooks', { url: rx.url }, member.token);
    assert.equal(asMember.status, 403);
    assert.equal((await t.get('/api/admin/webhooks', member.token)).status, 403);
    const hook = await createHook();
    for (const [method, path] of [
      ['GET', `/api/admin/webhooks/${hook.id}`],
      ['PATCH', `/api/admin/webhooks/${hook.id}`],
      ['DELETE', `/api/admin/webhooks/${hook.id}`],
      ['GET', `/api/admin/webhooks/${hook.id}/deliveries`],
      ['POST', `/api/admin/webhooks/${hook.id}/rotate-secret`],
    ] as const) {
      const body = method === 'PATCH' ? { label: 'x' } : undefined;
      const res = await t.request(method, path, { token: member.token, body });
      assert.equal(res.status, 403, `${method} ${path}`);
    }
    const guest = await t.userWithRole('guest', { teams: ['ENG'] });
    assert.equal((await t.get(`/api/admin/webhooks/${hook.id}`, guest.token)).status, 403);
  });

  test('creation generates a strong secret, shown only at creation and rotation', async () => {
    const hook = await createHook({ label: 'CI', resourceTypes: ['issue', 'comment'] });
    assert.ok(hook.secret.length >= 43, 'base64url of 32 random bytes');
    assert.equal(hook.label, 'CI');
    assert.equal(hook.enabled, true);
    assert.deepEqual(hook.resourceTypes, ['issue', 'comment']);
    const other = await createHook();
    assert.notEqual(other.secret, hook.secret);

    const one = await t.get(`/api/admin/webhooks/${hook.id}`, t.adminToken);
    assert.equal(one.status, 200);
    assert.equal(one.body.webhook.id, hook.id);
    assert.equal('secret' in one.body.webhook, false);
    const list = await t.get('/api/admin/webhooks', t.adminToken);
    assert.equal(list.status, 200);
    assert.ok(list.body.webhooks.some((w: any) => w.id === hook.id));
    assert.equal(list.body.pageInfo.total, 2);
    const patched = await t.patch(`/api/admin/webhooks/${hook.id}`, { label: 'Renamed' }, t.adminToken);
    assert.equal(patched.status, 200);
    assert.equal(patched.body.webhook.label, 'Renamed');
    for (const res of [one, list, patched]) assert.ok(!JSON.stringify(res.body).includes(hook.secret));

    const rotated = await t.post(`/api/admin/webhooks/${hook.id}/rotate-secret`, undefined, t.adminToken);
    assert.equal(rotated.status, 200);
    assert.ok(rotated.body.webhook.secret.length >= 43);
    assert.notEqual(rotated.body.webhook.secret, hook.secret);
    const after = await t.get(`/api/admin/webhooks/${hook.id}`, t.adminToken);
    assert.ok(!JSON.stringify(after.body).includes(rotated.body.webhook.secret));

    // Deliveries are signed with the new secret from now on.
    await emit({ type: 'issue', action: 'create' });
    await rx.waitFor((all) => all.length >= 2, 'two deliveries');
    const mine = rx.received.find((r) => r.body.webhookId === hook.id)!;
    assert.ok(signatureValid(rotated.body.webhook.secret, mine));
    assert.ok(!signatureValid(hook.secret, mine));
  });

  test('a given secret is kept; shorter than 16 characters is refused', async () => {
    const hook = await createHook({ secret: 's'.repeat(16) });
    assert.equal(hook.secret, 's'.repeat(16));
    const short = await t.post('/api/admin/webhooks', { url: rx.url, secret: 'too-short' }, t.adminToken);
    assert.equal(short.status, 400);
    assert.equal(short.body.error.code, 'VALIDATION_FAILED');
  });

  const invalid: [string, unknown][] = [
    ['missing url', {}],
    ['unknown resource type', { url: 'http://127.0.0.1:9/x', resourceTypes: ['user'] }],
    ['resourceTypes not an array', { url: 'http://127.0.0.1:9/x', resourceTypes: 'issue' }],
    ['enabled as a string', { url: 'http://127.0.0.1:9/x', enabled: 'yes' }],
    ['unknown field', { url: 'http://127.0.0.1:9/x', events: ['issue'] }],
    ['not a URL', { url: 'not a url' }],
    ['ftp scheme', { url: 'ftp://example.com/x' }],
    ['unknown team', { url: 'http://127.0.0.1:9/x', teamId: '00000000-0000-4000-8000-000000000000' }],
  ];
  for (const [what, body] of invalid) {
    test(`400 for ${what}, and nothing is created`, async () => {
      const res = await t.post('/api/admin/webhooks', body, t.adminToken);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'VALIDATION_FAILED');
      assert.equal((await t.get('/api/admin/webhooks', t.adminToken)).body.pageInfo.total, 0);
    });
  }

  test('404 for unknown ids, 400 for malformed ones', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    assert.equal((await t.get(`/api/admin/webhooks/${unknown}`, t.adminToken)).status, 404);
    assert.equal((await t.patch(`/api/admin/webhooks/${unknown}`, { label: 'x' }, t.adminToken)).status, 404);
    assert.equal((await t.del(`/api/admin/webhooks/${unknown}`, t.adminToken)).status, 404);
    assert.equal((await t.get(`/api/admin/webhooks/${unknown}/deliveries`, t.adminToken)).status, 404);
    assert.equal((await t.get('/api/admin/webhooks/nope', t.adminToken)).status, 400);
    const hook = await createHook();
    const res = await t.post(
      `/api/admin/webhooks/${hook.id}/deliveries/${unknown}/redeliver`,
      undefined,
      t.adminToken,
    );
    assert.equal(res.status, 404);
  });

  test('PATCH changes url, enabled and resourceTypes; DELETE stops deliveries', async () => {
    const hook = await createHook();
    const bad = await t.patch(`/api/admin/webhooks/${hook.id}`, { resourceTypes: ['nope'] }, t.adminToken);
    assert.equal(bad.status, 400);
    const empty = await t.patch(`/api/admin/webhooks/${hook.id}`, {}, t.adminToken);
    assert.equal(empty.status, 400);
    const res = await t.patch(
      `/api/admin/webhooks/${hook.id}`,
      { enabled: false, resourceTypes: ['project'], url: `${rx.url}/v2` },
      t.adminToken,
    );
    assert.equal(res.status, 200);
    assert.equal(res.body.webhook.enabled, false);
    assert.deepEqual(res.body.webhook.resourceTypes, ['project']);
    assert.equal(res.body.webhook.url, `${rx.url}/v2`);
    assert.equal((await t.del(`/api/admin/webhooks/${hook.id}`, t.adminToken)).status, 200);
    assert.equal((await t.get(`/api/admin/webhooks/${hook.id}`, t.adminToken)).status, 404);
  });
});

describe('delivery', () => {
  test('every event kind arrives signed, with the documented headers and body', async () => {
    const hook = await createHook();
    const kinds = ['issue', 'comment', 'project', 'cycle', 'label', 'attachment'] as const;
    const actions = ['create', 'update', 'remove'] as const;
    const expected: string[] = [];
    for (const type of kinds) {
      for (const action of actions) {
        await emit({
          type,
          action,
          data: { id: `${type}-1`, title: `A ${type}` },
          ...(action === 'update' ? { updatedFrom: { title: 'Before' } } : {}),
          url: `http://trackway.test/${type}/1`,
        });
        expected.push(`${type}.${action}`);
      }
    }
    await rx.waitFor((all) => all.length >= expected.length, 'every event');
    assert.deepEqual(
      rx.received.map((r) => r.headers['x-service-event']),
      expected,
      'in order, one request each',
    );
    const ids = new Set<string>();
    for (const r of rx.received) {
      assert.ok(signatureValid(hook.secret, r), 'signature over the raw body');
      assert.equal(r.headers['content-type'], 'application/json');
      assert.equal(r.headers['user-agent'], 'Trackway-Webhooks/1 (+http://trackway.test)');
      const [type, action] = String(r.headers['x-service-event']).split('.');
      assert.equal(r.body.type, type);
      assert.equal(r.body.action, action);
      assert.equal(r.body.data.id, `${type}-1`);
      assert.equal(r.body.url, `http://trackway.test/${type}/1`);
      assert.deepEqual(r.body.actor, { ...actor, type: 'user' });
      assert.equal(r.body.webhookId, hook.id);
      assert.match(r.body.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.equal(typeof r.body.webhookTimestamp, 'number');
      assert.ok(Math.abs(r.body.webhookTimestamp - r.at) < 60_000);
      if (action === 'update') assert.deepEqual(r.body.updatedFrom, { title: 'Before' });
      else assert.equal('updatedFrom' in r.body, false);
      ids.add(String(r.headers['x-service-delivery']));
    }
    assert.equal(ids.size, expected.length, 'one delivery id per event');

    const log = await deliveriesOf(hook.id);
    assert.equal(log.length, expected.length);
    assert.equal(log[0].event, 'attachment.remove', 'newest first');
    assert.ok(log.every((d) => d.status === 'succeeded' && d.attemptCount === 1 && d.nextAttemptAt === null));
    assert.ok(ids.has(log[0].id));
    assert.equal(log[0].attempts[0].statusCode, 200);
    assert.equal(log[0].attempts[0].responseBody, 'ok');
  });

  test('a rolled-back change sends nothing', async () => {
    const hook = await createHook();
    await assert.rejects(
      t.ctx.db.transaction().execute(async (trx) => {
        await recordEvent(trx, { type: 'issue', action: 'create', data: { id: 'x' }, actor });
        throw new Error('roll back');
      }),
    );
    await emit({ type: 'issue', action: 'update' });
    await rx.waitFor((all) => all.length >= 1, 'the committed event');
    assert.deepEqual(
      (await deliveriesOf(hook.id)).map((d) => d.event),
      ['issue.update'],
    );
  });

  test('resourceTypes filters what an endpoint receives', async () => {
    const comments = await createHook({ resourceTypes: ['comment'] });
    await emit({ type: 'issue', action: 'create' });
    await emit({ type: 'comment', action: 'create' });
    await emit({ type: 'project', action: 'update' });
    await emit({ type: 'comment', action: 'remove' });
    await rx.waitFor((all) => all.length >= 2, 'the comment events');
    await sleep(200);
    assert.deepEqual(
      rx.received.map((r) => r.headers['x-service-event']),
      ['comment.create', 'comment.remove'],
    );
    assert.deepEqual(
      (await deliveriesOf(comments.id)).map((d) => d.event),
      ['comment.remove', 'comment.create'],
    );
  });

  test('an endpoint scoped to a team receives that team and workspace-wide events only', async () => {
    const teams = await t.ctx.db.selectFrom('teams').select('id').execute();
    const eng = teams[0]!.id;
    const scoped = await createHook({ teamId: eng });
    assert.equal(scoped.teamId, eng);
    await emit({ type: 'issue', action: 'create', data: { id: 'a', teamId: eng } });
    await emit({
      type: 'issue',
      action: 'create',
      data: { id: 'b', teamId: '6f9a3a51-7f2e-4d5e-9c61-2d2d7c9a1111' },
    });
    await emit({ type: 'label', action: 'create', data: { id: 'c', teamId: null } });
    await emit({ type: 'comment', action: 'create', data: { id: 'd', issueId: 'x' }, teamId: eng });
    await rx.waitFor((all) => all.length >= 3, 'three events');
    await sleep(200);
    assert.deepEqual(
      rx.received.map((r) => r.body.data.id),
      ['a', 'c', 'd'],
    );
  });

  test('retries after 5xx with the same delivery id, re-stamped and re-signed', async () => {
    const hook = await createHook();
    let calls = 0;
    rx.reply = () => (++calls <= 2 ? { status: 503, body: 'x'.repeat(5000) } : { status: 204 });
    await emit({ type: 'issue', action: 'create' });
    await rx.waitFor((all) => all.length >= 3, 'three attempts');
    const [a, b, c] = rx.received;
    const id = a!.headers['x-service-delivery'];
    assert.equal(b!.headers['x-service-delivery'], id);
    assert.equal(c!.headers['x-service-delivery'], id);
    for (const r of rx.received) assert.ok(signatureValid(hook.secret, r));
    assert.ok(c!.body.webhookTimestamp >= a!.body.webhookTimestamp);
    assert.notEqual(a!.raw, c!.raw, 'the body changes with webhookTimestamp');
    const [d] = await until(
      () => deliveriesOf(hook.id),
      (ds) => ds[0]?.status === 'succeeded',
      'success recorded',
    );
    assert.equal(d.id, id);
    assert.equal(d.attemptCount, 3);
    assert.deepEqual(
      d.attempts.map((x: any) => x.statusCode),
      [503, 503, 204],
    );
    assert.equal(d.attempts[0].error, 'HTTP 503');
    assert.equal(d.attempts[0].responseBody.length, 1024, 'first KB of the response');
    assert.equal(typeof d.attempts[0].durationMs, 'number');
    assert.equal(d.lastError, null);
  });

  test('a receiver that does not answer in time is retried', async () => {
    tuneWebhookDelivery(t.ctx, { timeoutMs: 300 });
    const hook = await createHook();
    let calls = 0;
    rx.reply = () => (++calls === 1 ? 'hang' : { status: 200, body: 'ok' });
    await emit({ type: 'comment', action: 'create' });
    const [d] = await until(
      () => deliveriesOf(hook.id),
      (ds) => ds[0]?.status === 'succeeded',
      'success after a timeout',
    );
    assert.equal(d.attemptCount, 2);
    assert.equal(d.attempts[0].statusCode, null);
    assert.match(d.attempts[0].error, /timed out after 300 ms/);
  });

  test('redirects are not followed: a 3xx is a failure', async () => {
    const hook = await createHook();
    let calls = 0;
    rx.reply = () => (++calls === 1 ? { status: 302, body: '' } : { status: 200 });
    await emit({ type: 'issue', action: 'create' });
    const [d] = await until(
      () => deliveriesOf(hook.id),
      (ds) => ds[0]?.status === 'succeeded',
      'success after a redirect',
    );
    assert.equal(d.attempts[0].statusCode, 302);
    assert.match(d.attempts[0].error, /redirect not followed/);
    assert.equal(rx.received.length, 2);
  });

  test('order per endpoint: a failing event holds back the later ones', async () => {
    await createHook();
    let calls = 0;
    rx.reply = () => (++calls <= 3 ? { status: 500 } : { status: 200 });
    for (let i = 1; i <= 5; i++) await emit({ type: 'issue', action: 'update', data: { id: `n${i}` } });
    await rx.waitFor((all) => all.length >= 8, 'all five accepted');
    const order = rx.received.map((r) => r.body.data.id);
    assert.deepEqual(order, ['n1', 'n1', 'n1', 'n1', 'n2', 'n3', 'n4', 'n5']);
  });

  test('a delivery that exhausts its schedule is marked failed and the next one proceeds', async () => {
    tuneWebhookDelivery(t.ctx, { maxAttempts: 3 });
    const hook = await createHook();
    rx.reply = (r) => (r.body.data.id === 'doomed' ? { status: 500 } : { status: 200 });
    await emit({ type: 'issue', action: 'create', data: { id: 'doomed' } });
    await emit({ type: 'issue', action: 'create', data: { id: 'next' } });
    const log = await until(
      () => deliveriesOf(hook.id),
      (ds) => ds.length === 2 && ds.every((d) => d.status === 'succeeded' || d.status === 'failed'),
      'both finished',
    );
    const doomed = log.find((d) => d.attempts[0]?.statusCode === 500)!;
    assert.equal(doomed.status, 'failed');
    assert.equal(doomed.attemptCount, 3);
    assert.equal(doomed.lastError, 'HTTP 500');
    assert.equal(doomed.nextAttemptAt, null);
    assert.equal(log.find((d) => d !== doomed).status, 'succeeded');
    // The failures opened a failing period; the later success closed it.
    const now = await t.get(`/api/admin/webhooks/${hook.id}`, t.adminToken);
    assert.equal(now.body.webhook.failingSince, null);
    assert.equal(now.body.webhook.enabled, true);

    // Redelivery re-queues it (same id) with a fresh schedule.
    rx.reply = () => ({ status: 200 });
    const re = await t.post(
      `/api/admin/webhooks/${hook.id}/deliveries/${doomed.id}/redeliver`,
      undefined,
      t.adminToken,
    );
    assert.equal(re.status, 202);
    assert.equal(re.body.delivery.id, doomed.id);
    assert.equal(re.body.delivery.status, 'pending');
    await rx.waitFor(
      (all) =>
        all.some(
          (r) =>
            r.headers['x-service-delivery'] === doomed.id &&
            r.body.data.id === 'doomed' &&
            all.indexOf(r) >= 4,
        ),
      'the redelivery',
    );
    const again = await until(
      () => deliveriesOf(hook.id),
      (ds) => ds.find((d) => d.id === doomed.id)?.status === 'succeeded',
      'redelivered',
    );
    assert.equal(again.find((d) => d.id === doomed.id).attemptCount, 4);
  });

  test('redeliver sends a succeeded delivery again with the same id', async () => {
    const hook = await createHook();
    await emit({ type: 'issue', action: 'create' });
    await rx.waitFor((all) => all.length === 1, 'first delivery');
    const [d] = await until(
      () => deliveriesOf(hook.id),
      (ds) => ds[0]?.status === 'succeeded',
      'recorded',
    );
    const res = await t.post(
      `/api/admin/webhooks/${hook.id}/deliveries/${d.id}/redeliver`,
      undefined,
      t.adminToken,
    );
    assert.equal(res.status, 202);
    await rx.waitFor((all) => all.length === 2, 'second delivery');
    assert.equal(rx.received[1]!.headers['x-service-delivery'], d.id);
    assert.ok(signatureValid(hook.secret, rx.received[1]!));
    const asMember = await t.post(
      `/api/admin/webhooks/${hook.id}/deliveries/${d.id}/redeliver`,
      undefined,
      member.token,
    );
    assert.equal(asMember.status, 403);
  });

  test('an endpoint failing for the whole window is disabled, shows why, and resumes when re-enabled', async () => {
    tuneWebhookDelivery(t.ctx, { disableAfterMs: 300 });
    const hook = await createHook();
    rx.reply = () => ({ status: 500, body: 'down' });
    await emit({ type: 'issue', action: 'create', data: { id: 'first' } });
    const disabled = await until(
      () => t.get(`/api/admin/webhooks/${hook.id}`, t.adminToken),
      (r) => r.body.webhook.enabled === false,
      'automatic disable',
    );
    assert.match(disabled.body.webhook.disabledReason, /failed since .*HTTP 500/);
    assert.ok(disabled.body.webhook.failingSince);
    const redeliver = await t.post(
      `/api/admin/webhooks/${hook.id}/deliveries/${(await deliveriesOf(hook.id))[0].id}/redeliver`,
      undefined,
      t.adminToken,
    );
    assert.equal(redeliver.status, 409);

    rx.reply = () => ({ status: 200 });
    const seen = rx.received.length;
    const res = await t.patch(`/api/admin/webhooks/${hook.id}`, { enabled: true }, t.adminToken);
    assert.equal(res.status, 200);
    assert.equal(res.body.webhook.enabled, true);
    assert.equal(res.body.webhook.disabledReason, null);
    assert.equal(res.body.webhook.failingSince, null);
    // The event queued before the disable is still delivered.
    await rx.waitFor((all) => all.slice(seen).some((r) => r.body.data.id === 'first'), 'the queued event');
  });

  test('a delivery whose lease expired (crashed worker) is delivered again', async () => {
    const hook = await createHook();
    // Simulate a worker that claimed the delivery and died: status delivering, lease in the past.
    await t.ctx.db.transaction().execute(async (trx) => {
      const eventId = await trx
        .insertInto('webhook_events')
        .values({ type: 'issue', action: 'create', payload: JSON.stringify({ data: { id: 'x' } }) })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('webhook_deliveries')
        .values({
          webhook_id: hook.id,
          event_id: eventId.id,
          status: 'delivering',
          attempts: 1,
          lease_until: new Date(Date.now() - 1000),
          next_attempt_at: new Date(Date.now() - 1000),
        })
        .execute();
    });
    await rx.waitFor((all) => all.length === 1, 'the redelivery');
    const [d] = await until(
      () => deliveriesOf(hook.id),
      (ds) => ds[0]?.status === 'succeeded',
      'done',
    );
    assert.equal(d.attemptCount, 2);
  });

  test('two workers on one database never deliver the same event twice', async () => {
    const hook = await createHook();
    const second = startWebhookWorker(t.ctx, { database: t.database });
    const third = startWebhookWorker(t.ctx, { database: t.database });
    try {
      for (let i = 0; i < 30; i++) await emit({ type: 'issue', action: 'update', data: { id: `m${i}` } });
      await rx.waitFor((all) => all.length >= 30, 'thirty events');
      await sleep(300);
      assert.deepEqual(
        rx.received.map((r) => r.body.data.id),
        Array.from({ length: 30 }, (_, i) => `m${i}`),
        'each exactly once, in order',
      );
      const log = await deliveriesOf(hook.id);
      assert.ok(log.every((d) => d.attemptCount === 1));
    } finally {
      await second.stop();
      await third.stop();
    }
  });
});
