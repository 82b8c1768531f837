// OAuth apps as people and admins manage them (modules/oauth/apps.ts): the
// apps a person authorized and their revocation, after which the app's tokens
// are refused on REST, GraphQL and MCP at the next request and its refresh
// token too; every app for admins, registration by an admin (secret once) and
// an app working with that client id and secret, its edit and its removal;
// who may reach what; the audit entries.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as oidc from 'openid-client';
import { startTestApp, type TestApp } from './support/harness.js';
import { mcpToolsList } from './support/mcp.js';
import {
  authorizeThroughRest,
  configFor,
  REDIRECT,
  registerDynamic,
  startAuthorization,
  tokensFor,
} from './support/oauth-app.js';

let t: TestApp;
let base: string;

before(async () => {
  t = await startTestApp({ publicUrl: 'http://127.0.0.1' });
  base = (await t.listen()).replace('localhost', '127.0.0.1');
  // The provider is built on its first request, so it takes the address the app listens on.
  (t.config as { publicUrl: string }).publicUrl = base;
});

after(async () => {
  await t?.close();
});

const mcpList = (token: string) =>
  mcpToolsList(base, token).then(async (res) => {
    await res.text();
    return res.status;
  });

const graphqlViewer = async (token: string) =>
  (await t.request('POST', '/graphql', { token, body: { query: '{ viewer { id } }' } })).status;

/** Whether each door takes the token: [REST, GraphQL, MCP] statuses. */
const doors = async (token: string) => [
  (await t.get('/api/auth/me', token)).status,
  await graphqlViewer(token),
  await mcpList(token),
];

async function auditTypes(entityId: string): Promise<string[]> {
  const res = await t.get(`/api/admin/audit-entries?entityId=${entityId}&limit=100`, t.adminToken);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.auditEntries.map((e: any) => e.type);
}

describe('the apps a person authorized', () => {
  test('listed with name, scopes and dates; revoking refuses the tokens on every door at once', async () => {
    const member = await t.userWithRole('member');
    const other = await t.userWithRole('member');
    const config = await registerDynamic(base, 'Revocable app');
    const clientId = config.clientMetadata().client_id;
    const tokens = await tokensFor(t, base, config, 'read issues:create', member.token);
    assert.deepEqual(await doors(tokens.access_token), [200, 200, 200]);

    const mine = await t.get('/api/oauth/apps', member.token);
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
    assert.equal(mine.body.pageInfo.total, 1);
    const [app] = mine.body.apps;
    assert.equal(app.clientId, clientId);
    assert.equal(app.name, 'Revocable app');
    assert.deepEqual(app.scopes, ['read', 'issues:create']);
    assert.ok(Date.parse(app.authorizedAt) > Date.now() - 60_000);
    assert.ok(app.lastUsedAt, 'a token was issued');

    // Nobody else sees it, nor can revoke it.
    assert.deepEqual((await t.get('/api/oauth/apps', other.token)).body.apps, []);
    assert.equal((await t.del(`/api/oauth/apps/${clientId}`, other.token)).status, 404);
    assert.deepEqual(await doors(tokens.access_token), [200, 200, 200]);

    const revoked = await t.del(`/api/oauth/apps/${clientId}`, member.token);
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    assert.deepEqual(await doors(tokens.access_token), [401, 401, 401]);
    await assert.rejects(
      oidc.refreshTokenGrant(config, tokens.refresh_token!),
      (e: any) => e.error === 'invalid_grant',
    );
    assert.deepEqual((await t.get('/api/oauth/apps', member.token)).body.apps, []);
    assert.equal((await t.del(`/api/oauth/apps/${clientId}`, member.token)).status, 404);
    assert.ok((await auditTypes(clientId)).includes('oauth.appRevoked'));
  });

  test("revoking one person's app leaves another person's authorization of it working", async () => {
    const a = await t.userWithRole('member');
    const b = await t.userWithRole('member');
    const config = await registerDynamic(base, 'Shared app');
    const clientId = config.clientMetadata().client_id;
    const ta = await tokensFor(t, base, config, 'read', a.token);
    const tb = await tokensFor(t, base, config, 'read', b.token);
    assert.equal((await t.del(`/api/oauth/apps/${clientId}`, a.token)).status, 200);
    assert.equal((await t.get('/api/auth/me', ta.access_token)).status, 401);
    assert.equal((await t.get('/api/auth/me', tb.access_token)).status, 200);
  });

  test('an app cannot list or revoke apps with its own token', async () => {
    const config = await registerDynamic(base, 'Nosy app');
    const tokens = await tokensFor(t, base, config, 'read write admin', t.adminToken);
    const listed = await t.get('/api/oauth/apps', tokens.access_token);
    assert.equal(listed.status, 403);
    assert.equal(listed.body.error.code, 'INSUFFICIENT_SCOPE');
    const clientId = config.clientMetadata().client_id;
    assert.equal((await t.del(`/api/oauth/apps/${clientId}`, tokens.access_token)).status, 403);
  });
});

