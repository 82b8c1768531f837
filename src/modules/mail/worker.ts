// The mail worker: one claim loop per process (platform/claim-loop.ts) that
// turns waiting notification items into digests, claims due messages
// (queue.claimDue: SKIP LOCKED + a lease, so any number of processes share one
// queue) and sends each through nodemailer.
// A message is marked sent, in its own statement, only after the SMTP server
// accepted it; a crash in between sends it again after the lease, with the
// same Message-ID (at least once; docs/email.md). No transaction is held
// across SMTP (PGlite is a single connection).
import type { Transporter } from 'nodemailer';
import { startClaimLoop } from '../../platform/claim-loop.js';
import type { AppContext } from '../../platform/context.js';
import { retryDelayMs } from '../webhooks/schedule.js';
import { composeDigests } from './digest.js';
import { buildMessage } from './messages.js';
import { type ClaimedMail, claimDue, settleMail } from './queries.js';

export interface MailWorkerOptions {
  pollMs?: number;
  /** How long a claimed message is its sender's; past it another worker may send it. */
  leaseMs?: number;
  /** Attempts before a message is given up (status failed). */
  maxAttempts?: number;
  concurrency?: number;
  /** Test seam: runs after the SMTP server accepted, before the send is recorded. */
  afterAccept?: (job: ClaimedMail) => Promise<void> | void;
}

export interface MailWorker {
  kick(): void;
  stop(): Promise<void>;
}

const DEFAULTS = {
  pollMs: 1000,
  leaseMs: 5 * 60_000,
  maxAttempts: 12,
  concurrency: 4,
  stopTimeoutMs: 10_000,
};
// Well under the lease, so a send in flight never outlives its claim.
const SMTP_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };
const ERROR_MAX = 1000;

const running = new WeakMap<AppContext, MailWorker>();

/** Wakes the app's mail worker, if one runs (after a message is queued). */
export function kickMailWorker(ctx: AppContext): void {
  running.get(ctx)?.kick();
}

export function startMailWorker(ctx: AppContext, options: MailWorkerOptions = {}): MailWorker {
  const configured = ctx.config.mail;
  if (!configured) throw new Error('startMailWorker: SMTP is not configured');
  const mail = configured;
  const opts = { ...DEFAULTS, ...options };
  // nodemailer is loaded with the first message to send: about 4 MB of heap a server that sends no
  // mail never holds (docs/benchmarks.md, "Issue 25, fourth stop").
  let transport: Promise<Transporter> | undefined;
  const transportOf = () =>
    (transport ??= import('nodemailer').then((m) =>
      m.default.createTransport({ url: mail.smtpUrl, ...SMTP_TIMEOUTS }),
    ));

  async function send(job: ClaimedMail): Promise<void> {
    const message = await buildMessage(ctx, job);
    if ('drop' in message) {
      await settleMail(ctx.db, job, { status: 'dropped', reason: message.drop });
      return;
    }
    try {
      await (await transportOf()).sendMail(message);
    } catch (err) {
      const error = String((err as Error).message ?? err).slice(0, ERROR_MAX);
      const outcome =
        job.attempts >= opts.maxAttempts
          ? { status: 'failed' as const, error }
          : { status: 'pending' as const, error, retryInMs: retryDelayMs(mail.retryBaseMs, job.attempts) };
      await settleMail(ctx.db, job, outcome);
      ctx.log.warn({ mailId: job.id, attempt: job.attempts, error }, 'mail: send failed');
      return;
    }
    await opts.afterAccept?.(job);
    await settleMail(ctx.db, job, { status: 'sent' });
  }

  const loop = startClaimLoop(ctx, {
    name: 'mail worker',
    tuning: () => opts,
    async claim(room) {
      // Digests need no sending slot: compose them on every round.
      await composeDigests(ctx.db, mail.batchWindowMs);
      return room > 0 ? claimDue(ctx.db, room, opts.leaseMs) : [];
    },
    run: send,
  });

  const worker: MailWorker = {
    kick: () => loop.kick(),
    async stop() {
      await loop.stop();
      (await transport?.catch(() => undefined))?.close();
      if (running.get(ctx) === worker) running.delete(ctx);
    },
  };
  running.set(ctx, worker);
  return worker;
}
