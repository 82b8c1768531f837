// The backup worker: one claim loop per process (platform/claim-loop.ts). Each
// round it opens the current schedule slot's run if backups are enabled (a
// unique index lets one instance open it; the others find it there), then
// claims one due run with a lease (SKIP LOCKED), so however many instances
// share the database, each run is made by exactly one of them. One backup at
// a time per process.
import { startClaimLoop } from '../../platform/claim-loop.js';
import type { AppContext } from '../../platform/context.js';
import { type BackupRunRow, claimRun, failExhausted, openRun } from './queries.js';
import { performBackup } from './run.js';
import { describeTarget, loadBackupSettings, slotOf } from './settings.js';
import { archiveName } from './targets.js';

export interface BackupWorkerOptions {
  pollMs?: number;
  /** How long a claimed run is its worker's without a heartbeat; renewed every third of it. */
  leaseMs?: number;
  /** Claims of one run (each ended by a crash) before it is given up. */
  maxAttempts?: number;
}

export interface BackupWorker {
  kick(): void;
  stop(): Promise<void>;
}

const DEFAULTS = {
  pollMs: 30_000,
  leaseMs: 10 * 60_000,
  maxAttempts: 3,
  concurrency: 1,
  stopTimeoutMs: 10_000,
};

const running = new WeakMap<AppContext, BackupWorker>();

/** Wakes this process's backup worker, if one runs (after a run is asked for). */
export function kickBackupWorker(ctx: AppContext): void {
  running.get(ctx)?.kick();
}

/** Opens the scheduled run of the slot `now` is in, unless some instance already has. */
export async function openScheduledRun(ctx: AppContext, now = new Date()): Promise<void> {
  const settings = await loadBackupSettings(ctx, ctx.db);
  if (!settings.enabled || !settings.target) return;
  await openRun(ctx.db, {
    trigger: 'schedule',
    slot: slotOf(settings, now),
    target: describeTarget(settings.target),
    requestedBy: null,
    name: (id, createdAt) => archiveName(createdAt, id),
  });
}

export function startBackupWorker(ctx: AppContext, options: BackupWorkerOptions = {}): BackupWorker {
  const opts = { ...DEFAULTS, ...options };
  const loop = startClaimLoop<BackupRunRow>(ctx, {
    name: 'backup worker',
    tuning: () => opts,
    async claim(room) {
      if (room === 0) return [];
      await openScheduledRun(ctx);
      await failExhausted(ctx.db, opts.maxAttempts);
      const run = await claimRun(ctx.db, opts.leaseMs);
      return run ? [run] : [];
    },
    run: (run) => performBackup(ctx, run, opts),
  });
  const worker: BackupWorker = {
    kick: () => loop.kick(),
    async stop() {
      await loop.stop();
      if (running.get(ctx) === worker) running.delete(ctx);
    },
  };
  running.set(ctx, worker);
  return worker;
}
