// The read model's SQL encoders (src/platform/read/json.ts) against the
// JavaScript they stand in for: slugs as issues/present.ts slugify makes them
// (Issue.url, branchName), timestamps as Date.toISOString prints them, keyset
// cursors as platform/list/order.ts encodes them, object keys as JSON.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import { slugify } from '../src/modules/issues/fields.js';
import { slugify as projectSlugify } from '../src/modules/projects/present.js';
import { encodeCursor, timeKey } from '../src/platform/list/order.js';
import { cursor, json, object, projectSlug, slug, timestamp } from '../src/platform/read/json.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const one = async (expr: ReturnType<typeof sql>) =>
  (await sql<{ v: string }>`select ${expr} as v`.execute(t.ctx.db)).rows[0]!.v;

// Words with accents, capitals, punctuation and runs of separators, long enough to be cut.
const TEXT = fc.oneof(
  fc.string({ maxLength: 90 }),
  fc
    .array(
      fc.constantFrom(
        'Café',
        'naïve',
        'ÅNGSTRÖM',
        'x',
        'über-',
        '--',
        ' ',
        'ß',
        'Œuvre',
        '42',
        'İstanbul',
        'ﬁle',
        '日本',
      ),
      {
        maxLength: 25,
      },
    )
    .map((w) => w.join(' ')),
);

test('slug matches slugify, at 40 and at other lengths', async () => {
  await fc.assert(
    fc.asyncProperty(TEXT, fc.constantFrom(40, 12), async (text, max) => {
      assert.equal(await one(slug(sql`${text}::text`, max)), slugify(text, max), JSON.stringify(text));
    }),
    { numRuns: 150 },
  );
});

test("a project's slug matches projects/present.ts slugify (cut at 60, 'project' when empty)", async () => {
  await fc.assert(
    fc.asyncProperty(TEXT, async (text) => {
      assert.equal(await one(projectSlug(sql`${text}::text`)), projectSlugify(text), JSON.stringify(text));
    }),
    { numRuns: 100 },
  );
});

test('timestamps print as Date.toISOString, milliseconds truncated as a Date holds them', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.date({
        min: new Date('1970-01-01T00:00:00Z'),
        max: new Date('2999-12-31T23:59:59Z'),
        noInvalidDate: true,
      }),
      fc.integer({ min: 0, max: 999 }),
      async (d, micros) => {
        const text = `${d.toISOString().slice(0, 23)}${String(micros).padStart(3, '0')}Z`;
        assert.equal(await one(timestamp(sql`${text}::timestamptz`)), JSON.stringify(d.toISOString()));
      },
    ),
    { numRuns: 100 },
  );
});

test('cursors are the bytes encodeCursor gives', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.date({
        min: new Date('1970-01-01T00:00:00Z'),
        max: new Date('2999-12-31T23:59:59Z'),
        noInvalidDate: true,
      }),
      fc.integer({ min: 0, max: 999 }),
      fc.uuid(),
      fc.constantFrom('createdAt' as const, 'updatedAt' as const),
      async (d, micros, id, key) => {
        const value = `${d.toISOString().slice(0, 23)}${String(micros).padStart(3, '0')}Z`;
        assert.equal(
          await one(cursor(key, sql`${value}::timestamptz`, sql`${id}::uuid`)),
          encodeCursor(timeKey(key, 'desc'), [value, id]),
        );
      },
    ),
    { numRuns: 100 },
  );
});

test('objects keep their keys in order and every value JSON, nulls included', async () => {
  const text = await one(
    object([
      ['b', json(sql`1`)],
      ['a"x', json(sql`null::text`)],
      ['c', json(sql`'line\nwith "quotes"'::text`)],
      ['d', timestamp(sql`null::timestamptz`)],
    ]),
  );
  assert.equal(text, JSON.stringify({ b: 1, 'a"x': null, c: 'line\nwith "quotes"', d: null }));
  assert.equal(await one(object([])), '{}');
});
