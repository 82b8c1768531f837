// Per-user hourly GraphQL budgets, kept in the database: requests and
// complexity points, one budget per user whichever instance charges it. On
// PostgreSQL the second "instance" has its own connection pool, so the
// concurrent charges really race; on PGlite they share the one connection.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { RateBudget } from '../src/graphql/rate-budget.js';
import { type Database, openDatabase } from '../src/platform/db/database.js';
import { AppError } from '../src/platform/errors.js';
import { apiKeyFor } from './graphql-helpers.js';
import { freshDatabase, type TestDatabase } from './support/database.js';
import { startTestApp, type TestApp } from './support/harness.js';

let database: TestDatabase;
let other: Database | undefined;
/** The database handle of a second instance: its own pool on PostgreSQL. */
let otherDb: Database['db'];

before(async () => {
  database = await freshDatabase();
  other = database.url ? await openDatabase({ databaseUrl: database.url }) : undefined;
  otherDb = other?.db ?? database.db;
});
after(async () => {
  await other?.close();
  await database.close();
});

const over = (e: unknown) => e instanceof AppError && e.status === 429 && /budget used up/.test(e.message);

test('charges requests and complexity, refuses over budget as 429, resets after the window', async () => {
  let now = 0;
  const budget = new RateBudget(database.db, { requests: 3, complexity: 100, windowMs: 1000 }, () => now);
  const [u1, u2] = [randomUUID(), randomUUID()];
  const s1 = await budget.charge(u1, 40);
  assert.deepEqual([s1.requestsRemaining, s1.complexityRemaining, s1.resetAt], [2, 60, 1000]);
  now = 10;
  await budget.charge(u1, 40);
  now = 20;
  await assert.rejects(
    () => budget.charge(u1, 40),
    (e: unknown) => e instanceof AppError && e.status === 429 && e.retryAfter === 1,
  );
  assert.equal((await budget.charge(u2, 40)).complexityRemaining, 60, 'budgets are per user');
  now = 30;
  assert.equal((await budget.charge(u1, 1)).requestsRemaining, 0, 'the refused charge cost nothing');
  now = 40;
  await assert.rejects(() => budget.charge(u1, 1), over);
  assert.throws(() => budget.check(u1), over, 'used up: refused without asking the database');
  now = 1000;
  budget.check(u1);
  assert.equal((await budget.charge(u1, 1)).requestsRemaining, 2, 'a new window starts afresh');
});

test('record charges a refused request without refusing it; once used up, both refuse', async () => {
  let now = 5000;
  const budget = new RateBudget(
    database.db,
    { requests: 100, complexity: 25_000, windowMs: 1000 },
    () => now,
  );
  const u = randomUUID();
  assert.equal((await budget.record(u, 10_000)).complexityRemaining, 15_000);
  assert.equal((await budget.record(u, 10_000)).complexityRemaining, 5_000);
  budget.check(u);
  const state = await budget.record(u, 10_000);
  assert.deepEqual([state.complexityRemaining, state.requestsRemaining], [0, 97]);
  assert.throws(() => budget.check(u), over);
  await assert.rejects(() => budget.record(u, 0), over);
  await assert.rejects(() => budget.charge(u, 0.1), over);
  now = 6000;
  budget.check(u);
});

test('a charge that does not fit is refused but a smaller one still fits', async () => {
  const budget = new RateBudget(database.db, { requests: 10, complexity: 100, windowMs: 60_000 });
  const u = randomUUID();
  await assert.rejects(() => budget.charge(u, 101), over, 'too big even for a fresh budget');
  assert.equal((await budget.charge(u, 90)).complexityRemaining, 10);
  await assert.rejects(() => budget.charge(u, 11), over);
  budget.check(u);
  const s = await budget.charge(u, 10);
  assert.deepEqual([s.requestsRemaining, s.complexityRemaining], [8, 0]);
});

test("a caller's concurrent charges are written as a group, and every one is counted", async () => {
  const budget = new RateBudget(database.db, { requests: 100, complexity: 10_000, windowMs: 60_000 });
  const u = randomUUID();
  let upserts = 0;
  const stop = database.onStatement((text) => {
    if (/insert into graphql_budget/.test(text)) upserts++;
  });
  try {
    const states = await Promise.all(Array.from({ length: 12 }, (_, i) => budget.charge(u, i + 1)));
    // The first went alone; the eleven that arrived while it ran went together.
    assert.equal(upserts, 2);
    const last = states[states.length - 1]!;
    assert.deepEqual([last.requestsRemaining, last.complexityRemaining], [100 - 12, 10_000 - 78]);
  } finally {
    stop();
  }
});

test('a group that does not fit is charged one by one: exactly what fits passes', async () => {
  const budget = new RateBudget(database.db, { requests: 100, complexity: 50, windowMs: 60_000 });
  const u = randomUUID();
  const results = await Promise.allSettled(Array.from({ length: 8 }, () => budget.charge(u, 10)));
  assert.equal(results.filter((r) => r.status === 'fulfilled').length, 5);
  assert.equal(results.filter((r) => r.status === 'rejected' && over(r.reason)).length, 3);
  await assert.rejects(() => budget.charge(u, 1), over);
});

