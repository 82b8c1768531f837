// Issue 24, finding 1: a guest must not stall the server through comment
// search or comment-body filters. The attack as written (200 comments of
// ~77 KB, then a search with includeComments and an OR of 80 body filters)
// must be served by indexes, read a page and its total in one statement, and
// a statement that runs too long must answer 400 QUERY_TOO_EXPENSIVE.
// The lookups run in SQL functions that turn sequential scans off (migration
// 0025): a statement's plan shows the function, and the function's own query
// is explained as it runs, with sequential scans off.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import { gql } from './graphql-helpers.js';
import { assertError } from './support/errors.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let base: string;
let guest: { token: string };
let issueId: string;

// Words, so the text is realistic for both the tsvector and the trigrams.
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];
function bigBody(seed: number): string {
  const parts: string[] = ['Alpha'];
  let n = seed;
  let length = 0;
  while (length < 77_000) {
    n = (Math.imul(n, 1103515245) + 12345) >>> 0;
    const w = `${WORDS[n % WORDS.length]}${n % 97}`;
    parts.push(w);
    length += w.length + 1;
  }
  return parts.join(' ');
}

before(async () => {
  t = await startTestApp({ statementTimeoutMs: 2_000 });
  base = await t.listen();
  guest = await t.userWithRole('guest', { teams: ['ENG'] });
  const issue = await t.post('/api/issues', { title: 'Seen by the guest' }, t.adminToken);
  assert.equal(issue.status, 201, JSON.stringify(issue.body));
  issueId = issue.body.issue.id;
  const comments = Number(process.env['SEARCH_COST_COMMENTS'] ?? 200);
  for (let i = 0; i < comments; i++) {
    const res = await t.post(`/api/issues/${issueId}/comments`, { body: bigBody(i + 1) }, guest.token);
    assert.equal(res.status, 201, JSON.stringify(res.body).slice(0, 300));
  }
});

after(() => t.close());

/** The statements `run` sends to the database, with their parameters. */
async function statementsOf(run: () => Promise<unknown>) {
  const seen: { sql: string; parameters: readonly unknown[] }[] = [];
  const off = t.database.onStatement((s, parameters) => seen.push({ sql: s, parameters }));
  try {
    await run();
  } finally {
    off();
  }
  return seen;
}

/** EXPLAIN of a statement with its parameters, sequential scans disabled. */
async function planOf(statement: { sql: string; parameters: readonly unknown[] }): Promise<string> {
  return t.ctx.db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    await sql`set local statement_timeout = 0`.execute(trx);
    const res = await trx.executeQuery<Record<string, string>>(
      CompiledQuery.raw(`explain ${statement.sql}`, [...statement.parameters]),
    );
    return res.rows.map((r) => Object.values(r)[0]).join('\n');
  });
}

const readsComments = (s: { sql: string }) => /\bcomment/.test(s.sql);

