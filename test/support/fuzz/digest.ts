// Proof that a refused request changed nothing. Each watched table gets a
// trigger that counts the rows written in it (inserted, deleted, or updated to
// other values) in `test_changes`; a snapshot is those counts, and a table
// whose count moved was changed. A write that is rolled back leaves its count
// as it was, like the row.
//
// Counting beats hashing every table before and after each request: that was
// two statements over some fifty tables per request, ~25 ms each on PGlite,
// more than the request itself. It is also stricter: a row written and then
// deleted again within a request counts.
//
// What changes on its own is left out by name: the webhook worker's delivery
// log and the endpoint health it keeps, and the throttles that count refused
// sign-ins by design.
import { sql } from 'kysely';
import type { Db } from '../../../src/platform/db/database.js';

const CHANGES_ON_ITS_OWN =
  /^(webhook_deliveries|webhook_attempts|schema_migrations|test_changes|.*throttle.*|.*limit.*|.*budget.*)$/;
/**
 * Columns written on their own: the webhook worker's as it delivers, and a
 * sign-in session's last use, which authentication writes once a minute
 * whatever the request then does (a fuzz run longer than a minute sees it).
 * An update that changes only these does not count.
 */
const WORKER_COLUMNS: Record<string, string[]> = {
  webhooks: ['failing_since', 'disabled_reason', 'enabled', 'updated_at'],
  sessions: ['last_used_at'],
};

/**
 * The tables a request may change, each watched from now on. The triggers
 * change the schema, so the database copy is not reused by the next file
 * (test/support/reuse.ts compares schemas).
 */
export async function tablesToWatch(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`.execute(db);
  const tables = rows.map((r) => r.name).filter((n) => !CHANGES_ON_ITS_OWN.test(n));
  await sql`create table if not exists test_changes (name text primary key, n bigint not null)`.execute(db);
  // The trigger's arguments are the columns an update may change without counting
  // (tg_argv is null, not empty, for a trigger given none).
  await sql`
    create or replace function test_count_change() returns trigger language plpgsql as $$
    declare
      ignored text[] := coalesce(tg_argv, '{}');
    begin
      if tg_op = 'UPDATE' and (to_jsonb(new) - ignored) = (to_jsonb(old) - ignored) then
        return null;
      end if;
      insert into test_changes as c (name, n) values (tg_table_name, 1)
        on conflict (name) do update set n = c.n + 1;
      return null;
    end $$`.execute(db);
  for (const table of tables) {
    const ignored = (WORKER_COLUMNS[table] ?? []).map((c) => sql.lit(c));
    await sql`
      create or replace trigger test_count_rows after insert or update or delete on ${sql.table(table)}
      for each row execute function test_count_change(${sql.join(ignored)})`.execute(db);
    await sql`
      create or replace trigger test_count_truncate after truncate on ${sql.table(table)}
      for each statement execute function test_count_change()`.execute(db);
  }
  return tables;
}

/** How many rows have been written in each of `tables` so far (tables from tablesToWatch). */
export async function digest(db: Db, tables: string[]): Promise<Record<string, string>> {
  const { rows } = await sql<{ name: string; n: string }>`
    select name, n::text as n from test_changes`.execute(db);
  const counts = new Map(rows.map((r) => [r.name, r.n]));
  return Object.fromEntries(tables.map((t) => [t, counts.get(t) ?? '0']));
}

/** The tables whose count differs. */
export const changedTables = (before: Record<string, string>, after: Record<string, string>) =>
  Object.keys(after).filter((t) => before[t] !== after[t]);
