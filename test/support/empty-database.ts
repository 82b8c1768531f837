// An empty, migrated database outside the harness's template: the target of a
// restore (portability and backup tests).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../../src/platform/db/database.js';
import { migrate } from '../../src/platform/db/migrate.js';

/** An empty, migrated database of the kind this run uses (PGlite in memory, or a new PostgreSQL database). */
export async function emptyDatabase(): Promise<Database> {
  const url = process.env['DATABASE_URL'];
  let database: Database;
  if (!url) database = await openDatabase({});
  else {
    // Named like the harness's copies so the test runner drops it after the run.
    const name = `trackway_t_${process.env['TEST_RUN_ID'] ?? 'x'}_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    await admin.end();
    const u = new URL(url);
    u.pathname = `/${name}`;
    const opened = await openDatabase({ databaseUrl: u.toString() });
    database = {
      ...opened,
      async close() {
        await opened.close();
        const a = new pg.Client({ connectionString: url });
        await a.connect();
        await a.query(`drop database if exists "${name}" with (force)`);
        await a.end();
      },
    };
  }
  await migrate(database.db);
  return database;
}
