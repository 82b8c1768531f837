// Single sign-on in a real browser against a real OpenID provider
// (oidc-provider in this process): an admin sets it up on its page, then
// people sign in through the provider's own form. Created just in time,
// linked to a password account by verified email, refused by domain, for an
// unverified email and when suspended (each with its reason on the sign-in
// page), admin role and team from the groups claim, and "SSO required" with a
// break-glass admin. Axe clean on the pages it adds.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { forgetProviders } from '../../src/modules/sso/provider.js';
import { startIdp, type TestIdp } from '../support/oidc-idp.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  seriousViolations,
  signIn,
  startUi,
  type UiEnv,
  visit,
} from './browser.js';

let ui: UiEnv;
let idp: TestIdp;
let team: { id: string; key: string; name: string };

before(async () => {
  ui = await startUi();
  idp = await startIdp(`${ui.base}/api/auth/sso/callback`);
  team = (await ui.t.get('/api/teams', ui.t.adminToken)).body.teams[0];
});
after(async () => {
  await ui?.close();
  await idp?.close();
  forgetProviders();
});

let n = 0;
function person(claims: Record<string, unknown> = {}) {
  const login = `u${++n}-${Date.now().toString(36)}`;
  idp.accounts.set(login, {
    email: `${login}@example.com`,
    email_verified: true,
    name: `Person ${n}`,
    ...claims,
  });
  return { login, email: `${login}@example.com`, ...claims };
}

/**
 * From the sign-in page, through the provider's form, back to Trackway. A
 * browser already signed in at the provider comes straight back (that is
 * single sign-on), so each person signs in from a browser of their own.
 */
async function throughProvider(page: Page, login: string, atProvider: 'form' | 'signed-in' = 'form') {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
  if (atProvider === 'form') {
    await page.getByRole('heading', { name: 'Test identity provider' }).waitFor();
    await page.getByLabel('Username').fill(login);
    await page.getByRole('button', { name: 'Continue' }).click();
  }
  await page.waitForURL((url) => url.origin === ui.base && ['/issues', '/login'].includes(url.pathname));
}

const signedInAs = async (page: Page) => {
  await page.locator('main#main').waitFor();
  return page.evaluate(() => document.querySelector('.me-name')?.getAttribute('title'));
};

const refusal = (page: Page) => page.getByRole('alert').textContent();

