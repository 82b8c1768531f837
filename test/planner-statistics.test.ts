// The planner's statistics follow the tables (platform/db/statistics.ts). A
// table never analyzed made a member's filter nesting `parent` nine levels
// deep a nested loop costing rows^depth: on PGlite, which cannot interrupt a
// statement, it never ended and held the server. Here the app's own keeper
// analyzes the grown tables, and every depth of that filter is answered.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { analyzeChangedTables, STATISTICS_CHECK_MS } from '../src/platform/db/statistics.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let member: { token: string };

const analyzedRows = async (table: string) =>
  Number(
    (await sql<{ n: number }>`select reltuples as n from pg_class where relname = ${table}`.execute(t.ctx.db))
      .rows[0]!.n,
  );
const realRows = async (table: string) =>
  Number(
    (await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(t.ctx.db)).rows[0]!.n,
  );

before(async () => {
  t = await startTestApp();
  member = await t.userWithRole('member');
  assert.equal(
    (await t.post('/api/teams', { key: 'SEC', name: 'Secret', private: true }, t.adminToken)).status,
    201,
  );
  for (let i = 0; i < 12; i++)
    await t.post('/api/issues', { title: `Open ${i}`, teamId: 'ENG', priority: i % 5 }, t.adminToken);
  for (let i = 0; i < 3; i++)
    await t.post('/api/issues', { title: `Secret ${i}`, teamId: 'SEC' }, t.adminToken);
});
after(() => t?.close());

describe('planner statistics', () => {
  test('the running app analyzes a table once its rows change', async () => {
    // A reused test database may hold statistics of a file before; the count is what is true now.
    const until = Date.now() + 4 * STATISTICS_CHECK_MS;
    while ((await analyzedRows('issues')) !== (await realRows('issues')) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 200));
    assert.equal(await analyzedRows('issues'), await realRows('issues'));
  });

  test('tables are analyzed again when their rows move, not when they do not', async () => {
    await analyzeChangedTables(t.ctx.db);
    assert.deepEqual(await analyzeChangedTables(t.ctx.db), [], 'nothing moved since');
    for (let i = 0; i < 40; i++)
      await t.post('/api/issues', { title: `More ${i}`, teamId: 'ENG' }, t.adminToken);
    // The app's own pass may come first (every 5 s); either way the statistics follow.
    await analyzeChangedTables(t.ctx.db);
    assert.equal(await analyzedRows('issues'), await realRows('issues'));
  });

  test("a member's parent chain nine levels deep is answered at every depth", async () => {
    for (let depth = 1; depth <= 9; depth++) {
      let filter: Record<string, unknown> = { id: { null: false } };
      for (let k = 0; k < depth; k++) filter = { parent: filter };
      const q = new URLSearchParams({ limit: '1', filter: JSON.stringify(filter) });
      const res = await t.get(`/api/issues?${q}`, member.token);
      assert.equal(res.status, 200, `depth ${depth}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.pageInfo.total, 0);
    }
  });
});
