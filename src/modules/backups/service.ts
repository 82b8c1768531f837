// Scheduled backups for admins: the settings (audit-logged, the S3 secret
// never shown or logged), asking for a run now, and the runs so far.
import type { Actor, AppContext } from '../../platform/context.js';
import { conflict, notFound } from '../../platform/errors.js';
import { auditActorOf, changes, recordAudit } from '../audit/record.js';
import { assertAdmin } from '../users/policy.js';
import { findRun, listRuns, openRun } from './queries.js';
import {
  type BackupSettings,
  type BackupTarget,
  describeTarget,
  loadBackupSettings,
  nextSlotStart,
  type S3Target,
  saveBackupSettings,
  slotOf,
} from './settings.js';
import { archiveName } from './targets.js';
import { kickBackupWorker } from './worker.js';

/** The S3 secret as the page sends it: absent keeps the saved one, null clears it. */
export type TargetInput =
  | BackupTarget
  | (Omit<S3Target, 'secretAccessKey'> & { secretAccessKey?: string | null });

export type SettingsInput = Omit<BackupSettings, 'target'> & { target: TargetInput | null };

type ShownTarget =
  | Exclude<BackupTarget, S3Target>
  | (Omit<S3Target, 'secretAccessKey'> & { secretAccessKeySet: boolean });

/** The settings as the page and the audit log see them: whether a secret is set, never the secret. */
function shown(settings: BackupSettings): Omit<BackupSettings, 'target'> & { target: ShownTarget | null } {
  const t = settings.target;
  if (t?.kind !== 's3') return { ...settings, target: t };
  const { secretAccessKey, ...rest } = t;
  return { ...settings, target: { ...rest, secretAccessKeySet: Boolean(secretAccessKey) } };
}

export async function backupSettingsView(ctx: AppContext, actor: Actor) {
  assertAdmin(actor);
  const settings = await loadBackupSettings(ctx, ctx.db);
  const now = new Date();
  return {
    settings: shown(settings),
    /** The current slot's scheduled run is opened on the worker's next round; then the next slot's. */
    nextSlotAt: settings.enabled && settings.target ? nextSlotStart(settings, now).toISOString() : null,
    currentSlot: slotOf(settings, now),
  };
}

export async function updateBackupSettings(ctx: AppContext, actor: Actor, input: SettingsInput) {
  assertAdmin(actor);
  await ctx.db.transaction().execute(async (trx) => {
    const before = await loadBackupSettings(ctx, trx);
    let target: BackupTarget | null = null;
    if (input.target?.kind === 's3') {
      const kept = before.target?.kind === 's3' ? before.target.secretAccessKey : null;
      target = {
        ...input.target,
        secretAccessKey: input.target.secretAccessKey === undefined ? kept : input.target.secretAccessKey,
      };
    } else if (input.target) target = input.target;
    const next: BackupSettings = { ...input, target };
    await saveBackupSettings(ctx, trx, next);
    const diff = changes<Record<string, unknown>>({ ...shown(before) }, { ...shown(next) });
    const secretChanged =
      (before.target?.kind === 's3' ? before.target.secretAccessKey : null) !==
      (next.target?.kind === 's3' ? next.target.secretAccessKey : null);
    if (diff || secretChanged) {
      await recordAudit(trx, {
        type: 'backup.settingsChanged',
        actor: auditActorOf(actor),
        entity: { type: 'backups', id: 'backups', label: next.target ? describeTarget(next.target) : null },
        ...(diff ?? {}),
        metadata: { secretChanged },
      });
    }
  });
  // Enabling may make the current slot due at once.
  kickBackupWorker(ctx);
  return backupSettingsView(ctx, actor);
}

/** Opens a run now (whatever the schedule); this process's worker is woken to make it. */
export async function requestBackup(ctx: AppContext, actor: Actor) {
  assertAdmin(actor);
  const run = await ctx.db.transaction().execute(async (trx) => {
    const settings = await loadBackupSettings(ctx, trx);
    if (!settings.target) throw conflict('Set a backup target first', 'target');
    const opened = await openRun(trx, {
      trigger: 'manual',
      slot: null,
      target: describeTarget(settings.target),
      requestedBy: actor.id,
      name: (id, createdAt) => archiveName(createdAt, id),
    });
    if (!opened) throw new Error('a manual backup run was not opened');
    await recordAudit(trx, {
      type: 'backup.requested',
      actor: auditActorOf(actor),
      entity: { type: 'backup', id: opened.id, label: opened.archive },
    });
    return opened;
  });
  kickBackupWorker(ctx);
  return run;
}

export async function listBackupRuns(ctx: AppContext, actor: Actor, page: { limit: number; offset: number }) {
  assertAdmin(actor);
  return listRuns(ctx.db, page);
}

export async function getBackupRun(ctx: AppContext, actor: Actor, id: string) {
  assertAdmin(actor);
  const run = await findRun(ctx.db, id);
  if (!run) throw notFound('Backup run');
  return run;
}
