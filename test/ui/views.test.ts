// Saved views: a list's filters and display saved under a name, personal or
// shared; shared ones appear in everyone's sidebar and open as saved, their
// filter shown as the builder's chips, which change the view when saved to it
// (its owner) or go back as saved when discarded.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, seriousViolations, startUi, type UiEnv, visit } from './browser.js';

let ui: UiEnv;
let admin: Page;
let member: Page;
before(async () => {
  ui = await startUi();
  for (const [title, priority] of [
    ['Fire in the server room', 1],
    ['Another fire', 1],
    ['Tidy the wiki', 4],
  ] as const)
    assert.equal(
      (await ui.t.post('/api/issues', { teamId: 'ENG', title, priority }, ui.t.adminToken)).status,
      201,
    );
  const m = await ui.t.userWithRole('member');
  ({ page: admin } = await ui.signedIn('/issues'));
  ({ page: member } = await ui.signedIn('/issues', { as: m }));
});
after(() => ui?.close());

const sidebarView = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: new RegExp(`^${name}`) });

describe('UI: saved views', () => {
  test('saving a filtered, grouped list as a shared view; it opens as saved for another member', async () => {
    await visit(admin, '/issues?priority=1&group=none');
    await admin.getByRole('link', { name: /Fire in the server room/ }).waitFor();
    await admin.getByRole('button', { name: 'Save view' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Save view' });
    await dialog.getByLabel('Name').fill('Fires');
    await dialog.getByLabel(/Share with the workspace/).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await admin.getByRole('heading', { name: 'Fires', level: 1 }).waitFor();
    assert.match(new URL(admin.url()).pathname, /^\/views\/[0-9a-f-]{36}$/);
    await admin.getByRole('link', { name: /Another fire/ }).waitFor();
    assert.equal(await admin.getByRole('link', { name: /Tidy the wiki/ }).count(), 0);
    await sidebarView(admin, 'Fires').waitFor();
    await screenshot(admin, 'saved-view');

    const stored = (await ui.t.get('/api/views', ui.t.adminToken)).body.views as {
      name: string;
      shared: boolean;
      filterData: unknown;
      display: unknown;
    }[];
    const fires = stored.find((v) => v.name === 'Fires')!;
    assert.equal(fires.shared, true);
    assert.deepEqual(fires.filterData, { priority: { eq: 1 } });
    assert.deepEqual(fires.display, { group: 'none' });

    // The member's sidebar has it (after a reload: views are not live); it opens with the saved filter.
    await member.goto('/issues');
    await sidebarView(member, 'Fires').click();
    await member.getByRole('heading', { name: 'Fires', level: 1 }).waitFor();
    await member.getByRole('link', { name: /Fire in the server room/ }).waitFor();
    assert.equal(await member.getByRole('link', { name: /Tidy the wiki/ }).count(), 0);
    assert.equal(
      await member.getByRole('button', { name: 'Delete view' }).count(),
      0,
      'not the member’s to delete',
    );
  });

  test("a view's filter shows as chips: changed, it is saved to the view or discarded", async () => {
    const fires = ((await ui.t.get('/api/views', ui.t.adminToken)).body.views as any[]).find(
      (v) => v.name === 'Fires',
    );
    const shows = async (page: Page, titles: string[]) => {
      for (const t of titles) await page.getByRole('link', { name: new RegExp(t) }).waitFor();
      assert.equal(
        await page.getByRole('link', { name: /Fire in|Another fire|Tidy the wiki/ }).count(),
        titles.length,
      );
    };
    await visit(admin, '/issues');
    await sidebarView(admin, 'Fires').click();
    await admin.getByRole('heading', { name: 'Fires', level: 1 }).waitFor();
    await admin.getByRole('group', { name: 'Filter: Priority is Urgent' }).waitFor();
    assert.equal(await admin.getByRole('status').filter({ hasText: 'Filters changed' }).count(), 0);
    await shows(admin, ['Fire in the server room', 'Another fire']);

    // Removed, the list widens and the view says it changed; Discard puts the saved filter back.
    await admin.getByRole('button', { name: 'Remove the Priority filter' }).click();
    await shows(admin, ['Fire in the server room', 'Another fire', 'Tidy the wiki']);
    await admin.getByRole('status').filter({ hasText: 'Filters changed' }).waitFor();
    assert.deepEqual(await seriousViolations(admin), []);
    await admin.getByRole('button', { name: 'Discard changes' }).click();
    await admin.getByRole('group', { name: 'Filter: Priority is Urgent' }).waitFor();
    await shows(admin, ['Fire in the server room', 'Another fire']);

    // Changed in the chip's own menu (Low added), then saved to the view: the server has it.
    await admin.getByRole('button', { name: /^Priority: .*change the values$/ }).click();
    const values = admin.getByRole('listbox', { name: 'Priority' });
    await values.getByRole('option', { name: 'Low' }).click();
    await admin.keyboard.press('Escape');
    await admin.getByRole('group', { name: 'Filter: Priority is any of Urgent, Low' }).waitFor();
    await shows(admin, ['Fire in the server room', 'Another fire', 'Tidy the wiki']);
    await admin.getByRole('button', { name: 'Save to view' }).click();
    await admin.getByRole('status').filter({ hasText: 'Filters changed' }).waitFor({ state: 'detached' });
    const saved = (await ui.t.get(`/api/views/${fires.id}`, ui.t.adminToken)).body.view;
    assert.deepEqual(saved.filterData, { priority: { in: [1, 4] } });
    assert.deepEqual(saved.display, { group: 'none' }, 'the display is kept');

    // Opened afresh, by the member too, the view is the saved one; the member may change the chips but not the view.
    // A document load: views are not live, and the member's copy of this one is from before the change.
    await member.goto(`/views/${fires.id}`);
    await member.getByRole('group', { name: 'Filter: Priority is any of Urgent, Low' }).waitFor();
    await shows(member, ['Fire in the server room', 'Another fire', 'Tidy the wiki']);
    await member.getByRole('button', { name: 'Remove the Priority filter' }).click();
    await member.getByRole('status').filter({ hasText: 'Filters changed' }).waitFor();
    assert.equal(
      await member.getByRole('button', { name: 'Save to view' }).count(),
      0,
      'not the member’s view',
    );
    await member.getByRole('button', { name: 'Discard changes' }).click();
    await member.getByRole('group', { name: 'Filter: Priority is any of Urgent, Low' }).waitFor();
  });

  test('a personal view stays its owner’s; the owner deletes it', async () => {
    await visit(member, '/issues?priority=4');
    await member.getByRole('link', { name: /Tidy the wiki/ }).waitFor();
    await member.getByRole('button', { name: 'Save view' }).click();
    const dialog = member.getByRole('dialog', { name: 'Save view' });
    await dialog.getByLabel('Name').fill('Chores');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await member.getByRole('heading', { name: 'Chores', level: 1 }).waitFor();
    // A document load: the sidebar's views read afresh (they are not live), so a leak would show.
    await admin.goto('/issues');
    await sidebarView(admin, 'Fires').waitFor();
    assert.equal(await sidebarView(admin, 'Chores').count(), 0, 'a personal view is nobody else’s');
    await member.getByRole('button', { name: 'Delete view' }).click();
    await member.waitForURL('**/issues');
    await sidebarView(member, 'Fires').waitFor();
    // The sidebar's list is read again after the deletion: wait for it rather than race it.
    await sidebarView(member, 'Chores').waitFor({ state: 'detached' });
  });
});