test('searchIssues with includeComments: one statement, served by the comment_search index', async () => {
  let body: any;
  const statements = await statementsOf(async () => {
    const res = await gql(
      base,
      `Bearer ${guest.token}`,
      '{ searchIssues(term: "nomatch", includeComments: true, first: 1) { totalCount nodes { id } } }',
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    body = res.body;
  });
  assert.equal(body.errors, undefined, JSON.stringify(body.errors));
  assert.equal(body.data.searchIssues.totalCount, 0);
  // The page and its total: one statement, not a page and a count in parallel.
  const searching = statements.filter((s) => /\bissues\b/.test(s.sql) && /@@/.test(s.sql));
  assert.equal(searching.length, 1, searching.map((s) => s.sql).join('\n---\n'));
  const plan = await planOf(searching[0]!);
  assert.match(plan, /comment_search_issues/, plan);
  assert.doesNotMatch(plan, /to_tsvector/, plan);
  assert.doesNotMatch(plan, /Seq Scan on comment/, plan);
  const inner = await planOf({
    sql: `select s.issue_id from comment_search s where s.search @@ to_tsquery('simple', 'nomatch:*')`,
    parameters: [],
  });
  assert.match(inner, /Bitmap Index Scan on comment_search_gin/, inner);
});

test('searchIssues finds a word of a comment, and its total, in one statement', async () => {
  const word = 'needlecomment';
  const c = await t.post(`/api/issues/${issueId}/comments`, { body: `with ${word} inside` }, guest.token);
  assert.equal(c.status, 201);
  const res = await gql(
    base,
    `Bearer ${guest.token}`,
    `{ searchIssues(term: "${word}", includeComments: true, first: 1) { totalCount nodes { id } } }`,
  );
  assert.deepEqual(res.body.data.searchIssues, { totalCount: 1, nodes: [{ id: issueId }] });
  // A deleted comment no longer matches.
  const del = await t.del(`/api/comments/${c.body.comment.id}`, guest.token);
  assert.ok(del.status === 204 || del.status === 200, JSON.stringify(del.body));
  const again = await gql(
    base,
    `Bearer ${guest.token}`,
    `{ searchIssues(term: "${word}", includeComments: true) { totalCount } }`,
  );
  assert.equal(again.body.data.searchIssues.totalCount, 0);
});

const bodyFilter = (text: string, n: number) => ({
  or: Array.from({ length: n }, (_, i) => ({
    comments: { some: { body: { containsIgnoreCase: `${text} ${i}` } } },
  })),
});

/** Every statement that tests comment text answers through the trigram index. */
async function assertIndexedBodyFilter(statements: { sql: string; parameters: readonly unknown[] }[]) {
  const filtering = statements.filter((s) => readsComments(s) && /long_text_matches|ilike/.test(s.sql));
  assert.ok(filtering.length > 0, 'no statement filtered comment bodies');
  const inner = await planOf({
    sql: 'select id from comments where body ilike $1',
    parameters: ['%zulu nomatch%'],
  });
  assert.match(inner, /Bitmap Index Scan on comments_body_trgm/, inner);
  for (const s of filtering) {
    const plan = await planOf(s);
    assert.match(plan, /long_text_matches/, plan);
    // An ILIKE as a Filter (not an index condition or its recheck) would read every comment.
    assert.doesNotMatch(plan, /^\s*Filter:.*~~\*/m, plan);
    assert.doesNotMatch(plan, /Seq Scan on comments/, plan);
  }
}

test('an OR of 80 comment-body filters over GraphQL reads the trigram index', async () => {
  let res: any;
  const statements = await statementsOf(async () => {
    res = await gql(
      base,
      `Bearer ${guest.token}`,
      'query($f: IssueFilter) { issues(filter: $f) { nodes { id } } }',
      {
        f: bodyFilter('zulu nomatch', 80),
      },
    );
  });
  // The cost model may refuse it (400); it must never be a 5xx or a scan.
  assert.ok(res.status === 200 || res.status === 400, JSON.stringify(res.body));
  if (res.status === 200) {
    assert.equal(res.body.errors, undefined, JSON.stringify(res.body.errors));
    assert.deepEqual(res.body.data.issues.nodes, []);
    await assertIndexedBodyFilter(statements);
  }
  const small = await statementsOf(async () => {
    const r = await gql(
      base,
      `Bearer ${guest.token}`,
      'query($f: IssueFilter) { issues(filter: $f) { nodes { id } } }',
      {
        f: {
          or: [
            { comments: { some: { body: { containsIgnoreCase: 'ALPHA' } } } },
            { comments: { some: { body: { contains: 'zulu nomatch' } } } },
          ],
        },
      },
    );
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.data.issues.nodes, [{ id: issueId }]);
  });
  await assertIndexedBodyFilter(small);
});

test('the same filter over REST ?filter= reads the trigram index', async () => {
  const statements = await statementsOf(async () => {
    const res = await t.get(
      `/api/issues?filter=${encodeURIComponent(JSON.stringify(bodyFilter('zulu nomatch', 80)))}`,
      guest.token,
    );
    assert.ok(res.status === 200 || res.status === 400, JSON.stringify(res.body));
    if (res.status === 200) assert.deepEqual(res.body.issues, []);
  });
  if (statements.some((s) => /long_text_matches/.test(s.sql))) await assertIndexedBodyFilter(statements);
  const notContaining = await t.get(
    `/api/issues?filter=${encodeURIComponent(JSON.stringify({ comments: { every: { body: { notContains: 'zulu' } } } }))}`,
    guest.token,
  );
  assert.equal(notContaining.status, 200, JSON.stringify(notContaining.body));
  assert.ok(notContaining.body.issues.some((i: any) => i.id === issueId));
});

