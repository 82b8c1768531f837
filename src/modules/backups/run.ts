// One backup: the export archive (modules/portability) streamed straight to
// the target, hashed on the way, then retention. Nothing is held in memory but
// a tar block or an upload part; the archive is visible at the target only
// once complete (targets.ts), so a run cut short leaves nothing that looks
// like a backup, and its run is claimed again when its lease runs out.
import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AppContext } from '../../platform/context.js';
import { fileStoreFor } from '../../platform/storage/index.js';
import { exportArchive } from '../portability/export.js';
import { archivesBeyond, type BackupRunRow, markPruned, renewLease, settleRun } from './queries.js';
import { describeTarget, loadBackupSettings } from './settings.js';
import { type ArchiveTarget, openTarget } from './targets.js';

const ERROR_MAX = 1000;

export interface RunTuning {
  leaseMs: number;
}

/** An error as an admin reads it: the S3 error's code or the system call's, then its message. */
export function readableError(err: unknown): string {
  const e = err as { name?: string; Code?: string; message?: string };
  const code = e.Code ?? (e.name && e.name !== 'Error' ? e.name : undefined);
  const message = e.message || String(err);
  return (code && !message.startsWith(code) ? `${code}: ${message}` : message).slice(0, ERROR_MAX);
}

export async function performBackup(ctx: AppContext, run: BackupRunRow, tuning: RunTuning): Promise<void> {
  const settings = await loadBackupSettings(ctx, ctx.db);
  if (!settings.target) {
    await settleRun(ctx.db, run, { status: 'failed', error: 'no backup target is configured' });
    return;
  }
  const target = openTarget(settings.target);
  const hash = createHash('sha256');
  let bytes = 0;
  let manifest: Buffer | undefined;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  // Keeps the run ours while it lasts: a lease that ran out would let another instance start it again.
  const heartbeat = setInterval(
    () => void renewLease(ctx.db, run, tuning.leaseMs).catch(() => {}),
    Math.max(1000, tuning.leaseMs / 3),
  );
  try {
    const archive = exportArchive(ctx.db, {
      storeFor: (db) => fileStoreFor({ config: ctx.config, db }),
      onManifest: (m) => {
        manifest = m;
      },
    });
    // An export that fails ends `counter` with its error, so the target never completes the archive.
    const feeding = pipeline(archive, counter).then(
      () => undefined,
      (err: unknown) => err,
    );
    // The export's own failure (a file the store cannot read) says more than the target's end of it.
    let exportFailed: unknown;
    archive.once('error', (err) => {
      exportFailed ??= err;
    });
    try {
      await target.write(run.archive, counter);
    } catch (err) {
      archive.destroy();
      await feeding;
      throw exportFailed ?? err;
    }
    const fed = await feeding;
    if (fed) throw fed;
    if (!manifest) throw new Error('the export ended without its manifest');
  } catch (err) {
    const error = readableError(err);
    ctx.log.warn({ runId: run.id, error }, 'backup failed');
    await settleRun(ctx.db, run, { status: 'failed', error, bytes });
    return;
  } finally {
    clearInterval(heartbeat);
  }
  // This run is the newest of those kept: keep - 1 of the earlier ones stay.
  const retention = await applyRetention(
    ctx,
    target,
    describeTarget(settings.target),
    settings.retention - 1,
  );
  await settleRun(ctx.db, run, {
    status: 'succeeded',
    bytes,
    sha256: hash.digest('hex'),
    manifestSha256: createHash('sha256').update(manifest).digest('hex'),
    deleted: retention.deleted,
    error: retention.error,
  });
}

/**
 * Deletes the archives of this target's earlier succeeded runs beyond the
 * newest `keep`: only archives a run recorded writing, never anything else there.
 */
async function applyRetention(
  ctx: AppContext,
  target: ArchiveTarget,
  targetName: string,
  keep: number,
): Promise<{ deleted: number; error: string | null }> {
  let deleted = 0;
  try {
    for (const old of await archivesBeyond(ctx.db, targetName, keep)) {
      await target.remove(old.archive);
      await markPruned(ctx.db, old.id);
      deleted++;
    }
    return { deleted, error: null };
  } catch (err) {
    return { deleted, error: `retention: ${readableError(err)}` };
  }
}
