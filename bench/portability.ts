// Moving in and out at scale (issue 30; docs/benchmarks.md, "Import, export and restore"):
//   node --import tsx bench/portability.ts      (DATABASE_URL: on that PostgreSQL server, else PGlite)
// 1. Export and restore: a workspace seeded with BENCH_PORTABILITY_SIZES issues (default 2000 and
//    100000, about three comments each) is exported with `npm run export`'s code, the archive
//    restored into an empty database with `npm run restore`'s, and the restored copy exported again:
//    its archive must hold the same tables with the same row counts. That memory does not grow with
//    the workspace is read from the peak RSS of the small and the large run side by side.
// 2. Import: a Jira CSV export of BENCH_IMPORT_ISSUES issues (default 10000, two comments each,
//    quoted newlines, 40 people) through `npm run import -- csv` and the ready Jira mapping.
// Each step is the CLI a user runs, in a child process under /usr/bin/time: wall time and peak RSS.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { firstStart } from '../src/first-start.js';
import { openDatabase } from '../src/platform/db/database.js';
import { migrate } from '../src/platform/db/migrate.js';
import { SCALES, seed } from './seed.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createBenchDatabase, gitCommit, root, scriptFlags } from './setup.js';

const serverUrl = process.env['DATABASE_URL'];
const kind = serverUrl ? 'postgres' : 'pglite';
const sizes = (process.env['BENCH_PORTABILITY_SIZES'] ?? '2000,100000').split(',').map(Number);
const importIssues = Number(process.env['BENCH_IMPORT_ISSUES'] ?? 10_000);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'trackway-portability-'));
const log = (line: string) => console.log(line);

interface Installation {
  env: NodeJS.ProcessEnv;
  drop: () => Promise<void>;
}

/** An empty installation: a new database on the server, or a new PGlite directory. */
async function installation(name: string): Promise<Installation> {
  const dataDir = path.join(work, name);
  fs.mkdirSync(dataDir, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    LOG_LEVEL: 'warn',
  };
  delete env['DATABASE_URL'];
  if (!serverUrl) return { env, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  const db = await createBenchDatabase(serverUrl, `trackway_portability_${name}_${process.pid}`);
  env['DATABASE_URL'] = db.url;
  return { env, drop: db.drop };
}

async function withDatabase<T>(
  env: NodeJS.ProcessEnv,
  fn: (
    db: Awaited<ReturnType<typeof openDatabase>>['db'],
    config: ReturnType<typeof loadConfig>,
  ) => Promise<T>,
) {
  const config = loadConfig(env);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    return await fn(database.db, config);
  } finally {
    await database.close();
  }
}

interface Measured {
  seconds: number;
  peakMb: number;
  output: string;
}

/** Runs a CLI of src/cli as a user would (its npm script's Node flags, through tsx), measured by /usr/bin/time. */
function cli(script: string, args: string[], env: NodeJS.ProcessEnv): Measured {
  const timing = path.join(work, 'time.txt');
  const run = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      '%e %M',
      '-o',
      timing,
      process.execPath,
      ...scriptFlags(path.basename(script, '.ts')),
      '--import',
      'tsx',
      path.join(root, 'src/cli', script),
      ...args,
    ],
    { env, cwd: root, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 },
  );
  const output = `${run.stdout}${run.stderr}`;
  if (run.status !== 0)
    throw new Error(`${script} ${args.join(' ')} failed (${run.status}):\n${output.slice(-2000)}`);
  const [seconds, kb] = fs.readFileSync(timing, 'utf8').trim().split(/\s+/).slice(-2).map(Number);
  return { seconds: seconds!, peakMb: Math.round(kb! / 1024), output };
}

/** Each table's row count in an archive, from the export's own lines ("issues: 100000 rows, ..."). */
const tableRows = (output: string) =>
  Object.fromEntries([...output.matchAll(/^(\S+): (\d+) rows/gm)].map((m) => [m[1], Number(m[2])])) as Record<
    string,
    number
  >;

const mb = (file: string) => Math.round(fs.statSync(file).size / 2 ** 20);

async function exportAndRestore(issues: number) {
  log(`\n== export and restore, ${issues} issues (${kind}) ==`);
  const source = await installation(`src${issues}`);
  const target = await installation(`dst${issues}`);
  try {
    const started = performance.now();
    const seeded = await withDatabase(source.env, (db, config) =>
      seed(db, config, { ...SCALES.full, name: 'full', issues }),
    );
    log(
      `seeded ${seeded.counts.issues} issues, ${seeded.counts.comments} comments in ${Math.round(performance.now() - started) / 1000} s`,
    );
    const archive = path.join(work, `export-${issues}.tar`);
    const exported = cli('export.ts', [archive], source.env);
    const restored = cli('restore.ts', [archive], target.env);
    const again = path.join(work, `again-${issues}.tar`);
    const reExported = cli('export.ts', [again], target.env);
    const before = tableRows(exported.output);
    const after = tableRows(reExported.output);
    const issuesRows = Object.entries(before).find(([name]) => /(^|\/)issues(\.ndjson)?$/.test(name))?.[1];
    if (issuesRows !== seeded.counts.issues)
      throw new Error(`the archive holds ${issuesRows} issues, not ${seeded.counts.issues}`);
    if (JSON.stringify(before) !== JSON.stringify(after))
      throw new Error(`the restored copy's archive differs: ${JSON.stringify({ before, after })}`);
    const row = {
      issues,
      comments: seeded.counts.comments,
      rows: Object.values(before).reduce((a, b) => a + b, 0),
      archiveMb: mb(archive),
      exportS: exported.seconds,
      exportPeakMb: exported.peakMb,
      restoreS: restored.seconds,
      restorePeakMb: restored.peakMb,
    };
    log(JSON.stringify(row));
    return row;
  } finally {
    await source.drop();
    await target.drop();
  }
}

