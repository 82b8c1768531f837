#!/usr/bin/env node
// `npm test`: prepares a template database once, then runs every test file in
// its own Node process (node:test, one file per process as `node --test`
// does), a few at a time. Embedded PGlite by default; PostgreSQL when
// DATABASE_URL is set (each file then gets its own database, dropped after).
// Arguments narrow the run to files whose path contains any of them.
//
// Why our own pool rather than `node --test a b c`: it measures every file
// (wall and CPU time, user+sys of the file's process and everything it
// waited for: Chromium, spawned servers), prints each file's output whole
// when it ends, and starts the files that took longest last time first, so
// the run does not end waiting on one slow file (.test-cache/timings.json).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { compileForTests } from './test-compile.mjs';
import { MARKER } from './test-worker-reporter.mjs';

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

const env = { ...process.env };
const matched = [...findTests('src'), ...findTests('test')]
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
// A file whose result cannot depend on the database says so in a line of its own,
// `// test-runner: any database` (it opens none, or always the embedded one it is
// about): TEST_SKIP_ANY_DATABASE=1 leaves it to another pass (CI runs it once).
// test/support/database.ts refuses to give such a file a database.
const skipAnyDatabase = env.TEST_SKIP_ANY_DATABASE === '1';
const files = skipAnyDatabase ? matched.filter((f) => !anyDatabase(f)) : matched;
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
if (matched.length > files.length)
  console.log(
    `# ${matched.length - files.length} files that use no test database are left to the other pass`,
  );
const concurrency = Math.max(1, Number(env.TEST_CONCURRENCY ?? 2));
const timeoutMs = Number(env.TEST_TIMEOUT_MS ?? 300_000);
/** A worker whose resident memory passed this after a file is replaced by a fresh one. */
const WORKER_RSS_LIMIT_MB = Number(env.TEST_WORKER_RSS_MB ?? 1500);

// The UI tests drive the built web app; build it once when it is missing.
if (files.some((f) => f.includes(`test${path.sep}ui${path.sep}`)) && !fs.existsSync('web/dist/index.html')) {
  const b = spawnSync('npx', ['vite', 'build', '--config', 'web/vite.config.ts'], { stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
const usePostgres = Boolean(env.DATABASE_URL);
const dbName = usePostgres ? 'PostgreSQL' : 'PGlite';
const started = Date.now();
const cpuAtStart = childrenCpuMs();

let templateDb;
{
  const args = ['--import', 'tsx', 'test/support/prepare-template.ts'];
  if (usePostgres) {
    templateDb = `trackway_tpl_${process.pid}`;
    env.TEST_PG_TEMPLATE = templateDb;
    env.TEST_RUN_ID = String(process.pid);
    args.push('postgres', templateDb);
  } else {
    env.TEST_PGLITE_TEMPLATE = path.join(root, '.test-cache', `pglite-template-${process.pid}.tar`);
    args.push('pglite', env.TEST_PGLITE_TEMPLATE);
  }
  const r = spawnSync(process.execPath, args, { stdio: 'inherit', env });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
console.log(`# template ready on ${dbName} in ${Date.now() - started} ms`);

// Test processes load a compiled copy (scripts/test-compile.mjs); TEST_TSX=1 runs the sources through tsx.
const useTsx = env.TEST_TSX === '1';
const compiled = path.join(root, '.test-cache', `js-${process.pid}`);
if (!useTsx) {
  const t0 = Date.now();
  const n = await compileForTests(root, compiled);
  console.log(`# ${n} TypeScript files compiled in ${Date.now() - t0} ms`);
}

// Longest first (by the last run on this database), new files first of all.
const timingsFile = path.join(root, '.test-cache', 'timings.json');
const known = readJson(timingsFile)?.[dbName] ?? {};
// A fresh clone (CI) has no last run: scripts/test-order.json keeps one run's wall seconds, so the
// slow browser files do not start last there and leave one worker running alone at the end.
const seed = readJson(path.join(root, 'scripts', 'test-order.json'))?.[dbName] ?? {};
const lastWall = (f) => known[f]?.wallMs ?? (f in seed ? seed[f] * 1000 : Number.MAX_SAFE_INTEGER);
const queue = [...files].sort((a, b) => lastWall(b) - lastWall(a));

// TEST_CPU_PROF=DIR: every test process writes a V8 CPU profile there (Node refuses --cpu-prof in
// NODE_OPTIONS); what a run spends its CPU on, summed over files.
const profileArgs = env.TEST_CPU_PROF
  ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(env.TEST_CPU_PROF)}`]
  : [];

/** Process groups of the files running now; ended with the runner. */
const groups = new Set();
function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const pid of groups) killGroup(pid);
    fs.rmSync(compiled, { recursive: true, force: true });
    process.exit(130);
  });
}

const results = [];
/** Workers started (their CPU time is summed when they end). */
const workers = [];
await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, slot));
await Promise.all(workers.map((w) => w.closed));

/** One of `concurrency` lanes: runs files in its worker, and files that ask for it in their own process. */
async function slot() {
  let worker;
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    let r;
    if (wantsOwnProcess(file)) r = { ...(await runFile(file)), ownProcess: true };
    else {
      worker ??= startWorker();
      r = await worker.run(file);
      if (r.workerDone) worker = undefined;
    }
    results.push(r);
    process.stdout.write(r.output);
    console.log(
      `# ${r.ok ? 'ok  ' : 'FAIL'} ${file}  ${(r.wallMs / 1000).toFixed(1)} s wall, ${(r.cpuMs / 1000).toFixed(1)} s cpu` +
        `  (${results.length}/${files.length})`,
    );
  }
  worker?.end();
}

