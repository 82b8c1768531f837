// Run once per test run by scripts/test.mjs: builds a migrated, first-started
// database that every test file then copies (PGlite: a dumped data directory;
// PostgreSQL: a template database). Copying takes ~1 s instead of ~5 s each.
// The PGlite dump is an uncompressed tar: 29 MB read from the page cache
// costs less than gunzipping 5 MB in every test file. PostgreSQL's own
// template databases are dropped from it first: no test creates a database
// in PGlite, and unpacking their 660 files was a third of each file's start.
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { firstStart } from '../../src/first-start.js';
import { openDatabase } from '../../src/platform/db/database.js';
import { migrate } from '../../src/platform/db/migrate.js';
import { testConfig } from './env.js';

const [mode, target] = process.argv.slice(2);
const config = testConfig();

if (mode === 'pglite') {
  const database = await openDatabase({});
  await migrate(database.db);
  await firstStart(database.db, config);
  const pglite = database.pglite!;
  // One statement each: DROP DATABASE cannot run inside the implicit transaction of a batch.
  for (const statement of [
    `update pg_database set datistemplate = false where datname in ('template0', 'template1')`,
    'drop database template0',
    'drop database template1',
    'checkpoint',
  ])
    await pglite.exec(statement);
  const blob = await pglite.dumpDataDir('none');
  await fs.mkdir(path.dirname(target!), { recursive: true });
  await fs.writeFile(target!, Buffer.from(await blob.arrayBuffer()));
  await database.close();
} else if (mode === 'postgres') {
  const url = process.env['DATABASE_URL']!;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database "${target}"`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${target}`;
  const database = await openDatabase({ databaseUrl: u.toString() });
  await migrate(database.db);
  await firstStart(database.db, config);
  await database.close();
} else {
  throw new Error('usage: prepare-template.ts pglite FILE | postgres DBNAME');
}
