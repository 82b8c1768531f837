// The OAuth authorization server (modules/oauth) and the MCP authorization
// flow over real HTTP, with openid-client as the app and the official MCP SDK
// client: discovery of both metadata documents, dynamic registration, the
// consent endpoints a signed-in person answers, the code exchange with PKCE,
// a refresh (the old refresh token then refused), MCP with the access token,
// revocation; scopes narrowing REST, GraphQL and MCP alike; the admin's
// switch for dynamic registration.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as oidc from 'openid-client';
import { startTestApp, type TestApp } from './support/harness.js';
import { cookieHeader, cookiesOf } from './support/oidc-idp.js';

const REDIRECT = 'http://127.0.0.1:9/callback';

let t: TestApp;
let base: string;
const clients: Client[] = [];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const insecure = { execute: [oidc.allowInsecureRequests], algorithm: 'oauth2' as const };

/** Registers an MCP-style public client through RFC 7591. */
async function register(name = 'Test MCP client'): Promise<oidc.Configuration> {
  return oidc
    .dynamicClientRegistration(
      new URL(base),
      {
        client_name: name,
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
      oidc.None(),
      insecure,
    )
    .catch(async (err) => {
      throw new Error(`registration failed: ${err.response ? await err.response.text() : err}`);
    });
}

/**
 * The browser's part: open the authorization URL, land on the consent page
 * (its uid), have the signed-in person answer through REST, follow the
 * answer's URL with the provider's cookies; returns the app's callback URL.
 */
async function authorize(
  config: oidc.Configuration,
  scope: string,
  person: string,
  answer: 'consent' | 'deny' = 'consent',
): Promise<{ callback: URL; verifier: string; state: string }> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope,
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  const jar = new Map<string, string>();
  const go = async (target: URL) => {
    const res = await fetch(target, { redirect: 'manual', headers: { cookie: cookieHeader(jar) } });
    for (const [k, v] of cookiesOf(res.headers.getSetCookie())) jar.set(k, v);
    await res.text();
    assert.equal(res.status >= 300 && res.status < 400, true, `${target.pathname} answered ${res.status}`);
    return new URL(res.headers.get('location')!, target);
  };
  const consentPage = await go(url);
  const m = /^\/oauth\/consent\/([\w-]+)$/.exec(consentPage.pathname);
  assert.ok(m, `sent to ${consentPage}`);
  const uid = m[1]!;
  // From the browser that started it: its cookies prove it (modules/oauth/binding.ts).
  const browser = { token: person, headers: { cookie: cookieHeader(jar) } };
  const described = await t.request('GET', `/api/oauth/interactions/${uid}`, browser);
  assert.equal(described.status, 200, JSON.stringify(described.body));
  const done = await t.request('POST', `/api/oauth/interactions/${uid}/${answer}`, browser);
  assert.equal(done.status, 200, JSON.stringify(done.body));
  let next = new URL(done.body.redirectTo, base);
  for (let hop = 0; hop < 5 && next.origin === base; hop++) next = await go(next);
  assert.equal(`${next.origin}${next.pathname}`, REDIRECT);
  return { callback: next, verifier, state };
}

async function tokens(config: oidc.Configuration, scope: string, person = t.adminToken) {
  const { callback, verifier, state } = await authorize(config, scope, person);
  return oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
}

async function mcpClient(token: string): Promise<Client> {
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  clients.push(client);
  return client;
}

const CREATE_ISSUE = 'mutation Create($input: IssueCreateInput!) { issueCreate(input: $input) { success } }';

before(async () => {
  const port = await freePort();
  t = await startTestApp({ publicUrl: `http://127.0.0.1:${port}` });
  await t.app.listen({ port, host: '127.0.0.1' });
  base = `http://127.0.0.1:${port}`;
});

after(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await t?.close();
});

let engTeamId: string;
const teamId = async () => {
  engTeamId ??= (await t.get('/api/teams', t.adminToken)).body.teams.find((x: any) => x.key === 'ENG').id;
  return engTeamId;
};

