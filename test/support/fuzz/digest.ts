// A fingerprint of everything a request may change, to prove that a refused
// request changed nothing. What changes on its own is left out by name: the
// webhook worker's delivery log and the endpoint health it keeps, and the
// throttles that count refused sign-ins by design.
import { sql } from 'kysely';
import type { Db } from '../../../src/platform/db/database.js';

const CHANGES_ON_ITS_OWN =
  /^(webhook_deliveries|webhook_attempts|schema_migrations|.*throttle.*|.*limit.*|.*budget.*)$/;
/**
 * Columns written on their own: the webhook worker's as it delivers, and a
 * sign-in session's last use, which authentication writes once a minute
 * whatever the request then does (a fuzz run longer than a minute sees it).
 */
const WORKER_COLUMNS: Record<string, string[]> = {
  webhooks: ['failing_since', 'disabled_reason', 'enabled', 'updated_at'],
  sessions: ['last_used_at'],
};

export async function tablesToWatch(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`.execute(db);
  return rows.map((r) => r.name).filter((n) => !CHANGES_ON_ITS_OWN.test(n));
}

/** One hash per table of its rows in a stable order. */
export async function digest(db: Db, tables: string[]): Promise<Record<string, string>> {
  const parts = tables.map((t) => {
    const skip = (WORKER_COLUMNS[t] ?? []).map((c) => sql.lit(c));
    const row = skip.length ? sql`(to_jsonb(x) - array[${sql.join(skip)}]::text[])::text` : sql`x::text`;
    return sql`select ${t} as name, md5(coalesce(string_agg(${row}, '|' order by ${row}), '')) as hash from ${sql.table(t)} x`;
  });
  const { rows } = await sql<{ name: string; hash: string }>`${sql.join(parts, sql` union all `)}`.execute(
    db,
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.hash]));
}

/** The tables whose fingerprint differs. */
export const changedTables = (before: Record<string, string>, after: Record<string, string>) =>
  Object.keys(after).filter((t) => before[t] !== after[t]);
