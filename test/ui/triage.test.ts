/// <reference lib="dom" />
// The triage queue (issue 26, docs/triage.md), driven by the keyboard alone:
// J moves, 1 accepts with a priority, 2 declines with a comment, 3 marks a
// duplicate of an issue found by search, 4 snoozes (the issue leaves, and is
// back once its time has passed), Esc closes a dialog; the sidebar's count
// follows. axe finds nothing serious in light and dark, nor at phone width. A
// queue past a page of 100 reads the rest with "Load more".
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { PHONE, screenshot, seriousViolations, startUi, type UiEnv } from './browser.js';

let ui: UiEnv;
let eng: any;
const ids: Record<string, string> = {};
let originalId: string;
let outsider: { token: string; user: { id: string } };

before(async () => {
  ui = await startUi();
  const t = ui.t;
  eng = (await t.get('/api/teams', t.adminToken)).body.teams.find((x: any) => x.key === 'ENG');
  const on = await t.patch(`/api/teams/${eng.id}`, { triageEnabled: true }, t.adminToken);
  assert.equal(on.status, 200, JSON.stringify(on.body));
  // Someone outside ENG files issues: they land in its triage state.
  outsider = await t.register('Olga Outside');
  const left = await t.del(`/api/teams/${eng.id}/members/${outsider.user.id}`, t.adminToken);
  assert.equal(left.status, 200, JSON.stringify(left.body));
  const original = await t.post('/api/issues', { teamId: 'ENG', title: 'Original login bug' }, t.adminToken);
  originalId = original.body.issue.id;
  for (const title of ['Alpha crash', 'Bravo typo', 'Charlie login fails', 'Delta slow', 'Echo request']) {
    const r = await t.post('/api/issues', { teamId: 'ENG', title }, outsider.token);
    assert.equal(r.status, 201, JSON.stringify(r.body));
    ids[title] = r.body.issue.id;
  }
});
after(() => ui?.close());

const issue = async (id: string) => (await ui.t.get(`/api/issues/${id}`, ui.t.adminToken)).body.issue;
const stateOf = async (id: string) =>
  (await ui.t.get(`/api/workflow-states/${(await issue(id)).stateId}`, ui.t.adminToken)).body.workflowState;
const queue = (page: Page) => page.getByRole('list', { name: 'Triage queue' });
const sidebarLink = (page: Page) => page.getByRole('link', { name: /^Triage · ENG/ });
const focusedTitle = (page: Page) => page.evaluate(() => document.activeElement?.textContent ?? '');

/** Waits until `check` holds (server state changes after the optimistic update). */
async function eventually(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`never: ${what}`);
}

