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
// this does every few seconds, from the tables' sizes (a read of pg_class)
// and, for small tables (1 MB at most), their row counts, analyzing only
// those that moved. PostgreSQL runs it
// too: autovacuum waits for 50 changed rows and a tenth of the table, so a
// new workspace's small tables went unanalyzed there as well (its
// statement_timeout bounded the damage, at five seconds a statement).
import { sql } from 'kysely';
import type { Db } from './database.js';

/** How often the sizes are compared: seconds, so a fresh workspace is planned right within moments. */
export const STATISTICS_CHECK_MS = 5_000;
/** A size this far (as a share) from the analyzed one asks for a new analysis. */
const DRIFT = 0.2;
/**
 * Tables up to this many pages (1 MB) are counted: a few rows more fit in the
 * same page, and 15 issues where the statistics say 2 already misled the
 * planner. Deleted rows keep their pages too, so a size alone can stay put.
 */
const COUNTED_PAGES = 128;

const drifted = (now: number, then: number, least: number) =>
  Math.abs(now - then) > Math.max(least, then * DRIFT);

/** Analyzes the tables whose size or (small ones) row count moved since their last analysis; the tables analyzed. */
export async function analyzeChangedTables(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string; analyzed: number; rows: number; now: number }>`
    select c.relname as name, c.relpages as analyzed, c.reltuples::float8 as rows,
      (pg_relation_size(c.oid) / current_setting('block_size')::int)::int as now
    from pg_class c
    where c.relnamespace = 'public'::regnamespace and c.relkind = 'r'`.execute(db);
  const small = rows.filter((r) => r.now > 0 && r.now <= COUNTED_PAGES);
  const counts = small.length
    ? (
        await sql<Record<string, string>>`select ${sql.join(
          small.map((r, i) => sql`(select count(*) from ${sql.table(r.name)}) as ${sql.ref(`n${i}`)}`),
        )}`.execute(db)
      ).rows[0]!
    : {};
  const counted = new Map(small.map((r, i) => [r.name, Number(counts[`n${i}`])]));
  const moved = rows.filter((r) => {
    if (r.now === 0) return false;
    if (r.analyzed <= 0 || drifted(r.now, r.analyzed, 1)) return true;
    const n = counted.get(r.name);
    return n !== undefined && drifted(n, Math.max(0, r.rows), 5);
  });
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
