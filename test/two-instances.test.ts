// Two real server processes (node --import tsx src/server.ts) on one
// PostgreSQL database, as behind a load balancer, sharing nothing else:
// the sign-in limit and the GraphQL budget are one for both, 100 concurrent
// creates split across them get 100 gapless identifiers, with both delivery
// workers running each webhook event arrives exactly once per endpoint, and a
// file uploaded to one downloads from the other (each has its own DATA_DIR;
// FILE_STORAGE=postgres keeps the bytes in the shared database).
// PostgreSQL only: PGlite is embedded in one process and cannot be shared.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { freshDatabase, type TestDatabase } from './support/database.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './support/env.js';
import { freePort, type ServerProcess, startServerProcess } from './support/server-process.js';
import { type Receiver, signatureValid, sleep, startReceiver } from './webhooks-support.js';

const onPostgres = Boolean(process.env['DATABASE_URL']);
const SKIP =
  'needs PostgreSQL (DATABASE_URL): embedded PGlite lives inside one process, two servers cannot share it';
const REQUESTS_PER_HOUR = 10;

type Server = ServerProcess & { name: string };

async function startServer(name: string, databaseUrl: string, dataDir: string): Promise<Server> {
  const port = await freePort();
  const server = await startServerProcess({
    name,
    port,
    env: {
      // Each its own: the webhook User-Agent names it, so deliveries show who sent them.
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      FILE_STORAGE: 'postgres',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      JWT_SECRET: undefined,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_BASE_MS: '100',
      GRAPHQL_REQUESTS_PER_HOUR: String(REQUESTS_PER_HOUR),
      // The test plays clients at many addresses through X-Forwarded-For.
      TRUST_PROXY: 'loopback',
      LOG_LEVEL: 'error',
    },
  });
  return { ...server, name };
}

interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

