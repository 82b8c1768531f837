// The real server as a child process (node --import tsx src/server.ts) on a new
// DATA_DIR with ADMIN_EMAIL/ADMIN_PASSWORD unset: the generated admin password
// is printed once and signs in; SIGTERM shuts down cleanly; JSON logs carry
// request ids; a restart prints nothing and keeps tokens valid. Always on the
// embedded database: DATA_DIR is what is under test.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

const root = path.resolve(import.meta.dirname, '..');

// Generous: tsx compiles on the fly and the machine may be busy with other runs.
// How fast start-up really is gets measured by scripts/measure-startup.mjs.
const SERVER_START_LIMIT_MS = 180_000;
const SERVER_TEST_TIMEOUT_MS = 400_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

interface Running {
  child: ChildProcess;
  base: string;
  output: () => string;
  exited: Promise<number | null>;
}

async function startServer(dataDir: string): Promise<Running> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
  };
  for (const k of ['DATABASE_URL', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'JWT_SECRET', 'PUBLIC_URL'])
    delete env[k];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + SERVER_START_LIMIT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${out}`);
    try {
      const res = await fetch(`${base}/api/config`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer in time:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, base, output: () => out, exited };
}

async function stop(s: Running): Promise<number | null> {
  s.child.kill('SIGTERM');
  return s.exited;
}

const PASSWORD_LINE = /First admin created: (\S+)\s+password: (\S+)/g;

describe('the real server (node src/server.ts) on a new DATA_DIR', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trackway-first-start-'));
  });
  after(() => fs.rm(dataDir, { recursive: true, force: true }));

  let token: string;
  let password: string;

  test('first start prints the generated admin password once and it signs in; SIGTERM exits cleanly', {
    timeout: SERVER_TEST_TIMEOUT_MS,
  }, async () => {
    const first = await startServer(dataDir);
    try {
      const printed = [...first.output().matchAll(PASSWORD_LINE)];
      assert.equal(printed.length, 1, first.output());
      assert.equal(printed[0]![1], 'admin@localhost');
      password = printed[0]![2]!;

      const login = await fetch(`${first.base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': 'first-login' },
        body: JSON.stringify({ email: 'admin@localhost', password }),
      });
      assert.equal(login.status, 200);
      assert.equal(login.headers.get('x-request-id'), 'first-login');
      token = ((await login.json()) as { token: string }).token;
      const wrong = await fetch(`${first.base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@localhost', password: 'not-it' }),
      });
      assert.equal(wrong.status, 401);
    } finally {
      const code = await stop(first);
      assert.equal(code, 0, `graceful exit on SIGTERM:\n${first.output()}`);
    }

    // JSON logs carrying request ids, and the shutdown noted.
    const logs = first
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
    assert.ok(
      logs.some((l) => l.reqId === 'first-login'),
      'a log line carries the client request id',
    );
    assert.ok(logs.some((l) => l.msg === 'shutting down' && l.signal === 'SIGTERM'));
    assert.ok(!first.output().includes(`"${password}"`), 'the password is not logged');
  });

  test('a restart on the same DATA_DIR prints no password and keeps tokens and the password valid', {
    timeout: SERVER_TEST_TIMEOUT_MS,
  }, async () => {
    assert.ok(token && password, 'needs the first start');
    const second = await startServer(dataDir);
    try {
      assert.equal([...second.output().matchAll(PASSWORD_LINE)].length, 0, 'not printed again');
      const me = await fetch(`${second.base}/api/auth/me`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(me.status, 200, 'a token from before the restart still works');
      const login = await fetch(`${second.base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@localhost', password }),
      });
      assert.equal(login.status, 200, 'the generated password still signs in');
    } finally {
      assert.equal(await stop(second), 0);
    }
  });
});
