// Issue 24, finding 1 (cost side): filters, searches and nested relation
// filters are priced by the work they cause, on both doors, before anything
// runs. The finding's filter (80 comment-body matches in an `or`) cost 2.1
// over GraphQL and nothing over REST; the comment search cost 2.2.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_COMPLEXITY } from '../src/graphql/cost.js';
import { issueEntity } from '../src/platform/list/entities.js';
import { filterPrice, searchPrice } from '../src/platform/list/price.js';
import { apiKeyFor } from './graphql-helpers.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let key: string;

before(async () => {
  t = await startTestApp();
  key = await apiKeyFor(t, t.adminToken);
});
after(() => t.close());

const bodyMatch = { comments: { some: { body: { containsIgnoreCase: 'nomatch' } } } };
const attack = { or: Array.from({ length: 80 }, () => bodyMatch) };

const gql = (query: string, variables: Record<string, unknown> = {}) =>
  t.request('POST', '/graphql', { headers: { authorization: key }, body: { query, variables } });

describe('GraphQL', () => {
  test("the finding's 80-way comment-body filter is refused before it runs", async () => {
    const res = await gql('query ($f: IssueFilter) { issues(filter: $f, first: 1) { nodes { id } } }', {
      f: attack,
    });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.errors[0].extensions.code, 'QUERY_TOO_COMPLEX');
    assert.match(res.body.errors[0].message, /exceeds the limit of 10000/);
    assert.ok(Number(res.headers['x-complexity']) >= MAX_COMPLEXITY);
  });

  test('the same filter written inline is priced the same', async () => {
    const inline = `{ issues(first: 1, filter: { or: [${Array.from(
      { length: 80 },
      () => '{ comments: { some: { body: { containsIgnoreCase: "nomatch" } } } }',
    ).join(', ')}] }) { nodes { id } } }`;
    const res = await gql(inline);
    assert.equal(res.status, 400);
    assert.equal(res.body.errors[0].extensions.code, 'QUERY_TOO_COMPLEX');
  });

  test('one comment-body match runs, charged its price on top of the selection', async () => {
    const res = await gql('query ($f: IssueFilter) { issues(filter: $f, first: 1) { nodes { id } } }', {
      f: bodyMatch,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(Number(res.headers['x-complexity']), 1 + 1.1 + filterPrice(issueEntity, bodyMatch));
  });

  test('searchIssues with includeComments costs the comment search; without, the indexed search', async () => {
    const q =
      'query ($c: Boolean) { searchIssues(term: "nomatch", includeComments: $c, first: 1) { totalCount } }';
    const plain = await gql(q, { c: false });
    const comments = await gql(q, { c: true });
    assert.equal(plain.status, 200);
    assert.equal(comments.status, 200);
    const [p, c] = [Number(plain.headers['x-complexity']), Number(comments.headers['x-complexity'])];
    assert.equal(p, Math.round((1 + 0.1 + searchPrice('nomatch')) * 10) / 10);
    assert.equal(c, Math.round((1 + 0.1 + searchPrice('nomatch', true)) * 10) / 10);
    assert.ok(c > 2.2 && p > 2.2 && c > 50 * p, `${p} ${c}`);
  });

  test('a filter on a nested connection is priced once per parent record', async () => {
    const q = (first: number) =>
      `{ teams(first: ${first}) { nodes { issues(first: 1, filter: { description: { contains: "x" } }) { nodes { id } } } } }`;
    const one = Number((await gql(q(1))).headers['x-complexity']);
    const ten = Number((await gql(q(10))).headers['x-complexity']);
    assert.ok(Math.abs(ten - 1 - 10 * (one - 1)) < 0.05, `${one} ${ten}`);
    assert.ok(one > 20);
  });
});

describe('REST', () => {
  const list = (query: string, token = t.adminToken) => t.get(`/api/issues?${query}`, token);
  const filterParam = (f: unknown) => `filter=${encodeURIComponent(JSON.stringify(f))}`;

  test("the finding's 80-way comment-body filter is refused with a 400 before it runs, charged the limit", async () => {
    const res = await list(`limit=5&${filterParam(attack)}`);
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 'QUERY_TOO_COMPLEX');
    assert.match(
      res.body.error.message,
      /Request too costly: price \d+(\.\d+)? exceeds the limit of 10000 points/,
    );
    assert.equal(res.headers['x-complexity'], String(MAX_COMPLEXITY));
    assert.ok(Number(res.headers['x-ratelimit-complexity-remaining']) >= 0);
  });

  test('a filter costs on REST what it costs on GraphQL: the same function prices both', async () => {
    const res = await list(`limit=5&${filterParam(bodyMatch)}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(Number(res.headers['x-complexity']), 1 + 5 + filterPrice(issueEntity, bodyMatch));
  });

  test('q is priced as the search; limit and offset by the records they read', async () => {
    const searched = await list('limit=10&q=nomatch');
    assert.equal(Number(searched.headers['x-complexity']), 1 + 10 + searchPrice('nomatch'));
    const deep = await list('limit=250&offset=1000000');
    assert.equal(deep.status, 400, 'a million rows skipped cost 10,000 points on their own');
    assert.equal(deep.body.error.code, 'QUERY_TOO_COMPLEX');
  });

  test('every other route costs the base price', async () => {
    const res = await t.get('/api/teams', t.adminToken);
    assert.equal(res.status, 200);
    assert.equal(res.headers['x-complexity'], '1');
    assert.ok(res.headers['x-ratelimit-requests-remaining']);
  });
});

describe('saved views', () => {
  test('a view whose filter would cost more than a view may is refused when saved, and nothing is saved', async () => {
    const before = await t.get('/api/views', t.adminToken);
    const res = await t.post('/api/views', { name: 'Heavy', filterData: attack }, t.adminToken);
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.match(
      JSON.stringify(res.body),
      /filterData.*costs 84000 points to run; a saved view's filter may cost at most 2,500/,
    );
    const after = await t.get('/api/views', t.adminToken);
    assert.equal(after.body.views.length, before.body.views.length);
    const light = await t.post('/api/views', { name: 'Light', filterData: bodyMatch }, t.adminToken);
    assert.equal(light.status, 201, JSON.stringify(light.body));
  });
});
