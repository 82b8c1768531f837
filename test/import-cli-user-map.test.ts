// `npm run import -- ... --user-map <file>` as a person runs it: the CLI in a
// child process on its own copy of the template database. The file's people
// (source email → an email or an account id here) stand for the source's
// people; one left out gets a placeholder as usual; a file naming no account
// here refuses the run (exit 2) before it opens one.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { type Database, openDatabase } from '../src/platform/db/database.js';
import { freshDatabase } from './support/database.js';
import { ADMIN_EMAIL } from './support/env.js';
import { cliArgs, SERVER_ROOT } from './support/server-process.js';

let dir: string;
let url: string | undefined;
let pg: Database | undefined;

const MAPPING = {
  team: 'MAP',
  teamName: 'Mapped',
  columns: { key: 'Key', title: 'Summary', assignee: 'Assignee' },
};
const CSV = [
  'Key,Summary,Assignee',
  'M-1,By email,Alice@Old.Example',
  'M-2,By id,bob@old.example',
  'M-3,Left out,carol@old.example',
].join('\n');

/** The CLI against this file's database; its exit code, output and the report it printed. */
function runCli(args: string[]) {
  const run = spawnSync(process.execPath, [...cliArgs('import'), ...args], {
    cwd: SERVER_ROOT,
    env: {
      ...process.env,
      DATA_DIR: dir,
      DATABASE_URL: url ?? '',
      LOG_LEVEL: 'warn',
      IMPORT_AS: ADMIN_EMAIL,
    },
    encoding: 'utf8',
    timeout: 240_000,
  });
  const report = run.status === 0 ? JSON.parse(run.stdout.slice(run.stdout.indexOf('\n{') + 1)) : undefined;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, report };
}

/** The database as the CLI left it (PGlite's directory is opened only while the CLI is not running). */
async function withDb<T>(fn: (db: Database['db']) => Promise<T>): Promise<T> {
  if (pg) return fn(pg.db);
  const database = await openDatabase({ dataDir: dir });
  try {
    return await fn(database.db);
  } finally {
    await database.close();
  }
}

before(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trackway-import-cli-'));
  if (process.env['DATABASE_URL']) {
    const copy = await freshDatabase();
    pg = copy;
    url = copy.url;
  } else {
    const template = process.env['TEST_PGLITE_TEMPLATE'];
    assert.ok(template, 'run with npm test (it prepares the template)');
    await fs.mkdir(path.join(dir, 'pgdata'));
    const untar = spawnSync('tar', ['-xf', template, '-C', path.join(dir, 'pgdata')]);
    assert.equal(untar.status, 0, String(untar.stderr));
  }
  await fs.writeFile(path.join(dir, 'issues.csv'), CSV);
  await fs.writeFile(path.join(dir, 'mapping.json'), JSON.stringify(MAPPING));
});

after(async () => {
  await pg?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

test('a JSON or CSV map stands accounts here for the source people, by email or id', {
  timeout: 600_000,
}, async () => {
  const admin = await withDb((db) =>
    db.selectFrom('users').select(['id', 'email']).where('email', '=', ADMIN_EMAIL).executeTakeFirstOrThrow(),
  );
  // A CSV map with a header: one person by this installation's email, one by an account's id.
  const mapFile = path.join(dir, 'people.csv');
  await fs.writeFile(
    mapFile,
    `source,here\nalice@old.example,${ADMIN_EMAIL.toUpperCase()}\nBOB@old.example,${admin.id}\n`,
  );
  const csvArgs = ['csv', path.join(dir, 'issues.csv'), path.join(dir, 'mapping.json')];

  const dry = runCli([...csvArgs, '--dry-run', '--user-map', mapFile]);
  assert.equal(dry.status, 0, dry.stderr);
  assert.deepEqual(dry.report.missingUsers, ['carol@old.example'], 'the mapped people are not missing');

  const done = runCli([...csvArgs, '--user-map', mapFile]);
  assert.equal(done.status, 0, done.stderr);
  assert.equal(done.report.counts['user.mapped'], 2);
  assert.equal(done.report.counts['user.created'], 1, 'the one left out gets a placeholder');
  const assignees = await withDb((db) =>
    db
      .selectFrom('issues')
      .innerJoin('users', 'users.id', 'issues.assignee_id')
      .select(['issues.title', 'users.email'])
      .where('issues.title', 'in', ['By email', 'By id', 'Left out'])
      .orderBy('issues.title')
      .execute(),
  );
  assert.deepEqual(assignees, [
    { title: 'By email', email: ADMIN_EMAIL },
    { title: 'By id', email: ADMIN_EMAIL },
    { title: 'Left out', email: 'carol@old.example' },
  ]);
});

test('a map naming no account here refuses the run before it opens one', { timeout: 300_000 }, async () => {
  const runs = () =>
    withDb(async (db) =>
      Number(
        (
          await db
            .selectFrom('import_runs')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    );
  const before = await runs();
  const mapFile = path.join(dir, 'people.json');
  await fs.writeFile(mapFile, JSON.stringify({ 'dora@old.example': 'nobody@here.example' }));
  const refused = runCli([
    'csv',
    path.join(dir, 'issues.csv'),
    path.join(dir, 'mapping.json'),
    '--user-map',
    mapFile,
  ]);
  assert.equal(refused.status, 2, refused.stderr);
  assert.match(refused.stderr, /dora@old\.example: no account here has the email nobody@here\.example/);
  assert.equal(await runs(), before, 'no run was opened');

  await fs.writeFile(mapFile, '{"dora@old.example": ');
  const broken = runCli([
    'csv',
    path.join(dir, 'issues.csv'),
    path.join(dir, 'mapping.json'),
    '--user-map',
    mapFile,
  ]);
  assert.equal(broken.status, 2);
  assert.match(broken.stderr, /people\.json: /);
});
