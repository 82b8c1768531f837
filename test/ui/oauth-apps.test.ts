// OAuth apps in a real browser: an app (openid-client) discovers the server
// as an MCP client does (the /mcp challenge, both metadata documents),
// registers itself and sends a person to Trackway's authorization endpoint;
// they sign in, read the app's name and what it asks for in words on the
// consent page, and allow it; the app exchanges the code with PKCE, refreshes
// and revokes a token (refused at once); the person revokes the app in
// Settings → Authorized apps and its token is refused on REST, GraphQL and
// MCP. A refusal on the consent page sends the app access_denied. An admin
// registers an app (its secret shown once), turns dynamic registration off
// and on, and removes the app. Axe clean.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import * as oidc from 'openid-client';
import type { Page } from 'playwright-core';
import { mcpToolsList } from '../support/mcp.js';
import { configFor, registerDynamic, startAuthorization } from '../support/oauth-app.js';
import { seriousViolations, startUi, type UiEnv, visit } from './browser.js';

let ui: UiEnv;
let person: { email: string; password: string };
/** The app's own server, where the browser comes back (a page that says so). */
let appServer: Server;
let REDIRECT: string;
before(async () => {
  appServer = createServer((_req, res) => res.end('back at the app'));
  await new Promise<void>((resolve) => appServer.listen(0, '127.0.0.1', resolve));
  REDIRECT = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}/callback`;
  ui = await startUi();
  person = await ui.t.register('Grace Hopper');
});
after(async () => {
  await ui?.close();
  appServer?.close();
});

async function landedAt(page: Page): Promise<URL> {
  await page.waitForURL((u) => u.href.startsWith(REDIRECT));
  return new URL(page.url());
}

const mcpStatus = async (token: string) => {
  const res = await mcpToolsList(ui.base, token);
  await res.text();
  return res.status;
};
const doors = async (token: string) => [
  (await ui.t.get('/api/auth/me', token)).status,
  (await ui.t.request('POST', '/graphql', { token, body: { query: '{ viewer { id } }' } })).status,
  await mcpStatus(token),
];

describe('UI: OAuth apps', () => {
  test('discover, register, authorize in the browser, exchange with PKCE, refresh, revoke: the tokens are refused', async () => {
    // As an MCP client starts: /mcp's challenge names the protected-resource metadata, which names
    // the authorization server, whose metadata names the registration endpoint.
    const challenge = await fetch(`${ui.base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    await challenge.text();
    assert.equal(challenge.status, 401);
    const resourceUrl = /resource_metadata="([^"]+)"/.exec(
      challenge.headers.get('www-authenticate') ?? '',
    )?.[1];
    assert.ok(resourceUrl, 'the challenge names the resource metadata');
    const resource = await (await fetch(resourceUrl)).json();
    const server = await (
      await fetch(`${resource.authorization_servers[0]}/.well-known/oauth-authorization-server`)
    ).json();
    assert.equal(server.registration_endpoint, `${ui.base}/oauth/register`);
    const config = await registerDynamic(ui.base, 'Pair Programmer', REDIRECT);
    const { page } = await ui.newPage();
    const flow = await startAuthorization(config, 'read issues:create', REDIRECT);

    // Not signed in: the sign-in page first, then back to the consent page.
    await page.goto(flow.url.href);
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Authorize Pair Programmer' }).waitFor();
    const asked = page.getByRole('list', { name: 'What the app asks for' });
    assert.deepEqual(await asked.getByRole('listitem').allInnerTexts(), [
      'Read everything you can see: issues, comments, projects, teams and people (read)',
      'Create issues (issues:create)',
    ]);
    assert.deepEqual(await seriousViolations(page), []);
    await page.getByRole('button', { name: 'Allow' }).click();

    const callback = await landedAt(page);
    assert.ok(callback.searchParams.get('code'));
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
    });
    assert.equal(tokens.scope, 'read issues:create');
    const me = await ui.t.get('/api/auth/me', tokens.access_token);
    assert.equal(me.body.user.email, person.email);
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    assert.deepEqual(await doors(refreshed.access_token), [200, 200, 200]);
    // The app revokes its first access token (RFC 7009): refused at once, on every door.
    await oidc.tokenRevocation(config, tokens.access_token);
    assert.deepEqual(await doors(tokens.access_token), [401, 401, 401]);

    await page.goto('/');
    await page.locator('main#main').waitFor();
    await visit(page, '/settings/apps');
    const row = page.getByRole('row', { name: /Pair Programmer/ });
    await row.waitFor();
    assert.equal(
      await row.getByRole('cell').nth(1).textContent(),
      'read everything you can see, create issues',
    );
    assert.deepEqual(await seriousViolations(page), []);
    await row.getByRole('button', { name: 'Revoke Pair Programmer' }).click(); // the confirm is accepted
    await page.getByText('You have not authorized any app.').waitFor();
    assert.deepEqual(await doors(refreshed.access_token), [401, 401, 401]);
    await assert.rejects(
      oidc.refreshTokenGrant(config, refreshed.refresh_token!),
      (e: any) => e.error === 'invalid_grant',
    );
  });

  test('an app authorized with actor=app shows under its name, marked "app", on the issue page', async () => {
    const config = await registerDynamic(ui.base, 'Triage Bot', REDIRECT);
    const { page } = await ui.signedIn('/', { as: person });
    const flow = await startAuthorization(config, 'read write', REDIRECT, { actor: 'app' });
    await page.goto(flow.url.href);
    await page.getByRole('heading', { name: 'Authorize Triage Bot' }).waitFor();
    await page.getByRole('button', { name: 'Allow' }).click();
    const tokens = await oidc.authorizationCodeGrant(config, await landedAt(page), {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
    });
    const teams = await ui.t.get('/api/teams', tokens.access_token);
    const eng = teams.body.teams.find((x: any) => x.key === 'ENG').id;
    const made = await ui.t.post(
      '/api/issues',
      { teamId: eng, title: 'Flaky login test' },
      tokens.access_token,
    );
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id = made.body.issue.id;
    assert.equal(
      (await ui.t.post(`/api/issues/${id}/comments`, { body: 'Triaged.' }, tokens.access_token)).status,
      201,
    );
    assert.equal((await ui.t.patch(`/api/issues/${id}`, { priority: 1 }, tokens.access_token)).status, 200);

    // The browser is at the app's callback: a document load back into Trackway.
    await page.goto(new URL(made.body.issue.url).pathname);
    const created = page.locator('aside p', { hasText: 'Created' });
    await created.waitFor();
    assert.match((await created.textContent()) ?? '', /by Triage Bot\s*app$/);
    const comment = page.locator('li.comment', { hasText: 'Triaged.' });
    await comment.waitFor();
    assert.match((await comment.textContent()) ?? '', /Triage Bot\s*app/);
    const change = page.locator('ol.activity-list li', { hasText: 'changed priority' });
    await change.waitFor();
    assert.match((await change.textContent()) ?? '', /^Triage Bot\s*app changed priority/);
    assert.deepEqual(await seriousViolations(page), []);
  });

  test('deny on the consent page: the app gets access_denied', async () => {
    const config = await registerDynamic(ui.base, 'Unwanted app', REDIRECT);
    const { page } = await ui.signedIn('/', { as: person });
    const flow = await startAuthorization(config, 'write', REDIRECT);
    await page.goto(flow.url.href);
    await page.getByRole('heading', { name: 'Authorize Unwanted app' }).waitFor();
    await page.getByRole('button', { name: 'Deny' }).click();
    const callback = await landedAt(page);
    assert.equal(callback.searchParams.get('error'), 'access_denied');
    assert.equal(callback.searchParams.get('state'), flow.state);
    assert.equal(callback.searchParams.get('code'), null);
  });

  test('an admin registers an app (secret shown once), switches self-registration, removes the app', async () => {
    const { page } = await ui.signedIn('/admin/oauth-apps', { colorScheme: 'dark' });
    await page.getByLabel('Name').fill('Release notes bot');
    await page.getByLabel('Redirect URIs (one per line)').fill(REDIRECT);
    await page.getByRole('button', { name: 'Register app' }).click();
    const secret = (await page.getByTestId('new-oauth-secret').textContent()) ?? '';
    const clientId = ((await page.getByTestId('new-oauth-app').textContent()) ?? '').split(':')[0]!;
    assert.ok(secret.length >= 40);
    const row = page.getByRole('row', { name: /Release notes bot/ });
    await row.waitFor();
    assert.match((await row.getByRole('cell').nth(1).textContent()) ?? '', /^By an admin/);
    assert.deepEqual(await seriousViolations(page), []);

    // The credentials work: the admin authorizes the app in this browser.
    const config = await configFor(ui.base, clientId, secret);
    const flow = await startAuthorization(config, 'read', REDIRECT);
    await page.goto(flow.url.href);
    await page.getByRole('button', { name: 'Allow' }).click();
    const tokens = await oidc.authorizationCodeGrant(config, await landedAt(page), {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
    });
    assert.equal((await ui.t.get('/api/auth/me', tokens.access_token)).status, 200);

    await page.goto('/admin/oauth-apps');
    const dcr = page.getByRole('switch', { name: 'Apps may register themselves' });
    await dcr.waitFor();
    assert.equal(await dcr.isChecked(), true);
    await dcr.click();
    await page.waitForFunction(() => !(document.getElementById('oauth-dcr') as HTMLInputElement).checked);
    await assert.rejects(registerDynamic(ui.base, 'Too late'));
    await dcr.click();
    await page.waitForFunction(() => (document.getElementById('oauth-dcr') as HTMLInputElement).checked);
    assert.equal((await ui.t.get('/api/admin/oauth', ui.t.adminToken)).body.dynamicRegistration, true);

    const listed = page.getByRole('row', { name: /Release notes bot/ });
    assert.equal(await listed.getByRole('cell').nth(3).textContent(), '1', 'one person authorized it');
    await listed.getByRole('button', { name: 'Remove Release notes bot' }).click();
    await listed.waitFor({ state: 'detached' });
    assert.equal((await ui.t.get('/api/auth/me', tokens.access_token)).status, 401);
  });
});
