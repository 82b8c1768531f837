// A fresh copy of the template database for one test file.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import pg from 'pg';
import { type Database, openDatabase } from '../../src/platform/db/database.js';
import { templateSource } from './env.js';

export interface TestDatabase extends Database {
  /** Connection string of the copy (PostgreSQL only), for a second app instance. */
  url?: string;
}

/** `statementTimeoutMs`: PostgreSQL's statement_timeout, as the server sets it (STATEMENT_TIMEOUT_MS). */
export async function freshDatabase(opts: { statementTimeoutMs?: number } = {}): Promise<TestDatabase> {
  const src = templateSource();
  if (src.postgresUrl) {
    if (!src.postgresTemplate) throw new Error('run the tests with `npm test` (it prepares the template)');
    const name = `trackway_t_${process.env['TEST_RUN_ID'] ?? 'x'}_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: src.postgresUrl });
    await admin.connect();
    await admin.query(`create database "${name}" template "${src.postgresTemplate}"`);
    await admin.end();
    const u = new URL(src.postgresUrl);
    u.pathname = `/${name}`;
    const database = await openDatabase({
      databaseUrl: u.toString(),
      poolSize: 20,
      statementTimeoutMs: opts.statementTimeoutMs,
    });
    return {
      ...database,
      url: u.toString(),
      async close() {
        await database.close();
        const a = new pg.Client({ connectionString: src.postgresUrl });
        await a.connect();
        await a.query(`drop database if exists "${name}" with (force)`);
        await a.end();
      },
    };
  }
  if (!src.pgliteTarball) throw new Error('run the tests with `npm test` (it prepares the template)');
  const tarball = new Blob([await fs.readFile(src.pgliteTarball)]);
  return openDatabase({ loadDataDir: tarball });
}
