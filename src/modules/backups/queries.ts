// SQL for backup runs: opening one (a scheduled slot at most once, whichever
// instance gets there first), claiming a due one with a lease (SKIP LOCKED, as
// the mail and webhook queues), keeping the lease while it runs, and settling it.
import { randomUUID } from 'node:crypto';
import { type Selectable, sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { BackupRunsTable } from '../../platform/db/tables-import.js';
import { runById, runsPage } from '../../platform/list/runs.js';

export type BackupRunRow = Selectable<BackupRunsTable>;

export interface NewRun {
  trigger: 'schedule' | 'manual';
  slot: string | null;
  target: string;
  requestedBy: string | null;
  /** The archive's name from the run's id and creation time. */
  name: (id: string, createdAt: Date) => string;
}

/**
 * Opens a pending run; for a scheduled slot that already has one (another
 * instance opened it), opens nothing and answers undefined.
 */
export async function openRun(db: Db, run: NewRun): Promise<BackupRunRow | undefined> {
  const id = randomUUID();
  const createdAt = new Date();
  return db
    .insertInto('backup_runs')
    .values({
      id,
      trigger: run.trigger,
      slot: run.slot,
      target: run.target,
      archive: run.name(id, createdAt),
      requested_by: run.requestedBy,
      created_at: createdAt,
    })
    .onConflict((oc) => oc.column('slot').where('slot', 'is not', null).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** Takes the oldest pending run, or a running one whose lease ran out (its process died). */
export async function claimRun(db: Db, leaseMs: number): Promise<BackupRunRow | undefined> {
  const r = await sql<BackupRunRow>`
    with claimable as (
      select id from backup_runs
      where status = 'pending' or (status = 'running' and lease_until < now())
      order by created_at
      limit 1
      for update skip locked
    )
    update backup_runs b
    set status = 'running',
        lease_until = now() + make_interval(secs => ${leaseMs / 1000}),
        attempts = b.attempts + 1,
        started_at = now()
    from claimable c
    where b.id = c.id
    returning b.*
  `.execute(db);
  return r.rows[0];
}

/** Extends the lease of the attempt we hold; false when another worker has taken the run since. */
export async function renewLease(db: Db, run: BackupRunRow, leaseMs: number): Promise<boolean> {
  const r = await db
    .updateTable('backup_runs')
    .set({ lease_until: sql<Date>`now() + make_interval(secs => ${leaseMs / 1000})` })
    .where('id', '=', run.id)
    .where('attempts', '=', run.attempts)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export type RunOutcome =
  | {
      status: 'succeeded';
      bytes: number;
      sha256: string;
      manifestSha256: string;
      deleted: number;
      /** Set when retention could not delete old archives (the backup itself is fine). */
      error: string | null;
    }
  | { status: 'failed'; error: string; bytes?: number };

/** Records how the attempt ended, unless another worker holds the run now. */
export async function settleRun(db: Db, run: BackupRunRow, outcome: RunOutcome): Promise<void> {
  await db
    .updateTable('backup_runs')
    .set({
      status: outcome.status,
      lease_until: null,
      finished_at: sql<Date>`now()`,
      bytes: outcome.bytes ?? null,
      ...(outcome.status === 'succeeded'
        ? {
            sha256: outcome.sha256,
            manifest_sha256: outcome.manifestSha256,
            deleted_by_retention: outcome.deleted,
          }
        : {}),
      error: outcome.error,
    })
    .where('id', '=', run.id)
    .where('attempts', '=', run.attempts)
    .execute();
}

/** A run that crashed this many times is given up rather than tried for ever. */
export async function failExhausted(db: Db, maxAttempts: number): Promise<void> {
  await db
    .updateTable('backup_runs')
    .set({
      status: 'failed',
      lease_until: null,
      finished_at: sql<Date>`now()`,
      error: `gave up after ${maxAttempts} attempts that ended without a result (the process stopped mid-backup)`,
    })
    .where('status', '=', 'running')
    .where('lease_until', '<', sql<Date>`now()`)
    .where('attempts', '>=', maxAttempts)
    .execute();
}

/** Succeeded runs to `target` whose archives are still there, beyond the newest `keep`. */
export function archivesBeyond(db: Db, target: string, keep: number) {
  return db
    .selectFrom('backup_runs')
    .select(['id', 'archive'])
    .where('target', '=', target)
    .where('status', '=', 'succeeded')
    .where('pruned_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(keep)
    .limit(1000)
    .execute();
}

export async function markPruned(db: Db, id: string): Promise<void> {
  await db.updateTable('backup_runs').set({ pruned_at: sql<Date>`now()` }).where('id', '=', id).execute();
}

/** Runs newest first, a page at a time, with their total. */
export const listRuns = (db: Db, page: { limit: number; offset: number }) =>
  runsPage(db, 'backup_runs', page);

export const findRun = (db: Db, id: string) => runById(db, 'backup_runs', id);
