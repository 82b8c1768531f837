// End to end in a real browser: sign-in, API keys, branding, feature flags.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ADMIN_EMAIL, ADMIN_PASSWORD, screenshot, signIn, startUi, type UiEnv } from './browser.js';

let ui: UiEnv;
before(async () => {
  ui = await startUi();
});
after(() => ui?.close());

describe('UI: accounts and administration', () => {
  test('the server serves the app at / and client routes, and keeps API 404s as JSON', async () => {
    const root = await fetch(`${ui.base}/`);
    assert.equal(root.status, 200);
    assert.match(await root.text(), /<div id="root">/);
    const deep = await fetch(`${ui.base}/issue/ENG-1`);
    assert.equal(deep.status, 200);
    assert.match(deep.headers.get('content-type') ?? '', /text\/html/);
    const api = await fetch(`${ui.base}/api/nope`);
    assert.equal(api.status, 404);
    assert.equal(((await api.json()) as { error: { code: string } }).error.code, 'NOT_FOUND');
    const gql = await fetch(`${ui.base}/graphql/nope`);
    assert.equal(gql.status, 404);
  });

  test('signing in with a wrong password shows the error; the right one opens the app', async () => {
    const { page } = await ui.newPage();
    await page.goto('/');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await screenshot(page, 'sign-in');
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /password/i })
      .waitFor();
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/issues');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  });

  test('registration creates a member who can sign in', async () => {
    const { page } = await ui.newPage();
    await page.goto('/register');
    await page.getByLabel('Name').fill('Grace Hopper');
    await page.getByLabel('Email').fill(`grace-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('123');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText(/at least 6|fewer than 6|must NOT have fewer/i).waitFor();
    await page.getByLabel('Password').fill('password-123');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    assert.equal(
      await page.getByRole('link', { name: 'Users', exact: true }).count(),
      0,
      'members see no admin section',
    );
  });

  test('a member renames themselves under Account settings', async () => {
    const email = `rename-${Date.now()}@example.com`;
    const reg = await fetch(`${ui.base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Old Name', email, password: 'password-123' }),
    });
    assert.equal(reg.status, 201);
    const { token } = (await reg.json()) as { token: string };
    const { page } = await ui.newPage();
    await signIn(page, email, 'password-123');
    await page.getByRole('link', { name: 'Account', exact: true }).click();
    await page.getByLabel('Name').fill('Katherine Johnson');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const me = await fetch(`${ui.base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(((await me.json()) as { user: { name: string } }).user.name, 'Katherine Johnson');
  });

  test('creating an API key shows it once; it works; revoking it stops it', async () => {
    const { page } = await ui.newPage();
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.getByRole('link', { name: 'API keys', exact: true }).click();
    await page.getByLabel('Key label').fill('e2e script');
    await page.getByRole('button', { name: 'Create key' }).click();
    const region = page.getByRole('region', { name: 'New API key' });
    const key = (await region.getByTestId('new-api-key').textContent())?.trim() ?? '';
    assert.ok(key.length > 20, 'the key is shown');
    await screenshot(page, 'api-keys');
    const me = await fetch(`${ui.base}/api/auth/me`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(me.status, 200);
    await page.getByRole('button', { name: 'Done' }).click();
    assert.equal(await page.getByTestId('new-api-key').count(), 0, 'the key is not shown again');
    await page.getByRole('cell', { name: 'e2e script', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Revoke e2e script' }).click();
    await page.getByRole('cell', { name: 'e2e script', exact: true }).waitFor({ state: 'detached' });
    const after = await fetch(`${ui.base}/api/auth/me`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(after.status, 401);
  });

  test('a branding change shows on the sign-in page', async () => {
    const { page } = await ui.newPage();
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.getByRole('link', { name: 'Branding', exact: true }).click();
    await page.getByLabel('Workspace name').fill('Acme Tracker');
    await page.getByLabel('Tagline').fill('Ship calmly');
    await page.getByLabel('Accent colour', { exact: true }).fill('#d9480f');
    await screenshot(page, 'branding');
    await page.getByRole('button', { name: 'Save branding' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();

    const visitor = await ui.newPage();
    await visitor.page.goto('/login');
    await visitor.page.getByRole('heading', { name: 'Acme Tracker' }).waitFor();
    await visitor.page.getByText('Ship calmly').waitFor();
    const accent = await visitor.page.evaluate(
      "getComputedStyle(document.documentElement).getPropertyValue('--accent').trim()",
    );
    assert.equal(accent, '#d9480f');
    const button = await visitor.page.evaluate(
      "getComputedStyle(document.querySelector('form button[type=submit]')).backgroundColor",
    );
    assert.equal(button, 'rgb(217, 72, 15)');
  });

  test('the last-admin refusal is shown as a readable message', async () => {
    const { page } = await ui.newPage();
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    const admins = await ui.t.get('/api/admin/users?limit=250', ui.t.adminToken);
    const activeAdmins = admins.body.users.filter(
      (u: { role: string; status: string }) => u.role === 'admin' && u.status === 'active',
    );
    assert.equal(activeAdmins.length, 1, 'only the seeded admin is an admin here');
    const me = activeAdmins[0];
    await page.getByLabel(`Role of ${me.name}`).selectOption('member');
    await page.getByRole('alert').filter({ hasText: /admin/i }).waitFor();
    const still = await ui.t.get('/api/auth/me', ui.t.adminToken);
    assert.equal(still.body.user.role, 'admin');
  });

  test('an admin turns the cycles flag off and the cycles section disappears for a member', async () => {
    const member = await ui.t.register('Flag Watcher');
    const memberView = await ui.newPage();
    await signIn(memberView.page, member.email, member.password);
    await memberView.page.getByRole('link', { name: 'Cycles', exact: true }).waitFor();

    const { page } = await ui.newPage();
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.getByRole('link', { name: 'Feature flags', exact: true }).click();
    const toggle = page.getByRole('switch', { name: 'Cycles' });
    assert.equal(await toggle.isChecked(), true);
    await screenshot(page, 'flags');
    await toggle.click();
    // Predicates are functions, not strings: a string is eval'd in the page, which the CSP refuses.
    await page.waitForFunction(() => {
      const s = (globalThis as any).document.querySelector('#flag-cycles');
      return s && !s.checked && !s.disabled;
    });
    const cfg = await ui.t.get('/api/config');
    assert.equal(cfg.body.flags.find((f: { key: string }) => f.key === 'cycles').enabled, false);

    await memberView.page.reload();
    await memberView.page.getByRole('navigation', { name: 'Main' }).waitFor();
    await memberView.page.getByRole('link', { name: 'Issues', exact: true }).waitFor();
    assert.equal(await memberView.page.getByRole('link', { name: 'Cycles', exact: true }).count(), 0);
    await memberView.page.goto('/cycles');
    await memberView.page.getByRole('heading', { name: 'Not found' }).waitFor();

    await toggle.click(); // back on, for other tests
    await page.waitForFunction(
      () => (globalThis as any).document.querySelector('#flag-cycles')?.checked === true,
    );
  });
});
