// A forgotten password, as a person recovers it: the link on the sign-in page,
// the mail that arrives at a real SMTP server, the page its link opens, and
// signing in with the new password. Also the Account page's switch for
// notification email, on this server that sends mail.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startSmtp, type TestSmtp } from '../mail-support.js';
import { signIn, startUi, type UiEnv } from './browser.js';

let ui: UiEnv;
let smtp: TestSmtp;
before(async () => {
  smtp = await startSmtp();
  ui = await startUi(
    { mail: { smtpUrl: smtp.url, from: 'Trackway <tw@trackway.test>', batchWindowMs: 0, retryBaseMs: 50 } },
    { mailWorker: { pollMs: 25 } },
  );
});
after(async () => {
  await ui?.close();
  await smtp?.close();
});

describe('UI: password reset by email', () => {
  test('Forgot your password? sends a link; its page sets a new password that signs in', async () => {
    const member = await ui.t.userWithRole('member');
    const { page } = await ui.newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    const before = smtp.received.length;
    await page.getByLabel('Email').fill(member.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'a link to choose a new password is on its way' })
      .waitFor();

    const mail = (await smtp.waitFor(before + 1))[before]!;
    const link = /https?:\/\/[^\s]+\/reset-password\?token=[A-Za-z0-9_-]+/.exec(mail.text ?? '')?.[0];
    assert.ok(link, `a reset link in: ${mail.text}`);
    await page.goto(new URL(link).pathname + new URL(link).search);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByLabel('New password').fill('a-new-secret-1');
    await page.getByRole('button', { name: 'Set the password' }).click();
    await page.getByRole('status').filter({ hasText: 'Your password is changed' }).waitFor();

    await signIn(page, member.email, 'a-new-secret-1');
    // The same link again is refused in plain words.
    const again = await ui.newPage();
    await again.page.goto(new URL(link).pathname + new URL(link).search);
    await again.page.getByLabel('New password').fill('another-secret-2');
    await again.page.getByRole('button', { name: 'Set the password' }).click();
    const refused = again.page.getByRole('alert');
    await refused.waitFor();
    assert.match((await refused.textContent()) ?? '', /link|token/i);
  });

  test('Account settings: the notification email switch turns mail off and on', async () => {
    const member = await ui.t.userWithRole('member');
    const { page } = await ui.newPage();
    await signIn(page, member.email, 'password-123');
    await page.goto('/settings/account');
    const toggle = page.getByRole('switch', { name: 'Email me my notifications' });
    await toggle.waitFor();
    assert.equal(await toggle.isChecked(), true);
    assert.equal(await toggle.isDisabled(), false, 'this server sends mail');
    const stored = async () =>
      (await ui.t.get('/api/me/preferences', member.token)).body.preferences.emailNotifications;
    await toggle.click();
    await page.getByRole('switch', { name: 'Email me my notifications', checked: false }).waitFor();
    for (let i = 0; (await stored()) !== false; i++) {
      assert.ok(i < 100, 'the choice reaches the server');
      await new Promise((r) => setTimeout(r, 50));
    }
    await page.reload();
    await toggle.waitFor();
    assert.equal(await toggle.isChecked(), false, 'the stored choice shows after a reload');
    await toggle.click();
    await page.getByRole('switch', { name: 'Email me my notifications', checked: true }).waitFor();
    for (let i = 0; (await stored()) !== true; i++) {
      assert.ok(i < 100, 'back on at the server');
      await new Promise((r) => setTimeout(r, 50));
    }
  });
});
