#!/usr/bin/env node
// `npm test`: prepares a template database once, then runs every test file
// with Node's test runner. Embedded PGlite by default; PostgreSQL when
// DATABASE_URL is set (each file then gets its own database, dropped after).
// Arguments narrow the run to files whose path contains any of them.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
process.chdir(root);
const filters = process.argv.slice(2);

function findTests(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : findTests(p);
    // `.day.ts` files (a long browser scenario, test/ui/working-day.day.ts) run only when named.
    if (/\.day\.ts$/.test(e.name)) return filters.some((x) => x.includes('.day') && p.includes(x)) ? [p] : [];
    return /\.test\.ts$/.test(e.name) ? [p] : [];
  });
}

const files = [...findTests('src'), ...findTests('test')]
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}

const env = { ...process.env };

// The UI tests drive the built web app; build it once when it is missing.
if (files.some((f) => f.includes(`test${path.sep}ui${path.sep}`)) && !fs.existsSync('web/dist/index.html')) {
  const b = spawnSync('npx', ['vite', 'build', '--config', 'web/vite.config.ts'], { stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
const usePostgres = Boolean(env.DATABASE_URL);
const started = Date.now();
const run = (args, extraEnv = {}) =>
  spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...env, ...extraEnv } });

let templateDb;
if (usePostgres) {
  templateDb = `trackway_tpl_${process.pid}`;
  env.TEST_PG_TEMPLATE = templateDb;
  env.TEST_RUN_ID = String(process.pid);
  const r = run(['--import', 'tsx', 'test/support/prepare-template.ts', 'postgres', templateDb]);
  if (r.status !== 0) process.exit(r.status ?? 1);
} else {
  const tarball = path.join(root, '.test-cache', `pglite-template-${process.pid}.tar.gz`);
  env.TEST_PGLITE_TEMPLATE = tarball;
  const r = run(['--import', 'tsx', 'test/support/prepare-template.ts', 'pglite', tarball]);
  if (r.status !== 0) process.exit(r.status ?? 1);
}
console.log(`# template ready on ${usePostgres ? 'PostgreSQL' : 'PGlite'} in ${Date.now() - started} ms`);

const result = run([
  '--import',
  'tsx',
  '--test',
  `--test-concurrency=${env.TEST_CONCURRENCY ?? 2}`,
  // Per file. Generous because a busy machine slows the child-process tests most.
  `--test-timeout=${env.TEST_TIMEOUT_MS ?? 300_000}`,
  ...files,
]);

if (usePostgres) {
  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  // Only this run's copies and template: other runs may be going on beside us.
  const dbs = await client.query(`select datname from pg_database where datname like $1 or datname = $2`, [
    `trackway_t_${process.pid}_%`,
    templateDb,
  ]);
  for (const row of dbs.rows) await client.query(`drop database if exists "${row.datname}" with (force)`);
  await client.end();
} else {
  fs.rmSync(env.TEST_PGLITE_TEMPLATE, { force: true });
}
console.log(
  `# ${files.length} test files on ${usePostgres ? 'PostgreSQL' : 'PGlite'} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
process.exit(result.status ?? 1);
