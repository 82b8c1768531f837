// OAuth apps acting under their own name (actor=app, docs/agents.md "Apps as
// actors"): an app authorized with actor=app writes as its own user, which
// REST, GraphQL (@linear/sdk) and the history name as the creator and
// botActor, with the authorizing person's access; the same app without it
// acts as the person; the app's user signs in nowhere and is listed nowhere.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { LinearClient } from '@linear/sdk';
import { startTestApp, type TestApp } from './support/harness.js';
import { registerDynamic, startAuthorization, tokensFor } from './support/oauth-app.js';
import { cookieHeader, cookiesOf } from './support/oidc-idp.js';

let t: TestApp;
let base: string;
let eng: string;

before(async () => {
  t = await startTestApp({ publicUrl: 'http://127.0.0.1' });
  base = (await t.listen()).replace('localhost', '127.0.0.1');
  // The provider is built on its first request, so it takes the address the app listens on.
  (t.config as { publicUrl: string }).publicUrl = base;
  eng = (await t.get('/api/teams', t.adminToken)).body.teams.find((x: any) => x.key === 'ENG').id;
});

after(async () => {
  await t?.close();
});

const sdk = (accessToken: string) => new LinearClient({ accessToken, apiUrl: `${base}/graphql` });

describe('actor=app', () => {
  test('the app creates an issue and a comment under its own name, with the person’s access', async () => {
    const member = await t.userWithRole('member');
    const config = await registerDynamic(base, 'Triage Bot');
    const clientId = config.clientMetadata().client_id;
    const { access_token } = await tokensFor(t, base, config, 'read write', member.token, { actor: 'app' });

    const made = await t.post('/api/issues', { teamId: eng, title: 'Filed by the bot' }, access_token);
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const creatorId = made.body.issue.creatorId;
    assert.ok(creatorId && creatorId !== member.user.id, 'the creator is not the person');
    assert.deepEqual(made.body.issue.creator, { id: creatorId, name: 'Triage Bot', app: true });
    // Read by another person, the same.
    const read = await t.get(`/api/issues/${made.body.issue.id}`, (await t.userWithRole('member')).token);
    assert.deepEqual(read.body.issue.creator, { id: creatorId, name: 'Triage Bot', app: true });

    const comment = await t.post(
      `/api/issues/${made.body.issue.id}/comments`,
      { body: 'On it' },
      access_token,
    );
    assert.equal(comment.status, 201, JSON.stringify(comment.body));
    assert.equal(comment.body.comment.userId, creatorId);
    assert.deepEqual(comment.body.comment.user, { id: creatorId, name: 'Triage Bot', app: true });

    // GraphQL through the SDK, read by another person: creator, botActor, the comment's too.
    const reader = await t.userWithRole('member');
    const readerKey = (await t.post('/api/api-keys', { label: 'sdk' }, reader.token)).body.key;
    const issue = await new LinearClient({ apiKey: readerKey, apiUrl: `${base}/graphql` }).issue(
      made.body.issue.id,
    );
    assert.equal(issue.botActor?.name, 'Triage Bot');
    assert.equal(issue.botActor?.id, clientId);
    assert.equal(issue.botActor?.type, 'oauthClient');
    const creator = await issue.creator;
    assert.equal(creator?.name, 'Triage Bot');
    assert.equal(creator?.app, true);
    const [c] = (await issue.comments()).nodes;
    assert.equal(c?.botActor?.name, 'Triage Bot');
    assert.equal((await c?.user)?.id, creatorId);

    // The history names the app as the actor of its change.
    const moved = await t.patch(`/api/issues/${made.body.issue.id}`, { priority: 2 }, access_token);
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    const history = await t.post(
      '/graphql',
      {
        query: `{ issue(id: "${made.body.issue.id}") { history { nodes { actorId toPriority botActor { name } } } } }`,
      },
      reader.token,
    );
    const entries = history.body.data.issue.history.nodes;
    const change = entries.find((e: any) => e.toPriority === 2);
    assert.ok(change, JSON.stringify(history.body));
    assert.equal(change.actorId, creatorId);
    assert.equal(change.botActor?.name, 'Triage Bot');

    // The app's token: viewer is the app's user (as the third-party tracker answers).
    const viewer = await sdk(access_token).viewer;
    assert.equal(viewer.id, creatorId);
    assert.equal(viewer.app, true);
    assert.equal(viewer.name, 'Triage Bot');

    // The audit log names the person and the app.
    const audit = await t.get(`/api/admin/audit-entries?entityId=${clientId}&limit=10`, t.adminToken);
    const authorized = audit.body.auditEntries.find((e: any) => e.type === 'oauth.appAuthorized');
    assert.equal(authorized.metadata.actor, 'app');
  });

  test('the older actor=application is the same; the app user is one per app, and the person’s access applies', async () => {
    const guest = await t.userWithRole('guest', { teams: [] });
    const member = await t.userWithRole('member');
    const config = await registerDynamic(base, 'Second Bot');
    const asMember = await tokensFor(t, base, config, 'write', member.token, { actor: 'application' });
    const asGuest = await tokensFor(t, base, config, 'write', guest.token, { actor: 'app' });

    const a = await t.post('/api/issues', { teamId: eng, title: 'one' }, asMember.access_token);
    assert.equal(a.status, 201, JSON.stringify(a.body));
    // A guest outside ENG: the app has the guest's access, not more.
    const refused = await t.post('/api/issues', { teamId: eng, title: 'two' }, asGuest.access_token);
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    const viewerOfGuest = await sdk(asGuest.access_token).viewer;
    assert.equal(viewerOfGuest.id, a.body.issue.creatorId, 'one user per app, whoever authorized it');
  });

  test('the same app without actor=app acts as the person', async () => {
    const member = await t.userWithRole('member');
    const config = await registerDynamic(base, 'Plain App');
    const { access_token } = await tokensFor(t, base, config, 'read write', member.token);
    const made = await t.post('/api/issues', { teamId: eng, title: 'Filed as me' }, access_token);
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.equal(made.body.issue.creatorId, member.user.id);
    assert.equal(made.body.issue.creator.app, false);
    const issue = await sdk(access_token).issue(made.body.issue.id);
    assert.equal(issue.botActor, undefined);
    assert.equal((await issue.creator)?.id, member.user.id);
    assert.equal((await sdk(access_token).viewer).id, member.user.id);
  });

  test('the consent page is told; a bad actor value is refused; the app user is listed nowhere and cannot sign in', async () => {
    const member = await t.userWithRole('member');
    const config = await registerDynamic(base, 'Listed Nowhere');
    const { url } = await startAuthorization(config, 'read', undefined, { actor: 'app' });
    const first = await fetch(url, { redirect: 'manual' });
    await first.text();
    const uid = /\/oauth\/consent\/([\w-]+)$/.exec(first.headers.get('location') ?? '')?.[1];
    assert.ok(uid, String(first.headers.get('location')));
    const seen = await t.request('GET', `/api/oauth/interactions/${uid}`, {
      token: member.token,
      headers: { cookie: cookieHeader(cookiesOf(first.headers.getSetCookie())) },
    });
    assert.equal(seen.status, 200, JSON.stringify(seen.body));
    assert.equal(seen.body.actsAsApp, true);

    const bad = await startAuthorization(config, 'read', undefined, { actor: 'robot' });
    const badRes = await fetch(bad.url, { redirect: 'manual' });
    await badRes.text();
    const back = new URL(badRes.headers.get('location') ?? 'http://x/');
    assert.equal(back.searchParams.get('error'), 'invalid_request');

    const tokens = await tokensFor(t, base, config, 'write', member.token, { actor: 'app' });
    const made = await t.post('/api/issues', { teamId: eng, title: 'x' }, tokens.access_token);
    const appUser = made.body.issue.creator;
    const email = (
      await t.post('/graphql', { query: `{ user(id: "${appUser.id}") { email } }` }, t.adminToken)
    ).body.data.user.email;
    const users = await t.get('/api/users?limit=250', t.adminToken);
    assert.ok(!users.body.users.some((u: any) => u.id === appUser.id), 'not in the people list');
    const gqlUsers = await t.post(
      '/graphql',
      { query: '{ users(first: 250, includeDisabled: true) { nodes { id } } }' },
      t.adminToken,
    );
    assert.ok(!gqlUsers.body.data.users.nodes.some((u: any) => u.id === appUser.id));
    const signIn = await t.post('/api/auth/login', { email, password: '!' });
    assert.equal(signIn.status, 401);
    const assign = await t.patch(
      `/api/issues/${made.body.issue.id}`,
      { assigneeId: appUser.id },
      member.token,
    );
    assert.equal(assign.status, 400, JSON.stringify(assign.body));
    // Nor can an admin change it, or put it in a team (as if it were no user).
    const suspend = await t.patch(`/api/admin/users/${appUser.id}`, { status: 'active' }, t.adminToken);
    assert.equal(suspend.status, 404, JSON.stringify(suspend.body));
  });
});
