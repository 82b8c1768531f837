// POST /api/issues/counts: many lists counted in one request (a list's groups,
// a board's columns). Each count is the list's own `pageInfo.total` for the
// same filter and caller, a private team's issues are not counted for those
// who do not see it, bad input is a 400 naming the filter, and the request is
// priced by its filters before anything is counted.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { MAX_COUNTED_LISTS } from '../src/modules/issues/count-limit.js';
import { analyzeChangedTables } from '../src/platform/db/statistics.js';
import { issueEntity } from '../src/platform/list/entities.js';
import { issueFilters } from './support/fuzz/filters.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let member: { token: string };
let eng: { id: string; states: { id: string; type: string }[] };
let secretId: string;

const counts = (filters: unknown, token = t.adminToken) => t.post('/api/issues/counts', { filters }, token);
const listTotal = async (filter: unknown, token = t.adminToken) => {
  const q = new URLSearchParams({ limit: '1', filter: JSON.stringify(filter) });
  return t.get(`/api/issues?${q}`, token);
};

before(async () => {
  t = await startTestApp();
  member = await t.userWithRole('member');
  const teams = (await t.get('/api/teams', t.adminToken)).body.teams;
  const team = teams.find((x: { key: string }) => x.key === 'ENG');
  const states =
    (await t.get(`/api/workflow-states?teamId=${team.id}`, t.adminToken)).body.workflowStates ??
    (await t.get(`/api/workflow-states?teamId=${team.id}`, t.adminToken)).body.states;
  eng = { id: team.id, states };
  const secret = await t.post('/api/teams', { key: 'SEC', name: 'Secret', private: true }, t.adminToken);
  assert.equal(secret.status, 201, JSON.stringify(secret.body));
  secretId = secret.body.team.id;
  const labels = await t.post('/api/labels', { name: 'Counted', teamId: eng.id }, t.adminToken);
  assert.equal(labels.status, 201, JSON.stringify(labels.body));
  for (let i = 0; i < 12; i++) {
    const res = await t.post(
      '/api/issues',
      {
        title: `Counted ${i}`,
        teamId: eng.id,
        priority: i % 5,
        stateId: states[i % states.length].id,
        ...(i % 3 === 0 ? { labelIds: [labels.body.label.id] } : {}),
        ...(i % 4 === 0 ? { dueDate: '2026-12-01' } : {}),
      },
      t.adminToken,
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
  }
  for (let i = 0; i < 3; i++)
    await t.post('/api/issues', { title: `Secret ${i}`, teamId: 'SEC', priority: 1 }, t.adminToken);
  // What the app's keeper does within seconds; the property's deep relation chains need it (test/planner-statistics.test.ts).
  await analyzeChangedTables(t.ctx.db);
});
after(() => t?.close());

describe('POST /api/issues/counts', () => {
  test("each count is the list's own total for the same filter and caller", async () => {
    const filters = [
      {},
      { priority: { eq: 1 } },
      { priority: { in: [2, 3] } },
      { assignee: { null: true } },
      { labels: { some: { name: { eq: 'Counted' } } } },
      { dueDate: { lt: '2027-01-01' } },
      { or: [{ priority: { eq: 0 } }, { state: { type: { eq: 'completed' } } }] },
      ...eng.states.map((s) => ({ state: { id: { eq: s.id } } })),
      { team: { id: { eq: secretId } } },
    ];
    for (const token of [t.adminToken, member.token]) {
      const res = await counts(filters, token);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.counts.length, filters.length);
      for (const [i, f] of filters.entries()) {
        const list = await listTotal(f, token);
        assert.equal(res.body.counts[i], list.body.pageInfo.total, JSON.stringify(f));
      }
    }
    // Not a count that happens to agree at zero: the lists hold issues.
    const all = (await counts([{}, { team: { id: { eq: secretId } } }])).body.counts;
    assert.ok(all[0] >= 15);
    assert.equal(all[1], 3);
  });

  test("a private team's issues are counted only for those who see it", async () => {
    const filters = [{ priority: { eq: 1 } }, { team: { id: { eq: secretId } } }];
    const admin = (await counts(filters)).body.counts;
    const seen = (await counts(filters, member.token)).body.counts;
    assert.equal(admin[1], 3);
    assert.equal(seen[1], 0);
    assert.equal(admin[0] - seen[0], 3, 'the secret issues of priority 1 are the difference');
  });

  test('bad input is a 400 naming what is wrong, and nobody signed in is a 401', async () => {
    const bad = await counts([{}, {}, { priority: { bogus: 1 } }]);
    assert.equal(bad.status, 400, JSON.stringify(bad.body));
    assert.match(JSON.stringify(bad.body), /filters\[2\]\.priority\.bogus/);
    for (const filters of [[], Array.from({ length: MAX_COUNTED_LISTS + 1 }, () => ({})), [1], 'x', null]) {
      const res = await counts(filters);
      assert.equal(res.status, 400, JSON.stringify(filters));
      assert.ok(res.body.error, JSON.stringify(res.body));
    }
    assert.equal((await t.post('/api/issues/counts', { filters: [{}] })).status, 401);
  });

  test('priced by its filters before counting: each filter as a list is, each count one record', async () => {
    const one = await counts([{ priority: { eq: 1 } }]);
    const three = await counts([{ priority: { eq: 1 } }, { priority: { eq: 2 } }, { priority: { eq: 3 } }]);
    const price = (r: { headers: Record<string, unknown> }) => Number(r.headers['x-complexity']);
    assert.ok(price(one) > 1);
    assert.equal(price(three) - 1, 3 * (price(one) - 1));
    // Long-text matches are dear: 50 lists of several cost more than a request may.
    const dear = { or: Array.from({ length: 12 }, (_, i) => ({ description: { contains: `x${i}` } })) };
    const refused = await counts(Array.from({ length: MAX_COUNTED_LISTS }, () => dear));
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.error.code, 'QUERY_TOO_COMPLEX');
  });

  test('property: for any filter, the count and the list agree on the answer and the number', async () => {
    const pool = { uuids: [eng.id, secretId, ...eng.states.map((s) => s.id)], keys: ['ENG', 'SEC'] };
    await fc.assert(
      fc.asyncProperty(issueFilters(issueEntity, pool), async (f) => {
        const [c, l] = await Promise.all([counts([f], member.token), listTotal(f, member.token)]);
        assert.ok(c.status < 500 && l.status < 500, `${c.status} ${l.status} ${JSON.stringify(f)}`);
        assert.equal(c.status, l.status, `${JSON.stringify(c.body)} ${JSON.stringify(l.body)}`);
        if (c.status === 200) assert.equal(c.body.counts[0], l.body.pageInfo.total);
      }),
      { numRuns: 60 },
    );
  });
});
