// In a real browser: comments (written in the rich editor, components/editor/). A comment shows the moment it is written,
// edited or deleted, and is put back as it was when the server refuses; a
// deleted comment that someone answered leaves "Comment deleted" in its place
// and the answer where it was.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { focusLandsOn, holdOperation, refuseOperation, startUi, type UiEnv, visit } from './browser.js';

let ui: UiEnv;
let page: Page;
before(async () => {
  ui = await startUi();
  ({ page } = await ui.signedIn());
});
after(() => ui?.close());

async function newIssue(title: string) {
  const res = await ui.t.post('/api/issues', { title }, ui.t.adminToken);
  assert.equal(res.status, 201);
  return res.body.issue as { id: string; identifier: string };
}

async function savedBodies(issueId: string): Promise<string[]> {
  const res = await ui.t.get(`/api/issues/${issueId}/comments`, ui.t.adminToken);
  assert.equal(res.status, 200);
  return (res.body.comments as { body: string }[]).map((c) => c.body);
}

describe('UI: comments', () => {
  test('a new comment shows before the server answers, then stays once saved', async () => {
    const issue = await newIssue('Optimistic talk');
    await visit(page, `/issue/${issue.identifier}`);
    const box = page.getByLabel('Add a comment');
    await box.waitFor();
    const held = await holdOperation(page, 'AddComment');
    await box.fill('Said at once');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    const shown = page.locator('.comment', { hasText: 'Said at once' });
    await shown.getByText('sending…').waitFor();
    assert.equal(await box.textContent(), '', 'the box is cleared at once');
    assert.deepEqual(await savedBodies(issue.id), [], 'not saved yet');
    held.release();
    await page.waitForFunction(() => !document.body.textContent?.includes('sending…'));
    await held.stop();
    assert.equal(await shown.count(), 1);
    assert.deepEqual(await savedBodies(issue.id), ['Said at once']);
  });

  test('a refused comment goes away, its text back in the box and the reason beside it', async () => {
    const issue = await newIssue('Refused talk');
    await visit(page, `/issue/${issue.identifier}`);
    const box = page.getByLabel('Add a comment');
    await box.waitFor();
    const refused = await refuseOperation(page, 'AddComment', 'No comments today');
    await box.fill('Never kept');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'No comments today' }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('.comment-list > li').length === 0);
    assert.equal(await box.textContent(), 'Never kept');
    await refused.stop();
    assert.deepEqual(await savedBodies(issue.id), []);
  });

  test('an edit shows at once; refused, the editor opens again and the saved text stays', async () => {
    const issue = await newIssue('Edited talk');
    assert.equal(
      (await ui.t.post(`/api/issues/${issue.id}/comments`, { body: 'First words' }, ui.t.adminToken)).status,
      201,
    );
    await visit(page, `/issue/${issue.identifier}`);
    const item = page.locator('.comment').first();
    await item.getByText('First words').waitFor();

    const held = await holdOperation(page, 'EditComment');
    await item.getByRole('button', { name: /Edit comment/ }).click();
    // The editor puts the caret at the end of the text once it is up: typing before then is
    // typed where the caret lands, not over the text.
    await focusLandsOn(page, 'First words');
    await item.getByLabel('Edit comment').fill('Second words');
    await item.getByRole('button', { name: 'Save comment' }).click();
    await item.getByText('Second words').waitFor();
    assert.deepEqual(await savedBodies(issue.id), ['First words'], 'shown before it is saved');
    // "(edited)" shows at once too: the server's answer is what tells it saved.
    const answered = page.waitForResponse(
      (r) => r.request().postData()?.includes('mutation EditComment') ?? false,
    );
    held.release();
    await answered;
    await held.stop();
    assert.deepEqual(await savedBodies(issue.id), ['Second words']);

    const refused = await refuseOperation(page, 'EditComment', 'Edits are closed');
    await item.getByRole('button', { name: /Edit comment/ }).click();
    await focusLandsOn(page, 'Second words');
    await item.getByLabel('Edit comment').fill('Third words');
    await item.getByRole('button', { name: 'Save comment' }).click();
    await page.getByRole('alert').filter({ hasText: 'Edits are closed' }).waitFor();
    // The editor opens again with what was typed; the saved text is underneath.
    assert.equal(await item.getByLabel('Edit comment').textContent(), 'Third words');
    await item.getByRole('button', { name: 'Cancel' }).click();
    await item.getByText('Second words').waitFor();
    await refused.stop();
    assert.deepEqual(await savedBodies(issue.id), ['Second words']);
  });

  test('a deleted comment with replies shows "Comment deleted" and keeps the reply', async () => {
    const { t } = ui;
    const member = await t.userWithRole('member');
    const issue = await newIssue('Threaded talk');
    const parent = (await t.post(`/api/issues/${issue.id}/comments`, { body: 'Admin asks' }, t.adminToken))
      .body.comment;
    const reply = await t.post(
      `/api/issues/${issue.id}/comments`,
      { body: 'Member replies', parentId: parent.id },
      member.token,
    );
    assert.equal(reply.status, 201);

    await visit(page, `/issue/${issue.identifier}`);
    await page.getByText('Admin asks').waitFor();
    await page
      .locator('.comment', { hasText: 'Admin asks' })
      .getByRole('button', { name: /Delete comment/ })
      .click();
    await page.locator('.comment-deleted', { hasText: 'Comment deleted' }).waitFor();
    await page.getByText('Member replies').waitFor();
    assert.equal(await page.getByText('Admin asks').count(), 0);
    const items = await page.locator('.comment-list > li').allTextContents();
    assert.equal(items.length, 2);
    assert.ok(items.some((s) => s.includes('Comment deleted')));
    assert.ok(items.some((s) => s.includes('Member replies')));
  });
});
