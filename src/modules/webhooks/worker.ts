// The delivery worker: a background loop that claims due deliveries from the
// outbox (queries.claimDue), POSTs them signed, and records every attempt.
// At least once, in order per endpoint (only each endpoint's oldest unfinished
// delivery is ever claimable), safe with several instances on one PostgreSQL
// (row locks + leases), and never holding a transaction across HTTP (PGlite is
// a single connection). Wake-ups: LISTEN/NOTIFY from recordEvent's commit,
// local kicks when an attempt finishes, and a cheap poll as the safety net.
import { createHmac } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import { startClaimLoop } from '../../platform/claim-loop.js';
import type { AppContext } from '../../platform/context.js';
import { listenForNotifications } from '../../platform/db/notifications.js';
import { keepAliveAgents, type PostOutcome, postJson } from '../../platform/net/outbound-post.js';
import { WEBHOOK_NOTIFY_CHANNEL } from '../../platform/outbox.js';
import * as q from './queries.js';
import { retryDelayMs } from './schedule.js';
import { type DeliveryTuning, tuningFor } from './tuning.js';

export interface WebhookWorker {
  /** Stops claiming; waits (briefly) for attempts in flight. */
  stop(): Promise<void>;
  /** Look for due deliveries now rather than at the next poll. */
  kick(): void;
}

export interface WorkerOptions {
  /** Where to LISTEN: the embedded instance, or a PostgreSQL connection string. */
  database?: { kind: 'pglite' | 'postgres'; pglite?: PGlite | undefined; url?: string | undefined };
}

const running = new WeakMap<AppContext, WebhookWorker>();

/** Wakes the app's worker, if one runs (after a redelivery or re-enable). */
export function kickWebhookWorker(ctx: AppContext): void {
  running.get(ctx)?.kick();
}

export const userAgent = (publicUrl: string) => `Trackway-Webhooks/1 (+${publicUrl})`;

export function signBody(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** The JSON body of one attempt; `webhookTimestamp` is new on every attempt (hence the re-signing). */
export function deliveryBody(job: q.ClaimedDelivery, timestamp: number): string {
  const p = job.payload as { data?: unknown; updatedFrom?: unknown; url?: unknown; actor?: unknown };
  return JSON.stringify({
    type: job.event_type,
    action: job.event_action,
    data: p.data ?? {},
    createdAt: job.event_created_at.toISOString(),
    ...(p.updatedFrom ? { updatedFrom: p.updatedFrom } : {}),
    url: p.url ?? null,
    actor: p.actor ?? null,
    webhookId: job.webhook_id,
    webhookTimestamp: timestamp,
  });
}

export function startWebhookWorker(ctx: AppContext, opts: WorkerOptions = {}): WebhookWorker {
  const agents = keepAliveAgents();

  /** Records the outcome; after a success, returns the endpoint's next due delivery (claimed). */
  async function record(
    job: q.ClaimedDelivery,
    startedAt: Date,
    out: PostOutcome,
    tuning: DeliveryTuning,
  ): Promise<q.ClaimedDelivery | null> {
    const attempt = {
      startedAt,
      durationMs: out.durationMs,
      statusCode: out.statusCode,
      error: out.error,
      responseBody: out.responseBody,
    };
    if (out.ok) {
      return q.recordSuccessAndClaimNext(
        ctx.db,
        job,
        attempt,
        loop.stopping ? null : { leaseMs: tuning.leaseMs },
      );
    }
    const error = out.error ?? 'failed';
    const disabled = await ctx.db.transaction().execute(async (trx) => {
      await q.insertAttempt(trx, job.id, attempt);
      const failuresInSchedule = job.attempts - job.retry_offset;
      const settled = await q.settleDelivery(
        trx,
        job.id,
        job.attempts,
        failuresInSchedule >= tuning.maxAttempts
          ? { status: 'failed', error }
          : {
              status: 'pending',
              error,
              retryInMs: retryDelayMs(ctx.config.webhookRetryBaseMs, failuresInSchedule),
            },
      );
      return settled ? q.markEndpointFailing(trx, job.webhook_id, tuning.disableAfterMs, error) : null;
    });
    if (disabled) ctx.log.warn({ webhookId: job.webhook_id, reason: disabled }, 'webhook endpoint disabled');
    return null;
  }

  /** Delivers a claimed delivery, then the endpoint's following ones while they succeed. */
  async function lane(first: q.ClaimedDelivery) {
    let job: q.ClaimedDelivery | null = first;
    while (job) {
      const tuning = tuningFor(ctx);
      const body = deliveryBody(job, Date.now());
      const startedAt = new Date();
      const out = await postJson(
        job.url,
        body,
        {
          'content-type': 'application/json',
          'user-agent': userAgent(ctx.config.publicUrl),
          'x-service-event': `${job.event_type}.${job.event_action}`,
          'x-service-delivery': job.id,
          'x-service-signature': `sha256=${signBody(job.secret, body)}`,
        },
        { timeoutMs: tuning.timeoutMs, allowPrivate: ctx.config.webhookAllowPrivate, agents },
      );
      job = await record(job, startedAt, out, tuning);
    }
  }

  const loop = startClaimLoop(ctx, {
    name: 'webhook worker',
    tuning: () => tuningFor(ctx),
    claim: async (room) => (room > 0 ? q.claimDue(ctx.db, room, tuningFor(ctx).leaseMs) : []),
    run: lane,
  });

  const db = opts.database;
  const stopListening = listenForNotifications(
    ctx.db,
    db && { ...db, url: db.kind === 'postgres' ? (db.url ?? ctx.config.databaseUrl) : undefined },
    WEBHOOK_NOTIFY_CHANNEL,
    () => loop.kick(),
    () => loop.stopping,
  );

  const worker: WebhookWorker = {
    kick: () => loop.kick(),
    async stop() {
      await loop.stop();
      await stopListening();
      agents.http.destroy();
      agents.https.destroy();
      if (running.get(ctx) === worker) running.delete(ctx);
    },
  };
  running.set(ctx, worker);
  return worker;
}
