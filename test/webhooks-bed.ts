// The shared bed of the webhook tests: one app, one real receiver, a member,
// and helpers to register endpoints, emit events and wait for deliveries.
// Each file calls setUpWebhookBed() once, at its top; `t`, `rx` and `member` are live
// bindings, set by its before hook.
import assert from 'node:assert/strict';
import { after, afterEach, before } from 'node:test';
import { tuneWebhookDelivery } from '../src/modules/webhooks/tuning.js';
import { appendEvent, type ChangeEvent } from '../src/platform/outbox.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { type Receiver, sleep, startReceiver } from './webhooks-support.js';

export let t: TestApp;
export let rx: Receiver;
export let member: { token: string };

// Each test registers its own endpoints; remove them so later tests see only theirs.
const created: string[] = [];

export function setUpWebhookBed(): void {
  before(async () => {
    t = await startTestApp();
    rx = await startReceiver();
    member = await t.register('Member');
  });
  after(async () => {
    await rx.close();
    await t.close();
  });
  afterEach(async () => {
    for (const id of created.splice(0)) await t.del(`/api/admin/webhooks/${id}`, t.adminToken);
    rx.received.length = 0;
    rx.reply = () => ({ status: 200, body: 'ok' });
    tuneWebhookDelivery(t.ctx, { timeoutMs: 10_000, maxAttempts: 18, disableAfterMs: 3 * 86_400_000 });
  });
}

export async function createHook(body: Record<string, unknown> = {}) {
  const res = await t.post('/api/admin/webhooks', { url: rx.url, ...body }, t.adminToken);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  created.push(res.body.webhook.id);
  return res.body.webhook as { id: string; secret: string; [k: string]: unknown };
}

export const actor = { id: '00000000-0000-4000-8000-000000000001', name: 'Ada', email: 'ada@example.com' };

export async function emit(event: Partial<ChangeEvent> & Pick<ChangeEvent, 'type' | 'action'>) {
  return t.ctx.db.transaction().execute((trx) =>
    appendEvent(trx, {
      data: { id: `rec-${Math.random().toString(36).slice(2)}`, title: 'Hello' },
      actor,
      ...event,
    }),
  );
}

export const deliveriesOf = async (id: string) => {
  const res = await t.get(`/api/admin/webhooks/${id}/deliveries?limit=100`, t.adminToken);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.deliveries as any[];
};

export async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, what: string, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await sleep(25);
  }
}