/** A file that cannot share a process with others says so in a line of its own: `// test-runner: own process`. */
function wantsOwnProcess(file) {
  return useTsx || /^\/\/ test-runner: own process\b/m.test(fs.readFileSync(file, 'utf8'));
}

function anyDatabase(file) {
  return /^\/\/ test-runner: any database\b/m.test(fs.readFileSync(file, 'utf8'));
}

/**
 * A long-lived test process (scripts/test-worker.mjs) that runs the files it
 * is given one after another. Through `sh` for `times` (the CPU time of its
 * whole life) and for 2>&1: the file's output is all that the worker printed
 * before the file's marker line. In its own process group, as runFile's.
 */
function startWorker() {
  const nodeArgs = [
    ...profileArgs,
    '--enable-source-maps',
    // TEST_ASYNC_HOOKS=1 leaves node:test's async hook as it is (with its destroy callback).
    ...(env.TEST_ASYNC_HOOKS === '1'
      ? []
      : [`--import=${pathToFileURL(path.join(compiled, 'scripts/test-async-hooks.mjs')).href}`]),
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    `--test-reporter=${path.join(compiled, 'scripts/test-worker-reporter.mjs')}`,
    '--test-reporter-destination=stdout',
    path.join(compiled, 'scripts/test-worker.mjs'),
  ];
  const child = spawn(
    'sh',
    ['-c', '"$@" 2>&1; s=$?; times >&3; exit $s', 'sh', process.execPath, ...nodeArgs],
    {
      env: { ...env, FORCE_COLOR: env.FORCE_COLOR ?? '0', TEST_TIMEOUT_MS: String(timeoutMs) },
      stdio: ['pipe', 'pipe', 'inherit', 'pipe'],
      detached: true,
    },
  );
  groups.add(child.pid);
  const w = { cpuMs: 0 };
  w.closed = new Promise((resolve) => child.on('close', resolve));
  workers.push(w);
  let pending; // { file, t0, resolve, hardLimit }
  let buffered = '';
  let times = '';
  child.stdio[3].on('data', (d) => {
    times += d;
  });
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => {
    buffered += d;
    const at = buffered.indexOf(`\n${MARKER} `);
    const eol = at < 0 ? -1 : buffered.indexOf('\n', at + 1);
    if (eol < 0 || !pending) return;
    const report = JSON.parse(buffered.slice(at + MARKER.length + 2, eol));
    const output = buffered.slice(0, at + 1);
    buffered = buffered.slice(eol + 1);
    // A worker that grew large gives its place to a fresh one.
    const recycle = report.rssMb > WORKER_RSS_LIMIT_MB;
    if (recycle) w.end();
    settle(
      {
        ok: report.ok,
        cpuMs: report.cpuMs,
        tests: report.tests,
        pass: report.pass,
        fail: report.fail,
        output,
      },
      recycle,
    );
  });
  child.on('close', (code, signal) => {
    groups.delete(child.pid);
    killGroup(child.pid); // what its files left running
    w.cpuMs = parseTimes(times);
    if (pending) {
      const output = `${buffered}\n# ${pending.file}: its worker ended (${code ?? signal}) before the file did\n`;
      settle({ ok: false, code: code ?? signal, cpuMs: 0, tests: 0, pass: 0, fail: 1, output }, true);
    }
  });
  function settle(r, workerDone) {
    const { file, t0, resolve, hardLimit } = pending;
    pending = undefined;
    clearTimeout(hardLimit);
    resolve({ file, code: r.ok ? 0 : 1, wallMs: Date.now() - t0, ...r, workerDone });
  }
  w.run = (file) =>
    new Promise((resolve) => {
      const t0 = Date.now();
      const hardLimit = setTimeout(() => {
        buffered += `\n# ${file}: killed ${timeoutMs / 1000 + 60} s after it started\n`;
        killGroup(child.pid);
      }, timeoutMs + 60_000);
      pending = { file, t0, resolve, hardLimit };
      const js = path.join(compiled, file.replace(/\.ts$/, '.js'));
      child.stdin.write(`${JSON.stringify([js, file])}\n`);
    });
  w.end = () => child.stdin.end();
  return w;
}

/**
 * One file under `node --test` (per-test timeout, the spec reporter), through
 * `sh` only to read `times`: the CPU time of the file's whole process tree.
 */
