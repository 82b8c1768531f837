// End to end in a real browser: with an issue's page open, GitHub's signed
// pull_request deliveries (its real example payloads) make the pull request
// appear on the page as open, then move it to merged and the issue to Done,
// without a reload: the attachment and issue events reach the page through
// the change stream (docs/git.md, docs/live.md).
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

/** GitHub's "opened" example made into pull request 77 of ours, naming `title`. */
function pull(action: 'opened' | 'closed', title: string) {
  const p = githubExample('pull_request', action);
  p.number = 77;
  p.pull_request.number = 77;
  p.pull_request.html_url = 'https://github.com/Codertocat/Hello-World/pull/77';
  p.pull_request.title = title;
  p.pull_request.body = null;
  p.pull_request.head.ref = 'some-branch';
  p.pull_request.draft = false;
  p.pull_request.requested_reviewers = [];
  if (action === 'closed') {
    // GitHub sends a merge as "closed" with merged true (the examples hold no merged one).
    p.pull_request.merged = true;
    p.pull_request.merged_at = p.pull_request.closed_at;
  }
  return p;
}

describe('UI: the issue page’s pull requests', () => {
  test('a pull request appears as open and moves to merged, the issue to Done, while the page is open', async () => {
    const eng = (await ui.t.get('/api/teams/ENG', ui.t.adminToken)).body.team.id as string;
    const github = await connect(ui.t, 'github', [{ fullName: 'Codertocat/Hello-World', teamId: eng }]);
    const issue = await newIssue(ui.t, 'Shown with its pull request');
    await visit(page, `/issue/${issue.identifier}`);
    const props = page.getByRole('complementary', { name: 'Properties' });
    await props.waitFor();
    // The stream is open and what the page read is current: a change from now on is sent to it.
    await page.waitForFunction(() => document.documentElement.dataset['live'] === 'synced');
    assert.equal(await page.getByRole('region', { name: 'Pull requests and commits' }).count(), 0);

    const title = `Fixes ${issue.identifier} in the login`;
    await deliverAndWait(ui.t, 'github', github.secret, 'pull_request', pull('opened', title));
    const panel = page.getByRole('region', { name: 'Pull requests and commits' });
    const item = panel.getByRole('listitem').filter({ hasText: '#77' });
    await item.waitFor({ timeout: 10_000 });
    assert.match((await item.textContent()) ?? '', /GitHub/);
    assert.match((await item.textContent()) ?? '', /codertocat\/hello-world/);
    assert.match((await item.textContent()) ?? '', new RegExp(title));
    assert.match((await item.textContent()) ?? '', /by Codertocat/);
    await item.locator('.pr-status', { hasText: /^open$/ }).waitFor();
    assert.deepEqual(await seriousViolations(page), []);

    await deliverAndWait(ui.t, 'github', github.secret, 'pull_request', pull('closed', title));
    await item.locator('.pr-status', { hasText: /^merged$/ }).waitFor({ timeout: 10_000 });
    const state = props.getByRole('combobox', { name: 'State' });
    await page.waitForFunction(
      (el) => {
        const s = el as HTMLSelectElement | null;
        return s?.selectedOptions[0]?.textContent?.includes('Done') ?? false;
      },
      await state.elementHandle(),
      { timeout: 10_000 },
    );
    // One pull request, updated in place; not listed again under Attachments.
    assert.equal(await panel.getByRole('listitem').count(), 1);
    assert.equal(await page.getByRole('region', { name: 'Attachments' }).getByText('#77').count(), 0);
  });
});
