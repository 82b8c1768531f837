// In a real browser: deleting your own comment that someone answered leaves
// "Comment deleted" in its place and the answer where it was.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, signIn, startUi, type UiEnv } from './browser.js';

let ui: UiEnv;
let page: Page;
before(async () => {
  ui = await startUi();
  ({ page } = await ui.newPage());
  await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
});
after(() => ui?.close());

describe('UI: a deleted comment with replies', () => {
  test('shows "Comment deleted" and keeps the reply', async () => {
    const { t } = ui;
    const member = await t.userWithRole('member');
    const issue = (await t.post('/api/issues', { title: 'Threaded talk' }, t.adminToken)).body.issue;
    const parent = (await t.post(`/api/issues/${issue.id}/comments`, { body: 'Admin asks' }, t.adminToken))
      .body.comment;
    const reply = await t.post(
      `/api/issues/${issue.id}/comments`,
      { body: 'Member replies', parentId: parent.id },
      member.token,
    );
    assert.equal(reply.status, 201);

    await page.goto(`/issue/${issue.identifier}`);
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
