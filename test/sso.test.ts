// Single sign-on with a real OpenID provider (oidc-provider, in this process):
// the whole round trip as a browser makes it (start, the provider's sign-in
// form, the callback, the hand-over), then what it does to accounts: created
// just in time, linked by verified email, refused by domain or unverified
// email, role and teams following the groups claim, suspended accounts
// refused, SSO required with a break-glass admin. docs/identity.md.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { safeReturnTo } from '../src/modules/sso/flow.js';
import { forgetProviders } from '../src/modules/sso/provider.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './support/env.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { cookieHeader, cookiesOf, signInAtIdp, startIdp, type TestIdp } from './support/oidc-idp.js';

let t: TestApp;
let idp: TestIdp;
let teamKey: string;

before(async () => {
  t = await startTestApp();
  idp = await startIdp(`${t.config.publicUrl}/api/auth/sso/callback`);
  teamKey = (await t.get('/api/teams', t.adminToken)).body.teams[0].key;
  const res = await t.patch(
    '/api/admin/sso',
    {
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      buttonLabel: 'Sign in with Test IdP',
      scopes: 'openid email profile groups',
      allowedDomains: ['example.com'],
      groupsClaim: 'groups',
      adminGroups: ['tw-admins'],
      guestGroups: ['contractors'],
      teamGroups: [{ group: 'engineering', team: teamKey }],
    },
    t.adminToken,
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
});
after(async () => {
  await t.close();
  await idp.close();
  forgetProviders();
});

let n = 0;
/** An account at the provider; its name is its subject. */
function person(claims: Record<string, unknown> = {}) {
  const login = `p${++n}-${Date.now().toString(36)}`;
  const account = {
    email: `${login}@example.com`,
    email_verified: true,
    name: `Person ${n}`,
    groups: [],
    ...claims,
  };
  idp.accounts.set(login, account);
  return { login, ...account };
}

interface Trip {
  /** Where the callback sent the browser: /sso/complete, or /login?sso_error=... */
  landed: string;
  token?: string;
  user?: { id: string; email: string; role: string; name: string };
  returnTo?: string;
}

/** The browser's round trip: start, the provider's form, the callback, the hand-over. */
async function signInWithSso(login: string, returnTo?: string, app: TestApp = t): Promise<Trip> {
  const start = await app.get(
    `/api/auth/sso/start${returnTo ? `?returnTo=${encodeURIComponent(returnTo)}` : ''}`,
  );
  assert.equal(start.status, 302, JSON.stringify(start.body));
  const jar = cookiesOf(start.headers['set-cookie']);
  const back = await signInAtIdp(String(start.headers.location), login);
  assert.equal(back.origin, new URL(app.config.publicUrl).origin);
  const callback = await app.request('GET', back.pathname + back.search, {
    headers: { cookie: cookieHeader(jar) },
  });
  assert.equal(callback.status, 302, JSON.stringify(callback.body));
  for (const [k, v] of cookiesOf(callback.headers['set-cookie'])) jar.set(k, v);
  const landed = String(callback.headers.location);
  if (landed !== '/sso/complete') return { landed };
  const exchange = await app.request('POST', '/api/auth/sso/exchange', {
    headers: { cookie: cookieHeader(jar) },
  });
  assert.equal(exchange.status, 200, JSON.stringify(exchange.body));
  return { landed, ...exchange.body };
}

const entries = (type: string, entityId?: string) => {
  let q = t.ctx.db.selectFrom('audit_entries').selectAll().where('type', '=', type);
  if (entityId) q = q.where('entity_id', '=', entityId);
  return q.orderBy('created_at', 'desc').execute();
};

const userByEmail = (email: string) =>
  t.ctx.db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', email)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();

describe('single sign-on: the round trip', () => {
  test('a new person is created at first sign-in (member, named by the provider) and lands where they started', async () => {
    const p = person({ name: 'Ada Lovelace' });
    const trip = await signInWithSso(p.login, '/issues?team=ENG');
    assert.equal(trip.landed, '/sso/complete');
    assert.equal(trip.returnTo, '/issues?team=ENG');
    assert.equal(trip.user?.email, p.email);
    assert.equal(trip.user?.name, 'Ada Lovelace');
    assert.equal(trip.user?.role, 'member');
    assert.equal((await t.get('/api/auth/me', trip.token)).body.user.id, trip.user?.id);
    const [created] = await entries('user.created', trip.user?.id);
    assert.equal(created?.actor_kind, 'sso');
    assert.equal(created?.actor_label, idp.issuer);
    const session = (await t.get('/api/sessions', trip.token)).body.sessions.find(
      (s: { current: boolean }) => s.current,
    );
    assert.equal(session.method, 'sso');
    const [signIn] = await entries('auth.signIn', session.id);
    assert.deepEqual(signIn?.metadata, { method: 'sso' });
  });

  test('the next sign-in is the same account, matched by subject even after the email changed at the provider', async () => {
    const p = person();
    const first = await signInWithSso(p.login);
    idp.accounts.set(p.login, { ...idp.accounts.get(p.login), email: `renamed-${p.email}` });
    const second = await signInWithSso(p.login);
    assert.equal(second.user?.id, first.user?.id);
    assert.equal(second.user?.email, p.email, 'the account keeps its own email');
  });

  test('an existing password account is linked by verified email, and its password keeps working', async () => {
    const existing = await t.register('Bob Builder');
    const p = person({ email: existing.email });
    const trip = await signInWithSso(p.login);
    assert.equal(trip.user?.id, existing.user.id);
    const [linked] = await entries('sso.userLinked', existing.user.id);
    assert.equal(linked?.actor_kind, 'sso');
    assert.equal(
      (await t.post('/api/auth/login', { email: existing.email, password: existing.password })).status,
      200,
    );
  });

  test('an email outside the allowed domains is refused, and nothing is created', async () => {
    const p = person({ email: `eve-${n}@elsewhere.org` });
    const trip = await signInWithSso(p.login);
    assert.equal(trip.landed, '/login?sso_error=domain_not_allowed');
    assert.equal(await userByEmail(p.email), undefined);
    const [refused] = await entries('auth.signInFailed');
    assert.deepEqual(refused?.metadata, { method: 'sso', reason: 'domain_not_allowed' });
  });

  test('an unverified email neither creates an account nor links one', async () => {
    const p = person({ email_verified: false });
    assert.equal((await signInWithSso(p.login)).landed, '/login?sso_error=email_not_verified');
    assert.equal(await userByEmail(p.email), undefined);
    const existing = await t.register('Unlinked');
    const q = person({ email: existing.email, email_verified: false });
    assert.equal((await signInWithSso(q.login)).landed, '/login?sso_error=email_not_verified');
    const links = await t.ctx.db
      .selectFrom('user_identities')
      .selectAll()
      .where('user_id', '=', existing.user.id)
      .execute();
    assert.deepEqual(links, []);
  });

  test('the groups claim sets the role and the mapped team at every sign-in', async () => {
    const p = person({ groups: ['tw-admins', 'engineering'] });
    const first = await signInWithSso(p.login);
    assert.equal(first.user?.role, 'admin');
    const members = async () =>
      (await t.get(`/api/teams/${teamKey}/members?limit=200`, t.adminToken)).body.members.map(
        (m: { user: { id: string } }) => m.user.id,
      );
    assert.ok((await members()).includes(first.user?.id));

    idp.accounts.set(p.login, { ...idp.accounts.get(p.login), groups: ['contractors'] });
    const second = await signInWithSso(p.login);
    assert.equal(second.user?.role, 'guest');
    assert.ok(!(await members()).includes(first.user?.id));
    const [roleChange] = await entries('user.roleChanged', first.user?.id);
    assert.equal(roleChange?.actor_kind, 'sso');
    assert.deepEqual([roleChange?.before, roleChange?.after], [{ role: 'admin' }, { role: 'guest' }]);
    const [removed] = await entries('team.memberRemoved');
    assert.deepEqual(removed?.before, { userId: first.user?.id, owner: false });

    idp.accounts.set(p.login, { ...idp.accounts.get(p.login), groups: [] });
    assert.equal((await signInWithSso(p.login)).user?.role, 'member', 'no mapped group: the default role');
  });

  test('a suspended account is refused, as with a password', async () => {
    const p = person();
    const trip = await signInWithSso(p.login);
    assert.equal(
      (await t.patch(`/api/admin/users/${trip.user?.id}`, { status: 'suspended' }, t.adminToken)).status,
      200,
    );
    assert.equal((await signInWithSso(p.login)).landed, '/login?sso_error=account_suspended');
    assert.equal((await t.get('/api/auth/me', trip.token)).status, 401);
  });

  test('signing out ends the session the sign-in made', async () => {
    const trip = await signInWithSso(person().login);
    assert.equal((await t.post('/api/auth/logout', {}, trip.token)).status, 200);
    assert.equal((await t.get('/api/auth/me', trip.token)).status, 401);
  });
});

describe('single sign-on: refusals that record nothing and hand out nothing', () => {
  test('a callback without this browser’s trip goes back to sign-in; a trip’s cookie with another state fails', async () => {
    const stray = await t.get('/api/auth/sso/callback?code=abc&state=xyz');
    assert.deepEqual([stray.status, stray.headers.location], [302, '/login?sso_error=expired']);

    // Two trips started; the provider's answer to the first comes back with the second's cookie.
    const p = person();
    const one = await t.get('/api/auth/sso/start');
    const two = await t.get('/api/auth/sso/start');
    const back = await signInAtIdp(String(one.headers.location), p.login);
    const res = await t.request('GET', back.pathname + back.search, {
      headers: { cookie: cookieHeader(cookiesOf(two.headers['set-cookie'])) },
    });
    assert.deepEqual([res.status, res.headers.location], [302, '/login?sso_error=failed']);
    assert.equal(await userByEmail(p.email), undefined);
  });

  test('returns from the provider are counted on the address’s sign-in bucket before the code is redeemed', async () => {
    // Room for two attempts from this address: the admin's sign-in at start, and one return.
    const limited = await startTestApp(
      {},
      { loginLimits: { perAddress: { capacity: 2, windowMs: 15 * 60_000 } } },
    );
    try {
      const settings = (await t.get('/api/admin/sso', t.adminToken)).body.sso;
      const set = await limited.patch(
        '/api/admin/sso',
        { issuer: settings.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret },
        limited.adminToken,
      );
      assert.equal(set.status, 200, JSON.stringify(set.body));
      assert.equal((await signInWithSso(person().login, undefined, limited)).landed, '/sso/complete');
      assert.equal(
        (await signInWithSso(person().login, undefined, limited)).landed,
        '/login?sso_error=too_many_attempts',
      );
    } finally {
      await limited.close();
    }
  });

  test('the hand-over needs the cookie the callback set', async () => {
    const res = await t.post('/api/auth/sso/exchange', undefined);
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, 'SSO_NOT_COMPLETED');
  });

  test('returnTo is always a path on this site', () => {
    fc.assert(
      fc.property(
        fc.tuple(fc.constantFrom('', '/', '//', '/\\', 'https://', 'javascript:'), fc.string()),
        ([head, tail]) => {
          const raw = head + tail;
          const path = safeReturnTo(raw);
          assert.ok(path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\'), path);
          assert.equal(new URL(path, 'http://trackway.test').origin, 'http://trackway.test');
        },
      ),
    );
  });
});

describe('single sign-on: settings and "SSO required"', () => {
  test('admins read the settings with the redirect URI; the secret is never shown; members are refused', async () => {
    const res = await t.get('/api/admin/sso', t.adminToken);
    assert.equal(res.status, 200);
    assert.equal(res.body.redirectUri, 'http://trackway.test/api/auth/sso/callback');
    assert.equal(res.body.sso.clientSecretSet, true);
    assert.ok(!JSON.stringify(res.body).includes(idp.clientSecret));
    const member = await t.register('Nosy');
    assert.equal((await t.get('/api/admin/sso', member.token)).status, 403);
    assert.equal((await t.patch('/api/admin/sso', { required: true }, member.token)).status, 403);
    const config = (await t.get('/api/config')).body.sso;
    assert.deepEqual(config, { enabled: true, buttonLabel: 'Sign in with Test IdP', required: false });
  });

  test('a change is audited without the secret', async () => {
    const res = await t.patch(
      '/api/admin/sso',
      { buttonLabel: 'Company login', clientSecret: idp.clientSecret },
      t.adminToken,
    );
    assert.equal(res.status, 200);
    const [entry] = await entries('sso.settingsChanged');
    assert.deepEqual(
      [entry?.before, entry?.after],
      [{ buttonLabel: 'Sign in with Test IdP' }, { buttonLabel: 'Company login' }],
    );
    assert.deepEqual(entry?.metadata, { clientSecretChanged: false });
    assert.ok(!JSON.stringify(entry).includes(idp.clientSecret));
    await t.patch('/api/admin/sso', { buttonLabel: 'Sign in with Test IdP' }, t.adminToken);
  });

  test('requiring SSO needs an active admin as break-glass; then only they use a password, and API keys keep working', async () => {
    const member = await t.register('Keyholder');
    const key = await t.post('/api/api-keys', { label: 'ci' }, member.token);
    assert.equal(key.status, 201, JSON.stringify(key.body));

    const without = await t.patch('/api/admin/sso', { required: true }, t.adminToken);
    assert.equal(without.status, 400);
    assert.equal(without.body.error.details[0].field, '/breakGlassEmails');
    const notAdmin = await t.patch(
      '/api/admin/sso',
      { required: true, breakGlassEmails: [member.email] },
      t.adminToken,
    );
    assert.equal(notAdmin.status, 400);
    const ok = await t.patch(
      '/api/admin/sso',
      { required: true, breakGlassEmails: [ADMIN_EMAIL] },
      t.adminToken,
    );
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    try {
      assert.equal((await t.get('/api/config')).body.sso.required, true);
      const refused = await t.post('/api/auth/login', { email: member.email, password: member.password });
      assert.deepEqual([refused.status, refused.body.error.code], [403, 'SSO_REQUIRED']);
      const wrong = await t.post('/api/auth/login', { email: member.email, password: 'not-it' });
      assert.equal(wrong.body.error.code, 'SSO_REQUIRED', 'no password is checked for them');
      const registering = await t.post('/api/auth/register', {
        name: 'New',
        email: 'new-sso@example.com',
        password: 'password-123',
      });
      assert.deepEqual([registering.status, registering.body.error.code], [403, 'SSO_REQUIRED']);
      assert.equal(
        (await t.post('/api/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).status,
        200,
      );
      assert.equal((await t.get('/api/auth/me', key.body.key)).status, 200);
      assert.equal((await signInWithSso(person().login)).landed, '/sso/complete');
    } finally {
      await t.patch('/api/admin/sso', { required: false }, t.adminToken);
    }
  });

  test('variables set in the environment win and lock their fields; a provider that cannot be reached sends people back with a reason', async () => {
    // Nothing listens on port 9 (discard) here.
    const env = await startTestApp({
      oidc: {
        issuer: 'http://127.0.0.1:9/',
        clientId: 'from-env',
        buttonLabel: 'Okta',
        allowedDomains: ['example.com'],
      },
    });
    try {
      const res = await env.get('/api/admin/sso', env.adminToken);
      assert.equal(res.body.sso.clientId, 'from-env');
      assert.deepEqual(res.body.locked.map((l: { variable: string }) => l.variable).sort(), [
        'OIDC_ALLOWED_DOMAINS',
        'OIDC_BUTTON_LABEL',
        'OIDC_CLIENT_ID',
        'OIDC_ISSUER',
      ]);
      const change = await env.patch('/api/admin/sso', { buttonLabel: 'Other' }, env.adminToken);
      assert.equal(change.status, 400);
      assert.match(change.body.error.message, /OIDC_BUTTON_LABEL/);
      assert.equal((await env.get('/api/config')).body.sso.buttonLabel, 'Okta');
      const started = await env.get('/api/auth/sso/start');
      assert.deepEqual(
        [started.status, started.headers.location],
        [302, '/login?sso_error=provider_unavailable'],
      );
    } finally {
      await env.close();
    }
  });
});
