// Applies pending migrations in order, each in its own transaction. An advisory
// lock makes concurrent start-ups of several instances take turns.
import { sql } from 'kysely';
import type { Db } from './database.js';
import { migrations as all, type Migration } from './migrations/index.js';

const LOCK_ID = 727_001; // arbitrary, constant: "trackway migrations"

export async function migrate(db: Db, migrations: Migration[] = all): Promise<number[]> {
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${LOCK_ID})`.execute(conn);
    try {
      await sql`create table if not exists schema_migrations (
        version integer primary key,
        name text not null,
        applied_at timestamptz not null default now()
      )`.execute(conn);
      const done = await sql<{ version: number }>`select version from schema_migrations`.execute(conn);
      const applied = new Set(done.rows.map((r) => r.version));
      const ran: number[] = [];
      for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
        if (applied.has(m.version)) continue;
        await conn.transaction().execute(async (trx) => {
          // A migration may rewrite every row: no STATEMENT_TIMEOUT_MS for it.
          await sql`set local statement_timeout = 0`.execute(trx);
          await sql.raw(m.up).execute(trx);
          await sql`insert into schema_migrations (version, name) values (${m.version}, ${m.name})`.execute(
            trx,
          );
        });
        ran.push(m.version);
      }
      return ran;
    } finally {
      await sql`select pg_advisory_unlock(${LOCK_ID})`.execute(conn);
    }
  });
}