describe('the MCP authorization flow', () => {
  test('discovery, registration, consent, PKCE, MCP, refresh with rotation, revocation', async () => {
    // An MCP client's first call: 401 naming the protected-resource metadata.
    const first = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(first.status, 401);
    const challenge = first.headers.get('www-authenticate') ?? '';
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    assert.equal(metadataUrl, `${base}/.well-known/oauth-protected-resource/mcp`);
    await first.text();

    const resource = await (await fetch(metadataUrl!)).json();
    assert.equal(resource.resource, `${base}/mcp`);
    assert.deepEqual(resource.authorization_servers, [base]);
    assert.ok(resource.scopes_supported.includes('issues:create'));

    const as = await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json();
    assert.equal(as.issuer, base);
    assert.equal(as.authorization_endpoint, `${base}/oauth/authorize`);
    assert.equal(as.token_endpoint, `${base}/oauth/token`);
    assert.equal(as.revocation_endpoint, `${base}/oauth/revoke`);
    assert.equal(as.registration_endpoint, `${base}/oauth/register`);
    assert.deepEqual(as.code_challenge_methods_supported, ['S256']);
    assert.deepEqual(as.response_types_supported, ['code']);
    for (const s of ['read', 'write', 'issues:create', 'comments:create', 'admin'])
      assert.ok(as.scopes_supported.includes(s), s);

    const config = await register();
    const described = await (async () => {
      const { callback } = await authorize(config, 'read write', t.adminToken);
      return callback;
    })();
    assert.ok(described.searchParams.get('code'), 'a code comes back');

    const first_ = await tokens(config, 'read,write'); // the third-party tracker's commas
    assert.equal(first_.token_type.toLowerCase(), 'bearer');
    assert.equal(first_.expires_in, 3600);
    assert.equal(first_.scope, 'read write');
    assert.ok(first_.refresh_token);

    const client = await mcpClient(first_.access_token);
    const { tools } = await client.listTools();
    assert.ok(tools.some((x) => x.name === 'create_issue'));
    const created = (await client.callTool({
      name: 'create_issue',
      arguments: { team: 'ENG', title: 'Filed through OAuth' },
    })) as { isError?: boolean; content: { text: string }[] };
    assert.notEqual(created.isError, true, created.content[0]?.text);

    const rest = await t.get('/api/auth/me', first_.access_token);
    assert.equal(rest.status, 200);

    // Refresh: a new pair that works.
    const second = await oidc.refreshTokenGrant(config, first_.refresh_token!);
    assert.notEqual(second.refresh_token, first_.refresh_token);
    assert.equal((await t.get('/api/auth/me', second.access_token)).status, 200);

    // Revocation: the token is refused at once, on REST and MCP.
    await oidc.tokenRevocation(config, second.access_token);
    const revoked = await t.get('/api/auth/me', second.access_token);
    assert.equal(revoked.status, 401);
    const mcpRevoked = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${second.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(mcpRevoked.status, 401);
    await mcpRevoked.text();

    // Rotation: the old refresh token is refused, and its reuse ends the grant (the new one too).
    const third = await oidc.refreshTokenGrant(config, second.refresh_token!);
    const invalidGrant = (err: any) => err.error === 'invalid_grant';
    await assert.rejects(oidc.refreshTokenGrant(config, first_.refresh_token!), invalidGrant);
    await assert.rejects(oidc.refreshTokenGrant(config, third.refresh_token!), invalidGrant);
    assert.equal((await t.get('/api/auth/me', third.access_token)).status, 401);
  });

  test('PKCE is required, and only S256', async () => {
    const config = await register('No PKCE');
    const plain = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'read', state: 'x' });
    const res = await fetch(plain, { redirect: 'manual' });
    await res.text();
    const back = new URL(res.headers.get('location')!);
    assert.equal(back.searchParams.get('error'), 'invalid_request');
    const weak = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'read',
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'plain',
    });
    const res2 = await fetch(weak, { redirect: 'manual' });
    await res2.text();
    assert.equal(new URL(res2.headers.get('location')!).searchParams.get('error'), 'invalid_request');
  });

  test('a refusal on the consent page sends the app access_denied', async () => {
    const config = await register('Refused');
    const { callback } = await authorize(config, 'read', t.adminToken, 'deny');
    assert.equal(callback.searchParams.get('error'), 'access_denied');
  });

  test('the consent endpoints need a signed-in person, not a key or a token', async () => {
    const config = await register('Who consents');
    const { access_token } = await tokens(config, 'read write');
    const res = await t.get('/api/oauth/interactions/abc', access_token);
    assert.equal(res.status, 403);
    const key = await t.post('/api/api-keys', { label: 'k' }, t.adminToken);
    assert.equal((await t.get('/api/oauth/interactions/abc', key.body.key)).status, 403);
    assert.equal((await t.get('/api/oauth/interactions/abc', t.adminToken)).status, 404);
    // And a token cannot mint itself an API key.
    const minted = await t.post('/api/api-keys', { label: 'escape' }, access_token);
    assert.equal(minted.status, 403);
    assert.equal(minted.body.error.code, 'INSUFFICIENT_SCOPE');
  });
});

