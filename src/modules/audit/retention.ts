// The audit log's retention (AUDIT_RETENTION_DAYS): entries older than the
// period are deleted, hourly and at start. The table refuses every DELETE but
// this one: the transaction names the period (trackway.audit_retention_days,
// migration 0041) and the trigger lets through only rows older than it. Every
// instance may run it; a row two instances both delete is simply gone, so it
// needs no claim. Deleted a batch at a time, so no statement holds the table long.
import type { AppContext } from '../../platform/context.js';
import { pruneOldEntries } from './queries.js';

const BATCH = 5_000;
const EVERY_MS = 60 * 60_000;

/** Deletes the entries older than `days` days; how many it deleted. */
export async function pruneAuditLog(ctx: Pick<AppContext, 'db'>, days: number): Promise<number> {
  if (!(days >= 1)) return 0;
  let deleted = 0;
  for (;;) {
    const n = await ctx.db.transaction().execute((trx) => pruneOldEntries(trx, days, BATCH));
    deleted += n;
    if (n < BATCH) return deleted;
  }
}

/** Prunes now and then hourly while the app runs; returns the stop, which waits for a prune under way. */
export function startAuditRetention(ctx: AppContext): () => Promise<void> {
  const days = ctx.config.auditRetentionDays;
  if (days < 1) return async () => undefined;
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    running = pruneAuditLog(ctx, days).catch((err) => ctx.log.error({ err }, 'audit retention failed'));
  };
  run();
  const timer = setInterval(run, EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