async function call(
  s: Server,
  method: string,
  url: string,
  opts: { token?: string; body?: unknown; from?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (opts.token) headers['authorization'] = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.from) headers['x-forwarded-for'] = opts.from;
  const res = await fetch(`${s.base}${url}`, {
    method,
    headers,
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

const count = (answers: Answer[], status: number) => answers.filter((a) => a.status === status).length;

describe('two server processes on one PostgreSQL database', { skip: onPostgres ? false : SKIP }, () => {
  let database: TestDatabase;
  let dataDirs: string[];
  let rx: Receiver;
  let a: Server;
  let b: Server;
  let admin: string;
  /** A on even indexes, B on odd ones: work split evenly across the two. */
  const either = (i: number) => (i % 2 === 0 ? a : b);

  before(async () => {
    database = await freshDatabase();
    dataDirs = await Promise.all(
      ['a', 'b'].map((n) => fs.mkdtemp(path.join(os.tmpdir(), `trackway-two-${n}-`))),
    );
    rx = await startReceiver();
    [a, b] = await Promise.all([
      startServer('A', database.url!, dataDirs[0]!),
      startServer('B', database.url!, dataDirs[1]!),
    ]);
    const login = await call(a, 'POST', '/api/auth/login', {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      from: '192.0.2.1',
    });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    admin = login.body.token;
  });

  after(async () => {
    for (const s of [a, b]) if (s && s.child.exitCode === null) s.child.kill('SIGKILL');
    await rx?.close();
    await database?.close();
    for (const dir of dataDirs ?? []) await fs.rm(dir, { recursive: true, force: true });
  });

  test('a token from A works on B: one signing secret, in the database', async () => {
    const me = await call(b, 'GET', '/api/auth/me', { token: admin });
    assert.equal(me.status, 200);
    assert.equal(me.body.user.email, ADMIN_EMAIL);
  });

  test('one sign-in limit: failures on A count on B', async () => {
    const email = `limited-${process.pid}@example.com`;
    const password = 'right-password-1';
    const created = await call(a, 'POST', '/api/admin/users', {
      token: admin,
      body: { name: 'Limited', email, password, role: 'member' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    // The owner signs in once on A from their usual address, which becomes known.
    const usual = '198.51.100.7';
    assert.equal(
      (await call(a, 'POST', '/api/auth/login', { body: { email, password }, from: usual })).status,
      200,
    );

    // 24 wrong passwords at once, each from its own address, split across A and B:
    // the account allows 10 attempts from unknown addresses, whichever instance
    // takes them (two separate limits would let 20 through).
    const guesses = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        call(either(i), 'POST', '/api/auth/login', {
          body: { email, password: `wrong-${i}` },
          from: `203.0.113.${i + 1}`,
        }),
      ),
    );
    assert.deepEqual([count(guesses, 401), count(guesses, 429)], [10, 14]);
    for (const g of guesses.filter((x) => x.status === 429)) {
      assert.equal(g.body.error.code, 'RATE_LIMITED');
      assert.ok(Number(g.headers.get('retry-after')) > 0);
    }
    // Even the right password from a new address is held up now, on both.
    for (const s of [a, b]) {
      const late = await call(s, 'POST', '/api/auth/login', {
        body: { email, password },
        from: '203.0.113.99',
      });
      assert.equal(late.status, 429, s.name);
    }
    // The owner's usual address, known through A, still gets in through B.
    assert.equal(
      (await call(b, 'POST', '/api/auth/login', { body: { email, password }, from: usual })).status,
      200,
    );
  });

  test('one GraphQL budget: requests on A and B draw on the same hourly count', async () => {
    const member = `budget-${process.pid}@example.com`;
    const made = await call(a, 'POST', '/api/admin/users', {
      token: admin,
      body: { name: 'Budget', email: member, password: 'budget-password', role: 'member' },
    });
    assert.equal(made.status, 201);
    const login = await call(b, 'POST', '/api/auth/login', {
      body: { email: member, password: 'budget-password' },
      from: '192.0.2.2',
    });
    // An API key: the API clients' budget is the one GRAPHQL_REQUESTS_PER_HOUR sets.
    const madeKey = await call(a, 'POST', '/api/api-keys', {
      token: login.body.token,
      body: { label: 'budget' },
    });
    assert.equal(madeKey.status, 201);
    const token = madeKey.body.key as string;
    const ask = (s: Server) => call(s, 'POST', '/graphql', { token, body: { query: '{ viewer { id } }' } });

    const remaining: string[] = [];
    for (const s of [a, b, a, b]) {
      const res = await ask(s);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      remaining.push(`${s.name}:${res.headers.get('x-ratelimit-requests-remaining')}`);
    }
    assert.deepEqual(remaining, ['A:9', 'B:8', 'A:7', 'B:6']);

    // 12 at once for the 6 left: exactly 6 run, whichever instance takes them.
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => ask(either(i))));
    assert.deepEqual([count(burst, 200), count(burst, 429)], [6, 6]);
    for (const s of [a, b]) {
      const res = await ask(s);
      assert.equal(res.status, 429, s.name);
      assert.equal(res.body.errors[0].extensions.type, 'ratelimited');
      assert.ok(Number(res.headers.get('retry-after')) > 0);
      assert.equal(res.headers.get('x-ratelimit-requests-remaining'), '0');
    }
  });

  test('100 concurrent creates across both: gapless identifiers; each event delivered exactly once', {
    timeout: 180_000,
  }, async (t) => {
    // Two endpoints, each answering 503 to the first attempt of every tenth
    // issue: a retry becomes due after 100 ms and is claimed by whichever
    // worker looks first, so both workers take deliveries (a worker that
    // succeeds keeps its endpoint's lane otherwise).
    const hooks: { id: string; secret: string }[] = [];
    for (const label of ['first', 'second']) {
      const res = await call(a, 'POST', '/api/admin/webhooks', {
        token: admin,
        body: { url: rx.url, label, resourceTypes: ['issue'] },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      hooks.push(res.body.webhook);
    }
    const refusedOnce = new Set<string>();
    /** Per endpoint and issue: how many times the receiver accepted it. */
    const accepted = new Map<string, number>();
    rx.reply = (r) => {
      const key = `${r.body.webhookId}|${r.body.data.id}`;
      if (/ \d*0$/.test(r.body.data.title) && !refusedOnce.has(key)) {
        refusedOnce.add(key);
        return { status: 503 };
      }
      accepted.set(key, (accepted.get(key) ?? 0) + 1);
      return { status: 200 };
    };
    const before = (await call(b, 'GET', '/api/teams/ENG', { token: admin })).body.team
      .lastIssueNumber as number;

    const created = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        call(either(i), 'POST', '/api/issues', {
          token: admin,
          body: { title: `Split ${i}`, teamId: 'ENG' },
        }),
      ),
    );
    assert.deepEqual(
      created.filter((c) => c.status !== 201).map((c) => c.body),
      [],
    );
    const numbers = created.map((c) => c.body.issue.number as number).sort((x, y) => x - y);
    assert.deepEqual(
      numbers,
      Array.from({ length: 100 }, (_, i) => before + 1 + i),
    );
    assert.deepEqual(
      new Set(created.map((c) => c.body.issue.identifier)),
      new Set(numbers.map((n) => `ENG-${n}`)),
    );
    const issueIds = new Set(created.map((c) => c.body.issue.id as string));

    // 200 accepted deliveries, plus the 20 refused first attempts.
    await rx.waitFor((all) => all.length >= 220, '220 requests', 150_000);
    // Time for a stray second copy to arrive: several poll intervals of both workers.
    await sleep(2500);
    assert.equal(rx.received.length, 220, 'no event delivered twice');
    assert.equal(refusedOnce.size, 20);
    assert.equal(accepted.size, 200);
    assert.ok(
      [...accepted.values()].every((n) => n === 1),
      'each event accepted exactly once per endpoint',
    );
    for (const hook of hooks) {
      const got = rx.received.filter((r) => r.body.webhookId === hook.id);
      assert.equal(got.length, 110);
      const perIssue = new Map<string, number>();
      for (const r of got) perIssue.set(r.body.data.id, (perIssue.get(r.body.data.id) ?? 0) + 1);
      assert.deepEqual(new Set(perIssue.keys()), issueIds);
      const tried = (n: number) => [...perIssue.values()].filter((v) => v === n).length;
      assert.deepEqual([tried(1), tried(2)], [90, 10], 'once each, twice where the first was refused');
      assert.equal(new Set(got.map((r) => r.headers['x-service-delivery'])).size, 100);
      assert.ok(got.every((r) => r.body.type === 'issue' && r.body.action === 'create'));
      assert.ok(got.every((r) => signatureValid(hook.secret, r)));
      const log = await call(b, 'GET', `/api/admin/webhooks/${hook.id}/deliveries?limit=100`, {
        token: admin,
      });
      assert.equal(log.body.pageInfo.total, 100);
      const attempts = log.body.deliveries.map((d: any) => `${d.status}:${d.attemptCount}`).sort();
      assert.deepEqual(attempts, [...Array(90).fill('succeeded:1'), ...Array(10).fill('succeeded:2')].sort());
    }
    const bySender = (s: Server) =>
      rx.received.filter((r) => String(r.headers['user-agent']).includes(s.base)).length;
    t.diagnostic(`requests sent by A: ${bySender(a)}, by B: ${bySender(b)}`);
    assert.equal(bySender(a) + bySender(b), 220);
    assert.ok(bySender(a) > 0 && bySender(b) > 0, 'both workers delivered');
  });

  test('a file uploaded to A downloads from B, byte for byte', async () => {
    // Many stored chunks (256 KiB each) and every byte value.
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + (i >> 11)) & 0xff;
    const up = await fetch(`${a.base}/api/files`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${admin}`,
        'content-type': 'application/octet-stream',
        'x-filename': 'two.bin',
      },
      body: bytes,
    });
    assert.equal(up.status, 201, await up.clone().text());
    const { file } = (await up.json()) as { file: { id: string } };
    const down = await fetch(`${b.base}/api/files/${file.id}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    assert.equal(down.status, 200);
    assert.ok(Buffer.from(await down.arrayBuffer()).equals(bytes), 'the same bytes');
    // Neither instance wrote it to its own disk.
    for (const dir of dataDirs) {
      const local = await fs.readdir(path.join(dir, 'files')).catch(() => []);
      assert.deepEqual(local, []);
    }
  });

  test('both shut down cleanly on SIGTERM', async () => {
    for (const s of [a, b]) s.child.kill('SIGTERM');
    assert.deepEqual(await Promise.all([a.exited, b.exited]), [0, 0], `${a.output()}\n${b.output()}`);
  });
});