describe('a pending authorization belongs to the browser that started it', () => {
  test('another person, or someone signed out, who learns its uid can neither read nor answer it', async () => {
    const config = await register('Bound to its browser');
    const alice = await t.userWithRole('member');
    const mallory = await t.userWithRole('member');
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'read',
      state,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    // Alice's browser starts it.
    const jar = new Map<string, string>();
    const go = async (target: URL) => {
      const res = await fetch(target, { redirect: 'manual', headers: { cookie: cookieHeader(jar) } });
      for (const [k, v] of cookiesOf(res.headers.getSetCookie())) jar.set(k, v);
      await res.text();
      return new URL(res.headers.get('location')!, target);
    };
    const uid = /^\/oauth\/consent\/([\w-]+)$/.exec((await go(url)).pathname)?.[1];
    assert.ok(uid);
    const path = `/api/oauth/interactions/${uid}`;
    const attempts = (opts: { token?: string; headers?: Record<string, string> }) =>
      Promise.all([
        t.request('GET', path, opts),
        t.request('POST', `${path}/consent`, opts),
        t.request('POST', `${path}/deny`, opts),
      ]);

    // Mallory learned the uid: from her own browser, or with a cookie she made up, it does not exist.
    for (const headers of [{}, { cookie: `trackway_oauth_interaction=${uid}` }] as Record<string, string>[]) {
      for (const res of await attempts({ token: mallory.token, headers })) {
        assert.equal(res.status, 404, JSON.stringify(res.body));
        assert.equal(res.body.error.code, 'NOT_FOUND');
      }
    }
    // Signed out, even from Alice's browser: sign in first.
    for (const res of await attempts({ headers: { cookie: cookieHeader(jar) } }))
      assert.equal(res.status, 401);

    // Untouched by all that: Alice, in her browser, sees it and authorizes the app for herself.
    const browser = { token: alice.token, headers: { cookie: cookieHeader(jar) } };
    const seen = await t.request('GET', path, browser);
    assert.equal(seen.status, 200, JSON.stringify(seen.body));
    assert.equal(seen.body.app.name, 'Bound to its browser');
    const done = await t.request('POST', `${path}/consent`, browser);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    let next = new URL(done.body.redirectTo, base);
    for (let hop = 0; hop < 5 && next.origin === base; hop++) next = await go(next);
    assert.equal(`${next.origin}${next.pathname}`, REDIRECT);
    const granted = await oidc.authorizationCodeGrant(config, next, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const me = await t.get('/api/auth/me', granted.access_token);
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.equal(me.body.user.id, alice.user.id);
    // Finished: gone for her too, and never Mallory's.
    assert.equal((await t.request('GET', path, browser)).status, 404);
  });

  test('in that browser it belongs to the account that opened it: another account signed in there is refused', async () => {
    const config = await register('Bound to its account');
    const alice = await t.userWithRole('member');
    const bob = await t.userWithRole('member');
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'read write',
      state: oidc.randomState(),
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const jar = new Map<string, string>();
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: cookieHeader(jar) } });
    for (const [k, v] of cookiesOf(res.headers.getSetCookie())) jar.set(k, v);
    await res.text();
    const uid = /^\/oauth\/consent\/([\w-]+)$/.exec(new URL(res.headers.get('location')!, url).pathname)?.[1];
    assert.ok(uid);
    const path = `/api/oauth/interactions/${uid}`;
    const cookie = { cookie: cookieHeader(jar) };
    // Alice, signed in, opens the consent page: it is hers from now on.
    const seen = await t.request('GET', path, { token: alice.token, headers: cookie });
    assert.equal(seen.status, 200, JSON.stringify(seen.body));
    // She signs out; Bob signs in in the same browser (its cookies) and answers: refused, nothing granted.
    const out = await t.post('/api/auth/logout', {}, alice.token);
    assert.ok(out.status < 300, JSON.stringify(out.body));
    for (const action of ['', '/consent', '/deny']) {
      const as = await t.request(action ? 'POST' : 'GET', `${path}${action}`, {
        token: bob.token,
        headers: cookie,
      });
      assert.equal(as.status, 403, `${action || 'GET'} as Bob: ${JSON.stringify(as.body)}`);
      assert.equal(as.body.error.code, 'FORBIDDEN');
      assert.match(as.body.error.message, /another account/);
    }
    const apps = await t.get('/api/oauth/apps', bob.token);
    assert.equal(apps.status, 200, JSON.stringify(apps.body));
    assert.equal(
      apps.body.apps.some((a: any) => a.name === 'Bound to its account'),
      false,
      'Bob authorized nothing',
    );
    // Alice signs in again: the authorization is still hers to answer, for her own account.
    const again = await t.post('/api/auth/login', { email: alice.email, password: 'password-123' });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    const done = await t.request('POST', `${path}/consent`, { token: again.body.token, headers: cookie });
    assert.equal(done.status, 200, JSON.stringify(done.body));
  });
});

