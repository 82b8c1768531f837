// Sessions in a real browser: Settings → Sessions lists where the person is
// signed in, ends another device's session (that device is signed out at its
// next request), "Sign out" ends the session on the server too, and an admin
// ends a user's sessions from the Users page. Axe clean in both themes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
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
let person: { email: string; password: string; user: { id: string; name: string } };
before(async () => {
  ui = await startUi();
  person = await ui.t.register('Ada Lovelace');
});
after(() => ui?.close());

const tokenOf = (page: Page) => page.evaluate(() => localStorage.getItem('trackway.token'));
const refusedToken = async (token: string | null) => {
  assert.ok(token);
  assert.equal((await ui.t.get('/api/auth/me', token)).status, 401);
};

describe('UI: sessions', () => {
  test('a person ends another device’s session from Settings; that device is signed out', async () => {
    const laptop = await ui.newPage();
    const phone = await ui.newPage({ colorScheme: 'dark' });
    await signIn(laptop.page, person.email, person.password);
    await signIn(phone.page, person.email, person.password);
    const phoneToken = await tokenOf(phone.page);

    await visit(laptop.page, '/settings/sessions');
    const rows = laptop.page.getByRole('row');
    await laptop.page.getByText('This device').waitFor();
    // The registration's session and both browsers'.
    assert.equal(await rows.count(), 4);
    assert.deepEqual(await seriousViolations(laptop.page), []);

    // End the phone's: the newest session that is not this one.
    const phoneSession = (await ui.t.get('/api/sessions', phoneToken!)).body.sessions.find(
      (s: any) => s.current,
    );
    await laptop.page
      .locator('tr', { has: laptop.page.locator(`time[datetime="${phoneSession.createdAt}"]`) })
      .getByRole('button', { name: /End the session/ })
      .click();
    await laptop.page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 2);
    await refusedToken(phoneToken);

    // The phone learns it at its next request and shows the sign-in page.
    await phone.page.goto('/settings/sessions');
    await phone.page.getByRole('heading', { name: 'Sign in' }).waitFor();
    assert.deepEqual(await seriousViolations(phone.page), []);
  });

  test('“End all other sessions” keeps this one; “Sign out” ends it on the server', async () => {
    const other = await ui.newPage();
    const here = await ui.newPage();
    await signIn(other.page, person.email, person.password);
    await signIn(here.page, person.email, person.password);
    const otherToken = await tokenOf(other.page);
    await visit(here.page, '/settings/sessions');
    here.page.once('dialog', (d) => void d.accept());
    await here.page.getByRole('button', { name: 'End all other sessions' }).click();
    await here.page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 1);
    await here.page.getByText('This device').waitFor();
    await refusedToken(otherToken);

    const hereToken = await tokenOf(here.page);
    await here.page.getByRole('button', { name: 'Sign out' }).click();
    await here.page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // The sign-out request leaves as the page turns; give it the time a request takes.
    for (let i = 0; i < 50 && (await ui.t.get('/api/auth/me', hereToken!)).status !== 401; i++)
      await new Promise((r) => setTimeout(r, 50));
    await refusedToken(hereToken);
  });

  test('an admin signs a user out everywhere from the Users page', async () => {
    const email = `leaver-${Date.now()}@example.com`;
    const member = await ui.t.userWithRole('member', { name: 'Lena Leaver', email });
    const admin = await ui.newPage();
    await signIn(admin.page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await visit(admin.page, '/admin/users');
    admin.page.once('dialog', (d) => void d.accept());
    await admin.page.getByRole('button', { name: 'End all sessions of Lena Leaver' }).click();
    for (let i = 0; i < 50 && (await ui.t.get('/api/auth/me', member.token)).status !== 401; i++)
      await new Promise((r) => setTimeout(r, 50));
    await refusedToken(member.token);
    assert.deepEqual(await seriousViolations(admin.page), []);
  });
});
