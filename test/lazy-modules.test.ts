// A server loads what only some installations use when it is first used, not at start: the
// OAuth provider, the MCP SDK, the mail transport, the hosted tracker's SDK (Linear imports),
// and the embedded database's code on PostgreSQL. Each is megabytes of heap that every process
// held for its whole life, and V8 lets the heap grow in proportion to what lives
// (docs/benchmarks.md, "Issue 25, fourth stop"). A module hook in the server process notes
// every module it loads.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { freshDatabase, type TestDatabase } from './support/database.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, templateSource } from './support/env.js';
import { mcpToolsList } from './support/mcp.js';
import { type ServerProcess, startServerProcess } from './support/server-process.js';

const onPostgres = Boolean(process.env['DATABASE_URL']);
let dataDir: string;
let database: TestDatabase | undefined;
let server: ServerProcess;
let log: string;

/** Registers, in the server process, a load hook that appends each module's URL to TW_MODULE_LOG. */
const HOOKS = `
import fs from 'node:fs';
export async function load(url, context, next) {
  const loaded = await next(url, context);
  fs.appendFileSync(process.env.TW_MODULE_LOG, url + '\\n');
  return loaded;
}`;
const REGISTER = `
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOKS)}));`;

const loadedPackages = async () => {
  const urls = (await fs.readFile(log, 'utf8')).split('\n');
  return new Set(urls.flatMap((u) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1] ?? []));
};

before(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trackway-lazy-'));
  log = path.join(dataDir, 'modules.txt');
  if (onPostgres) database = await freshDatabase();
  else {
    const { PGlite } = await import('@electric-sql/pglite');
    const tarball = new Blob([await fs.readFile(templateSource().pgliteTarball!)]);
    await (await PGlite.create({ dataDir: path.join(dataDir, 'pgdata'), loadDataDir: tarball })).close();
  }
  server = await startServerProcess({
    nodeArgs: ['--import', `data:text/javascript,${encodeURIComponent(REGISTER)}`],
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: database?.url ?? '',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      // The mail worker runs: its transport is what must wait for a first message.
      SMTP_URL: 'smtp://127.0.0.1:9',
      MAIL_FROM: 'Trackway <trackway@example.com>',
      TW_MODULE_LOG: log,
      LOG_LEVEL: 'error',
    },
  });
});
after(async () => {
  server?.child.kill('SIGKILL');
  await database?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

test('a started server has loaded none of what only some installations use', async () => {
  const loaded = await loadedPackages();
  assert.ok(loaded.has('fastify') && loaded.has('kysely'), 'the hook sees the server load its modules');
  const optional = ['oidc-provider', '@modelcontextprotocol/sdk', 'nodemailer', '@linear/sdk'];
  if (onPostgres) optional.push('@electric-sql/pglite');
  assert.deepEqual(
    optional.filter((p) => loaded.has(p)),
    [],
  );
});

test('the OAuth provider and the MCP SDK load with their first request, and answer it', async () => {
  const base = server.base;
  const keys = await fetch(`${base}/oauth/jwks`);
  assert.equal(keys.status, 200);
  assert.equal(((await keys.json()) as { keys: unknown[] }).keys.length, 1);
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  const { token } = (await login.json()) as { token: string };
  const mcp = await mcpToolsList(base, token);
  assert.equal(mcp.status, 200, await mcp.clone().text());
  assert.ok(((await mcp.json()) as { result: { tools: unknown[] } }).result.tools.length > 0);
  const loaded = await loadedPackages();
  assert.ok(loaded.has('oidc-provider'), 'oidc-provider once the provider answered');
  assert.ok(loaded.has('@modelcontextprotocol/sdk'), 'the MCP SDK once /mcp answered');
});
