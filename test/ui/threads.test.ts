// In a real browser: threads (issue 26). Reacting to a comment shows the
// count at once and takes it back on a second click; a refused reaction is
// put back; a reply shows nested under the comment it answers; a long thread
// folds its earlier replies; the issue itself takes reactions too.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { holdOperation, refuseOperation, startUi, type UiEnv, visit } from './browser.js';

let ui: UiEnv;
let page: Page;
before(async () => {
  ui = await startUi();
  ({ page } = await ui.signedIn());
});
after(() => ui?.close());

async function issueWithComment(title: string, body: string) {
  const { t } = ui;
  const issue = (await t.post('/api/issues', { title }, t.adminToken)).body.issue as {
    id: string;
    identifier: string;
  };
  const comment = (await t.post(`/api/issues/${issue.id}/comments`, { body }, t.adminToken)).body.comment as {
    id: string;
  };
  return { issue, comment };
}

/** Reads `read` until `done` holds (a write the page sent is on its way), then its value. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await page.waitForTimeout(50);
  }
}

const savedReactions = async (commentId: string) =>
  (await ui.t.get(`/api/comments/${commentId}/reactions`, ui.t.adminToken)).body.reactions.map(
    (r: { emoji: string }) => r.emoji,
  );

describe('UI: reactions and replies', () => {
  test('react to a comment: the count shows at once, a second click takes it back', async () => {
    const { issue, comment } = await issueWithComment('Reactions here', 'Ship it?');
    await visit(page, `/issue/${issue.identifier}`);
    const item = page.locator('.comment', { hasText: 'Ship it?' });
    await item.waitFor();

    const held = await holdOperation(page, 'CreateReaction');
    await item.getByRole('button', { name: 'Add reaction' }).click();
    await item.getByRole('button', { name: 'React with 🎉' }).click();
    const given = item.getByRole('button', { name: /^🎉 1: / });
    await given.waitFor();
    assert.equal(await given.getAttribute('aria-pressed'), 'true');
    assert.deepEqual(await savedReactions(comment.id), [], 'shown before it is saved');
    held.release();
    await held.stop();
    // Saved, and the button names who reacted.
    assert.deepEqual(
      await until(
        () => savedReactions(comment.id),
        (r) => r.length > 0,
      ),
      ['🎉'],
    );
    assert.match((await given.getAttribute('aria-label')) ?? '', /🎉 1: .+/);

    // Someone else's reaction with the same emoji counts too; mine toggles off alone.
    const member = await ui.t.userWithRole('member');
    await ui.t.post(`/api/comments/${comment.id}/reactions`, { emoji: '🎉' }, member.token);
    await page.reload();
    await item.getByRole('button', { name: /^🎉 2: / }).waitFor();
    await item.getByRole('button', { name: /^🎉 2: / }).click();
    const left = item.getByRole('button', { name: /^🎉 1: A member$/ });
    await left.waitFor();
    assert.equal(await left.getAttribute('aria-pressed'), 'false');
    assert.deepEqual(
      await until(
        () => savedReactions(comment.id),
        (r) => r.length === 1,
      ),
      ['🎉'],
    );
  });

  test('a refused reaction goes away and says why', async () => {
    const { issue, comment } = await issueWithComment('Refused reaction', 'Hmm');
    await visit(page, `/issue/${issue.identifier}`);
    const item = page.locator('.comment', { hasText: 'Hmm' });
    await item.waitFor();
    const refused = await refuseOperation(page, 'CreateReaction', 'No reactions today');
    await item.getByRole('button', { name: 'Add reaction' }).click();
    await item.getByRole('button', { name: 'React with 👍' }).click();
    await item.getByRole('alert').filter({ hasText: 'No reactions today' }).waitFor();
    await item.getByRole('button', { name: /^👍/ }).waitFor({ state: 'detached' });
    await refused.stop();
    assert.deepEqual(await savedReactions(comment.id), []);
  });

  test('the issue itself takes reactions, under its description', async () => {
    const { issue } = await issueWithComment('Issue reactions', 'unrelated');
    await visit(page, `/issue/${issue.identifier}`);
    const bar = page.getByRole('group', { name: 'Reactions to the issue' });
    await bar.getByRole('button', { name: 'Add reaction' }).click();
    await bar.getByRole('button', { name: 'React with 🚀' }).click();
    await bar.getByRole('button', { name: /^🚀 1: / }).waitFor();
    const saved = await until(
      async () => (await ui.t.get(`/api/issues/${issue.id}/reactions`, ui.t.adminToken)).body.reactions,
      (r) => r.length > 0,
    );
    assert.deepEqual(
      saved.map((r: { emoji: string; commentId: string | null }) => [r.emoji, r.commentId]),
      [['🚀', null]],
    );
  });

  test('reply to a comment: the reply shows nested under it, saved with its parent', async () => {
    const { issue, comment } = await issueWithComment('Threads here', 'Who owns this?');
    await visit(page, `/issue/${issue.identifier}`);
    await page.getByText('Who owns this?').waitFor();
    await page.getByRole('button', { name: /^Reply to / }).click();
    const box = page.getByRole('textbox', { name: /^Reply to / });
    await box.fill('I do');
    await page.getByRole('button', { name: 'Reply', exact: true }).click();
    const replies = page.getByRole('list', { name: /^Replies to / });
    await replies.getByText('I do').waitFor();
    const saved = await until(
      async () =>
        (await ui.t.get(`/api/issues/${issue.id}/comments`, ui.t.adminToken)).body.comments as {
          body: string;
          parentId: string | null;
        }[],
      (all) => all.some((c) => c.body === 'I do'),
    );
    assert.deepEqual(
      saved.map((c) => [c.body, c.parentId]),
      [
        ['Who owns this?', null],
        ['I do', comment.id],
      ],
    );
  });

  test('a long thread folds its earlier replies until asked', async () => {
    const { issue, comment } = await issueWithComment('Long thread', 'Start');
    for (const n of [1, 2, 3, 4, 5])
      await ui.t.post(
        `/api/issues/${issue.id}/comments`,
        { body: `Reply ${n}`, parentId: comment.id },
        ui.t.adminToken,
      );
    await visit(page, `/issue/${issue.identifier}`);
    const replies = page.getByRole('list', { name: /^Replies to / });
    await replies.getByText('Reply 5').waitFor();
    assert.equal(await replies.getByText('Reply 1', { exact: true }).count(), 0, 'folded');
    assert.equal(await replies.getByText('Reply 4').count(), 1);
    await replies.getByRole('button', { name: 'Show 3 earlier replies' }).click();
    await replies.getByText('Reply 1', { exact: true }).waitFor();
    assert.equal(await replies.locator('.comment').count(), 5);
  });
});
