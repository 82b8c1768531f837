/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser.)
// The keyboard, many issues at once, and rich text: typing right after Ctrl+K
// or C lands in the field; `?` lists the shortcuts; S/P/A/L open a property's menu;
// Ctrl/Shift-click and X select rows, and the bulk bar changes them all;
// Markdown tables, `ENG-n` references and `@name` mentions render as such.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, startUi, type UiEnv, visit } from './browser.js';

let ui: UiEnv;
let page: Page;
const ids: string[] = [];
before(async () => {
  ui = await startUi();
  for (let i = 0; i < 5; i++) {
    const res = await ui.t.post(
      '/api/issues',
      { teamId: 'ENG', title: `Bulk ${i}`, priority: 0 },
      ui.t.adminToken,
    );
    ids.push(res.body.issue?.identifier ?? res.body.identifier);
  }
  ({ page } = await ui.signedIn());
});
after(() => ui?.close());

const issue = async (identifier: string) => {
  const res = await ui.t.get(`/api/issues/${identifier}`, ui.t.adminToken);
  assert.equal(res.status, 200);
  return res.body.issue ?? res.body;
};

describe('UI: keyboard, bulk edit and rich text', () => {
  test('typing right after Ctrl+K or C goes into the field', async () => {
    await visit(page, '/settings/account');
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    await page.keyboard.press('Control+k');
    await page.keyboard.type('board');
    assert.equal(
      await page.getByRole('combobox', { name: 'Type a command or search issues' }).inputValue(),
      'board',
    );
    await page.keyboard.press('Escape');
    await page.keyboard.press('c');
    const dialog = page.getByRole('dialog', { name: 'New issue' });
    await dialog.waitFor();
    await page.keyboard.type('Typed at once');
    assert.equal(await dialog.getByLabel('Title').inputValue(), 'Typed at once');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  test('? lists the shortcuts; on an issue S, P, A and L open the property menus', async () => {
    await visit(page, `/issue/${ids[0]}`);
    const properties = page.getByRole('complementary', { name: 'Properties' });
    await properties.waitFor();
    await page.keyboard.press('Shift+?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    await help.getByText('Change priority').waitFor();
    await screenshot(page, 'shortcuts');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
    // Each opens its quick-edit menu on the open issue, its filter box focused; Escape closes it.
    for (const [key, title] of [
      ['s', 'Change status'],
      ['p', 'Set priority'],
      ['a', 'Assign to'],
      ['l', 'Labels'],
    ] as const) {
      await page.locator('body').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press(key);
      const menu = page.getByRole('dialog', { name: `${title} – ${ids[0]}` });
      await menu.waitFor();
      assert.equal(
        await menu
          .getByRole('combobox', { name: `${title}: type to filter` })
          .evaluate((el) => el === document.activeElement),
        true,
        `${key} opens ${title} with its filter focused`,
      );
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });
    }
  });

  test('Ctrl-click, Shift-click and X select rows; the bulk bar sets their priority and assignee', async () => {
    await visit(page, '/issues?group=none&order=created');
    const row = (id: string) => page.getByRole('link', { name: new RegExp(`^.*${id}\\b`) });
    await row(ids[4]!).waitFor();
    await row(ids[4]!).click({ modifiers: ['Control'] });
    assert.match(new URL(page.url()).pathname, /\/issues$/, 'a Ctrl-click selects, it does not open');
    const bar = page.getByRole('toolbar', { name: 'Bulk edit' });
    await bar.getByText('1 selected').waitFor();
    await row(ids[2]!).click({ modifiers: ['Shift'] });
    await bar.getByText('3 selected').waitFor();
    assert.equal(await page.getByRole('checkbox', { name: `Select ${ids[3]}` }).isChecked(), true);
    // The row's own box adds ids[1]; X toggles the row focused with J.
    await page.getByRole('checkbox', { name: `Select ${ids[1]}` }).click();
    await bar.getByText('4 selected').waitFor();
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    await bar.getByText('3 selected').waitFor();
    await page.keyboard.press('x');
    await bar.getByText('4 selected').waitFor();
    await screenshot(page, 'bulk-bar');
    await bar.getByRole('combobox', { name: 'Priority' }).selectOption({ label: 'Urgent' });
    await bar.getByRole('combobox', { name: 'Assignee' }).selectOption({ label: 'Admin' });
    const adminId = (await ui.t.get('/api/auth/me', ui.t.adminToken)).body.user.id;
    for (const id of ids.slice(1)) {
      await waitFor(async () => {
        const now = await issue(id);
        return now.priority === 1 && now.assigneeId === adminId;
      }, id);
    }
    assert.equal((await issue(ids[0]!)).priority, 0, 'the unselected issue is untouched');
    await page.keyboard.press('Escape');
    await bar.waitFor({ state: 'detached' });
  });

  test('a guest is offered nothing a guest cannot do', async () => {
    const guest = await ui.t.userWithRole('guest', { teams: ['ENG'] });
    const { page: g } = await ui.signedIn('/issues', { as: guest });
    await g.getByRole('link', { name: new RegExp(ids[0]!) }).waitFor();
    assert.equal(await g.getByRole('button', { name: /New issue/ }).count(), 0);
    assert.equal(await g.getByRole('checkbox', { name: /^Select / }).count(), 0);
    await g.keyboard.press('c');
    await g.waitForTimeout(200);
    assert.equal(await g.getByRole('dialog', { name: 'New issue' }).count(), 0, 'C opens nothing');
    await visit(g, '/board');
    const card = g.getByRole('link', { name: new RegExp(ids[0]!) });
    await card.waitFor();
    assert.equal(await card.getAttribute('draggable'), 'false');
    await visit(g, `/issue/${ids[0]}`);
    const properties = g.getByRole('complementary', { name: 'Properties' });
    await properties.waitFor();
    assert.equal(await properties.getByRole('combobox', { name: 'State' }).isDisabled(), true);
  });

  test('Markdown tables, issue references and mentions render as such', async () => {
    const body = [
      `Blocked on ${ids[1]} and not on XYZ-1; ask @admin or @nobody.`,
      '',
      '| Step | Owner | Done |',
      '|:-----|:-----:|-----:|',
      '| Build | @admin | yes |',
      '| Ship | | no |',
    ].join('\n');
    const res = await ui.t.patch(`/api/issues/${ids[0]}`, { description: body }, ui.t.adminToken);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await visit(page, `/issue/${ids[0]}`);
    const description = page.getByRole('region', { name: 'Description' });
    const table = description.getByRole('table');
    await table.waitFor();
    assert.deepEqual(await table.getByRole('columnheader').allTextContents(), ['Step', 'Owner', 'Done']);
    assert.equal(await table.getByRole('row').count(), 3);
    assert.equal(await description.getByRole('link', { name: '@nobody' }).count(), 0, 'no link for nobody');
    assert.equal(
      await description.getByRole('link', { name: 'XYZ-1' }).count(),
      0,
      'no link for an unknown team',
    );
    assert.equal(await description.getByRole('link', { name: '@Admin' }).count(), 2);
    await screenshot(page, 'markdown-extras');
    await description.getByRole('link', { name: ids[1] }).click();
    await page.waitForURL(`**/issue/${ids[1]}`);
  });
});

async function waitFor(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 50; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`timed out waiting for ${what}`);
}