test('long text comparators no index serves are refused with 400, on both doors', async () => {
  const refused = [
    { comments: { some: { body: { containsIgnoreCase: 'ab' } } } },
    { comments: { some: { body: { contains: '%%%' } } } },
    { comments: { some: { body: { containsIgnoreCaseAndAccent: 'alpha' } } } },
    { comments: { some: { body: { in: ['alpha'] } } } },
    { description: { containsIgnoreCase: 'a b' } },
  ];
  for (const filter of refused) {
    const rest = await t.get(`/api/issues?filter=${encodeURIComponent(JSON.stringify(filter))}`, guest.token);
    assertError(rest, 400, 'VALIDATION_FAILED');
    const g = await gql(
      base,
      `Bearer ${guest.token}`,
      'query($f: IssueFilter) { issues(filter: $f) { nodes { id } } }',
      {
        f: filter,
      },
    );
    assert.equal(g.body.errors?.[0]?.extensions?.code, 'VALIDATION_FAILED', JSON.stringify(g.body));
  }
  const description = await statementsOf(async () => {
    const res = await t.get(
      `/api/issues?filter=${encodeURIComponent(JSON.stringify({ description: { containsIgnoreCase: 'rollout' } }))}`,
      guest.token,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
  });
  const s = description.find((x) => /long_text_matches/.test(x.sql));
  assert.ok(s);
  assert.doesNotMatch(await planOf(s), /^\s*Filter:.*~~\*/m);
  const inner = await planOf({
    sql: 'select id from issues where description ilike $1',
    parameters: ['%rollout%'],
  });
  assert.match(inner, /issues_description_trgm/, inner);
});

test('a statement that runs too long answers 400 QUERY_TOO_EXPENSIVE and changes nothing', async () => {
  // A stand-in for an expensive statement: every comment insert sleeps.
  // PostgreSQL cuts it off at the statement timeout (2 s here); PGlite cannot,
  // so there the request's database-time budget refuses its next statement.
  // PGlite's pg_sleep spins on the clock (WebAssembly cannot block), so there
  // the sleep and the budget are a tenth: the same over-budget statement, not
  // 8 s of a core spent waiting.
  const pglite = t.database.kind === 'pglite';
  await sql`create function slow_comment() returns trigger language plpgsql as $$
    begin perform pg_sleep(${sql.lit(pglite ? 0.4 : 4)}); return new; end $$`.execute(t.ctx.db);
  await sql`create trigger slow_comment before insert on comments for each row execute function slow_comment()`.execute(
    t.ctx.db,
  );
  const budget = t.config.dbTimePerRequestMs;
  t.config.dbTimePerRequestMs = pglite ? 300 : 3_000;
  const count = async () =>
    Number((await sql<{ n: string }>`select count(*) as n from comments`.execute(t.ctx.db)).rows[0]!.n);
  const before = await count();
  try {
    const rest = await t.post(`/api/issues/${issueId}/comments`, { body: 'slow' }, guest.token);
    assertError(rest, 400, 'QUERY_TOO_EXPENSIVE');
    const g = await gql(
      base,
      `Bearer ${guest.token}`,
      'mutation($i: CommentCreateInput!) { commentCreate(input: $i) { success } }',
      { i: { issueId, body: 'slow too' } },
    );
    assert.equal(g.body.errors?.[0]?.extensions?.code, 'QUERY_TOO_EXPENSIVE', JSON.stringify(g.body));
    assert.equal(g.body.errors[0].extensions.type, 'invalid input');
  } finally {
    t.config.dbTimePerRequestMs = budget;
    await sql`drop trigger slow_comment on comments`.execute(t.ctx.db);
    await sql`drop function slow_comment()`.execute(t.ctx.db);
  }
  assert.equal(await count(), before);
  // No transaction or pooled connection was left broken: more requests than the pool holds all work.
  const after = await Promise.all(
    Array.from({ length: 25 }, () => t.get(`/api/issues/${issueId}/comments?limit=1`, guest.token)),
  );
  for (const r of after) assert.equal(r.status, 200, JSON.stringify(r.body));
});

test('a request that has spent its database time gets its next statement refused', async () => {
  // Each statement here is under the statement timeout; together they are over the budget.
  await sql`create function slow_comment() returns trigger language plpgsql as $$
    begin perform pg_sleep(0.2); return new; end $$`.execute(t.ctx.db);
  await sql`create trigger slow_comment before insert on comments for each row execute function slow_comment()`.execute(
    t.ctx.db,
  );
  const budget = t.config.dbTimePerRequestMs;
  t.config.dbTimePerRequestMs = 100;
  const count = async () =>
    Number((await sql<{ n: string }>`select count(*) as n from comments`.execute(t.ctx.db)).rows[0]!.n);
  const before = await count();
  try {
    const rest = await t.post(`/api/issues/${issueId}/comments`, { body: 'over budget' }, guest.token);
    assertError(rest, 400, 'QUERY_TOO_EXPENSIVE');
    assert.match(rest.body.error.message, /100 ms of database time/);
  } finally {
    t.config.dbTimePerRequestMs = budget;
    await sql`drop trigger slow_comment on comments`.execute(t.ctx.db);
    await sql`drop function slow_comment()`.execute(t.ctx.db);
  }
  assert.equal(await count(), before);
  const ok = await t.get('/api/issues?limit=5', guest.token);
  assert.equal(ok.status, 200);
});
