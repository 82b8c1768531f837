// SQL for uploaded files. Every function takes the connection or transaction it runs in.
import type { Insertable } from 'kysely';
import { type TeamAccess, visibility, visibleIn } from '../../platform/access.js';
import type { Db } from '../../platform/db/database.js';
import type { FileRow, FilesTable } from '../../platform/db/tables.js';

export function insertFile(db: Db, values: Insertable<FilesTable>): Promise<FileRow> {
  return db.insertInto('files').values(values).returningAll().executeTakeFirstOrThrow();
}

export function findFile(db: Db, id: string): Promise<FileRow | undefined> {
  return db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A file the caller may download: theirs, or carried by an attachment they see. */
export function findVisibleFile(db: Db, id: string, access: TeamAccess): Promise<FileRow | undefined> {
  return db
    .selectFrom('files')
    .selectAll()
    .where('id', '=', id)
    .where(visibleIn(visibility.file, 'files', access))
    .executeTakeFirst();
}

/** Marks a pending upload complete; undefined when it was not pending (raced or done). */
export function markComplete(db: Db, id: string, storageKey: string): Promise<FileRow | undefined> {
  return db
    .updateTable('files')
    .set({ status: 'complete', storage_key: storageKey })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
}

/** Deletes two-step grants that were never completed (they have no stored bytes). */
export async function deleteStalePending(db: Db, olderThan: Date): Promise<number> {
  const r = await db
    .deleteFrom('files')
    .where('status', '=', 'pending')
    .where('created_at', '<', olderThan)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Two-step grants never completed, oldest first (a partial index covers it, migration 0003). */
export function stalePending(db: Db, olderThan: Date, limit = 100): Promise<FileRow[]> {
  return db
    .selectFrom('files')
    .selectAll()
    .where('status', '=', 'pending')
    .where('created_at', '<', olderThan)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/** Deletes a grant if it is still pending; the number of rows deleted. */
export async function deletePending(db: Db, id: string): Promise<number> {
  const r = await db
    .deleteFrom('files')
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
