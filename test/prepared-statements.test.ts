// Both databases keep the statements the process runs again: PostgreSQL through
// PreparingPool (platform/db/prepared-pool.ts), PGlite through its own pool
// (pglite-pool.ts) by the same rules. Prepared on a connection from their second
// run, bounded per connection, never for statements without parameters, and
// with the same answers.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { MAX_PREPARED_TEXT, PGlitePool } from '../src/platform/db/pglite-pool.js';
import { MAX_PER_CONNECTION, PreparingPool } from '../src/platform/db/prepared-pool.js';
import { freshDatabase, type TestDatabase } from './support/database.js';

let database: TestDatabase;
before(async () => {
  database = await freshDatabase();
});
after(() => database.close());

interface Client {
  query(text: string, parameters: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/** One connection of a fresh pool of the file's database, and the names it holds prepared. */
async function oneConnection() {
  let client: Client;
  let close: () => Promise<void>;
  if (database.pglite) {
    const pool = new PGlitePool(database.pglite, { closeOnEnd: false });
    const c = await pool.connect();
    client = c as unknown as Client;
    close = async () => {
      c.release();
      await pool.end();
    };
  } else {
    const inner = new pg.Pool({ connectionString: database.url, max: 1 });
    const c = await new PreparingPool(inner).connect();
    client = c as unknown as Client;
    close = async () => {
      c.release();
      await inner.end();
    };
  }
  const known = new Set<string>();
  /** The statements this pool prepared (PGlite's one connection also holds the file's own). */
  const prepared = async () => {
    // Without parameters: the probe itself is never prepared.
    const { rows } = await client.query('select name from pg_prepared_statements order by name', []);
    return rows.map((r) => String(r['name'])).filter((n) => n.startsWith('tw_') && !known.has(n));
  };
  for (const n of await prepared()) known.add(n);
  return { client, prepared, close };
}

test('a statement is prepared from its second run, with the same answer', async () => {
  const c = await oneConnection();
  try {
    const text = 'select $1::int + 1 as n, $2::text as s';
    const first = await c.client.query(text, [41, 'a']);
    const notYet = await c.prepared();
    const second = await c.client.query(text, [41, 'a']);
    const third = await c.client.query(text, [1, 'b']);
    const now = await c.prepared();
    assert.deepEqual(first.rows, [{ n: 42, s: 'a' }]);
    assert.deepEqual(second.rows, first.rows);
    assert.deepEqual(third.rows, [{ n: 2, s: 'b' }]);
    assert.equal(notYet.length, 0);
    assert.equal(now.length, 1);
  } finally {
    await c.close();
  }
});

test('statements without parameters keep the simple protocol (several in one text)', async () => {
  const c = await oneConnection();
  try {
    for (let i = 0; i < 3; i++) await c.client.query('select 1; select 2', []);
    assert.deepEqual(await c.prepared(), []);
  } finally {
    await c.close();
  }
});

test(`a connection holds at most ${MAX_PER_CONNECTION} prepared statements`, async () => {
  const c = await oneConnection();
  try {
    for (let i = 0; i < MAX_PER_CONNECTION + 20; i++) {
      const text = `select $1::int + ${i} as n`;
      await c.client.query(text, [1]);
      const again = await c.client.query(text, [1]);
      assert.equal(again.rows[0]!['n'], 1 + i);
    }
    assert.equal((await c.prepared()).length, MAX_PER_CONNECTION);
  } finally {
    await c.close();
  }
});

test('a statement whose run fails is prepared once all the same, and a text that does not parse never is', async () => {
  const c = await oneConnection();
  try {
    const divide = 'select 10 / $1::int as n';
    await c.client.query(divide, [2]);
    // Its second sighting prepares it; the run itself fails.
    await assert.rejects(c.client.query(divide, [0]), /division by zero/);
    assert.equal((await c.client.query(divide, [5])).rows[0]!['n'], 2);
    assert.equal((await c.client.query(divide, [10])).rows[0]!['n'], 1);
    const broken = 'select from from where $1::int';
    for (let i = 0; i < 3; i++) await assert.rejects(c.client.query(broken, [1]), /syntax error/);
    assert.equal((await c.prepared()).length, 1, 'the division, once; the broken text never');
  } finally {
    await c.close();
  }
});

test('a pool on a connection another pool left statements on prepares its own beside them', async () => {
  const text = 'select $1::text as s';
  const first = await oneConnection();
  try {
    for (let i = 0; i < 2; i++) await first.client.query(text, ['a']);
    assert.equal((await first.prepared()).length, 1);
  } finally {
    await first.close();
  }
  const second = await oneConnection();
  try {
    for (let i = 0; i < 3; i++) assert.equal((await second.client.query(text, ['b'])).rows[0]!['s'], 'b');
  } finally {
    await second.close();
  }
});

test('the application database prepares its repeated reads', async () => {
  const read = () => sql<{ n: number }>`select ${7}::int as n`.execute(database.db);
  for (let i = 0; i < 3; i++) assert.equal((await read()).rows[0]!.n, 7);
  const { rows } = await sql<{
    n: string;
  }>`select count(*)::text as n from pg_prepared_statements where name like 'tw_%'`.execute(database.db);
  assert.ok(Number(rows[0]!.n) >= 1, 'some connection of the pool holds a prepared statement');
});

test('PGlite keeps long texts unnamed (their plans would stay in its memory)', {
  skip: Boolean(process.env['DATABASE_URL']) && 'PGlite only: PostgreSQL prepares texts of any length',
}, async () => {
  const c = await oneConnection();
  try {
    const long = `select $1::int as n /* ${'x'.repeat(MAX_PREPARED_TEXT)} */`;
    const short = 'select $1::int as n';
    for (let i = 0; i < 3; i++) {
      assert.equal((await c.client.query(long, [i])).rows[0]!['n'], i);
      await c.client.query(short, [i]);
    }
    assert.equal((await c.prepared()).length, 1, 'the short one only');
  } finally {
    await c.close();
  }
});
