// The admin logs of runs (imports, backups): newest first, a page at a time
// through the one list runner, and one run by id. Each table has an index in
// this order (migrations 0059 backup_runs_newest, 0064 import_runs_newest).
import { type Selectable, sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { DB } from '../db/tables.js';
import { timeKey } from './order.js';
import { offsetPage } from './runner.js';
import { windowOf } from './window.js';

export type RunTable = 'import_runs' | 'backup_runs';
type RunRow<T extends RunTable> = Selectable<DB[T]>;

const NEWEST = timeKey('createdAt', 'desc');

/** A page of runs, newest first, and how many there are. */
export function runsPage<T extends RunTable>(
  db: Db,
  table: T,
  page: { limit: number; offset: number },
): Promise<{ rows: RunRow<T>[]; total: number }> {
  return offsetPage<RunRow<T>>(
    db,
    { from: sql`${sql.table(table)} as t`, archivable: false },
    NEWEST,
    windowOf(page, NEWEST),
  );
}

/** One run by id (the routes check the id is a uuid). */
export async function runById<T extends RunTable>(
  db: Db,
  table: T,
  id: string,
): Promise<RunRow<T> | undefined> {
  const { rows } = await sql<RunRow<T>>`select * from ${sql.table(table)} where id = ${id}::uuid`.execute(db);
  return rows[0];
}