describe('UI: the triage queue by keyboard', () => {
  test('accept with a priority, decline with a comment, duplicate, snooze; Esc closes; the count follows', async () => {
    const { page } = await ui.signedIn('/team/ENG/triage');
    await queue(page).waitFor();
    assert.equal(await queue(page).getByRole('listitem').count(), 5);
    // The sidebar's count is a query of its own, which may answer after the queue.
    await eventually(
      async () => /^Triage · ENG\s*5/.test((await sidebarLink(page).textContent()) ?? ''),
      'count 5',
    );
    // Oldest first.
    assert.match((await queue(page).getByRole('listitem').first().textContent()) ?? '', /Alpha crash/);

    // J focuses the first; the preview shows it.
    await page.keyboard.press('j');
    assert.match(await focusedTitle(page), /Alpha crash/);
    await page
      .getByRole('region', { name: /^Preview/ })
      .getByRole('heading', { name: 'Alpha crash' })
      .waitFor();

    // Esc closes a dialog and changes nothing.
    await page.keyboard.press('1');
    await page.getByRole('dialog', { name: /^Accept/ }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    assert.equal((await stateOf(ids['Alpha crash']!)).type, 'triage');

    // 1: accept with priority High (typed on the focused dropdown), Enter.
    await page.keyboard.press('1');
    await page.getByRole('dialog', { name: /^Accept/ }).waitFor();
    await page.keyboard.press('h');
    assert.equal(
      await page.getByRole('dialog').getByRole('combobox', { name: 'Priority', exact: true }).inputValue(),
      '2',
    );
    await page.keyboard.press('Enter');
    await queue(page).getByText('Alpha crash').waitFor({ state: 'detached' });
    await eventually(async () => (await stateOf(ids['Alpha crash']!)).type === 'unstarted', 'accepted');
    assert.equal((await issue(ids['Alpha crash']!)).priority, 2);
    assert.match(await focusedTitle(page), /Bravo typo/);

    // 2: decline with a comment.
    await page.keyboard.press('2');
    await page.getByRole('dialog', { name: /^Decline/ }).waitFor();
    await page.keyboard.type('Works as intended');
    await page.keyboard.press('Control+Enter');
    await queue(page).getByText('Bravo typo').waitFor({ state: 'detached' });
    await eventually(async () => (await stateOf(ids['Bravo typo']!)).type === 'canceled', 'declined');
    await eventually(async () => {
      const c = await ui.t.get(`/api/issues/${ids['Bravo typo']}/comments`, ui.t.adminToken);
      return c.body.comments?.some((x: any) => x.body === 'Works as intended');
    }, 'the comment');

    // 3: duplicate of the original, found by search, picked with the arrows.
    assert.match(await focusedTitle(page), /Charlie login fails/);
    await page.keyboard.press('3');
    await page.getByRole('dialog', { name: /^Mark .* as duplicate/ }).waitFor();
    await page.keyboard.type('Original login');
    await page.getByRole('list', { name: 'Matching issues' }).getByText('Original login bug').waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await queue(page).getByText('Charlie login fails').waitFor({ state: 'detached' });
    await eventually(
      async () => (await stateOf(ids['Charlie login fails']!)).name === 'Duplicate',
      'duplicate',
    );
    const rel = await ui.t.get(`/api/issues/${ids['Charlie login fails']}/relations`, ui.t.adminToken);
    assert.ok(
      JSON.stringify(rel.body).includes(originalId),
      `a relation to the original: ${JSON.stringify(rel.body)}`,
    );

    // 4: snooze an hour: it leaves the queue and the count.
    assert.match(await focusedTitle(page), /Delta slow/);
    await page.keyboard.press('4');
    await page.getByRole('dialog', { name: /^Snooze/ }).waitFor();
    await page.keyboard.press('Enter');
    await queue(page).getByText('Delta slow').waitFor({ state: 'detached' });
    await eventually(async () => (await issue(ids['Delta slow']!)).snoozedUntilAt !== null, 'snoozed');
    await eventually(
      async () => /^Triage · ENG\s*1/.test((await sidebarLink(page).textContent()) ?? ''),
      'count 1',
    );
    await screenshot(page, 'triage-after-actions');

    // Its time passes (the snooze set in the past, as the clock moved on): it is back, and counted.
    const past = new Date(Date.now() - 60_000).toISOString();
    const woke = await ui.t.patch(
      `/api/issues/${ids['Delta slow']}`,
      { snoozedUntilAt: past },
      ui.t.adminToken,
    );
    assert.equal(woke.status, 200, JSON.stringify(woke.body));
    await queue(page).getByText('Delta slow').waitFor();
    await eventually(
      async () => /^Triage · ENG\s*2/.test((await sidebarLink(page).textContent()) ?? ''),
      'count 2',
    );
  });

  test('axe finds nothing serious: light and dark with the preview, a dialog open, and at phone width', async () => {
    const found: string[] = [];
    // One page for both schemes: the app follows the system's, which emulateMedia sets.
    const { page: desktop } = await ui.signedIn('/team/ENG/triage', { colorScheme: 'light' });
    await queue(desktop).waitFor();
    await desktop.keyboard.press('j');
    for (const scheme of ['light', 'dark'] as const) {
      await desktop.emulateMedia({ colorScheme: scheme });
      for (const v of await seriousViolations(desktop)) found.push(`${scheme}: ${v}`);
      await desktop.keyboard.press('1');
      const dialog = desktop.getByRole('dialog', { name: /^Accept/ });
      await dialog.waitFor();
      for (const v of await seriousViolations(desktop)) found.push(`${scheme} accept dialog: ${v}`);
      await desktop.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    }
    const { page } = await ui.signedIn('/team/ENG/triage', { viewport: PHONE });
    await queue(page).waitFor();
    await screenshot(page, 'triage-phone');
    for (const v of await seriousViolations(page)) found.push(`phone: ${v}`);
    // Nothing wider than the screen.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `the page is ${overflow}px wider than the phone`);
    assert.deepEqual(found, []);
  });

  test('a queue longer than a page: the first 100 oldest first, "Load more" reads the rest', async () => {
    // The earlier tests' pages would each read the queue again at every one of these new issues.
    for (const c of ui.browser.contexts()) await c.close();
    for (let n = 0; n < 101; n++) {
      const r = await ui.t.post(
        '/api/issues',
        { teamId: 'ENG', title: `Backlog of reports ${n}` },
        outsider.token,
      );
      assert.equal(r.status, 201, JSON.stringify(r.body));
    }
    const { page } = await ui.signedIn('/team/ENG/triage');
    await queue(page).waitFor();
    const rows = queue(page).getByRole('listitem');
    const inTriage = JSON.stringify({
      state: { type: { eq: 'triage' } },
      or: [{ snoozedUntilAt: { null: true } }, { snoozedUntilAt: { lte: new Date().toISOString() } }],
    });
    const listed = await ui.t.get(
      `/api/issues?teamId=ENG&limit=1&filter=${encodeURIComponent(inTriage)}`,
      ui.t.adminToken,
    );
    const waiting = listed.body.pageInfo.total as number;
    const older = waiting - 101; // left by the first test
    await eventually(async () => (await rows.count()) === 100, 'a first page of 100');
    assert.ok(older >= 0 && older < 10, `${waiting} waiting`);
    await page.getByText(`100 of ${waiting} shown`).waitFor();
    // The first page's last row, then the next page's first: the order runs on across pages.
    assert.match(
      (await rows.nth(99).textContent()) ?? '',
      new RegExp(`Backlog of reports ${99 - older}(?!\\d)`),
    );
    await page.getByRole('button', { name: 'Load more' }).click();
    await eventually(async () => (await rows.count()) === waiting, `all ${waiting}`);
    assert.equal(await page.getByRole('button', { name: 'Load more' }).count(), 0, 'nothing more to load');
    const titles = (await rows.allTextContents()).map((t) => /Backlog of reports (\d+)/.exec(t)?.[1]);
    const numbers = titles.filter((n) => n !== undefined).map(Number);
    assert.deepEqual(
      numbers,
      Array.from({ length: 101 }, (_, i) => i),
      'each once, oldest first',
    );
  });
});
