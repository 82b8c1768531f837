// The last active admin survives concurrent demotions. Two admins demote (or
// suspend, or delete) each other at the same moment, over real sockets, many
// times: exactly one request wins, the other gets 400 LAST_ADMIN, and one
// active admin always remains.
//
// On PostgreSQL the race is forced: a separate connection locks both user rows,
// both requests are sent, and the lock is released only once both requests have
// passed authentication and wait inside their transactions. They then really
// compete. On PGlite (one connection) requests serialise; the second request
// may then be refused already at authentication (its sender was demoted,
// suspended or deleted by the first).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let base: string;
before(async () => {
  t = await startTestApp();
  base = await t.listen();
});
after(() => t.close());

const ROUNDS = 20;
/** The variants share the mechanism; fewer rounds keep the suite quick. */
const VARIANT_ROUNDS = 10;
const onPostgres = () => t.ctx.dbKind === 'postgres';

type Res = { status: number; body: any };
type Admin = { token: string; user: { id: string } };

async function call(method: string, path: string, token: string, body?: unknown): Promise<Res> {
  const res = await fetch(base + path, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: await res.json() };
}

/** Read from the database: the seeded admin's token may have lost its rights mid-test. */
function activeAdmins(): Promise<{ id: string }[]> {
  return t.ctx.db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'admin')
    .where('status', '=', 'active')
    .where('deleted_at', 'is', null)
    .execute();
}

let pair: { a: Admin; b: Admin } | undefined;

/**
 * Leaves exactly two active admins, A and B, with valid tokens. The accounts
 * are created once (password hashing is slow); each round resets them in the
 * database, reviving a deleted one, and signs fresh tokens for their epoch.
 */
async function twoAdmins(): Promise<{ a: Admin; b: Admin }> {
  pair ??= { a: await t.userWithRole('admin'), b: await t.userWithRole('admin') };
  const ids = [pair.a.user.id, pair.b.user.id];
  const db = t.ctx.db;
  await db
    .updateTable('users')
    .set({ role: 'admin', status: 'active', deleted_at: null })
    .where('id', 'in', ids)
    .execute();
  await db
    .updateTable('users')
    .set({ role: 'member' })
    .where('role', '=', 'admin')
    .where('id', 'not in', ids)
    .execute();
  const rows = await db.selectFrom('users').select(['id', 'session_epoch']).where('id', 'in', ids).execute();
  for (const who of [pair.a, pair.b]) {
    const epoch = rows.find((r) => r.id === who.user.id)!.session_epoch;
    who.token = await t.ctx.tokens.sign({ userId: who.user.id, epoch });
  }
  assert.equal((await activeAdmins()).length, 2);
  return pair;
}

/**
 * Sends both requests so that, on PostgreSQL, both are inside their
 * transactions before either can proceed: a blocker holds the rows of both
 * users until two backends wait on a lock.
 */
async function race(ids: string[], send: () => Promise<Res>[]): Promise<Res[]> {
  if (!onPostgres()) return Promise.all(send());
  const blocker = new pg.Client({ connectionString: t.database.url });
  await blocker.connect();
  try {
    await blocker.query('begin');
    await blocker.query('select id from users where id = any($1::uuid[]) for update', [ids]);
    const pending = send();
    for (let waited = 0; ; waited += 10) {
      const r = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`.execute(t.ctx.db);
      if (r.rows[0]!.n >= 2) break;
      if (waited > 10_000) throw new Error('the two requests never reached the row locks');
      await new Promise((r) => setTimeout(r, 10));
    }
    await blocker.query('commit');
    return await Promise.all(pending);
  } finally {
    await blocker.end();
  }
}

function assertOneWon(results: Res[]) {
  const shown = JSON.stringify(results.map((r) => r.body));
  const won = results.filter((r) => r.status === 200);
  const lost = results.filter((r) => r.status !== 200);
  assert.equal(won.length, 1, shown);
  assert.equal(lost.length, 1, shown);
  if (onPostgres()) {
    assert.equal(lost[0]!.status, 400, shown);
    assert.equal(lost[0]!.body.error.code, 'LAST_ADMIN', shown);
  } else {
    // Serialised: refused by the rule, or because its sender is no longer an
    // admin (403), or was suspended or deleted (401).
    const code = `${lost[0]!.status} ${lost[0]!.body.error.code}`;
    assert.ok(['400 LAST_ADMIN', '403 FORBIDDEN', '401 UNAUTHENTICATED'].includes(code), shown);
  }
}

async function rounds(n: number, act: (a: Admin, b: Admin) => Promise<Res>[]) {
  for (let i = 0; i < n; i++) {
    const { a, b } = await twoAdmins();
    const results = await race([a.user.id, b.user.id], () => act(a, b));
    assertOneWon(results);
    const left = await activeAdmins();
    assert.equal(left.length, 1, `round ${i}: one active admin remains`);
  }
}

describe('concurrent removal of the last two admins', () => {
  test(`demote/demote, ${ROUNDS} rounds: exactly one succeeds`, () =>
    rounds(ROUNDS, (a, b) => [
      call('PATCH', `/api/admin/users/${a.user.id}`, b.token, { role: 'member' }),
      call('PATCH', `/api/admin/users/${b.user.id}`, a.token, { role: 'member' }),
    ]));

  test(`suspend/suspend, ${VARIANT_ROUNDS} rounds: exactly one succeeds`, () =>
    rounds(VARIANT_ROUNDS, (a, b) => [
      call('PATCH', `/api/admin/users/${a.user.id}`, b.token, { status: 'suspended' }),
      call('PATCH', `/api/admin/users/${b.user.id}`, a.token, { status: 'suspended' }),
    ]));

  test(`delete/demote, ${VARIANT_ROUNDS} rounds: exactly one succeeds`, () =>
    rounds(VARIANT_ROUNDS, (a, b) => [
      call('DELETE', `/api/admin/users/${a.user.id}`, b.token),
      call('PATCH', `/api/admin/users/${b.user.id}`, a.token, { role: 'guest' }),
    ]));

  test(`each demotes itself, ${VARIANT_ROUNDS} rounds: exactly one succeeds`, () =>
    rounds(VARIANT_ROUNDS, (a, b) => [
      call('PATCH', `/api/admin/users/${a.user.id}`, a.token, { role: 'member' }),
      call('PATCH', `/api/admin/users/${b.user.id}`, b.token, { role: 'member' }),
    ]));
});
