// End to end in a real browser: with the issue list open, GitHub's signed
// deliveries (its real example payloads) put a pull request marker on the
// issue's row, then its checks, without a reload (the attachment events read
// the row again, web/src/lib/live.ts); the board's card shows the same marker.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { connect, deliverAndWait, githubExample, newIssue } from '../git-support.js';
import { seriousViolations, startUi, type UiEnv, visit } from './browser.js';

let ui: UiEnv;
let page: Page;

before(async () => {
  ui = await startUi({}, { gitWorker: { pollMs: 20 } });
  ({ page } = await ui.signedIn());
});
after(async () => {
  await ui?.close();
});

describe('UI: the pull request marker on list rows and board cards', () => {
  test('appears with the status, then the checks, while the list is open; the board shows it too', async () => {
    const eng = (await ui.t.get('/api/teams/ENG', ui.t.adminToken)).body.team.id as string;
    const github = await connect(ui.t, 'github', [{ fullName: 'Codertocat/Hello-World', teamId: eng }]);
    const title = 'Marked by its pull request';
    const issue = await newIssue(ui.t, title);
    await visit(page, '/issues');
    const row = page.getByRole('link', { name: new RegExp(title) });
    await row.waitFor();
    await page.waitForFunction(() => document.documentElement.dataset['live'] === 'synced');
    assert.equal(await row.getByTestId('pr-marker').count(), 0);

    const pr = githubExample('pull_request', 'opened');
    Object.assign(pr.pull_request, {
      number: 88,
      html_url: 'https://github.com/Codertocat/Hello-World/pull/88',
      title: `Fixes ${issue.identifier}`,
      body: null,
      draft: false,
      requested_reviewers: [],
    });
    pr.number = 88;
    const run = githubExample('check_run', 'completed', (e) => e.check_run.conclusion === 'failure');
    pr.pull_request.head.sha = run.check_run.head_sha;
    await deliverAndWait(ui.t, 'github', github.secret, 'pull_request', pr);
    const marker = row.getByTestId('pr-marker');
    // Live: the delivery's work goes through the git worker and the change stream (seconds under CI's load).
    await marker.waitFor({ timeout: 30_000 });
    assert.equal(await marker.getAttribute('aria-label'), 'Pull request open');
    assert.match((await marker.textContent()) ?? '', /open/);

    await deliverAndWait(ui.t, 'github', github.secret, 'check_run', run);
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="pr-marker"]')?.getAttribute('aria-label') ===
        'Pull request open, checks failed',
      undefined,
      { timeout: 30_000 },
    );
    assert.deepEqual(await seriousViolations(page), []);

    await visit(page, '/board');
    const card = page.getByRole('link', { name: new RegExp(title) });
    await card.getByTestId('pr-marker').waitFor();
    assert.equal(
      await card.getByTestId('pr-marker').getAttribute('aria-label'),
      'Pull request open, checks failed',
    );
  });
});

describe('UI: the branch name format on the Git admin page', () => {
  test('an admin sees the format, is told of a bad one before sending, and saves a good one', async () => {
    await visit(page, '/admin/git');
    const field = page.getByLabel('Branch name format');
    await field.waitFor();
    assert.equal(await field.inputValue(), '{user.username}/{issue.identifier}-{issue.title}');
    await field.fill('feature/{issue.name}');
    await page.getByText(/unknown placeholder \{issue\.name\}/).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Save format' }).isDisabled(), true);
    await field.fill('feature/{issue.identifier}');
    // The answer to the save, not the button: it is disabled while the request is on its way too.
    const answered = page.waitForResponse(
      (r) => r.request().method() === 'PUT' && r.url().endsWith('/api/admin/git/settings'),
    );
    await page.getByRole('button', { name: 'Save format' }).click();
    assert.equal((await answered).status(), 200);
    await page.getByRole('button', { name: 'Save format' }).and(page.locator(':disabled')).waitFor();
    const saved = await ui.t.get('/api/admin/git/settings', ui.t.adminToken);
    assert.equal(saved.body.branchFormat, 'feature/{issue.identifier}');
    assert.deepEqual(await seriousViolations(page), []);
  });
});
