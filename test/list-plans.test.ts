// A list page's prepared statement keeps one plan. Its page size is written into the statement
// (platform/list/window.ts pageBound): PostgreSQL prices an unknown LIMIT as a tenth of the
// rows, so with the size a parameter the generic plan looked dearer than each custom one and
// every run of a prepared page was planned again (docs/benchmarks.md, "Issue 25, fourth stop").
// The page statements of the REST list and of a GraphQL connection are captured as the app
// sends them, then run again on one connection of a preparing pool, as the app's pool runs
// them, and PostgreSQL's own record of the prepared statement says which plans it used. On a
// table this small the generic plan wins either way; the page size in the text is what fails
// when the size is a parameter again.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { MAX_PREPARED_TEXT, PGlitePool } from '../src/platform/db/pglite-pool.js';
import { PreparingPool } from '../src/platform/db/prepared-pool.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let token: string;
let team: { id: string };
let todo: { id: string };

before(async () => {
  t = await startTestApp();
  token = t.adminToken;
  team = (await t.get('/api/teams', token)).body.teams[0];
  const states = (await t.get(`/api/workflow-states?teamId=${team.id}`, token)).body.workflowStates;
  todo = states.find((s: { name: string }) => s.name === 'Todo');
  // More issues than a tenth of them fits in the pages asked for below.
  for (let i = 0; i < 40; i++) {
    const res = await t.post('/api/issues', { teamId: team.id, stateId: todo.id, title: `Plan ${i}` }, token);
    assert.equal(res.status, 201, JSON.stringify(res.body));
  }
  await sql`analyze issues`.execute(t.ctx.db);
});
after(() => t.close());

/** The statements with parameters the app sent while `act` ran. */
async function captured(act: () => Promise<unknown>) {
  const seen: { sql: string; parameters: readonly unknown[] }[] = [];
  const stop = t.database.onStatement((text, parameters) => {
    if (parameters.length > 0) seen.push({ sql: text, parameters });
  });
  try {
    await act();
  } finally {
    stop();
  }
  return seen;
}

/** Runs `sql` eight times on one connection of a preparing pool; the plans PostgreSQL used for it. */
async function plansOf(text: string, parameters: readonly unknown[]) {
  interface Client {
    query(text: string, values: readonly unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
    release(): void;
  }
  const pglite = t.database.pglite;
  // PGlite keeps long texts unnamed (pglite-pool.ts): no plan of theirs is kept to check.
  if (pglite && text.length > MAX_PREPARED_TEXT) return undefined;
  const inner = pglite ? undefined : new pg.Pool({ connectionString: t.database.url, max: 1 });
  const pool = pglite ? new PGlitePool(pglite, { closeOnEnd: false }) : new PreparingPool(inner!);
  const client = (await pool.connect()) as unknown as Client;
  try {
    for (let i = 0; i < 8; i++) await client.query(text, parameters);
    const { rows } = await client.query(
      'select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where statement = $1',
      [text],
    );
    assert.ok(rows[0], 'the pool prepared the page');
    return rows[0] as { generic: number; custom: number };
  } finally {
    client.release();
    await (inner ?? pool).end();
  }
}

const pageStatement = (seen: { sql: string; parameters: readonly unknown[] }[]) => {
  const page = seen.find((s) => /\blimit\b/i.test(s.sql) && /\bissues\b/.test(s.sql));
  assert.ok(page, `a page statement among ${seen.length}`);
  return page;
};

test('the REST issue list: a page keeps its generic plan after five runs', async () => {
  const seen = await captured(async () => {
    const res = await t.get(`/api/issues?teamId=${team.id}&stateId=${todo.id}&limit=2`, token);
    assert.equal(res.status, 200);
    assert.equal(res.body.issues.length, 2);
  });
  const page = pageStatement(seen);
  // The page's own LIMIT (its ids' subquery), not a LIMIT 1 of a field's subquery.
  assert.match(page.sql, /\blimit \d+\) as "page"/i, `the page size is in the text: ${page.sql.slice(-300)}`);
  const plans = await plansOf(page.sql, page.parameters);
  if (plans) assert.ok(plans.generic >= 1, `generic plans used: ${JSON.stringify(plans)}`);
});

test('a GraphQL connection: a page keeps its generic plan after five runs', async () => {
  const seen = await captured(async () => {
    const res = await t.post(
      '/graphql',
      {
        query: `{ issues(first: 2, filter: { state: { id: { eq: "${todo.id}" } } }) { nodes { id title } } }`,
      },
      token,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.issues.nodes.length, 2);
  });
  const page = pageStatement(seen);
  const plans = await plansOf(page.sql, page.parameters);
  if (plans) assert.ok(plans.generic >= 1, `generic plans used: ${JSON.stringify(plans)}`);
});
