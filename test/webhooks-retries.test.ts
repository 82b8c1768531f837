// Webhook delivery when receivers fail: retries, timeouts, order per endpoint,
// exhausted schedules, redelivery, disabling and crashed workers.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { tuneWebhookDelivery } from '../src/modules/webhooks/tuning.js';
import { startWebhookWorker } from '../src/modules/webhooks/worker.js';
import { createHook, deliveriesOf, emit, member, rx, setUpWebhookBed, t, until } from './webhooks-bed.js';
import { signatureValid, sleep } from './webhooks-support.js';

setUpWebhookBed();

describe('delivery: retries, order and failures', () => {
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
    // Long enough that a loaded CI machine answers the second attempt in time;
    // should it not, that attempt is one more timeout, which the checks allow.
    tuneWebhookDelivery(t.ctx, { timeoutMs: 1000 });
    const hook = await createHook();
    let calls = 0;
    rx.reply = () => (++calls === 1 ? 'hang' : { status: 200, body: 'ok' });
    await emit({ type: 'comment', action: 'create' });
    const [d] = await until(
      () => deliveriesOf(hook.id),
      (ds) => ds[0]?.status === 'succeeded',
      'success after a timeout',
    );
    assert.ok(d.attemptCount >= 2);
    const last = d.attempts.at(-1);
    assert.equal(last.statusCode, 200);
    for (const timedOut of d.attempts.slice(0, -1)) {
      assert.equal(timedOut.statusCode, null);
      assert.match(timedOut.error, /timed out after 1000 ms/);
    }
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
