// Every admin-only REST route, taken from the app's own route table (so a new
// one is covered without editing this file), refuses members and guests with
// 403 before it looks at the body, and anonymous callers with 401: whatever
// the body, the answer is the same and nothing changes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { gql } from './graphql-helpers.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { BAD_BODIES, fill, probe, ZERO_UUID } from './support/route-probes.js';

let t: TestApp;
let member: { token: string };
let guest: { token: string };
before(async () => {
  t = await startTestApp();
  member = await t.userWithRole('member');
  guest = await t.userWithRole('guest', { teams: ['ENG'] });
});
after(() => t.close());

const PARAMS: Record<string, string> = { id: ZERO_UUID, deliveryId: ZERO_UUID, key: 'projects' };
const filled = (url: string) => fill(url, (_, name) => PARAMS[name] ?? 'x');

const adminRoutes = () => t.app.routeAuth.filter((r) => r.auth === 'admin' && r.method !== 'HEAD');

async function snapshot() {
  const reads = [
    '/api/admin/users',
    '/api/admin/flags',
    '/api/admin/webhooks',
    '/api/admin/git/connections',
    '/api/config',
    '/api/teams',
  ];
  const bodies = await Promise.all(reads.map((url) => t.get(url, t.adminToken)));
  return bodies.map((r) => JSON.stringify(r.body));
}

describe('admin routes check the role before the body', () => {
  test('the table holds every admin route we know of, and /api/admin/* only as admin', () => {
    const keys = adminRoutes().map((r) => `${r.method} ${r.url}`);
    for (const known of [
      'POST /api/admin/users',
      'PATCH /api/admin/users/:id',
      'DELETE /api/admin/users/:id',
      'PATCH /api/admin/flags/:key',
      'PATCH /api/admin/workspace',
      'POST /api/admin/webhooks',
      'POST /api/admin/webhooks/:id/deliveries/:deliveryId/redeliver',
      'POST /api/admin/scim-tokens',
      'GET /api/admin/scim-tokens',
      'DELETE /api/admin/scim-tokens/:id',
      'POST /api/teams',
      'PATCH /api/teams/:id',
      'POST /api/teams/:id/archive',
      'POST /api/teams/:id/unarchive',
      'POST /api/teams/:id/members',
      'PATCH /api/teams/:id/members/:userId',
      'DELETE /api/teams/:id/members/:userId',
      'POST /api/workflow-states',
      'PATCH /api/workflow-states/:id',
      'POST /api/workflow-states/:id/archive',
      'GET /api/admin/backups/settings',
      'PUT /api/admin/backups/settings',
      'POST /api/admin/backups/run',
      'GET /api/admin/backups',
      'GET /api/admin/backups/:id',
    ]) {
      assert.ok(keys.includes(known), `${known} is not declared admin-only`);
    }
    const loose = t.app.routeAuth.filter((r) => r.url.startsWith('/api/admin/') && r.auth !== 'admin');
    assert.deepEqual(loose, []);
  });

  test('member and guest: 403 FORBIDDEN for every admin route and body; anonymous: 401', async () => {
    const routes = adminRoutes();
    assert.ok(routes.length >= 15, `only ${routes.length} admin routes found`);
    const before = await snapshot();
    for (const route of routes) {
      for (const body of BAD_BODIES) {
        const call = (token?: string) => probe(t, route.method, filled(route.url), body, token);
        const label = `${route.method} ${route.url} with ${body.what}`;
        for (const [who, token] of [
          ['member', member.token],
          ['guest', guest.token],
        ] as const) {
          const res = await call(token);
          assert.equal(res.status, 403, `${label} as ${who}: ${JSON.stringify(res.body)}`);
          assert.equal(res.body.error.code, 'FORBIDDEN', label);
        }
        const anonymous = await call();
        assert.equal(anonymous.status, 401, `${label} anonymous: ${JSON.stringify(anonymous.body)}`);
        assert.equal(anonymous.body.error.code, 'UNAUTHENTICATED', label);
      }
    }
    assert.deepEqual(await snapshot(), before);
  });

  test('HEAD on an admin GET route is refused the same way', async () => {
    for (const url of ['/api/admin/users', '/api/admin/flags', '/api/admin/webhooks']) {
      assert.equal((await t.request('HEAD', url, { token: member.token })).status, 403, url);
      assert.equal((await t.request('HEAD', url)).status, 401, url);
    }
  });

  test('an admin still gets validation errors for the same bodies', async () => {
    const res = await t.post('/api/admin/users', {}, t.adminToken);
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'VALIDATION_FAILED');
  });
});

// GraphQL coerces variables against the (public, introspectable) schema before
// any resolver runs, so a wrongly typed input is a schema error for anyone.
// Everything past that, our own input checks included, comes after the role.
describe('GraphQL admin mutations check the role before the input', () => {
  test('webhookCreate with an unusable url and secret: forbidden for member and guest', async () => {
    const base = await t.listen();
    const mutation = `mutation($input: WebhookCreateInput!) { webhookCreate(input: $input) { success } }`;
    const input = { url: 'ftp://127.0.0.1/x', secret: 'x', label: 'y'.repeat(500), resourceTypes: ['Nope'] };
    for (const token of [member.token, guest.token]) {
      const res = await gql(base, `Bearer ${token}`, mutation, { input });
      assert.equal(res.body.errors?.[0]?.extensions?.type, 'forbidden', JSON.stringify(res.body));
    }
    const admin = await gql(base, `Bearer ${t.adminToken}`, mutation, { input });
    assert.equal(admin.body.errors?.[0]?.extensions?.type, 'invalid input', JSON.stringify(admin.body));
    assert.equal((await t.get('/api/admin/webhooks', t.adminToken)).body.webhooks.length, 0);
  });
});
