// test-runner: any database
// The one pricing of filters and searches (price.ts), as both doors use it:
// the price follows the work a filter causes, grows with the filter, and
// never throws on anything a client can send.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { entityFilter, issueFilters } from '../../../test/support/fuzz/filters.js';
import { hostileJson } from '../../../test/support/fuzz/values.js';
import { commentEntity, issueEntity } from './entities.js';
import { FILTER_LIMITS } from './filter.js';
import { entityOfFilterType, filterPrice, MAX_REQUEST_PRICE, PRICES, searchPrice } from './price.js';

const pool = { uuids: ['00000000-0000-4000-8000-000000000001'], keys: ['ENG', 'ENG-1'] };
const bodyMatch = { comments: { some: { body: { containsIgnoreCase: 'nomatch' } } } };

test("issue 24's filter: 80 comment-body matches in an `or` cost far over the per-request limit", () => {
  const one = filterPrice(issueEntity, bodyMatch);
  assert.equal(one, PRICES.collectionRows * (PRICES.relatedRow + PRICES.longText));
  const attack = filterPrice(issueEntity, { or: Array.from({ length: 80 }, () => bodyMatch) });
  assert.equal(attack, 80 * one);
  assert.ok(attack > MAX_REQUEST_PRICE, `${attack}`);
});

test('a condition costs what it reads: key < related row < collection; long text > short text', () => {
  const byKey = filterPrice(issueEntity, { assignee: { id: { eq: pool.uuids[0] } } });
  const byRow = filterPrice(issueEntity, { assignee: { name: { eq: 'Ann' } } });
  const byRows = filterPrice(issueEntity, { subscribers: { some: { name: { eq: 'Ann' } } } });
  assert.ok(byKey < byRow && byRow < byRows, `${byKey} ${byRow} ${byRows}`);
  const title = filterPrice(issueEntity, { title: { containsIgnoreCase: 'x' } });
  const description = filterPrice(issueEntity, { description: { containsIgnoreCase: 'x' } });
  assert.ok(title < description, `${title} ${description}`);
  assert.equal(filterPrice(issueEntity, {}), 0);
  assert.equal(filterPrice(issueEntity, null), 0);
});

test('searchIssues with comments costs the comment filter on top of the search', () => {
  assert.equal(searchPrice('nomatch'), PRICES.search);
  assert.equal(searchPrice('nomatch', true), PRICES.search + filterPrice(issueEntity, bodyMatch));
});

test('GraphQL filter types name their entity; types we do not hold price as plain conditions', () => {
  assert.equal(entityOfFilterType('IssueFilter'), issueEntity);
  assert.equal(entityOfFilterType('NullableCommentFilter'), commentEntity);
  assert.equal(filterPrice(entityOfFilterType('DocumentFilter'), { a: {}, b: {} }), 2 * PRICES.comparison);
});

test('property: any input at all is priced, never thrown on, finite and not negative', () => {
  fc.assert(
    fc.property(fc.oneof(issueFilters(issueEntity, pool), hostileJson), (filter) => {
      const price = filterPrice(issueEntity, filter);
      assert.ok(Number.isFinite(price) && price >= 0, String(price));
    }),
    { numRuns: 500 },
  );
});

test('property: a filter costs more with one more condition (and, or, or a nested relation)', () => {
  const small = fc
    .array(entityFilter(issueEntity, pool), { minLength: 1, maxLength: 3 })
    .filter((fs) => JSON.stringify(fs).length < 4_000);
  fc.assert(
    fc.property(small, fc.constantFrom('and', 'or'), (filters, op) => {
      const [first, ...rest] = filters as Record<string, unknown>[];
      const base = filterPrice(issueEntity, { [op]: [first, ...rest] });
      const more = filterPrice(issueEntity, { [op]: [first, ...rest, { title: { eq: 'x' } }] });
      assert.ok(more > base, `${base} -> ${more}`);
      const nested = filterPrice(issueEntity, { children: { some: { [op]: [first, ...rest] } } });
      assert.ok(nested > base, `nested ${base} -> ${nested}`);
    }),
    { numRuns: 300 },
  );
});

test('the walk stops where the compiler refuses: past the depth and node limits it adds nothing', () => {
  let deep: Record<string, unknown> = { title: { eq: 'x' } };
  for (let i = 0; i < 100_000; i++) deep = { and: [deep] };
  assert.equal(filterPrice(issueEntity, deep), 0, 'a chain deeper than the limit reaches no condition');
  const wide = { or: Array.from({ length: 50_000 }, () => ({ title: { eq: 'x' } })) };
  const price = filterPrice(issueEntity, wide);
  assert.ok(price <= FILTER_LIMITS.nodes * PRICES.comparison, `${price}`);
});
