// A copy of the template database for one test file: a new one, or one a
// file before closed and reuse.ts put back as the template was.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { type Database, openDatabase } from '../../src/platform/db/database.js';
import { templateSource } from './env.js';
import { readTemplate, restore, type Session, type Template } from './reuse.js';

export interface TestDatabase extends Database {
  /** Connection string of the copy (PostgreSQL only), for a second app instance. */
  url?: string;
}

/** Idle copies kept per process: a file uses one or two at a time (TEST_DB_REUSE=0: none, every copy new). */
const MAX_IDLE = process.env['TEST_DB_REUSE'] === '0' ? 0 : 2;
/** The template as its first copy in this process read it (a process uses one kind of database). */
let template: Promise<Template> | undefined;
const resets = new Map<PGlite | string, number>();

/** `statementTimeoutMs`: PostgreSQL's statement_timeout, as the server sets it (STATEMENT_TIMEOUT_MS). */
export async function freshDatabase(opts: { statementTimeoutMs?: number } = {}): Promise<TestDatabase> {
  refuseAnyDatabaseFile();
  const src = templateSource();
  if (src.postgresUrl) {
    if (!src.postgresTemplate) throw new Error('run the tests with `npm test` (it prepares the template)');
    return postgresCopy(src.postgresUrl, src.postgresTemplate, opts);
  }
  if (!src.pgliteTarball) throw new Error('run the tests with `npm test` (it prepares the template)');
  return pgliteCopy(src.pgliteTarball);
}

const idlePglite: PGlite[] = [];

async function pgliteCopy(tarball: string): Promise<TestDatabase> {
  let pglite = idlePglite.pop();
  if (!pglite) {
    pglite = (await openDatabase({ loadDataDir: new Blob([await fs.readFile(tarball)]) })).pglite!;
    template ??= readTemplate(pgliteSession(pglite));
    await template;
  }
  const instance = pglite;
  const database = await openDatabase({ pglite: instance });
  return {
    ...database,
    async close() {
      await database.close();
      if (instance.closed) return;
      try {
        if (idlePglite.length >= MAX_IDLE || !template) throw new Error('not kept');
        // What a file may leave on the one connection: an open transaction, then session state
        // (prepared statements, LISTEN, settings, temporary tables, advisory locks).
        if (instance.isInTransaction()) await instance.exec('rollback');
        await instance.exec('discard all');
        await putBack(pgliteSession(instance), instance);
        idlePglite.push(instance);
      } catch {
        await instance.close().catch(() => undefined);
      }
    },
  };
}

const pgliteSession = (pglite: PGlite): Session => ({
  query: async (text, params) => (await pglite.query(text, params)).rows as never,
  exec: async (text) => void (await pglite.exec(text)),
});

const idlePostgres: string[] = [];

async function postgresCopy(
  serverUrl: string,
  templateName: string,
  opts: { statementTimeoutMs?: number },
): Promise<TestDatabase> {
  const urlOf = (name: string) => {
    const u = new URL(serverUrl);
    u.pathname = `/${name}`;
    return u.toString();
  };
  let name = idlePostgres.pop();
  if (!name) {
    name = `trackway_t_${process.env['TEST_RUN_ID'] ?? 'x'}_${randomBytes(6).toString('hex')}`;
    await withClient(serverUrl, (c) => c.query(`create database "${name}" template "${templateName}"`));
    template ??= withClient(urlOf(name), (c) => readTemplate(postgresSession(c)));
    await template;
  }
  const copy = name;
  const url = urlOf(copy);
  const database = await openDatabase({
    databaseUrl: url,
    poolSize: 20,
    statementTimeoutMs: opts.statementTimeoutMs,
  });
  return {
    ...database,
    url,
    async close() {
      await database.close();
      try {
        if (idlePostgres.length >= MAX_IDLE || !template) throw new Error('not kept');
        await withClient(url, async (c) => {
          // A second app the file started on the copy, or a stream's listener, may still be connected.
          await c.query(
            'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
          );
          await c.query(`set lock_timeout = '5s'`);
          await putBack(postgresSession(c), copy);
        });
        idlePostgres.push(copy);
      } catch {
        await withClient(serverUrl, (c) => c.query(`drop database if exists "${copy}" with (force)`));
      }
    },
  };
}

const postgresSession = (c: pg.Client): Session => ({
  query: async (text, params) => (await c.query(text, params as unknown[])).rows,
  exec: async (text) => void (await c.query(text)),
});

async function withClient<T>(url: string, use: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await use(c);
  } finally {
    await c.end();
  }
}

async function putBack(s: Session, copy: PGlite | string): Promise<void> {
  const n = resets.get(copy) ?? 0;
  await restore(s, await template!, n);
  resets.set(copy, n + 1);
}

/**
 * A file marked `// test-runner: any database` runs in one pass only (scripts/test.mjs,
 * TEST_SKIP_ANY_DATABASE): the mark would be false of a file that takes a test database.
 */
function refuseAnyDatabaseFile(): void {
  const file = process.env['TEST_FILE'];
  if (file && /^\/\/ test-runner: any database\b/m.test(readFileSync(file, 'utf8')))
    throw new Error(`${file} is marked "test-runner: any database" but opens a test database`);
}
