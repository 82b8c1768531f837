// End to end in a real browser: the Git admin page connects a host (the
// webhook secret shown once, with the URL to paste), and the secret it showed
// is the one the receiver accepts; the delivery it signed appears in the log
// with what it did; the team's automation table shows the defaults; the
// back-link switch turns off; a GitHub App is connected with its id, key and
// installation id, and the key is never shown back. Then the connection is
// edited on the page: a repository added with its team, re-teamed and
// removed; the webhook secret replaced (the old one is refused from then on,
// the new one accepted); an automation rule changed, and a signed pull
// request moves its issue to the newly chosen state; axe in light and dark.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { deliver, githubExample, processed, stateName } from '../git-support.js';
import { seriousViolations, startUi, type UiEnv } from './browser.js';

let ui: UiEnv;
let page: Page;
/** The first connection's webhook secret, as the page showed it. */
let firstSecret = '';

before(async () => {
  ui = await startUi({}, { gitWorker: { pollMs: 20 } });
  ({ page } = await ui.signedIn());
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
    firstSecret = secret;
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
    const merged = automation.getByLabel('Merged, any branch: the issue moves to', { exact: true });
    assert.equal(await merged.locator('option:checked').textContent(), 'Default (Done)');

    await page.getByRole('button', { name: 'Back-links for Our GitHub: on' }).click();
    await page.getByRole('button', { name: 'Back-links for Our GitHub: off' }).waitFor();
    // The button turns at once (optimistic); the server's copy follows its write.
    await waitFor(
      async () =>
        (await ui.t.get('/api/admin/git/connections', ui.t.adminToken)).body.connections[0].backlinks ===
        false,
    );
  });

  test('an admin connects a GitHub App: a bad key is refused at its field, and the key is never shown back', async () => {
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const form = page.getByRole('region', { name: 'Connect a host' });
    await form.getByLabel('Host', { exact: true }).selectOption('github');
    await form.getByLabel('Connection name').fill('Our GitHub App');
    await form.getByLabel('Repository', { exact: true }).fill('acme/app-repo');
    await form.getByLabel('App ID').fill('12345');
    await form.getByLabel('App private key (PEM)').fill('not a key');
    await form.getByLabel('Installation ID (empty: found per repository)').fill('777');
    await form.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByText('must be a PEM private key').waitFor();
    await form.getByLabel('App private key (PEM)').fill(privateKey);
    await form.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByRole('region', { name: 'New webhook secret' }).waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByText('GitHub App 12345, installation 777').waitFor();
    const keyLine = privateKey.split('\n')[1]!;
    assert.equal((await page.content()).includes(keyLine), false, 'the page never shows the key');
    assert.equal(await form.getByLabel('App private key (PEM)').inputValue(), '');
    const list = await ui.t.get('/api/admin/git/connections', ui.t.adminToken);
    const app = list.body.connections.find((c: { name: string }) => c.name === 'Our GitHub App');
    assert.deepEqual(app.githubApp, { appId: '12345', installationId: '777' });
    assert.equal(JSON.stringify(list.body).includes(keyLine), false);
  });

  test('an admin edits a connection: repositories and their teams, the webhook secret, and the automation', async () => {
    const ops = await ui.t.post('/api/teams', { key: 'OPS', name: 'Operations' }, ui.t.adminToken);
    assert.equal(ops.status, 201, JSON.stringify(ops.body));
    const opsId = ops.body.team.id as string;
    const connectionOf = async () => {
      const list = await ui.t.get('/api/admin/git/connections', ui.t.adminToken);
      return list.body.connections.find((c: { name: string }) => c.name === 'Our GitHub');
    };
    await page.reload();
    const conn = page.getByRole('region', { name: 'Connection Our GitHub', exact: true });
    await conn.getByText('Webhook URL').waitFor();

    // Add a repository with its team.
    await conn.getByLabel('Add repository').fill('Acme/Added');
    await conn.getByLabel('Its team').selectOption({ label: 'Operations' });
    await conn.getByRole('button', { name: 'Add repository' }).click();
    await conn.getByRole('cell', { name: 'acme/added → Operations' }).waitFor();
    await conn
      .getByRole('button', { name: 'Add repository' })
      .and(page.locator(':not([aria-busy])'))
      .waitFor();
    await waitFor(async () => {
      const repos = (await connectionOf()).repositories as { fullName: string; teamId: string }[];
      return repos.find((r) => r.fullName === 'acme/added')?.teamId === opsId;
    });
    // A bad name is refused at its field, and nothing changes.
    await conn.getByLabel('Add repository').fill('not a repository');
    await conn.getByRole('button', { name: 'Add repository' }).click();
    await conn.getByText('must be owner/name').waitFor();
    assert.equal((await connectionOf()).repositories.length, 2);
    await conn.getByLabel('Add repository').fill('');

    // Change a repository's team.
    await conn.getByLabel('Team of codertocat/hello-world').selectOption({ label: 'Operations' });
    await conn.getByRole('cell', { name: 'codertocat/hello-world → Operations' }).waitFor();
    await waitFor(async () => {
      const repos = (await connectionOf()).repositories as { fullName: string; teamId: string }[];
      return repos.find((r) => r.fullName === 'codertocat/hello-world')?.teamId === opsId;
    });

    // Remove one.
    await conn.getByRole('button', { name: 'Remove acme/added' }).click();
    // The row's first cell (its "Remove" cell names the repository too).
    await conn.getByRole('cell', { name: /^acme\/added → / }).waitFor({ state: 'detached' });
    await waitFor(async () => (await connectionOf()).repositories.length === 1);

    // Replace the webhook secret: shown once, and from then on only it is accepted.
    await conn.getByRole('button', { name: 'Generate' }).click();
    await conn.getByRole('button', { name: 'Replace secret' }).click();
    const box = conn.getByRole('region', { name: 'Replaced webhook secret' });
    const fresh = (await box.getByTestId('replaced-git-secret').textContent())?.trim() ?? '';
    assert.ok(fresh.length >= 16 && fresh !== firstSecret, fresh);
    assert.equal(await conn.getByLabel('New webhook secret').inputValue(), '');
    const listed = await ui.t.get('/api/admin/git/connections', ui.t.adminToken);
    assert.equal(JSON.stringify(listed.body).includes(fresh), false, 'the list never has the secret');

    // Axe, light and dark, with the page as edited (the secret box open).
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      assert.deepEqual(await seriousViolations(page), [], colorScheme);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await box.getByRole('button', { name: 'Done' }).click();

    const issue = await ui.t.post(
      '/api/issues',
      { title: 'Moved by the new rule', teamId: 'ENG' },
      ui.t.adminToken,
    );
    const identifier = issue.body.issue.identifier as string;
    const opened = () => {
      const p = githubExample('pull_request', 'opened');
      p.number = 77;
      p.pull_request.number = 77;
      p.pull_request.html_url = 'https://github.com/Codertocat/Hello-World/pull/77';
      p.pull_request.title = `Fixes ${identifier}`;
      p.pull_request.draft = false;
      return p;
    };
    const refused = await deliver(ui.t, 'github', firstSecret, 'pull_request', opened());
    assert.equal(refused.status, 401, 'signed with the replaced secret');

    // Opened moves to In Progress by default; choose In Review instead.
    const automation = page.getByRole('region', { name: 'Automation of Engineering' });
    const openedRule = automation.getByLabel('Opened, any branch: the issue moves to', { exact: true });
    assert.equal(await openedRule.locator('option:checked').textContent(), 'Default (In Progress)');
    await openedRule.selectOption({ label: 'In Review' });
    await waitFor(async () => {
      const engId = (await ui.t.get('/api/teams/ENG', ui.t.adminToken)).body.team.id;
      const a = await ui.t.get(`/api/admin/git/teams/${engId}/automation`, ui.t.adminToken);
      return a.body.rules.some(
        (r: { event: string; targetBranch: string | null }) => r.event === 'start' && r.targetBranch === null,
      );
    });
    // A rule for one target branch, added and removed.
    await automation.getByLabel('Step', { exact: true }).selectOption({ label: 'Merged' });
    await automation.getByLabel('Into branch', { exact: true }).fill('staging');
    await automation.getByLabel('Moves to', { exact: true }).selectOption({ label: "Don't move" });
    await automation.getByRole('button', { name: 'Add rule' }).click();
    await automation.getByLabel('Merged, into staging: the issue moves to').waitFor();
    await automation.getByRole('button', { name: 'Remove the rule for Merged into staging' }).click();
    await automation.getByLabel('Merged, into staging: the issue moves to').waitFor({ state: 'detached' });

    const accepted = await deliver(ui.t, 'github', fresh, 'pull_request', opened());
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    const done = await processed(ui.t, accepted.body.id);
    assert.match(done.outcome ?? '', new RegExp(`moved ${identifier} to In Review`));
    assert.equal(await stateName(ui.t, issue.body.issue.id), 'In Review');
    await page.getByRole('button', { name: 'Refresh deliveries' }).click();
    await page.getByRole('cell', { name: new RegExp(`moved ${identifier} to In Review`) }).waitFor();
  });
});

/** Polls until `check` holds (the page's write reaches the server a moment after the page shows it). */
async function waitFor(check: () => Promise<boolean>) {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not met');
}
