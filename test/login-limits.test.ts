// Sign-in limits through HTTP, on a clock the tests move (no waiting, no
// wall-clock assertions). On PostgreSQL the parallel attempts really run at
// the same time over the pool's connections; on PGlite they interleave
// between statements. Either way the check and the count are one step, so
// no more attempts get through than the limit allows.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../src/app.js';
import { openDatabase } from '../src/platform/db/database.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './support/env.js';
import { type Res, startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let now = Date.UTC(2026, 10, 23, 12, 0, 0);
const advance = (ms: number) => {
  now += ms;
};

before(async () => {
  t = await startTestApp({}, { clock: () => now });
});
after(() => t.close());

function login(email: string, password: string, remoteAddress: string) {
  return t.request('POST', '/api/auth/login', { body: { email, password }, remoteAddress });
}

function statuses(responses: Res[]) {
  const count: Record<number, number> = {};
  for (const r of responses) count[r.status] = (count[r.status] ?? 0) + 1;
  return count;
}

function assertLimited(res: Res, retryAfter?: number) {
  assert.equal(res.status, 429, JSON.stringify(res.body));
  assert.equal(res.body.error.code, 'RATE_LIMITED');
  const header = Number(res.headers['retry-after']);
  assert.ok(Number.isInteger(header) && header >= 1, `Retry-After ${res.headers['retry-after']}`);
  if (retryAfter !== undefined) assert.equal(header, retryAfter);
}

/** Signs in once from `address`, so it is an address the account uses. */
async function knownAddress(email: string, password: string, address: string) {
  assert.equal((await login(email, password, address)).status, 200);
}

describe('one account from one address', () => {
  test('40 parallel wrong passwords: 5 answered 401, the other 35 refused 429 with Retry-After', async () => {
    const { email } = await t.register();
    const results = await Promise.all(
      Array.from({ length: 40 }, () => login(email, 'wrong-password', '203.0.113.1')),
    );
    assert.deepEqual(statuses(results), { 401: 5, 429: 35 });
    for (const r of results.filter((x) => x.status === 429)) assertLimited(r, 1);
  });

  test('parallel attempts over several accounts and addresses sharing rows: every pair gets exactly its 5', async () => {
    const accounts = await Promise.all([1, 2, 3, 4].map(() => t.register()));
    const attempts = accounts.flatMap(({ email }) =>
      ['203.0.113.31', '203.0.113.32'].flatMap((address) =>
        Array.from({ length: 6 }, () => login(email, 'wrong-password', address)),
      ),
    );
    const results = await Promise.all(attempts);
    assert.deepEqual(statuses(results), { 401: 40, 429: 8 });
  });

  test('after the free failures each pause doubles; the right password waits too, then clears the count', async () => {
    const { email, password } = await t.register();
    const address = '203.0.113.2';
    await knownAddress(email, password, address);
    for (let i = 0; i < 5; i++) assert.equal((await login(email, 'wrong-password', address)).status, 401);
    for (const pause of [1, 2, 4, 8]) {
      assertLimited(await login(email, password, address), pause);
      advance(pause * 1000 - 1);
      assertLimited(await login(email, 'wrong-password', address), 1);
      advance(1);
      assert.equal((await login(email, 'wrong-password', address)).status, 401, `after ${pause} s`);
    }
    assertLimited(await login(email, password, address), 16);
    advance(16_000);
    assert.equal((await login(email, password, address)).status, 200);
    // The success forgot the failures: five free ones again.
    for (let i = 0; i < 5; i++) assert.equal((await login(email, 'wrong-password', address)).status, 401);
    assertLimited(await login(email, 'wrong-password', address), 1);
  });

  test('the pause stops growing at 15 minutes, and a day without attempts forgets the failures', async () => {
    const { email, password } = await t.register();
    const address = '203.0.113.3';
    await knownAddress(email, password, address);
    const pauses: number[] = [];
    while (pauses.length < 12) {
      const res = await login(email, 'wrong-password', address);
      if (res.status === 429) {
        pauses.push(Number(res.headers['retry-after']));
        advance(pauses.at(-1)! * 1000);
      } else assert.equal(res.status, 401);
    }
    assert.deepEqual(pauses, [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900]);
    advance(24 * 3600_000);
    for (let i = 0; i < 5; i++) assert.equal((await login(email, 'wrong-password', address)).status, 401);
    assertLimited(await login(email, 'wrong-password', address), 1);
  });
});

describe('an attacker cannot lock the owner out', () => {
  test('the admin signs in from their usual address while the account is hammered from many others', async () => {
    const home = '198.51.100.7';
    await knownAddress(ADMIN_EMAIL, ADMIN_PASSWORD, home);
    // One address far past its back-off, and ten more using their free failures.
    const flood = await Promise.all(
      Array.from({ length: 30 }, () => login(ADMIN_EMAIL, 'guess', '203.0.113.66')),
    );
    assert.deepEqual(statuses(flood), { 401: 5, 429: 25 });
    const spread: Res[] = [];
    for (let a = 10; a < 20; a++) {
      for (let i = 0; i < 2; i++) spread.push(await login(ADMIN_EMAIL, 'guess', `203.0.113.${a}`));
    }
    // Ten guesses per 15 minutes on one account from addresses it does not use.
    assert.deepEqual(statuses(spread), { 401: 5, 429: 15 });
    assertLimited(await login(ADMIN_EMAIL, ADMIN_PASSWORD, '203.0.113.66'));

    const owner = await login(ADMIN_EMAIL, ADMIN_PASSWORD, home);
    assert.equal(owner.status, 200, JSON.stringify(owner.body));
    // The price: a first sign-in from a new address waits while the account is under attack...
    assertLimited(await login(ADMIN_EMAIL, ADMIN_PASSWORD, '192.0.2.200'));
    // ...until the account-wide limit drains.
    advance(15 * 60_000);
    assert.equal((await login(ADMIN_EMAIL, ADMIN_PASSWORD, '192.0.2.200')).status, 200);
    assert.equal((await login(ADMIN_EMAIL, ADMIN_PASSWORD, home)).status, 200);
  });

  test('an unknown email is limited exactly like a real one', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () => login('nobody-here@example.com', 'x', '203.0.113.4')),
    );
    assert.deepEqual(statuses(results), { 401: 5, 429: 7 });
  });

  test("without TRUST_PROXY, X-Forwarded-For is ignored: the address is the connection's", async () => {
    const { email } = await t.register();
    const viaProxy = (forwardedFor: string) =>
      t.request('POST', '/api/auth/login', {
        body: { email, password: 'wrong-password' },
        headers: { 'x-forwarded-for': forwardedFor },
        remoteAddress: '192.0.2.50',
      });
    for (let i = 0; i < 5; i++) assert.equal((await viaProxy(`198.51.100.${i}`)).status, 401);
    assertLimited(await viaProxy('198.51.100.99'));
  });
});