test('two instances share one budget: 60 concurrent charges against 20 requests, exactly 20 pass', async () => {
  const limits = { requests: 20, complexity: 1_000_000, windowMs: 60_000 };
  const a = new RateBudget(database.db, limits);
  const b = new RateBudget(otherDb, limits);
  const u = randomUUID();
  const results = await Promise.allSettled(
    Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).charge(u, 5)),
  );
  const passed = results.filter((r) => r.status === 'fulfilled');
  const refused = results.filter((r) => r.status === 'rejected' && over(r.reason));
  assert.equal(passed.length, 20);
  assert.equal(refused.length, 40);
  // Each charge saw the totals the one before it left: every remaining count once.
  assert.deepEqual(
    passed.map((r) => r.value.requestsRemaining).sort((x, y) => x - y),
    Array.from({ length: 20 }, (_, i) => i),
  );
  // The instance that never saw a refusal still refuses, from the shared totals.
  const c = new RateBudget(otherDb, limits);
  c.check(u);
  await assert.rejects(() => c.record(u, 0), over);
  assert.throws(() => c.check(u), over);
});

test('a window reset on one instance is seen by the other', async () => {
  let now = 100_000;
  const limits = { requests: 2, complexity: 1000, windowMs: 1000 };
  const a = new RateBudget(database.db, limits, () => now);
  const b = new RateBudget(otherDb, limits, () => now);
  const u = randomUUID();
  await a.charge(u, 1);
  assert.equal((await b.charge(u, 1)).requestsRemaining, 0);
  await assert.rejects(() => a.charge(u, 1), over);
  now = 101_000;
  const s = await a.charge(u, 1);
  assert.deepEqual([s.requestsRemaining, s.resetAt], [1, 102_000]);
  assert.equal((await b.charge(u, 1)).requestsRemaining, 0, 'same window on both');
});

test('kinds are budgets of their own: a session and an API client of one user charge apart', async () => {
  const limits = { requests: 2, complexity: 1000, windowMs: 60_000 };
  const api = new RateBudget(database.db, limits, Date.now, 'api');
  const session = new RateBudget(database.db, limits, Date.now, 'session');
  const u = randomUUID();
  await api.charge(u, 1);
  await api.charge(u, 1);
  await assert.rejects(() => api.charge(u, 1), /API budget used up/);
  assert.equal((await session.charge(u, 1)).requestsRemaining, 1, 'the session budget is untouched');
});

// Issue 24: REST is under the budget GraphQL is under (finding 1), and the web
// UI's sessions are not charged to the API clients' budget (finding 13).
describe('over HTTP: REST and GraphQL on one budget per kind of caller', () => {
  let t: TestApp;
  let member: { token: string; user: { id: string } };
  let key: string;
  const headers = (res: { headers: Record<string, unknown> }) =>
    [
      'requests-limit',
      'requests-remaining',
      'requests-reset',
      'complexity-limit',
      'complexity-remaining',
      'complexity-reset',
    ].map((h) => res.headers[`x-ratelimit-${h}`]);
  const gqlAs = (authorization: string) =>
    t.request('POST', '/graphql', { headers: { authorization }, body: { query: '{ viewer { id } }' } });

  before(async () => {
    t = await startTestApp({
      graphqlRequestsPerHour: 6,
      graphqlComplexityPerHour: 100_000,
      sessionRequestsPerHour: 12,
      sessionComplexityPerHour: 1_000_000,
    });
    member = await t.userWithRole('member');
    key = await apiKeyFor(t, member.token); // one session request
  });
  after(() => t.close());

  test('an API key that floods REST and GraphQL is stopped with 429 and the budget headers', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      statuses.push(
        (await t.request('GET', '/api/issues?limit=1', { headers: { authorization: `Bearer ${key}` } }))
          .status,
      );
      statuses.push((await gqlAs(key)).status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200]);
    const rest = await t.request('GET', '/api/teams', { headers: { authorization: `Bearer ${key}` } });
    assert.equal(rest.status, 429);
    assert.equal(rest.body.error.code, 'RATE_LIMITED');
    assert.match(rest.body.error.message, /API budget used up for this hour; try again in \d+ s/);
    assert.ok(Number(rest.headers['retry-after']) > 0);
    assert.deepEqual(headers(rest).slice(0, 2), ['6', '0']);
    assert.ok(headers(rest).every((h) => h !== undefined));
    const graphql = await gqlAs(key);
    assert.equal(graphql.status, 429);
    assert.equal(graphql.body.errors[0].extensions.type, 'ratelimited');
  });

  test("the same person's session is not stopped by their key's usage", async () => {
    const rest = await t.get('/api/issues?limit=1', member.token);
    assert.equal(rest.status, 200);
    assert.equal(rest.headers['x-ratelimit-requests-limit'], '12');
    assert.equal((await gqlAs(`Bearer ${member.token}`)).status, 200);
  });

  test('a session is bounded too: flooding it is stopped, on its own budget', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await t.get('/api/teams', member.token)).status);
    assert.ok(statuses.includes(429), statuses.join(' '));
    const res = await gqlAs(`Bearer ${member.token}`);
    assert.equal(res.status, 429);
    assert.match(res.body.errors[0].message, /Session budget used up/);
    // Another user's session is untouched.
    assert.equal((await t.get('/api/teams', t.adminToken)).status, 200);
  });

  test('a REST request priced over the per-request limit is refused with a 400 and charged the limit', async () => {
    const other = await t.userWithRole('member');
    const filter = encodeURIComponent(
      JSON.stringify({
        or: Array.from({ length: 80 }, () => ({ comments: { some: { body: { containsIgnoreCase: 'x' } } } })),
      }),
    );
    const res = await t.get(`/api/issues?filter=${filter}`, other.token);
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'QUERY_TOO_COMPLEX');
    assert.equal(res.headers['x-ratelimit-complexity-remaining'], String(1_000_000 - 10_000));
  });
});
