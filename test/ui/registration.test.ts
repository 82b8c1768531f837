// End to end in a real browser: an admin makes the workspace invite-only and
// back, and the sign-in page shows the sign-up link only while it is open.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, screenshot, signIn, startUi, type UiEnv } from './browser.js';

let ui: UiEnv;
let admin: Page;

before(async () => {
  ui = await startUi();
  ({ page: admin } = await ui.newPage());
  await signIn(admin, ADMIN_EMAIL, ADMIN_PASSWORD);
});
after(() => ui?.close());

const settings = async () => (await ui.t.get('/api/admin/registration', ui.t.adminToken)).body.registration;

describe('UI: who may sign up', () => {
  test('an admin closes sign-up: the sign-in page loses its link and /register says it is closed', async () => {
    await admin.getByRole('link', { name: 'Users', exact: true }).click();
    const open = admin.getByRole('switch', { name: 'Anyone can create an account' });
    assert.equal(await open.isChecked(), true, 'open by default');
    await open.click();
    await admin.getByRole('button', { name: 'Save sign-up settings' }).click();
    await admin.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await screenshot(admin, 'registration-closed');
    assert.deepEqual(await settings(), { open: false, allowedEmailDomains: [] });

    const { page } = await ui.newPage();
    await page.goto('/register');
    await page.getByRole('heading', { name: 'Sign-up is closed' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Create account' }).count(), 0);
    // In-app navigation: the configuration is loaded, so the link's absence is final.
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Create an account' }).count(), 0);
  });

  test('an admin reopens it for one domain: the link is back and the domain is saved', async () => {
    await admin.getByRole('switch', { name: 'Anyone can create an account' }).click();
    await admin.getByLabel('Allowed domains').fill('Example.com, not a domain');
    await admin.getByRole('button', { name: 'Save sign-up settings' }).click();
    await admin.getByText('Use domain names such as example.com').waitFor();
    assert.deepEqual(await settings(), { open: false, allowedEmailDomains: [] }, 'nothing saved');
    await admin.getByLabel('Allowed domains').fill('Example.com');
    await admin.getByRole('button', { name: 'Save sign-up settings' }).click();
    await admin.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    assert.deepEqual(await settings(), { open: true, allowedEmailDomains: ['example.com'] });

    const { page } = await ui.newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Name').fill('Domain Person');
    await page.getByLabel('Email').fill(`someone-${Date.now()}@example.org`);
    await page.getByLabel('Password').fill('password-123');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText(/limited to some email domains/).waitFor();
  });
});
