// End to end in a real browser: adding and removing relations on an issue
// page, and the Blocked marker in the list and on the board, which goes away
// once the blocking issue is done.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, startUi, type UiEnv, visit } from './browser.js';

let ui: UiEnv;
let page: Page;
const stamp = Date.now().toString(36);

before(async () => {
  ui = await startUi();
  ({ page } = await ui.signedIn());
});
after(() => ui?.close());

async function apiIssue(title: string) {
  const res = await ui.t.post('/api/issues', { title }, ui.t.adminToken);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.issue as { id: string; identifier: string };
}

describe('UI: relations', () => {
  test('add a blocker on the issue page; the list and board show Blocked until it is done', async () => {
    const blocked = await apiIssue(`Ship release ${stamp}`);
    const blocker = await apiIssue(`Fix migration ${stamp}`);

    await visit(page, `/issue/${blocked.identifier}`);
    const section = page.getByRole('region', { name: 'Relations' });
    await section.getByText('No related issues.').waitFor();
    await section.getByLabel('Relation').selectOption({ label: 'Blocked by' });
    await section.getByLabel('Issue').fill(blocker.identifier);
    await section.getByRole('button', { name: 'Add relation' }).click();
    const list = section.getByRole('list', { name: 'Blocked by' });
    await list.getByRole('link', { name: new RegExp(blocker.identifier) }).waitFor();
    await screenshot(page, 'relations-section');
    const stored = await ui.t.get(`/api/issues/${blocked.id}/relations`, ui.t.adminToken);
    assert.equal(stored.body.relations[0].kind, 'blocked_by');
    assert.equal(stored.body.relations[0].issue.id, blocker.id);

    // The list marks the blocked issue, by name for assistive technology too, and not the blocker.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Issues', exact: true })
      .click();
    const rows = page.getByRole('list', { name: 'Issues' });
    const row = rows.getByRole('link', { name: new RegExp(`Ship release ${stamp}`) });
    await row.getByRole('img', { name: 'Blocked' }).waitFor();
    const blockerRow = rows.getByRole('link', { name: new RegExp(`Fix migration ${stamp}`) });
    assert.equal(await blockerRow.getByRole('img', { name: 'Blocked' }).count(), 0);
    await screenshot(page, 'relations-list');

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Board', exact: true })
      .click();
    const card = page.getByRole('link', {
      name: new RegExp(`${blocked.identifier} Ship release ${stamp}, blocked`),
    });
    await card.getByRole('img', { name: 'Blocked' }).waitFor();

    // Once the blocker is done, the marker goes.
    const done = await ui.t.ctx.db
      .selectFrom('workflow_states')
      .select('id')
      .where('name', '=', 'Done')
      .executeTakeFirstOrThrow();
    const moved = await ui.t.patch(`/api/issues/${blocker.id}`, { stateId: done.id }, ui.t.adminToken);
    assert.equal(moved.status, 200);
    // A document load: the count below is read at once, and the cached list could still show the marker.
    await page.goto('/issues');
    await rows.getByRole('link', { name: new RegExp(`Ship release ${stamp}`) }).waitFor();
    assert.equal(
      await rows
        .getByRole('link', { name: new RegExp(`Ship release ${stamp}`) })
        .getByRole('img', { name: 'Blocked' })
        .count(),
      0,
    );
  });

  test('marking a duplicate moves the issue; removing a relation takes it off the page', async () => {
    const original = await apiIssue(`Dark mode ${stamp}`);
    const dup = await apiIssue(`Night theme ${stamp}`);
    await visit(page, `/issue/${dup.identifier}`);
    const section = page.getByRole('region', { name: 'Relations' });
    await section.getByLabel('Relation').selectOption({ label: 'Duplicate of' });
    await section.getByLabel('Issue').fill(original.identifier);
    await section.getByRole('button', { name: 'Add relation' }).click();
    await section
      .getByRole('list', { name: 'Duplicate of' })
      .getByRole('link', { name: new RegExp(original.identifier) })
      .waitFor();
    // The issue itself moved to the Duplicate state; the page shows it.
    const properties = page.getByRole('complementary', { name: 'Properties' });
    await properties
      .getByLabel('State')
      .filter({ has: page.locator('option:checked', { hasText: 'Duplicate' }) })
      .waitFor();

    await section
      .getByRole('button', { name: `Remove relation: Duplicate of ${original.identifier}` })
      .click();
    await section.getByText('No related issues.').waitFor();
    const left = await ui.t.get(`/api/issues/${dup.id}/relations`, ui.t.adminToken);
    assert.equal(left.body.relations.length, 0);

    // Bad input is told, not thrown: an unknown issue.
    await section.getByLabel('Issue').fill('ENG-99999');
    await section.getByRole('button', { name: 'Add relation' }).click();
    await section.getByText('No issue ENG-99999 that you can see').waitFor();
  });
});
