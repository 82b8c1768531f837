// Two people, two browsers: what one changes shows in the other's list, board
// and issue page without a reload, through the change stream (docs/live.md).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, startUi, type UiEnv, visit } from './browser.js';

let ui: UiEnv;
let alice: Page; // the admin
let bob: Page; // a member
before(async () => {
  ui = await startUi();
  const member = await ui.t.userWithRole('member');
  ({ page: alice } = await ui.signedIn('/issues'));
  ({ page: bob } = await ui.signedIn('/issues', { as: member }));
});
after(() => ui?.close());

/** Waits for `what` in the page and reports how long the change took to get there. */
async function arrives(what: ReturnType<Page['getByText']>, since: number, label: string) {
  await what.waitFor({ timeout: 10_000 });
  console.log(`# live: ${label} shown in the other browser ${Date.now() - since} ms after the change`);
}

describe('UI: live updates between two browsers', () => {
  test('an issue created in one browser appears in the other list; an edit there follows', async () => {
    // Bob's list is open (ui.signedIn waited until nothing on it was loading).
    // The workspace is empty: both see where to start; Alice starts there.
    await bob.getByRole('heading', { name: /^Welcome to / }).waitFor();
    await alice.getByRole('link', { name: 'Invite your teammates' }).waitFor();
    assert.equal(await bob.getByRole('link', { name: 'Invite your teammates' }).count(), 0, 'admins only');
    await alice.getByRole('button', { name: 'Create your first issue' }).click();
    const dialog = alice.getByRole('dialog', { name: 'New issue' });
    await dialog.getByLabel('Title').fill('Seen live by Bob');
    let since = Date.now();
    await dialog.getByRole('button', { name: 'Create issue' }).click();
    await arrives(bob.getByRole('link', { name: /Seen live by Bob/ }), since, 'a new issue in the list');
    await alice.waitForURL(/\/issue\/ENG-\d+/);
    const identifier = /\/issue\/(ENG-\d+)/.exec(alice.url())![1]!;

    // Alice renames it on its page; Bob's list row follows.
    const title = alice.getByLabel('Title');
    await title.fill('Renamed while Bob watches');
    since = Date.now();
    await title.press('Enter');
    await arrives(bob.getByRole('link', { name: /Renamed while Bob watches/ }), since, 'a renamed row');
    assert.equal(await bob.getByRole('link', { name: /Seen live by Bob/ }).count(), 0);

    // Bob opens it; Alice's comment and priority change appear on his page.
    await visit(bob, `/issue/${identifier}`);
    await bob.getByRole('complementary', { name: 'Properties' }).waitFor();
    since = Date.now();
    const res = await ui.t.post(
      `/api/issues/${identifier}/comments`,
      { body: 'Comment from Alice' },
      ui.t.adminToken,
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    await arrives(bob.getByText('Comment from Alice'), since, 'a comment on the issue page');
    since = Date.now();
    assert.equal(
      (await ui.t.patch(`/api/issues/${identifier}`, { priority: 1 }, ui.t.adminToken)).status,
      200,
    );
    const priority = bob
      .getByRole('complementary', { name: 'Properties' })
      .getByRole('combobox', { name: 'Priority' });
    await bob.waitForFunction(
      (el) => (el as HTMLSelectElement | null)?.value === '1',
      await priority.elementHandle(),
      {
        timeout: 10_000,
      },
    );
    console.log(
      `# live: a priority change shown on the issue page ${Date.now() - since} ms after the change`,
    );
    await screenshot(bob, 'live-issue');
  });

  test('a card moved on one board moves on the other', async () => {
    const created = await ui.t.post(
      '/api/issues',
      { teamId: 'ENG', title: 'Card on the move' },
      ui.t.adminToken,
    );
    assert.equal(created.status, 201);
    await visit(bob, '/board');
    const backlog = bob.getByRole('region', { name: 'Backlog' });
    await backlog.getByRole('link', { name: /Card on the move/ }).waitFor();
    const states = (await ui.t.get('/api/workflow-states?teamId=ENG', ui.t.adminToken)).body
      .workflowStates as {
      id: string;
      name: string;
    }[];
    const todo = states.find((s) => s.name === 'Todo')!;
    const since = Date.now();
    await ui.t.patch(`/api/issues/${created.body.issue.id}`, { stateId: todo.id }, ui.t.adminToken);
    await arrives(
      bob.getByRole('region', { name: 'Todo' }).getByRole('link', { name: /Card on the move/ }),
      since,
      'a card in its new column',
    );
    assert.equal(await backlog.getByRole('link', { name: /Card on the move/ }).count(), 0);
  });
});