describe('behind a trusted proxy, with a low per-address limit', () => {
  let p: TestApp;
  before(async () => {
    p = await startTestApp(
      { trustProxy: ['192.0.2.1'] },
      { clock: () => now, loginLimits: { perAddress: { capacity: 3, windowMs: 60_000 } } },
    );
  });
  after(() => p.close());

  const viaProxy = (email: string, forwardedFor: string, remoteAddress = '192.0.2.1') =>
    p.request('POST', '/api/auth/login', {
      body: { email, password: 'wrong-password' },
      headers: { 'x-forwarded-for': forwardedFor },
      remoteAddress,
    });

  test('the client address comes from X-Forwarded-For, and one address spraying accounts is stopped', async () => {
    for (let i = 0; i < 3; i++)
      assert.equal((await viaProxy(`spray${i}@example.com`, '203.0.113.80')).status, 401);
    const limited = await viaProxy('spray9@example.com', '203.0.113.80');
    assertLimited(limited, 20);
    assert.equal((await viaProxy('spray9@example.com', '203.0.113.81')).status, 401, 'another client');
    // A client that is not the trusted proxy cannot choose its address.
    for (let i = 0; i < 3; i++) await viaProxy(`direct${i}@example.com`, `198.51.100.${i}`, '192.0.2.9');
    assertLimited(await viaProxy('direct9@example.com', '198.51.100.77', '192.0.2.9'));
    advance(20_000);
    assert.equal((await viaProxy('spray10@example.com', '203.0.113.80')).status, 401, 'the bucket drains');
  });
});

describe('limits are kept in the database', () => {
  test('another instance on the same database sees the same counts', async () => {
    const { email } = await t.register();
    for (let i = 0; i < 5; i++) await login(email, 'wrong-password', '203.0.113.5');
    const database = t.database.url ? await openDatabase({ databaseUrl: t.database.url }) : t.database;
    const second = await buildApp({
      config: t.config,
      database: { ...database, close: async () => undefined },
      logger: false,
      clock: () => now,
    });
    try {
      const res = await second.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password: 'wrong-password' },
        remoteAddress: '203.0.113.5',
      });
      assert.equal(res.statusCode, 429);
    } finally {
      await second.app.close();
      if (database !== t.database) await database.close();
    }
  });

  test('expired rows are deleted', async () => {
    const rows = () => t.ctx.db.selectFrom('auth_throttle').select(['scope', 'key']).execute();
    assert.ok((await rows()).length > 10);
    advance(2 * 24 * 3600_000);
    await login('someone@example.com', 'x', '203.0.113.6');
    const left = await rows();
    // What is left: the addresses accounts signed in from (kept 30 days), and this attempt's rows.
    const fresh = ['203.0.113.6|someone@example.com', '203.0.113.6', 'someone@example.com'];
    assert.deepEqual(
      left
        .filter((r) => r.scope !== 'login-known')
        .map((r) => r.key)
        .sort(),
      fresh.sort(),
    );
    assert.ok(left.some((r) => r.scope === 'login-known' && r.key === `198.51.100.7|${ADMIN_EMAIL}`));
  });
});
