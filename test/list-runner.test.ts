// The one list runner (platform/list/runner.ts) on random rows: for every
// sort key shape (timestamps one way, an empty-able column then newest first,
// a text expression) and random page sizes, walking forward by cursor,
// backward by cursor and forward by offset each yields every listed row
// exactly once, in the order the key defines; and bad page requests are
// refused with the parameter's name.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import { AppError } from '../src/platform/errors.js';
import { columnKey, encodeCursor, fixedKey, type SortKey, timeKey } from '../src/platform/list/order.js';
import { type ListSource, listPage, listPages } from '../src/platform/list/runner.js';
import { MAX_PAGE, type PageRequest, windowOf } from '../src/platform/list/window.js';
import { freshDatabase, type TestDatabase } from './support/database.js';

let database: TestDatabase;

before(async () => {
  database = await freshDatabase();
  await sql`create table runner_rows (
    id uuid primary key, parent int not null, created_at timestamptz not null,
    priority int, name text not null, archived_at timestamptz, listed boolean not null)`.execute(database.db);
});
after(() => database.close());

interface Row {
  id: string;
  parent: number;
  micros: number;
  priority: number | null;
  name: string;
  archived: boolean;
  listed: boolean;
}

// Few distinct values, so ties on every part but the id are common.
const rowArb = fc.record({
  id: fc.uuid({ version: 4 }),
  parent: fc.integer({ min: 0, max: 2 }),
  micros: fc.integer({ min: 0, max: 6 }),
  priority: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
  name: fc.constantFrom('alpha', 'Beta', 'beta', 'gamma', 'Ω'),
  archived: fc.boolean(),
  listed: fc.boolean(),
});

const KEYS: (() => SortKey)[] = [
  () => timeKey('createdAt', 'desc'),
  () => timeKey('createdAt', 'asc'),
  () => columnKey('priority', 'p', sql`t.priority`, 'int', 'asc'),
  () => columnKey('priority', 'p', sql`t.priority`, 'int', 'desc'),
  () =>
    fixedKey('name', 'n', [
      { sql: sql`lower(t.name)`, type: 'text', dir: 'asc' },
      { sql: sql`t.id`, type: 'uuid', dir: 'desc' },
    ]),
];

async function load(rows: Row[]) {
  const db = database.db;
  await sql`truncate runner_rows`.execute(db);
  const unique = [...new Map(rows.map((r) => [r.id, r])).values()];
  for (const r of unique) {
    await sql`insert into runner_rows values (${r.id}::uuid, ${r.parent},
      '2026-01-01T00:00:00Z'::timestamptz + ${r.micros} * interval '1 microsecond',
      ${r.priority}, ${r.name}, ${r.archived ? sql`now()` : sql`null`}, ${r.listed})`.execute(db);
  }
}

const source = (includeArchived: boolean): ListSource => ({
  from: sql`runner_rows as t`,
  where: [sql`t.listed`],
  archivable: true,
  includeArchived,
});

/** The list in the key's order, read in one statement without paging: what the walks must give. */
async function everything(key: SortKey, includeArchived: boolean, parent?: number): Promise<string[]> {
  const parts = [sql`t.listed`, ...(includeArchived ? [] : [sql`t.archived_at is null`])];
  if (parent !== undefined) parts.push(sql`t.parent = ${parent}`);
  const order = sql.join(
    key.parts.map((p) => sql`${p.sql} ${sql.raw(p.dir + (p.nullable ? ' nulls last' : ''))}`),
  );
  const { rows } = await sql<{ id: string }>`select t.id from runner_rows t
    where ${sql.join(parts, sql` and `)} order by ${order}`.execute(database.db);
  return rows.map((r) => r.id);
}

const idsOf = (rows: { id: string }[]) => rows.map((r) => r.id);

/** A page and the list's total. */
async function page(key: SortKey, req: PageRequest, includeArchived: boolean) {
  return listPage<{ id: string }>(database.db, source(includeArchived), key, windowOf(req, key), {
    total: true,
  });
}