describe('UI: single sign-on', () => {
  test('an admin sets up the provider on its page; the redirect URI to register is shown', async () => {
    const { page } = await ui.newPage();
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await visit(page, '/admin/sso');
    assert.equal(await page.getByTestId('redirect-uri').textContent(), `${ui.base}/api/auth/sso/callback`);
    await page.getByLabel('Issuer URL').fill(idp.issuer);
    await page.getByLabel('Client ID').fill(idp.clientId);
    await page.getByLabel('Client secret').fill(idp.clientSecret);
    await page.getByLabel('Button label').fill('Sign in with Test IdP');
    await page.getByLabel('Scopes').fill('openid email profile groups');
    await page.getByLabel('Allowed email domains').fill('example.com');
    await page.getByLabel('Groups claim').fill('groups');
    await page.getByLabel('Admin groups').fill('tw-admins');
    await page.getByLabel('Teams').fill(`engineering=${team.key}`);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Single sign-on is on').waitFor();
    assert.equal(await page.getByLabel('Client secret').inputValue(), '', 'the secret is never sent back');
    assert.deepEqual(await seriousViolations(page), []);
    const saved = (await ui.t.get('/api/admin/sso', ui.t.adminToken)).body;
    assert.equal(saved.sso.issuer, idp.issuer);
    assert.deepEqual(saved.sso.teamGroups, [{ group: 'engineering', team: team.key }]);
  });

  test('a new person signs in through the provider and has an account; the next time it is the same one', async () => {
    const p = person({ name: 'Grace Hopper' });
    const { page } = await ui.newPage({ colorScheme: 'dark' });
    await page.goto('/login');
    assert.deepEqual(await seriousViolations(page), []);
    await throughProvider(page, p.login);
    assert.equal(await signedInAs(page), p.email);
    assert.equal(new URL(page.url()).pathname, '/issues');
    const users = async () => (await ui.t.get('/api/admin/users?limit=200', ui.t.adminToken)).body.users;
    const count = (await users()).length;
    await page.getByRole('button', { name: /sign out/i }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // Still signed in at the provider: straight back, no form.
    await throughProvider(page, p.login, 'signed-in');
    assert.equal(await signedInAs(page), p.email);
    assert.equal((await users()).length, count, 'no second account');
  });

  test('a password account is linked by its verified email', async () => {
    const existing = await ui.t.register('Linus Linked');
    const p = person({ email: existing.email });
    const { page } = await ui.newPage();
    await throughProvider(page, p.login);
    assert.equal(await signedInAs(page), existing.email);
    const links = await ui.t.ctx.db
      .selectFrom('user_identities')
      .select('user_id')
      .where('subject', '=', p.login)
      .execute();
    assert.deepEqual(links, [{ user_id: existing.user.id }]);
  });

  test('the groups claim makes an admin and a member of the mapped team', async () => {
    const p = person({ groups: ['tw-admins', 'engineering'] });
    const { page } = await ui.newPage();
    await throughProvider(page, p.login);
    await page.getByRole('link', { name: 'Audit log' }).waitFor();
    const me = await ui.t.ctx.db
      .selectFrom('users')
      .select(['id', 'role'])
      .where('email', '=', p.email)
      .executeTakeFirstOrThrow();
    assert.equal(me.role, 'admin');
    const members = (await ui.t.get(`/api/teams/${team.key}/members?limit=200`, ui.t.adminToken)).body
      .members;
    assert.ok(members.some((m: { user: { id: string } }) => m.user.id === me.id));
  });

  test('refusals say why on the sign-in page: another domain, an unverified email, a suspended account', async () => {
    const { page } = await ui.newPage();
    await throughProvider(page, person({ email: `x${n}@elsewhere.org` }).login);
    assert.equal(new URL(page.url()).pathname, '/login');
    assert.match((await refusal(page)) ?? '', /not in a domain this workspace allows/);

    const unverified = await ui.newPage();
    await throughProvider(unverified.page, person({ email_verified: false }).login);
    assert.match((await refusal(unverified.page)) ?? '', /has not verified your email/);
    assert.deepEqual(await seriousViolations(unverified.page), []);

    const suspended = person();
    const first = await ui.newPage();
    await throughProvider(first.page, suspended.login);
    const id = (
      await ui.t.ctx.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', suspended.email)
        .executeTakeFirstOrThrow()
    ).id;
    assert.equal(
      (await ui.t.patch(`/api/admin/users/${id}`, { status: 'suspended' }, ui.t.adminToken)).status,
      200,
    );
    await first.page.goto('/settings/account');
    await first.page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await throughProvider(first.page, suspended.login, 'signed-in');
    assert.match((await refusal(first.page)) ?? '', /suspended/);
  });

  test('with SSO required, the page offers the provider; only a break-glass admin uses a password', async () => {
    const member = await ui.t.register('Pat Password');
    const set = await ui.t.patch(
      '/api/admin/sso',
      { required: true, breakGlassEmails: [ADMIN_EMAIL] },
      ui.t.adminToken,
    );
    assert.equal(set.status, 200, JSON.stringify(set.body));
    try {
      const { page } = await ui.newPage();
      await page.goto('/login');
      await page.getByRole('link', { name: 'Sign in with Test IdP' }).waitFor();
      assert.equal(await page.getByLabel('Password').count(), 0, 'the password form is folded away');
      await page.getByRole('button', { name: 'Sign in with a password (administrators)' }).click();
      await page.getByLabel('Email').fill(member.email);
      await page.getByLabel('Password').fill(member.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByText('This workspace signs in with single sign-on').waitFor();

      await page.getByLabel('Email').fill(ADMIN_EMAIL);
      await page.getByLabel('Password').fill(ADMIN_PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      assert.equal(await signedInAs(page), ADMIN_EMAIL);

      const fresh = await ui.newPage();
      await fresh.page.goto('/register');
      await fresh.page.getByRole('heading', { name: 'Sign-up is closed' }).waitFor();
      await throughProvider(fresh.page, person().login);
      await fresh.page.locator('main#main').waitFor();
    } finally {
      await ui.t.patch('/api/admin/sso', { required: false }, ui.t.adminToken);
    }
  });
});