describe('apps for admins', () => {
  test('an admin registers a confidential app: the secret once, and an app works with it', async () => {
    const res = await t.post(
      '/api/admin/oauth/apps',
      { name: 'Deploy bot', redirectUris: [REDIRECT], iconUrl: 'https://example.com/icon.png' },
      t.adminToken,
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const { clientId, clientSecret } = res.body;
    assert.ok(clientSecret && clientSecret.length >= 40);
    assert.equal(res.body.kind, 'confidential');
    assert.equal(res.body.registration, 'admin');

    const config = await configFor(base, clientId, clientSecret);
    const member = await t.userWithRole('member');
    const tokens = await tokensFor(t, base, config, 'read', member.token);
    assert.equal((await t.get('/api/auth/me', tokens.access_token)).status, 200);
    // A wrong secret is refused at the token endpoint.
    const wrong = await configFor(base, clientId, 'not-the-secret');
    const flow = await startAuthorization(wrong, 'read');
    const callback = await authorizeThroughRest(t, base, flow.url, member.token);
    await assert.rejects(
      oidc.authorizationCodeGrant(wrong, callback, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
      }),
      // openid-client reports the 401's challenge: the client's authentication failed.
      (e: any) => e instanceof oidc.WWWAuthenticateChallengeError && e.status === 401,
    );

    const list = await t.get('/api/admin/oauth/apps', t.adminToken);
    assert.equal(list.status, 200, JSON.stringify(list.body));
    const row = list.body.apps.find((a: any) => a.clientId === clientId);
    assert.deepEqual(
      { ...row, registeredAt: typeof row.registeredAt },
      {
        clientId,
        name: 'Deploy bot',
        iconUrl: 'https://example.com/icon.png',
        redirectUris: [REDIRECT],
        kind: 'confidential',
        registration: 'admin',
        registeredAt: 'string',
        users: 1,
      },
    );
    assert.ok(!JSON.stringify(list.body).includes(clientSecret), 'the secret is never listed');

    const renamed = await t.patch(
      `/api/admin/oauth/apps/${clientId}`,
      { name: 'Deploy robot', iconUrl: null },
      t.adminToken,
    );
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal(renamed.body.name, 'Deploy robot');
    assert.equal(renamed.body.iconUrl, null);
    const mine = await t.get('/api/oauth/apps', member.token);
    assert.equal(mine.body.apps[0].name, 'Deploy robot');

    const removed = await t.del(`/api/admin/oauth/apps/${clientId}`, t.adminToken);
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.deepEqual(await doors(tokens.access_token), [401, 401, 401]);
    assert.ok(
      !(await t.get('/api/admin/oauth/apps', t.adminToken)).body.apps.some(
        (a: any) => a.clientId === clientId,
      ),
    );
    const again = await startAuthorization(config, 'read');
    const refused = await fetch(again.url, { redirect: 'manual' });
    await refused.text();
    assert.equal(refused.status, 400, 'an unknown client id is refused');
    assert.equal((await t.del(`/api/admin/oauth/apps/${clientId}`, t.adminToken)).status, 404);
    const types = await auditTypes(clientId);
    for (const type of ['oauth.appRegistered', 'oauth.appUpdated', 'oauth.appRemoved'])
      assert.ok(types.includes(type), type);
  });

  test('a public app has no secret; dynamic apps are listed as such with their users', async () => {
    const res = await t.post(
      '/api/admin/oauth/apps',
      { name: 'CLI', redirectUris: ['http://127.0.0.1:7777/cb'], kind: 'public' },
      t.adminToken,
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.clientSecret, undefined);
    assert.equal(res.body.kind, 'public');
    const dynamic = await registerDynamic(base, 'Self-registered');
    const list = await t.get('/api/admin/oauth/apps?limit=100', t.adminToken);
    const row = list.body.apps.find((a: any) => a.clientId === dynamic.clientMetadata().client_id);
    assert.equal(row.registration, 'dynamic');
    assert.equal(row.kind, 'public');
    assert.equal(row.users, 0);
  });

  test('bad app settings are a 400 and change nothing', async () => {
    const before = (await t.get('/api/admin/oauth/apps?limit=100', t.adminToken)).body.pageInfo.total;
    for (const body of [
      { name: 'x', redirectUris: ['not a url'] },
      { name: 'x', redirectUris: [] },
      { name: '', redirectUris: [REDIRECT] },
      { name: 'x', redirectUris: [REDIRECT], iconUrl: 'javascript:alert(1)' },
      { name: 'x', redirectUris: [REDIRECT], kind: 'secret' },
    ]) {
      const res = await t.post('/api/admin/oauth/apps', body, t.adminToken);
      assert.equal(res.status, 400, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
    }
    assert.equal((await t.get('/api/admin/oauth/apps?limit=100', t.adminToken)).body.pageInfo.total, before);
    const made = await t.post(
      '/api/admin/oauth/apps',
      { name: 'Ok', redirectUris: [REDIRECT] },
      t.adminToken,
    );
    const bad = await t.patch(
      `/api/admin/oauth/apps/${made.body.clientId}`,
      { redirectUris: ['ftp://nope'] },
      t.adminToken,
    );
    assert.equal(bad.status, 400, JSON.stringify(bad.body));
    const after_ = (await t.get('/api/admin/oauth/apps?limit=100', t.adminToken)).body.apps.find(
      (a: any) => a.clientId === made.body.clientId,
    );
    assert.deepEqual(after_.redirectUris, [REDIRECT]);
    assert.equal((await t.patch('/api/admin/oauth/apps/nope', { name: 'y' }, t.adminToken)).status, 404);
  });

  test('members and guests cannot reach the admin routes', async () => {
    const made = await t.post(
      '/api/admin/oauth/apps',
      { name: 'Guarded', redirectUris: [REDIRECT] },
      t.adminToken,
    );
    for (const role of ['member', 'guest'] as const) {
      const { token } = await t.userWithRole(role);
      assert.equal((await t.get('/api/admin/oauth/apps', token)).status, 403);
      assert.equal(
        (await t.post('/api/admin/oauth/apps', { name: 'x', redirectUris: [REDIRECT] }, token)).status,
        403,
      );
      assert.equal(
        (await t.patch(`/api/admin/oauth/apps/${made.body.clientId}`, { name: 'y' }, token)).status,
        403,
      );
      assert.equal((await t.del(`/api/admin/oauth/apps/${made.body.clientId}`, token)).status, 403);
    }
  });
});
