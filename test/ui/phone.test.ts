/// <reference lib="dom" />
// Issue 14: the everyday flows on a phone (390 × 844, touch), end to end: the
// drawer's New issue, the create dialog, the issue page with a comment, and the
// inbox from the drawer, none of them scrolling sideways; the list's selection
// boxes inside the screen and their rows, a tap on one selecting its issue.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { PHONE, screenshot, startUi, type UiEnv } from './browser.js';

let ui: UiEnv;
let member: { email: string; user: { id: string } };
before(async () => {
  ui = await startUi();
  member = await ui.t.userWithRole('member');
  await ui.t.post(
    '/api/issues',
    { teamId: 'ENG', title: 'Waiting for you on the phone', assigneeId: member.user.id },
    ui.t.adminToken,
  );
});
after(() => ui?.close());

const overflowsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);

describe('UI on a phone', () => {
  test('create an issue from the drawer, comment on it, and read the inbox', async () => {
    const { page } = await ui.signedIn('/', { viewport: PHONE, as: member });
    const menu = page.getByRole('button', { name: 'Menu', exact: true });

    await menu.tap();
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    await sidebar.getByRole('button', { name: /New issue/ }).tap();
    const dialog = page.getByRole('dialog', { name: 'New issue' });
    await dialog.getByLabel('Title').fill('Reported from a phone');
    await dialog
      .getByRole('textbox', { name: 'Description' })
      .pressSequentially('Steps on a **small** screen');
    const create = dialog.getByRole('button', { name: 'Create issue' });
    // The dialog fits the screen: its button is reachable without scrolling sideways.
    const box = (await create.boundingBox())!;
    assert.ok(
      box.x >= 0 && box.x + box.width <= PHONE.width,
      `Create issue inside the screen: ${JSON.stringify(box)}`,
    );
    await create.tap();
    await page.waitForURL(/\/issue\/ENG-\d+/);
    const identifier = /\/issue\/(ENG-\d+)/.exec(page.url())![1]!;
    await page.getByRole('region', { name: 'Description' }).getByText('small').waitFor();
    // The drawer closes on arriving (its slide-out takes 180 ms).
    assert.equal(await menu.getAttribute('aria-expanded'), 'false', 'the drawer is closed on the issue page');
    await sidebar.waitFor({ state: 'hidden', timeout: 5_000 });
    assert.equal(await overflowsSideways(page), false, 'the issue page fits');
    await screenshot(page, 'phone-issue-top');

    const comment = page.getByRole('textbox', { name: 'Add a comment' });
    await comment.scrollIntoViewIfNeeded();
    await comment.tap();
    await comment.fill('Seen on my phone too');
    await page.getByRole('button', { name: 'Comment', exact: true }).tap();
    await page.getByRole('region', { name: 'Comments' }).getByText('Seen on my phone too').waitFor();
    const bodies = async () => {
      const saved = await ui.t.get(`/api/issues/${identifier}/comments`, ui.t.adminToken);
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      return (saved.body.comments as { body: string }[]).map((c) => c.body);
    };
    for (let i = 0; (await bodies()).length === 0 && i < 100; i++)
      await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(await bodies(), ['Seen on my phone too'], `comments of ${identifier} (${page.url()})`);
    await screenshot(page, 'phone-issue');

    // The inbox from the drawer: the unread mark on Menu, the count in the drawer.
    await menu.tap();
    await sidebar.getByRole('link', { name: 'Inbox 1 unread' }).tap();
    await page.waitForURL(/\/inbox$/);
    const row = page.getByRole('link', { name: /Waiting for you on the phone/ });
    await row.waitFor();
    assert.equal(await overflowsSideways(page), false, 'the inbox fits');
    // Row actions are always there on a touch screen.
    assert.ok(await page.getByRole('button', { name: /^Archive: ENG-/ }).isVisible());
    await row.tap();
    await page.waitForURL(/\/issue\/ENG-\d+/);
    await menu.tap();
    await sidebar.getByRole('link', { name: 'Inbox', exact: true }).waitFor();
  });

  test("the list's selection boxes are inside the screen and their rows, and a tap selects", async () => {
    const { page } = await ui.signedIn('/issues', { viewport: PHONE, as: member });
    const row = page.locator('.issue-row-wrap').first();
    const box = row.getByRole('checkbox', { name: /^Select ENG-/ });
    await box.waitFor();
    const b = (await box.boundingBox())!;
    const r = (await row.boundingBox())!;
    assert.ok(b.width > 0 && b.height > 0, 'the box is drawn');
    assert.ok(b.x >= 0 && b.x + b.width <= PHONE.width, `the box inside the screen: ${JSON.stringify(b)}`);
    assert.ok(
      b.x >= r.x && b.x + b.width <= r.x + r.width && b.y >= r.y && b.y + b.height <= r.y + r.height,
      `the box inside its row: ${JSON.stringify({ b, r })}`,
    );
    assert.ok(r.x >= 0 && r.x + r.width <= PHONE.width, `the row inside the screen: ${JSON.stringify(r)}`);
    // What a tap at the box's centre reaches is the box itself: nothing covers it.
    const hit = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x!, y!)?.getAttribute('aria-label') ?? null,
      [b.x + b.width / 2, b.y + b.height / 2],
    );
    assert.match(hit ?? '', /^Select ENG-/);
    assert.equal(await overflowsSideways(page), false, 'the list fits');
    await box.tap();
    assert.equal(await box.isChecked(), true);
    await page.getByText('1 selected').waitFor();
  });
});
