// End to end in a real browser: the Git admin page connects a host (the
// webhook secret shown once, with the URL to paste), and the secret it showed
// is the one the receiver accepts; the delivery it signed appears in the log
// with what it did; the team's automation table shows the defaults; the
// back-link switch turns off; a GitHub App is connected with its id, key and
// installation id, and the key is never shown back.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { deliver, githubExample, processed } from '../git-support.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, seriousViolations, signIn, startUi, type UiEnv } from './browser.js';

let ui: UiEnv;
let page: Page;

before(async () => {
  ui = await startUi({}, { gitWorker: { pollMs: 20 } });
  ({ page } = await ui.newPage());
  await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
});
after(async () => {
  await ui?.close();
});

describe('UI: git hosts', () => {
  test('an admin connects GitHub, sees the secret once, and the delivery it signs is in the log', async () => {
    await page.getByRole('link', { name: 'Git', exact: true }).click();
    await page.getByLabel('Host', { exact: true }).selectOption('github');
    await page.getByLabel('Connection name').fill('Our GitHub');
    await page.getByLabel('Repository', { exact: true }).fill('Codertocat/Hello-World');
    await page.getByLabel('API token (for back-link comments)').fill('ghp_from_the_ui');
    await page.getByRole('button', { name: 'Connect' }).click();
    const box = page.getByRole('region', { name: 'New webhook secret' });
    const secret = (await box.getByTestId('new-git-secret').textContent())?.trim() ?? '';
    assert.ok(secret.length >= 16, secret);
    assert.equal(
      (await page.getByTestId('git-webhook-url').textContent())?.trim(),
      `${ui.t.config.publicUrl.replace(/\/$/, '')}/api/integrations/github/webhook`,
    );
    assert.deepEqual(await seriousViolations(page), []);
    await page.getByRole('button', { name: 'Done' }).click();
    const list = await ui.t.get('/api/admin/git/connections', ui.t.adminToken);
    assert.equal(JSON.stringify(list.body).includes(secret), false, 'the list never has the secret');
    assert.equal(list.body.connections[0].hasApiToken, true);
    await page.getByRole('cell', { name: 'codertocat/hello-world → Engineering' }).waitFor();

    const issue = await ui.t.post('/api/issues', { title: 'From the page', teamId: 'ENG' }, ui.t.adminToken);
    const p = githubExample('pull_request', 'opened');
    p.pull_request.title = `Fixes ${issue.body.issue.identifier}`;
    p.pull_request.draft = false;
    const res = await deliver(ui.t, 'github', secret, 'pull_request', p);
    assert.equal(res.status, 202, JSON.stringify(res.body));
    await processed(ui.t, res.body.id);
    await page.reload();
    await page.getByRole('cell', { name: new RegExp(`linked ${issue.body.issue.identifier}`) }).waitFor();

    const automation = page.getByRole('region', { name: 'Automation of Engineering' });
    await automation.getByRole('row', { name: /Merged any \(default\) Done/ }).waitFor();

    await page.getByRole('button', { name: 'Back-links for Our GitHub: on' }).click();
    await page.getByRole('button', { name: 'Back-links for Our GitHub: off' }).waitFor();
    const after = await ui.t.get('/api/admin/git/connections', ui.t.adminToken);
    assert.equal(after.body.connections[0].backlinks, false);
  });

  test('an admin connects a GitHub App: a bad key is refused at its field, and the key is never shown back', async () => {
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    await page.getByLabel('Host', { exact: true }).selectOption('github');
    await page.getByLabel('Connection name').fill('Our GitHub App');
    await page.getByLabel('Repository', { exact: true }).fill('acme/app-repo');
    await page.getByLabel('App ID').fill('12345');
    await page.getByLabel('App private key (PEM)').fill('not a key');
    await page.getByLabel('Installation ID (empty: found per repository)').fill('777');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByText('must be a PEM private key').waitFor();
    await page.getByLabel('App private key (PEM)').fill(privateKey);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByRole('region', { name: 'New webhook secret' }).waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByText('GitHub App 12345, installation 777').waitFor();
    const keyLine = privateKey.split('\n')[1]!;
    assert.equal((await page.content()).includes(keyLine), false, 'the page never shows the key');
    assert.equal(await page.getByLabel('App private key (PEM)').inputValue(), '');
    const list = await ui.t.get('/api/admin/git/connections', ui.t.adminToken);
    const app = list.body.connections.find((c: { name: string }) => c.name === 'Our GitHub App');
    assert.deepEqual(app.githubApp, { appId: '12345', installationId: '777' });
    assert.equal(JSON.stringify(list.body).includes(keyLine), false);
  });
});
