// SQL for feature flags. Every function takes the connection or transaction it runs in.
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { FlagRow } from '../../platform/db/tables.js';

export function allFlags(db: Db): Promise<FlagRow[]> {
  return db.selectFrom('feature_flags').selectAll().orderBy('key').execute();
}

/** Whether a flag is on, as a condition inside another statement (a compiled read's gate). */
export const flagOnSql = (key: string) =>
  sql<boolean>`coalesce((select ff.enabled from feature_flags ff where ff.key = ${key}), false)`;

export async function flagEnabled(db: Db, key: string): Promise<boolean> {
  const row = await db
    .selectFrom('feature_flags')
    .select('enabled')
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.enabled ?? false;
}

/** Switches a flag; undefined when there is no such flag. */
/** The flag, locked until the transaction ends (a change reads what it replaces). */
export function lockFlag(db: Db, key: string): Promise<FlagRow | undefined> {
  return db.selectFrom('feature_flags').selectAll().where('key', '=', key).forUpdate().executeTakeFirst();
}

export function setFlag(db: Db, key: string, enabled: boolean): Promise<FlagRow | undefined> {
  return db
    .updateTable('feature_flags')
    .set({ enabled, updated_at: new Date() })
    .where('key', '=', key)
    .returningAll()
    .executeTakeFirst();
}
