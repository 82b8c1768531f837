// Rows that come back inside JSON (to_json, json_agg) instead of as columns.
// The drivers' column parsers (platform/db/database.ts) give every other type
// used here the value JSON gives (numbers, booleans, text, dates as
// YYYY-MM-DD, jsonb, arrays); timestamptz is the exception, a Date as a
// column and an ISO string inside JSON. Which columns are timestamptz is read
// from the catalog once per process (every database a process opens is
// migrated to the same schema), so a row read in JSON equals the loader's.
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';

let timestamps: Promise<Map<string, string[]>> | undefined;

/** The timestamptz columns of every table, by table. */
export function timestampColumns(db: Db): Promise<Map<string, string[]>> {
  timestamps ??= sql<{ table_name: string; column_name: string }>`
    select table_name::text, column_name::text from information_schema.columns
    where table_schema = current_schema() and data_type = 'timestamp with time zone'`
    .execute(db)
    .then(({ rows }) => {
      const map = new Map<string, string[]>();
      for (const r of rows) map.set(r.table_name, [...(map.get(r.table_name) ?? []), r.column_name]);
      return map;
    })
    .catch((err) => {
      timestamps = undefined;
      throw err;
    });
  return timestamps;
}

/** Turns a JSON row's timestamps into Dates (PostgreSQL writes them as ISO 8601 with an offset). */
export function revive<R extends Record<string, unknown>>(row: R, columns: string[] | undefined): R {
  if (columns) {
    const r = row as Record<string, unknown>;
    for (const c of columns) {
      const v = r[c];
      if (typeof v === 'string') r[c] = new Date(v);
    }
  }
  return row;
}