function runFile(file) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const nodeArgs = [
      ...profileArgs,
      ...(useTsx ? ['--import', 'tsx'] : ['--enable-source-maps']),
      '--test',
      '--test-reporter=spec',
      `--test-timeout=${timeoutMs}`,
      useTsx ? file : path.join(compiled, file.replace(/\.ts$/, '.js')),
    ];
    // Its own process group, so that what the file started (a server, Chromium)
    // goes with it: a server orphaned by a timed-out file keeps the output pipe
    // open, and `node --test` would wait for it forever.
    const child = spawn('sh', ['-c', '"$@"; s=$?; times >&3; exit $s', 'sh', process.execPath, ...nodeArgs], {
      env: { ...env, FORCE_COLOR: env.FORCE_COLOR ?? '0', TEST_FILE: file },
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      detached: true,
    });
    groups.add(child.pid);
    let killed = false;
    const hardLimit = setTimeout(() => {
      killed = true;
      killGroup(child.pid);
    }, timeoutMs + 60_000);
    const out = [];
    let times = '';
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    child.stdio[3].on('data', (d) => {
      times += d;
    });
    child.on('exit', () => killGroup(child.pid)); // leftovers of a file that ended
    child.on('close', (code, signal) => {
      clearTimeout(hardLimit);
      groups.delete(child.pid);
      let output = Buffer.concat(out).toString();
      if (killed) output += `\n# ${file}: killed ${timeoutMs / 1000 + 60} s after it started\n`;
      const count = (name) => Number(output.match(new RegExp(`^ℹ ${name} (\\d+)$`, 'm'))?.[1] ?? 0);
      resolve({
        file,
        ok: code === 0 && !killed,
        code: code ?? signal,
        wallMs: Date.now() - t0,
        cpuMs: parseTimes(times),
        tests: count('tests'),
        pass: count('pass'),
        fail: count('fail') + count('cancelled'),
        output,
      });
    });
  });
}

/** `times` prints the shell's own and then its children's user and system time, as `1m2.345s`. */
function parseTimes(text) {
  const line = text.trim().split('\n').at(-1) ?? '';
  return line
    .split(/\s+/)
    .map((x) => x.match(/^(\d+)m([\d.]+)s$/))
    .filter(Boolean)
    .reduce((ms, m) => ms + (Number(m[1]) * 60 + Number(m[2])) * 1000, 0);
}

/** This runner's own CPU time (the files' is measured per file). */
function childrenCpuMs() {
  const u = process.resourceUsage();
  return u.userCPUTime / 1000 + u.systemCPUTime / 1000;
}

function readJson(p) {
  try {
    return JSON.parse(fs.readFileSync(p, 'utf8'));
  } catch {
    return undefined;
  }
}

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
fs.rmSync(compiled, { recursive: true, force: true });

// Remember this run's times for the next run's order (files that ran get theirs, others keep
// theirs). Read again: a run on the other database may have written meanwhile (.ci/run runs both).
const latest = readJson(timingsFile) ?? {};
latest[dbName] = {
  ...latest[dbName],
  ...Object.fromEntries(results.map((r) => [r.file, { wallMs: r.wallMs, cpuMs: Math.round(r.cpuMs) }])),
};
fs.mkdirSync(path.dirname(timingsFile), { recursive: true });
fs.writeFileSync(timingsFile, `${JSON.stringify(latest, null, 1)}\n`);

const failed = results.filter((r) => !r.ok);
const sum = (k) => results.reduce((n, r) => n + r[k], 0);
const cpuFiles = sum('cpuMs');
// All the tests' CPU time: the workers' whole lives (start-up and exit included) and the files run on their own.
const cpuAll =
  workers.reduce((n, w) => n + w.cpuMs, 0) + results.reduce((n, r) => n + (r.ownProcess ? r.cpuMs : 0), 0);
console.log(`\n# slowest files on ${dbName} (wall, cpu):`);
for (const r of [...results].sort((a, b) => b.wallMs - a.wallMs).slice(0, 10))
  console.log(
    `#   ${(r.wallMs / 1000).toFixed(1).padStart(6)} s ${(r.cpuMs / 1000).toFixed(1).padStart(6)} s  ${r.file}`,
  );
console.log(
  `# ${files.length} test files, ${sum('tests')} tests (${sum('pass')} pass, ${sum('fail')} fail) on ${dbName}` +
    ` in ${((Date.now() - started) / 1000).toFixed(1)} s wall, ${(cpuFiles / 1000).toFixed(1)} s cpu in test files,` +
    ` ${(cpuAll / 1000).toFixed(1)} s in ${workers.length} workers and files on their own` +
    ` (${((childrenCpuMs() - cpuAtStart) / 1000).toFixed(1)} s in this runner), ${concurrency} at a time,` +
    ` load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
);
for (const r of failed) console.log(`# FAILED: ${r.file} (exit ${r.code})`);
process.exit(failed.length ? 1 : 0);
