// An empty database outside the harness's template: the target of a restore
// (portability and backup tests), or a first start (first-start.test.ts).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../../src/platform/db/database.js';
import { migrate } from '../../src/platform/db/migrate.js';

/**
 * An empty database of the kind this run uses (PGlite in memory, or a new PostgreSQL database),
 * migrated unless `migrated: false` (the app's start then migrates it).
 */
export async function emptyDatabase({ migrated = true } = {}): Promise<Database> {
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
  if (migrated) await migrate(database.db);
  return database;
}
