// SQL for the workspace's one settings row (id 1, made by the first migration).
import type { Updateable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { WorkspaceRow, WorkspaceTable } from '../../platform/db/tables.js';

export function workspaceRow(db: Db): Promise<WorkspaceRow> {
  return db.selectFrom('workspace').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
}

/** The workspace row, locked until the transaction ends (a change reads what it replaces). */
export function lockWorkspaceRow(db: Db): Promise<WorkspaceRow> {
  return db.selectFrom('workspace').selectAll().where('id', '=', 1).forUpdate().executeTakeFirstOrThrow();
}

/** Writes the given settings (and updated_at); returns the row as it is now. */
export function updateWorkspaceRow(
  db: Db,
  patch: Omit<Updateable<WorkspaceTable>, 'id' | 'updated_at'>,
): Promise<WorkspaceRow> {
  return db
    .updateTable('workspace')
    .set({ ...patch, updated_at: new Date() })
    .where('id', '=', 1)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * A value of the settings table: one JSON text per key, for settings an admin
 * changes at run time (`sso`, `oauth`) and the generated workspace secret.
 */
export async function settingsValue(db: Db, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

export async function saveSettingsValue(db: Db, key: string, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}
