// test-runner: any database (its server always runs on the embedded database in its own DATA_DIR)
// The real server as a child process (node --import tsx src/server.ts) on a new
// DATA_DIR with ADMIN_EMAIL/ADMIN_PASSWORD unset: the generated admin password
// is printed once and signs in; SIGTERM shuts down cleanly; JSON logs carry
// request ids; a restart prints nothing and keeps tokens valid. Always on the
// embedded database: DATA_DIR is what is under test.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type ServerProcess, startServerProcess } from './support/server-process.js';

const SERVER_TEST_TIMEOUT_MS = 400_000;

type Running = ServerProcess;

const startServer = (dataDir: string) =>
  startServerProcess({
    readyPath: '/api/config',
    env: {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      DATABASE_URL: undefined,
      ADMIN_EMAIL: undefined,
      ADMIN_PASSWORD: undefined,
      JWT_SECRET: undefined,
      PUBLIC_URL: undefined,
    },
  });

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
