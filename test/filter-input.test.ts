// Malformed filter values and oversized filters, through both APIs: REST
// answers 400 VALIDATION_FAILED naming the field, GraphQL "invalid input";
// never a 500 or an "internal error" (they used to reach JavaScript's Date or
// PostgreSQL and fail there). The grammar is shared, so are the cases.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { gql } from './graphql-helpers.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let base: string;
before(async () => {
  t = await startTestApp();
  base = await t.listen();
  const team = (await t.get('/api/teams', t.adminToken)).body.teams[0];
  const made = await t.post(
    '/api/issues',
    { teamId: team.id, title: 'Due soon', dueDate: '2024-02-29' },
    t.adminToken,
  );
  assert.equal(made.status, 201, JSON.stringify(made.body));
});
after(() => t.close());

const nested = (depth: number) => {
  let f: Record<string, unknown> = { title: { eq: 'x' } };
  for (let i = 0; i < depth; i++) f = { parent: f };
  return f;
};

// [what, filter, field the error names (REST detail, without the leading "/")]
const BAD: [string, Record<string, unknown>, string][] = [
  ['a huge negative duration', { createdAt: { gt: '-P99999999Y' } }, 'filter.createdAt.gt'],
  ['a huge day count', { createdAt: { gt: 'P1000000000000D' } }, 'filter.createdAt.gt'],
  ['a huge hour count', { createdAt: { gt: '-PT9999999999999H' } }, 'filter.createdAt.gt'],
  ['a day that does not exist', { dueDate: { eq: '2024-02-30' } }, 'filter.dueDate.eq'],
  ['year zero', { createdAt: { gt: '0000-01-01' } }, 'filter.createdAt.gt'],
  ['a due date beyond year 9999', { dueDate: { lte: 'P99999999D' } }, 'filter.dueDate.lte'],
  ['a month 13 in a list', { dueDate: { in: ['2024-01-01', '2024-13-01'] } }, 'filter.dueDate.in[1]'],
  ['an overlong string', { title: { contains: 'x'.repeat(1_001) } }, 'filter.title.contains'],
  // Deeper than the filter's 16 levels, within JSON's 64 (deeper JSON is refused before the filter is read: json-depth.test.ts).
  ['a filter 40 deep', nested(40), `filter${'.parent'.repeat(16)}`],
];

async function rest(filter: Record<string, unknown>) {
  return t.get(`/api/issues?filter=${encodeURIComponent(JSON.stringify(filter))}`, t.adminToken);
}
const ISSUES = 'query($f: IssueFilter) { issues(filter: $f) { nodes { id title } } }';
const graphql = (filter: Record<string, unknown>) =>
  gql(base, `Bearer ${t.adminToken}`, ISSUES, { f: filter });

describe('REST GET /api/issues?filter=', () => {
  for (const [what, filter, field] of BAD) {
    test(`${what}: 400 VALIDATION_FAILED naming ${field.slice(0, 40)}`, async () => {
      const res = await rest(filter);
      assert.equal(res.status, 400, JSON.stringify(res.body).slice(0, 300));
      assert.equal(res.body.error.code, 'VALIDATION_FAILED');
      assert.equal(res.body.error.details[0].field, `/${field}`);
    });
  }

  test('a filter 700 deep (as deep as the 8 KB parameter allows) is a 400 too', async () => {
    const res = await rest(nested(700));
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'VALIDATION_FAILED');
  });

  test('good values still filter', async () => {
    const res = await rest({ dueDate: { eq: '2024-02-29' }, createdAt: { gt: '-P1D', lt: 'P1D' } });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.issues.map((i: any) => i.title),
      ['Due soon'],
    );
  });
});

describe('GraphQL issues(filter:)', () => {
  for (const [what, filter, field] of BAD) {
    test(`${what}: invalid input naming ${field.slice(0, 40)}`, async () => {
      const res = await graphql(filter);
      const error = res.body.errors?.[0];
      assert.equal(error?.extensions?.type, 'invalid input', JSON.stringify(res.body).slice(0, 300));
      assert.equal(error.extensions.details?.[0]?.field, `/${field}`);
      assert.equal(res.body.data?.issues ?? null, null);
    });
  }

  test('a filter 1,000 deep is invalid input, not "memory exhausted"', async () => {
    const res = await graphql(nested(1_000));
    assert.equal(
      res.body.errors?.[0]?.extensions?.type,
      'invalid input',
      JSON.stringify(res.body).slice(0, 300),
    );
  });

  test('a filter 1,000 deep written into the query is invalid input too', async () => {
    const literal = `${'{ parent: '.repeat(1_000)}{ title: { eq: "x" } }${' }'.repeat(1_000)}`;
    const res = await gql(base, `Bearer ${t.adminToken}`, `{ issues(filter: ${literal}) { nodes { id } } }`);
    assert.equal(
      res.body.errors?.[0]?.extensions?.type,
      'invalid input',
      JSON.stringify(res.body).slice(0, 300),
    );
  });

  test('as literals in the query too', async () => {
    for (const literal of ['{ dueDate: { eq: "2024-02-30" } }', '{ createdAt: { gt: "0000-01-01" } }']) {
      const res = await gql(
        base,
        `Bearer ${t.adminToken}`,
        `{ issues(filter: ${literal}) { nodes { id } } }`,
      );
      assert.equal(res.body.errors?.[0]?.extensions?.type, 'invalid input', JSON.stringify(res.body));
    }
  });

  test('good values still filter', async () => {
    const res = await graphql({ dueDate: { eq: '2024-02-29' }, createdAt: { gt: '-P1D' } });
    assert.deepEqual(
      res.body.data.issues.nodes.map((i: any) => i.title),
      ['Due soon'],
    );
  });

  test('TimelessDate and DateTime inputs are real dates too', async () => {
    const teamId = (await t.get('/api/teams', t.adminToken)).body.teams[0].id;
    const create = 'mutation($i: IssueCreateInput!) { issueCreate(input: $i) { success } }';
    for (const dueDate of ['2024-02-30', '0000-01-01', '2024-1-1']) {
      const res = await gql(base, `Bearer ${t.adminToken}`, create, { i: { teamId, title: 'x', dueDate } });
      assert.equal(res.body.errors?.[0]?.extensions?.type, 'invalid input', JSON.stringify(res.body));
    }
    const listed = await rest({ title: { eq: 'x' } });
    assert.equal(listed.body.issues.length, 0);
  });
});

// Whatever a check misses and the database refuses (class 22: a malformed
// uuid, a NUL byte in text) is the client's error on GraphQL too, as on REST.
describe('GraphQL: a value the database refuses', () => {
  test('is invalid input, not an internal error, and changes nothing', async () => {
    const issue = (await t.get('/api/issues?limit=1', t.adminToken)).body.issues[0];
    const cases: [string, Record<string, unknown>][] = [
      [
        'mutation($i: CommentCreateInput!) { commentCreate(input: $i) { success } }',
        { i: { issueId: issue.id, body: 'nul \u0000 byte' } },
      ],
    ];
    for (const [query, variables] of cases) {
      const res = await gql(base, `Bearer ${t.adminToken}`, query, variables);
      assert.equal(res.body.errors?.[0]?.extensions?.type, 'invalid input', JSON.stringify(res.body));
    }
    const comments = await t.get(`/api/issues/${issue.id}/comments`, t.adminToken);
    assert.equal(comments.body.pageInfo.total, 0);
  });
});
