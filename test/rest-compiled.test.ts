// REST issue reads whose JSON PostgreSQL builds from the read model
// (GET /api/issues and /api/issues/:id) must answer exactly what presenting
// the service's records gives (issues/present.ts, the writes' answers), key
// order included, for every role of the visibility world and every issue
// (a list's entries each as its GET answers);
// and REST's branchName and labelIds must be GraphQL's.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { presentIssue } from '../src/modules/issues/present.js';
import { getIssue } from '../src/modules/issues/service.js';
import type { Actor } from '../src/platform/context.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { buildWorld, ROLES, type Role, type World, worldActors } from './support/visibility-fixture.js';

let t: TestApp;
let world: World;
let actors: Record<Role, Actor>;
const tokens = {} as Record<Role, string>;

before(async () => {
  t = await startTestApp();
  world = await buildWorld(t);
  actors = await worldActors(t, world);
  for (const role of ROLES) {
    tokens[role] = world.tokens[role];
  }
});
after(() => t.close());

const present = (r: Parameters<typeof presentIssue>[0]) => presentIssue(r, t.ctx.config.publicUrl);

test('GET /api/issues/:id answers what the record presents, for every role and issue', async () => {
  const issues = await t.ctx.db.selectFrom('issues').select(['id', 'identifier']).execute();
  for (const role of ROLES) {
    for (const issue of issues) {
      for (const ref of [issue.id, issue.identifier.toLowerCase()]) {
        const res = await t.get(`/api/issues/${ref}`, tokens[role]);
        const record = await getIssue(t.ctx, actors[role], ref).catch(() => undefined);
        if (!record) {
          assert.equal(res.status, 404, `${role} ${issue.identifier}`);
          continue;
        }
        assert.equal(res.status, 200, `${role} ${issue.identifier}`);
        assert.equal(
          JSON.stringify(res.body),
          JSON.stringify({ issue: present(record) }),
          `${role} ${issue.identifier}`,
        );
      }
    }
  }
});

test('GET /api/issues pages answer what the records present', async () => {
  const params = fc.record(
    {
      limit: fc.integer({ min: 1, max: 30 }),
      offset: fc.integer({ min: 0, max: 10 }),
      sort: fc.constantFrom('createdAt', 'updatedAt', 'priority', 'dueDate'),
      order: fc.constantFrom('asc', 'desc'),
      includeArchived: fc.boolean(),
      q: fc.constantFrom('pulsar', 'nebula', 'issue'),
      priority: fc.integer({ min: 0, max: 4 }),
    },
    { requiredKeys: [] },
  );
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...ROLES), params, async (role, p) => {
      const qs = new URLSearchParams(Object.entries(p).map(([k, v]) => [k, String(v)])).toString();
      const res = await t.get(`/api/issues?${qs}`, tokens[role]);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      // Each entry is the issue as its GET presents it (order and paging: issues-list, issues-keyset).
      const issues = [];
      for (const issue of res.body.issues)
        issues.push(present(await getIssue(t.ctx, actors[role], issue.id)));
      const expected = { issues, pageInfo: res.body.pageInfo };
      assert.equal(JSON.stringify(res.body), JSON.stringify(expected), qs);
    }),
    { numRuns: 60 },
  );
});

test("REST's branchName and labelIds are GraphQL's, for every role", async () => {
  for (const role of ROLES) {
    const rest = await t.get('/api/issues?limit=100&includeArchived=true', tokens[role]);
    const gql = await t.post(
      '/graphql',
      { query: '{ issues(first: 100, includeArchived: true) { nodes { id branchName labelIds } } }' },
      tokens[role],
    );
    const byId = new Map<string, { branchName: string; labelIds: string[] }>(
      gql.body.data.issues.nodes.map((n: { id: string }) => [n.id, n]),
    );
    assert.ok(rest.body.issues.length > 0);
    for (const issue of rest.body.issues) {
      const node = byId.get(issue.id);
      assert.ok(node, `${role} ${issue.identifier}`);
      assert.equal(issue.branchName, node.branchName, `${role} ${issue.identifier}`);
      assert.deepEqual(issue.labelIds, node.labelIds, `${role} ${issue.identifier}`);
    }
  }
});

test('a compressed page arrives whole over a socket (the handler waits for compression)', async () => {
  const base = await t.listen();
  const res = await fetch(`${base}/api/issues?limit=50&includeArchived=true`, {
    headers: { authorization: `Bearer ${tokens.admin}`, 'accept-encoding': 'gzip' },
  });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-encoding'), 'gzip');
  const body = (await res.json()) as { issues: unknown[] };
  assert.ok(body.issues.length > 3);
});
