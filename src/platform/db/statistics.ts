// Planner statistics on the embedded database. PostgreSQL's autovacuum
// analyzes a table as it changes; PGlite runs single-user, without autovacuum
// (and without the activity counters it reads), so its tables were never
// analyzed. The planner then guessed a handful of rows per table: a member's
// filter nesting relations (parent of parent of ...) became nested loops over
// whole tables, costing rows^depth (six levels over 15 issues took 11 s, nine
// never ended), and PGlite cannot interrupt a statement (db-time.ts).
//
// Once a table is analyzed with rows in it, the planner scales its row
// estimate by the table's current size (rows per page), so growth is followed
// between analyses. What matters is that a table is analyzed once it holds
// rows and again when its size moves far from the one analyzed: that is what
// this does, checking the tables' sizes (a read of pg_class, no table scan)
// every few seconds and analyzing only those that moved. PostgreSQL runs it
// too: autovacuum waits for 50 changed rows and a tenth of the table, so a
// new workspace's small tables went unanalyzed there as well (its
// statement_timeout bounded the damage, at five seconds a statement).
import { sql } from 'kysely';
import type { Db } from './database.js';

/** How often the sizes are compared: seconds, so a fresh workspace is planned right within moments. */
export const STATISTICS_CHECK_MS = 5_000;
/** A size this far (as a share) from the analyzed one, or a first page, asks for a new analysis. */
const DRIFT = 0.2;

/** Analyzes the tables whose size moved since their last analysis; the tables it analyzed. */
export async function analyzeChangedTables(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string; analyzed: number; now: number }>`
    select c.relname as name, c.relpages as analyzed,
      (pg_relation_size(c.oid) / current_setting('block_size')::int)::int as now
    from pg_class c
    where c.relnamespace = 'public'::regnamespace and c.relkind = 'r'`.execute(db);
  const moved = rows.filter(
    (r) => r.now > 0 && (r.analyzed <= 0 || Math.abs(r.now - r.analyzed) > Math.max(1, r.analyzed * DRIFT)),
  );
  for (const r of moved) await sql`analyze ${sql.table(r.name)}`.execute(db);
  return moved.map((r) => r.name);
}

/** Keeps the statistics current while the app runs; returns the stop, which waits for a pass under way. */
export function keepStatistics(db: Db, onError: (err: unknown) => void): () => Promise<void> {
  let running: Promise<unknown> | undefined;
  const pass = () => {
    running ??= analyzeChangedTables(db)
      .catch(onError)
      .finally(() => {
        running = undefined;
      });
  };
  pass();
  const timer = setInterval(pass, STATISTICS_CHECK_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