/** A Jira CSV export as Jira writes it: repeated Comment columns, quoted newlines, its dates. */
function jiraCsv(file: string, issues: number) {
  const quote = (s: string) => (/[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const date = (n: number) =>
    `${String(1 + (n % 28)).padStart(2, '0')}/${months[n % 12]}/25 ${1 + (n % 12)}:${String(n % 60).padStart(2, '0')} ${n % 2 ? 'PM' : 'AM'}`;
  const statuses = ['To Do', 'In Progress', 'In Review', 'Done', "Won't Do", 'Backlog'];
  const priorities = ['Highest', 'High', 'Medium', 'Low', 'Lowest'];
  const person = (n: number) => `5b10ac8d82e05b22cc7d${String(n % 40).padStart(4, '0')}`;
  const out = fs.createWriteStream(file);
  out.write(
    'Summary,Issue key,Status,Priority,Assignee Id,Reporter Id,Created,Updated,Resolved,Labels,Labels,Description,Comment,Comment\n',
  );
  for (let n = 1; n <= issues; n++) {
    const status = statuses[n % statuses.length]!;
    const done = status === 'Done' || status === "Won't Do";
    out.write(
      [
        `Issue ${n}: the "${['export', 'board', 'login', 'search'][n % 4]}" step fails — ünïcode ✓`,
        `MIG-${n}`,
        status,
        priorities[n % priorities.length]!,
        n % 7 === 0 ? '' : person(n),
        person(n + 3),
        date(n),
        date(n + 5),
        done ? date(n + 9) : '',
        `area-${n % 9}`,
        n % 3 ? `kind-${n % 4}` : '',
        `h3. Steps\n# open the page\n# press *save*\n\nExpected {{ok}}, got an error on line ${n}.`,
        `${date(n + 1)};${person(n + 1)};Seen here too, on build ${n}.`,
        `${date(n + 2)};${person(n + 2)};Fixed by the next release.\nThanks!`,
      ]
        .map(quote)
        .join(',') + '\n',
    );
  }
  return new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
}

async function importJira(issues: number) {
  log(`\n== import of a Jira CSV export, ${issues} issues (${kind}) ==`);
  const target = await installation(`imp${issues}`);
  try {
    await withDatabase(target.env, async (db, config) => {
      await migrate(db);
      await firstStart(db, config);
    });
    const file = path.join(work, `jira-${issues}.csv`);
    await jiraCsv(file, issues);
    const mapping = path.join(root, 'src/modules/import/mappings/jira-csv.json');
    const imported = cli('import.ts', ['csv', file, mapping], target.env);
    const again = cli('import.ts', ['csv', file, mapping], target.env);
    const created = await withDatabase(target.env, async (db) => {
      const { count } = await db
        .selectFrom('issues')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .executeTakeFirstOrThrow();
      return Number(count);
    });
    if (created !== issues) throw new Error(`imported ${created} issues of ${issues}`);
    const row = {
      issues,
      csvMb: mb(file),
      importS: imported.seconds,
      importPeakMb: imported.peakMb,
      rerunS: again.seconds,
      rerunPeakMb: again.peakMb,
    };
    log(JSON.stringify(row));
    return row;
  } finally {
    await target.drop();
  }
}

try {
  log(`portability bench on ${kind}, ${os.cpus().length} cores, commit ${gitCommit()}`);
  const moves = [];
  for (const issues of sizes) moves.push(await exportAndRestore(issues));
  const imported = importIssues > 0 ? await importJira(importIssues) : undefined;
  log('\n| Issues | Comments | Rows | Archive | Export | Export peak RSS | Restore | Restore peak RSS |');
  log('|---|---|---|---|---|---|---|---|');
  for (const m of moves)
    log(
      `| ${m.issues} | ${m.comments} | ${m.rows} | ${m.archiveMb} MB | ${m.exportS} s | ${m.exportPeakMb} MB | ${m.restoreS} s | ${m.restorePeakMb} MB |`,
    );
  if (imported) {
    log('\n| Jira CSV issues | File | Import | Peak RSS | Re-run (creates nothing) | Peak RSS |');
    log('|---|---|---|---|---|---|');
    log(
      `| ${imported.issues} | ${imported.csvMb} MB | ${imported.importS} s | ${imported.importPeakMb} MB | ${imported.rerunS} s | ${imported.rerunPeakMb} MB |`,
    );
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