describe('the list runner', () => {
  test('walks every listed row exactly once, by cursor both ways and by offset', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(rowArb, { maxLength: 30 }),
        fc.integer({ min: 0, max: KEYS.length - 1 }),
        fc.integer({ min: 1, max: 7 }),
        fc.boolean(),
        async (rows, k, size, includeArchived) => {
          await load(rows);
          const key = KEYS[k]!();
          const expected = await everything(key, includeArchived);

          const forward: string[] = [];
          let after: string | undefined;
          for (let n = 0; ; n++) {
            assert.ok(n <= expected.length + 1, 'the walk ends');
            const p = await page(key, { first: size, after }, includeArchived);
            assert.equal(p.total, expected.length);
            forward.push(...idsOf(p.rows));
            if (!p.pageInfo.hasNextPage) break;
            after = p.pageInfo.endCursor!;
          }
          assert.deepEqual(forward, expected);

          const backward: string[] = [];
          let before: string | undefined;
          for (let n = 0; ; n++) {
            assert.ok(n <= expected.length + 1, 'the walk ends');
            const p = await page(key, { last: size, before }, includeArchived);
            backward.unshift(...idsOf(p.rows));
            if (!p.pageInfo.hasPreviousPage) break;
            before = p.pageInfo.startCursor!;
          }
          assert.deepEqual(backward, expected);

          const byOffset: string[] = [];
          for (let offset = 0; ; offset += size) {
            const p = await page(key, { limit: size, offset }, includeArchived);
            assert.equal(p.total, expected.length);
            byOffset.push(...idsOf(p.rows));
            if (!p.pageInfo.hasNextPage) break;
          }
          assert.deepEqual(byOffset, expected);
        },
      ),
      { numRuns: 40 },
    );
  });

  test("many parents' pages in one statement are each parent's first page", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(rowArb, { maxLength: 30 }),
        fc.integer({ min: 0, max: KEYS.length - 1 }),
        fc.integer({ min: 1, max: 5 }),
        async (rows, k, size) => {
          await load(rows);
          const key = KEYS[k]!();
          const pages = await listPages<{ id: string }>(
            database.db,
            { ...source(false), parentKey: sql`t.id` },
            [],
            key,
            windowOf({ first: size }, key),
          );
          assert.equal(pages.size, 0);
          // Parents are ints here: group by a uuid made of them.
          const byParent = await listPages<{ id: string }>(
            database.db,
            { ...source(false), parentKey: sql`('00000000-0000-4000-8000-00000000000' || t.parent)::uuid` },
            [0, 1, 2].map((p) => `00000000-0000-4000-8000-00000000000${p}`),
            key,
            windowOf({ first: size }, key),
          );
          for (const parent of [0, 1, 2]) {
            const expected = await everything(key, false, parent);
            const got = byParent.get(`00000000-0000-4000-8000-00000000000${parent}`)!;
            assert.deepEqual(idsOf(got.rows), expected.slice(0, size));
            assert.equal(got.pageInfo.hasNextPage, expected.length > size);
          }
        },
      ),
      { numRuns: 20 },
    );
  });

  const refusedAt = (req: PageRequest, field: string, key: SortKey = timeKey('createdAt', 'desc')) =>
    assert.throws(
      () => windowOf(req, key),
      (e: unknown) => e instanceof AppError && e.status === 400 && e.details?.[0]?.field === `/${field}`,
      JSON.stringify(req),
    );

  test('page sizes over the limit, negative or fractional, and negative offsets are refused by name', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: MAX_PAGE + 1, max: 1e9 }),
          fc.integer({ min: -1e9, max: -1 }),
          fc.double({ min: 0.1, max: 249.9, noInteger: true }),
        ),
        fc.constantFrom('first', 'last', 'limit'),
        (n, field) => refusedAt({ [field]: n }, field),
      ),
    );
    refusedAt({ limit: 0 }, 'limit');
    refusedAt({ offset: -1 }, 'offset');
    refusedAt({ offset: 1.5 }, 'offset');
    for (const n of [0, 1, MAX_PAGE])
      assert.equal(windowOf({ first: n }, timeKey('createdAt', 'desc')).limit, n);
  });

  test('malformed and foreign cursors are refused by name', () => {
    const id = '3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b';
    const stamp = '2026-01-01T00:00:00.000000Z';
    const priority = columnKey('priority', 'p', sql`t.priority`, 'int', 'asc');
    const bad = [
      'not-a-cursor',
      '',
      Buffer.from('{"a":1}').toString('base64url'),
      encodeCursor({ tag: 'c' }, [stamp]),
      encodeCursor({ tag: 'c' }, ['yesterday', id]),
      encodeCursor({ tag: 'c' }, [stamp, 'not-a-uuid']),
      encodeCursor({ tag: 'c' }, [null, id]),
      encodeCursor({ tag: 'u' }, [stamp, id]),
    ];
    for (const cursor of bad) {
      refusedAt({ after: cursor || 'x' }, 'after');
      refusedAt({ before: cursor || 'x' }, 'before');
    }
    refusedAt({ after: encodeCursor({ tag: 'p' }, ['high', stamp, id]) }, 'after', priority);
    refusedAt({ after: encodeCursor({ tag: 'c' }, [stamp, id]) }, 'after', priority);
    refusedAt({ after: encodeCursor({ tag: 'c' }, [stamp, id]), offset: 2 }, 'offset');
    // A list without a keyset order (a ranked search) pages by offset only.
    assert.throws(
      () => windowOf({ after: encodeCursor({ tag: 'c' }, [stamp, id]) }, undefined),
      (e: unknown) => e instanceof AppError && e.details?.[0]?.field === '/after',
    );
    // What the runner hands out, it takes back; an empty priority is a position too.
    assert.deepEqual(
      windowOf({ after: encodeCursor(priority, [null, stamp, id]) }, priority).cursor?.values,
      [null, stamp, id],
    );
    fc.assert(
      fc.property(fc.string(), (junk) => {
        try {
          windowOf({ after: junk }, priority);
        } catch (e) {
          assert.ok(e instanceof AppError && e.status === 400, String(e));
        }
      }),
    );
  });
});
