// The filter builder (issue 26, "Filters and display"), by keyboard alone:
// F opens the field menu, typing finds a field and a value, Enter toggles
// several values, the operator menu turns "is" into "is not", a relative due
// date narrows further, a chip goes; the list is exactly what the chips say,
// on the server's word; a reload keeps it, a saved view reopens with it; the
// Display popover closes on Escape with the keyboard back on its button;
// axe finds nothing in light, dark and at phone width with the chips folded.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { focusLandsOn, PHONE, screenshot, seriousViolations, startUi, type UiEnv } from './browser.js';

let ui: UiEnv;
let page: Page;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

before(async () => {
  ui = await startUi();
  const admin = ui.t.adminToken;
  const me = (await ui.t.get('/api/auth/me', admin)).body.user.id;
  const other = (await ui.t.register('Oskar Ondra')).user.id;
  for (const [title, priority, assigneeId, dueDate] of [
    ['Alpha mine and overdue', 1, me, day(-2)],
    ['Bravo due soon', 2, other, day(3)],
    ['Charlie low, nobody’s', 4, null, null],
    ['Delta due later', 1, other, day(20)],
    ['Echo unassigned and soon', 2, null, day(1)],
  ] as const) {
    const res = await ui.t.post(
      '/api/issues',
      {
        teamId: 'ENG',
        title,
        priority,
        ...(assigneeId ? { assigneeId } : {}),
        ...(dueDate ? { dueDate } : {}),
      },
      admin,
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
  }
  ({ page } = await ui.signedIn());
});
after(() => ui?.close());

/** The titles the list shows, once it shows exactly `expected` (the list reads again after each change). */
async function listShows(p: Page, expected: string[]) {
  const want = [...expected].sort();
  let seen: string[] = [];
  for (let n = 0; n < 100; n++) {
    seen = (await p.locator('.issue-row .title').allTextContents()).sort();
    if (JSON.stringify(seen) === JSON.stringify(want)) return;
    await p.waitForTimeout(100);
  }
  assert.deepEqual(seen, want);
}

describe('UI: the filter builder', () => {
  test('built by keyboard: any of, is not, a relative due date, a chip removed; a reload keeps it', async () => {
    await page.goto('/issues?group=none');
    await listShows(page, [
      'Alpha mine and overdue',
      'Bravo due soon',
      'Charlie low, nobody’s',
      'Delta due later',
      'Echo unassigned and soon',
    ]);
    // F: the field menu, typed to Priority; its values menu takes Urgent, then High.
    await page.keyboard.press('f');
    await page.getByRole('combobox', { name: 'Filter by: type to filter' }).waitFor();
    await page.keyboard.type('prio');
    await page.keyboard.press('Enter');
    const values = page.getByRole('combobox', { name: 'Priority: type to filter' });
    await values.waitFor();
    await page.keyboard.type('urg');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('high');
    await page.keyboard.press('Enter');
    assert.equal(
      await page.getByRole('listbox', { name: 'Priority' }).getAttribute('aria-multiselectable'),
      'true',
    );
    await page.keyboard.press('Escape');
    await page.getByRole('group', { name: 'Filter: Priority is any of Urgent, High' }).waitFor();
    await focusLandsOn(page, /^Priority: Urgent, High, change the values$/);
    await listShows(page, [
      'Alpha mine and overdue',
      'Bravo due soon',
      'Delta due later',
      'Echo unassigned and soon',
    ]);

    // Assignee is Me, then the operator menu makes it "is not": the unassigned stay.
    await page.keyboard.press('f');
    await page.keyboard.type('assig');
    await page.keyboard.press('Enter');
    await page.getByRole('combobox', { name: 'Assignee: type to filter' }).waitFor();
    await page.keyboard.type('me');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await listShows(page, ['Alpha mine and overdue']);
    // The closed menu gives the keyboard back to its chip a frame later; Shift+Tab must wait for it.
    await focusLandsOn(page, 'Assignee: Me, change the values');
    await page.keyboard.press('Shift+Tab');
    await focusLandsOn(page, 'Assignee: is, change the operator');
    await page.keyboard.press('Enter');
    await page.keyboard.type('is not');
    await page.keyboard.press('Enter');
    await page.getByRole('group', { name: 'Filter: Assignee is not Me' }).waitFor();
    await listShows(page, ['Bravo due soon', 'Delta due later', 'Echo unassigned and soon']);

    // Due in the next 7 days: a relative date, one choice, the menu closes on it.
    await page.keyboard.press('f');
    await page.keyboard.type('due');
    await page.keyboard.press('Enter');
    await page.getByRole('combobox', { name: 'Due date: type to filter' }).waitFor();
    await page.keyboard.type('next 7');
    await page.keyboard.press('Enter');
    await page.getByRole('group', { name: 'Filter: Due date is In the next 7 days' }).waitFor();
    await listShows(page, ['Bravo due soon', 'Echo unassigned and soon']);
    await screenshot(page, 'filter-builder');

    // The address holds it all: a reload shows the same chips and issues.
    const f = new URL(page.url()).searchParams.get('f');
    assert.match(f ?? '', /^priority\.anyOf\.1_2~assignee\.isNot\.me~due\.is\.next-P7D$/);
    await page.reload();
    await listShows(page, ['Bravo due soon', 'Echo unassigned and soon']);
    assert.equal(await page.locator('.filter-chip').count(), 3);

    // The due chip goes (its remove button, by keyboard).
    await page.getByRole('button', { name: 'Remove the Due date filter' }).focus();
    await page.keyboard.press('Enter');
    await listShows(page, ['Bravo due soon', 'Delta due later', 'Echo unassigned and soon']);
    assert.equal(await page.locator('.filter-chip').count(), 2);
    await focusLandsOn(page, '+ Add filter');
  });

  test('saved as a view, it reopens with the same issues; its filter is what the server lists by', async () => {
    await page.getByRole('button', { name: 'Save view' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Save view' });
    await dialog.getByLabel('Name').waitFor();
    await page.keyboard.type('Urgent or high, not mine');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Urgent or high, not mine', level: 1 }).waitFor();
    const path = new URL(page.url()).pathname;
    await listShows(page, ['Bravo due soon', 'Delta due later', 'Echo unassigned and soon']);
    const stored = (await ui.t.get('/api/views', ui.t.adminToken)).body.views.find(
      (v: { name: string }) => v.name === 'Urgent or high, not mine',
    );
    const q = new URLSearchParams({ limit: '50', filter: JSON.stringify(stored.filterData) });
    const listed = (await ui.t.get(`/api/issues?${q}`, ui.t.adminToken)).body.issues.map(
      (i: { title: string }) => i.title,
    );
    assert.deepEqual(listed.sort(), ['Bravo due soon', 'Delta due later', 'Echo unassigned and soon']);
    await page.goto('/issues');
    await page.goto(path);
    await listShows(page, ['Bravo due soon', 'Delta due later', 'Echo unassigned and soon']);
  });

  test('Display is a popover: Escape closes it and the keyboard is back on its button', async () => {
    await page.goto('/issues?group=none&f=priority.is.1');
    await listShows(page, ['Alpha mine and overdue', 'Delta due later']);
    const button = page.getByRole('button', { name: 'Display' });
    await button.focus();
    await page.keyboard.press('Enter');
    const panel = page.getByRole('dialog', { name: 'Display options' });
    await panel.waitFor();
    assert.equal(await button.getAttribute('aria-expanded'), 'true');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
    await focusLandsOn(page, 'Display');
    assert.equal(await button.getAttribute('aria-expanded'), 'false');
  });

  test('axe finds nothing serious, light and dark, with a menu open, and at phone width folded', async () => {
    await page.goto('/issues?group=none&f=priority.anyOf.1_2~assignee.isNot.me~due.is.next-P7D');
    await listShows(page, ['Bravo due soon', 'Echo unassigned and soon']);
    const found: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const v of await seriousViolations(page)) found.push(`${scheme}: ${v}`);
      await page.getByRole('button', { name: /^Priority: .*change the values$/ }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('listbox', { name: 'Priority' }).waitFor();
      for (const v of await seriousViolations(page)) found.push(`${scheme}, menu open: ${v}`);
      await page.keyboard.press('Escape');
    }
    await page.emulateMedia({ colorScheme: 'light' });

    const { page: phone } = await ui.signedIn('/issues?group=none&f=priority.anyOf.1_2~assignee.isNot.me', {
      viewport: PHONE,
      colorScheme: 'dark',
    });
    await listShows(phone, ['Bravo due soon', 'Delta due later', 'Echo unassigned and soon']);
    const toggle = phone.getByRole('button', { name: 'Filters (2)' });
    await toggle.waitFor();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.equal(await phone.locator('.filter-chip').first().isVisible(), false, 'folded on a phone');
    for (const v of await seriousViolations(phone)) found.push(`phone folded: ${v}`);
    await toggle.focus();
    await phone.keyboard.press('Enter');
    await phone.locator('.filter-chip').first().waitFor({ state: 'visible' });
    for (const v of await seriousViolations(phone)) found.push(`phone unfolded: ${v}`);
    await screenshot(phone, 'filter-builder-phone');
    assert.deepEqual(found, []);
  });
});
