// PostgreSQL keeps the statements the process runs again (platform/db/prepared-pool.ts):
// prepared on a connection from their second run, bounded per connection,
// never for statements without parameters, and with the same answers.
// PGlite runs every statement unnamed (it has no such pool): nothing to test there.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { MAX_PER_CONNECTION, PreparingPool } from '../src/platform/db/prepared-pool.js';
import { freshDatabase, type TestDatabase } from './support/database.js';

let database: TestDatabase;
before(async () => {
  database = await freshDatabase();
});
after(() => database.close());

const skip = !process.env['DATABASE_URL'] && 'PostgreSQL only: PGlite runs statements unnamed';

/** One connection of a fresh PreparingPool, and what PostgreSQL holds prepared on it. */
async function oneConnection() {
  const inner = new pg.Pool({ connectionString: database.url, max: 1 });
  const pool = new PreparingPool(inner);
  const client = await pool.connect();
  const prepared = async () =>
    (
      (await client.query(
        'select name from pg_prepared_statements where $1::int = 1 order by name',
        [1],
      )) as { rows: { name: string }[] }
    ).rows.map((r) => r.name);
  const close = async () => {
    client.release();
    await inner.end();
  };
  return { client, prepared, close };
}

test('a statement is prepared from its second run, with the same answer', { skip }, async () => {
  const c = await oneConnection();
  try {
    const text = 'select $1::int + 1 as n, $2::text as s';
    const first = (await c.client.query(text, [41, 'a'])) as { rows: unknown[] };
    const notYet = await c.prepared();
    const second = (await c.client.query(text, [41, 'a'])) as { rows: unknown[] };
    const third = (await c.client.query(text, [1, 'b'])) as { rows: unknown[] };
    const now = await c.prepared();
    assert.deepEqual(first.rows, [{ n: 42, s: 'a' }]);
    assert.deepEqual(second.rows, first.rows);
    assert.deepEqual(third.rows, [{ n: 2, s: 'b' }]);
    // The probe itself is the only other statement run twice by then.
    assert.equal(notYet.length, 0);
    assert.equal(now.filter((n) => n.startsWith('tw_')).length, 2);
  } finally {
    await c.close();
  }
});

test('statements without parameters keep the simple protocol (several in one text)', { skip }, async () => {
  const c = await oneConnection();
  try {
    for (let i = 0; i < 3; i++) await c.client.query('select 1; select 2', []);
    assert.deepEqual(
      (await c.prepared()).filter((n) => n.startsWith('tw_')),
      [],
      'nothing prepared but the probe',
    );
  } finally {
    await c.close();
  }
});

test(`a connection holds at most ${MAX_PER_CONNECTION} prepared statements`, { skip }, async () => {
  const c = await oneConnection();
  try {
    for (let i = 0; i < MAX_PER_CONNECTION + 20; i++) {
      const text = `select $1::int + ${i} as n`;
      await c.client.query(text, [1]);
      const again = (await c.client.query(text, [1])) as { rows: { n: number }[] };
      assert.equal(again.rows[0]!.n, 1 + i);
    }
    assert.equal((await c.prepared()).length, MAX_PER_CONNECTION);
  } finally {
    await c.close();
  }
});

test('the application database prepares its repeated reads', { skip }, async () => {
  const read = () => sql<{ n: number }>`select ${7}::int as n`.execute(database.db);
  for (let i = 0; i < 3; i++) assert.equal((await read()).rows[0]!.n, 7);
  const { rows } = await sql<{
    n: string;
  }>`select count(*)::text as n from pg_prepared_statements where name like 'tw_%'`.execute(database.db);
  assert.ok(Number(rows[0]!.n) >= 1, 'some connection of the pool holds a prepared statement');
});
