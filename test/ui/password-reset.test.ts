// A forgotten password, as a person recovers it: the link on the sign-in page,
// the mail that arrives at a real SMTP server, the page its link opens, and
// signing in with the new password.
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
});
