// The git workers: claim loops per process (platform/claim-loop.ts) over
// git_deliveries and git_backlinks (SKIP LOCKED + a lease, so several
// processes share each queue). A delivery is marked done only after its work
// committed; a crash in between runs it again after the lease (at least once;
// process.ts makes that safe). A failing delivery is retried with backoff,
// then marked failed. Back-link comments (backlinks.ts) are their own queue,
// so a host's API being down retries the comment, not the delivery's work.
import { startClaimLoop } from '../../platform/claim-loop.js';
import type { AppContext } from '../../platform/context.js';
import { retryDelayMs } from '../webhooks/schedule.js';
import { postBacklink } from './backlinks.js';
import { processDelivery } from './process.js';
import { claimBacklinks, claimDue, settleBacklink, settleDelivery } from './queries.js';

export interface GitWorkerOptions {
  pollMs?: number;
  leaseMs?: number;
  maxAttempts?: number;
  retryBaseMs?: number;
}

export interface GitWorker {
  kick(): void;
  stop(): Promise<void>;
}

const DEFAULTS = { pollMs: 1000, leaseMs: 5 * 60_000, maxAttempts: 8, retryBaseMs: 30_000 };
const ERROR_MAX = 1000;

export function startGitWorker(ctx: AppContext, options: GitWorkerOptions = {}): GitWorker {
  const opts = { ...DEFAULTS, ...options };
  const tuning = () => ({ pollMs: opts.pollMs, concurrency: 1, stopTimeoutMs: 10_000 });
  const backlinks = startClaimLoop(ctx, {
    name: 'git back-link worker',
    tuning,
    claim: async (room) => (room > 0 ? claimBacklinks(ctx.db, room, opts.leaseMs) : []),
    async run(job) {
      let outcome: Awaited<ReturnType<typeof postBacklink>>;
      try {
        outcome = await postBacklink(ctx, job);
      } catch (err) {
        outcome = { status: 'retry', error: String((err as Error).message ?? err) };
      }
      if (outcome.status === 'posted') {
        await settleBacklink(ctx.db, job, outcome);
        return;
      }
      const error = outcome.error.slice(0, ERROR_MAX);
      ctx.log.warn({ gitBacklinkId: job.id, attempt: job.attempts, error }, 'git back-link failed');
      await settleBacklink(
        ctx.db,
        job,
        outcome.status === 'failed' || job.attempts >= opts.maxAttempts
          ? { status: 'failed', error }
          : { status: 'pending', error, retryInMs: retryDelayMs(opts.retryBaseMs, job.attempts) },
      );
    },
  });
  const deliveries = startClaimLoop(ctx, {
    name: 'git worker',
    tuning,
    claim: async (room) => (room > 0 ? claimDue(ctx.db, room, opts.leaseMs) : []),
    async run(job) {
      try {
        const outcome = await processDelivery(ctx, job);
        await settleDelivery(ctx.db, job, { status: 'done', outcome: outcome.slice(0, ERROR_MAX) });
        backlinks.kick();
      } catch (err) {
        const error = String((err as Error).message ?? err).slice(0, ERROR_MAX);
        ctx.log.warn({ gitDeliveryId: job.id, attempt: job.attempts, error }, 'git delivery failed');
        await settleDelivery(
          ctx.db,
          job,
          job.attempts >= opts.maxAttempts
            ? { status: 'failed', error }
            : { status: 'pending', error, retryInMs: retryDelayMs(opts.retryBaseMs, job.attempts) },
        );
      }
    },
  });
  return {
    kick: () => deliveries.kick(),
    stop: async () => {
      await Promise.all([deliveries.stop(), backlinks.stop()]);
    },
  };
}
