// The git delivery worker: one claim loop per process (platform/claim-loop.ts)
// over git_deliveries (SKIP LOCKED + a lease, so several processes share the
// queue). A delivery is marked done only after its work committed; a crash in
// between runs it again after the lease (at least once; process.ts makes that
// safe). A failing delivery is retried with backoff, then marked failed.
import { startClaimLoop } from '../../platform/claim-loop.js';
import type { AppContext } from '../../platform/context.js';
import { retryDelayMs } from '../webhooks/schedule.js';
import { processDelivery } from './process.js';
import { claimDue, settleDelivery } from './queries.js';

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
  const loop = startClaimLoop(ctx, {
    name: 'git worker',
    tuning: () => ({ pollMs: opts.pollMs, concurrency: 1, stopTimeoutMs: 10_000 }),
    claim: async (room) => (room > 0 ? claimDue(ctx.db, room, opts.leaseMs) : []),
    async run(job) {
      try {
        const outcome = await processDelivery(ctx, job);
        await settleDelivery(ctx.db, job, { status: 'done', outcome: outcome.slice(0, ERROR_MAX) });
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
  return { kick: () => loop.kick(), stop: () => loop.stop() };
}
