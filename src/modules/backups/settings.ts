// Scheduled backup settings: one JSON value in the settings table, the S3
// secret sealed with a key derived from the workspace secret (platform/sealed.ts),
// so a database dump or an archive does not hand it out.
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { seal, unseal } from '../../platform/sealed.js';
import { saveSettingsValue, settingsValue } from '../workspace/queries.js';

export interface DirectoryTarget {
  kind: 'directory';
  /** An absolute path on the server; created when missing. */
  path: string;
}

export interface S3Target {
  kind: 's3';
  /** Unset: AWS itself. */
  endpoint: string | null;
  region: string;
  bucket: string;
  /** Put before every archive's name, e.g. 'trackway/' (may be empty). */
  prefix: string;
  accessKeyId: string | null;
  /** Null: the SDK's default credential chain (environment, instance role). */
  secretAccessKey: string | null;
  forcePathStyle: boolean;
}

export type BackupTarget = DirectoryTarget | S3Target;

export interface BackupSettings {
  enabled: boolean;
  /** A backup every this many hours (1 = hourly, 24 = daily), in slots counted from the Unix epoch (UTC). */
  intervalHours: number;
  /** How many of its archives a target keeps; older ones are deleted after each successful run. */
  retention: number;
  target: BackupTarget | null;
}

export const DEFAULT_BACKUPS: BackupSettings = {
  enabled: false,
  intervalHours: 24,
  retention: 7,
  target: null,
};

const SETTINGS_KEY = 'backups';
const SEALING_PURPOSE = 'backup-s3-secret';

type Stored = Omit<BackupSettings, 'target'> & {
  target: DirectoryTarget | (Omit<S3Target, 'secretAccessKey'> & { secretSealed: string | null }) | null;
};

export async function loadBackupSettings(
  ctx: Pick<AppContext, 'deriveKey'>,
  db: Db,
): Promise<BackupSettings> {
  const value = await settingsValue(db, SETTINGS_KEY);
  if (value === undefined) return { ...DEFAULT_BACKUPS };
  const stored = JSON.parse(value) as Stored;
  const t = stored.target;
  if (t?.kind !== 's3') return { ...DEFAULT_BACKUPS, ...stored, target: t };
  const { secretSealed, ...rest } = t;
  const secretAccessKey = secretSealed ? unseal(ctx.deriveKey(SEALING_PURPOSE), secretSealed) : null;
  return { ...DEFAULT_BACKUPS, ...stored, target: { ...rest, secretAccessKey } };
}

/** Saves inside the caller's transaction, beside its audit entry. */
export async function saveBackupSettings(
  ctx: Pick<AppContext, 'deriveKey'>,
  db: Db,
  settings: BackupSettings,
): Promise<void> {
  const t = settings.target;
  let target: Stored['target'] = null;
  if (t?.kind === 'directory') target = t;
  else if (t?.kind === 's3') {
    const { secretAccessKey, ...rest } = t;
    target = {
      ...rest,
      secretSealed: secretAccessKey ? seal(ctx.deriveKey(SEALING_PURPOSE), secretAccessKey) : null,
    };
  }
  await saveSettingsValue(db, SETTINGS_KEY, JSON.stringify({ ...settings, target }));
}

/** How a target is named in a run's record and the audit log (never with a secret). */
export function describeTarget(t: BackupTarget): string {
  if (t.kind === 'directory') return `directory:${t.path}`;
  return `s3:${t.bucket}/${t.prefix}`;
}

/** The scheduled slot `now` falls in: one scheduled run per slot, whichever instance opens it. */
export function slotOf(settings: Pick<BackupSettings, 'intervalHours'>, now: Date): string {
  const hours = Math.floor(now.getTime() / 3_600_000);
  return `every-${settings.intervalHours}h:${Math.floor(hours / settings.intervalHours)}`;
}

/** When the slot after `now`'s begins. */
export function nextSlotStart(settings: Pick<BackupSettings, 'intervalHours'>, now: Date): Date {
  const hours = Math.floor(now.getTime() / 3_600_000);
  const next = (Math.floor(hours / settings.intervalHours) + 1) * settings.intervalHours;
  return new Date(next * 3_600_000);
}