describe('scopes', () => {
  test('a read token reads but cannot create an issue on REST, GraphQL or MCP', async () => {
    const config = await register('Reader');
    const { access_token, scope } = await tokens(config, 'read');
    assert.equal(scope, 'read');
    const team = await teamId();

    assert.equal((await t.get('/api/issues', access_token)).status, 200);
    const rest = await t.post('/api/issues', { teamId: team, title: 'no' }, access_token);
    assert.equal(rest.status, 403);
    assert.equal(rest.body.error.code, 'INSUFFICIENT_SCOPE');

    const gql = await t.request('POST', '/graphql', {
      token: access_token,
      body: { query: CREATE_ISSUE, variables: { input: { teamId: team, title: 'no' } } },
    });
    assert.equal(gql.body.errors[0].extensions.code, 'INSUFFICIENT_SCOPE');
    assert.equal(gql.body.errors[0].extensions.type, 'forbidden');
    const read = await t.request('POST', '/graphql', {
      token: access_token,
      body: { query: '{ viewer { id } }' },
    });
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.ok(read.body.data.viewer.id);

    const client = await mcpClient(access_token);
    const refused = (await client.callTool({
      name: 'create_issue',
      arguments: { team: 'ENG', title: 'no' },
    })) as { isError?: boolean; content: { text: string }[] };
    assert.equal(refused.isError, true);
    assert.match(refused.content[0]!.text, /scope/);
    const listed = (await client.callTool({ name: 'list_teams', arguments: {} })) as { isError?: boolean };
    assert.notEqual(listed.isError, true);
  });

  test('issues:create creates issues and nothing else; admin routes need admin', async () => {
    const config = await register('Filer');
    const { access_token } = await tokens(config, 'issues:create');
    const team = await teamId();
    const made = await t.post('/api/issues', { teamId: team, title: 'filed' }, access_token);
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const comment = await t.post(`/api/issues/${made.body.id}/comments`, { body: 'x' }, access_token);
    assert.equal(comment.status, 403);
    assert.equal((await t.get('/api/issues', access_token)).status, 403);

    const writer = await tokens(config, 'read write');
    assert.equal((await t.get('/api/admin/oauth', writer.access_token)).status, 403);
    const admin = await tokens(config, 'admin');
    assert.equal((await t.get('/api/admin/oauth', admin.access_token)).status, 200);
  });

  test('scopes never widen a role: a member with admin scope is still not an admin', async () => {
    const member = await t.userWithRole('member');
    const config = await register('Member app');
    const { access_token } = await tokens(config, 'read admin', member.token);
    assert.equal((await t.get('/api/admin/oauth', access_token)).status, 403);
  });
});

describe('dynamic registration switch', () => {
  test('an admin turns registration off: refused 403 with a clear error; on again works', async () => {
    const off = await t.patch('/api/admin/oauth', { dynamicRegistration: false }, t.adminToken);
    assert.equal(off.status, 200);
    assert.equal(off.body.dynamicRegistration, false);
    const res = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
    });
    assert.equal(res.status, 403);
    const body = await res.json();
    assert.equal(body.error.code, 'REGISTRATION_DISABLED');
    await assert.rejects(register('Too late'));
    const member = await t.userWithRole('member');
    assert.equal(
      (await t.patch('/api/admin/oauth', { dynamicRegistration: true }, member.token)).status,
      403,
    );
    assert.equal(
      (await t.patch('/api/admin/oauth', { dynamicRegistration: true }, t.adminToken)).status,
      200,
    );
    await register('Back on');
  });
});
