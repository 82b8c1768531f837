// The delivery worker: a background loop that claims due deliveries from the
// outbox (queries.claimDue), POSTs them signed, and records every attempt.
// At least once, in order per endpoint (only each endpoint's oldest unfinished
// delivery is ever claimable), safe with several instances on one PostgreSQL
// (row locks + leases), and never holding a transaction across HTTP (PGlite is
// a single connection). Wake-ups: LISTEN/NOTIFY from recordEvent's commit,
// local kicks when an attempt finishes, and a cheap poll as the safety net.
import { createHmac } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
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
  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  let kicked = false;
  let wake: (() => void) | null = null;

  const kick = () => {
    kicked = true;
    wake?.();
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      wake = done;
    });

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
      return q.recordSuccessAndClaimNext(ctx.db, job, attempt, stopping ? null : { leaseMs: tuning.leaseMs });
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

  async function loop() {
    while (!stopping) {
      kicked = false;
      const tuning = tuningFor(ctx);
      const room = tuning.concurrency - inFlight.size;
      let claimed: q.ClaimedDelivery[] = [];
      if (room > 0) {
        try {
          claimed = await q.claimDue(ctx.db, room, tuning.leaseMs);
        } catch (err) {
          if (!stopping) ctx.log.error({ err }, 'webhook worker: claiming deliveries failed');
        }
      }
      for (const job of claimed) {
        const p: Promise<void> = lane(job)
          .catch((err) => {
            // The lease runs out and the delivery is tried again: at least once.
            if (!stopping) ctx.log.error({ err, deliveryId: job.id }, 'webhook worker: recording failed');
          })
          .finally(() => {
            inFlight.delete(p);
            kick();
          });
        inFlight.add(p);
      }
      if (stopping) break;
      if (claimed.length > 0 && claimed.length === room) continue;
      if (!kicked) await sleep(tuning.pollMs);
    }
  }

  const db = opts.database;
  const stopListening = listenForNotifications(
    ctx.db,
    db && { ...db, url: db.kind === 'postgres' ? (db.url ?? ctx.config.databaseUrl) : undefined },
    WEBHOOK_NOTIFY_CHANNEL,
    kick,
    () => stopping,
  );
  const looping = loop();

  const worker: WebhookWorker = {
    kick,
    async stop() {
      if (stopping) return looping;
      stopping = true;
      wake?.();
      await looping;
      const timeout = new Promise<void>((r) => setTimeout(r, tuningFor(ctx).stopTimeoutMs).unref());
      await Promise.race([Promise.allSettled([...inFlight]), timeout]);
      await stopListening();
      agents.http.destroy();
      agents.https.destroy();
      if (running.get(ctx) === worker) running.delete(ctx);
    },
  };
  running.set(ctx, worker);
  return worker;
}
