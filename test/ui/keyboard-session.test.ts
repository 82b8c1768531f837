/// <reference lib="dom" />
// Issue 26's keyboard-only session: one member, no mouse and no focus() from
// the test, from My issues to the team's triage queue (the command menu),
// where one issue is accepted and one declined; an issue opened from the
// command menu's search and edited with S, A, P and L (type to filter); a
// comment written in the editor and sent with Ctrl+Enter; the list filtered
// with F and the filter builder. Every result is read back from the server,
// and after every step the keyboard is somewhere the person can see: a
// focused element that is not the page's body and shows a focus ring.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { seriousViolations, startUi, type UiEnv } from './browser.js';

let ui: UiEnv;
let kim: { token: string; user: { id: string } };
let engId: string;
let backendId: string;
const filed: Record<string, string> = {}; // title -> id, filed by someone outside ENG (they wait in triage)
const plain: Record<string, string> = {}; // title -> identifier, ordinary ENG issues

const must = <T>(res: { status: number; body: T }, status: number, what: string): T => {
  assert.equal(res.status, status, `${what}: ${JSON.stringify(res.body)}`);
  return res.body;
};

before(async () => {
  ui = await startUi();
  const t = ui.t;
  const admin = t.adminToken;
  const teams = must(await t.get('/api/teams', admin), 200, 'teams') as {
    teams: { id: string; key: string }[];
  };
  engId = teams.teams.find((x) => x.key === 'ENG')!.id;
  must(await t.patch(`/api/teams/${engId}`, { triageEnabled: true }, admin), 200, 'triage on');
  kim = await t.userWithRole('member', { teams: ['ENG'], name: 'Kim Keys' });
  const outsider = await t.register('Olga Outside');
  const left = await t.del(`/api/teams/${engId}/members/${outsider.user.id}`, admin);
  assert.ok(left.status === 200 || left.status === 404, JSON.stringify(left.body));
  for (const title of ['Alpha crash on save', 'Bravo typo in footer', 'Charlie asks for dark mode']) {
    const made = must(await t.post('/api/issues', { teamId: 'ENG', title }, outsider.token), 201, title) as {
      issue: { id: string };
    };
    filed[title] = made.issue.id;
  }
  for (const [title, priority] of [
    ['Delta already urgent', 1],
    ['Echo low and slow', 4],
  ] as const) {
    const made = must(await t.post('/api/issues', { teamId: 'ENG', title, priority }, admin), 201, title) as {
      issue: { identifier: string };
    };
    plain[title] = made.issue.identifier;
  }
  backendId = (
    must(
      await t.post('/api/labels', { name: 'Backend', color: '#336699', teamId: engId }, admin),
      201,
      'label',
    ) as {
      label: { id: string };
    }
  ).label.id;
});
after(() => ui?.close());

interface RestIssue {
  id: string;
  identifier: string;
  title: string;
  stateId: string;
  assigneeId: string | null;
  priority: number;
  labelIds: string[];
}
const issue = async (id: string): Promise<RestIssue> =>
  (must(await ui.t.get(`/api/issues/${id}`, ui.t.adminToken), 200, id) as { issue: RestIssue }).issue;
const stateOf = async (id: string) =>
  (
    must(
      await ui.t.get(`/api/workflow-states/${(await issue(id)).stateId}`, ui.t.adminToken),
      200,
      'state',
    ) as {
      workflowState: { name: string; type: string };
    }
  ).workflowState;

/** Waits until `check` holds: the UI's writes are optimistic, the server's state follows. */
async function eventually(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`never: ${what}`);
}

/**
 * The keyboard is somewhere visible: an element (not the body, still in the
 * document) has focus, matches :focus-visible, and it or a close ancestor draws
 * an outline or a shadow. A failure names the step and what held focus.
 */
async function focusShown(page: Page, step: string) {
  let seen = '';
  for (let i = 0; i < 30; i++) {
    const state = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body || !el.isConnected) return { ok: false, what: String(el?.tagName) };
      // A date field's last Tab stop is its calendar button, inside the browser's own shadow tree:
      // the field is then not :focus itself, and the browser draws that button's ring.
      if (el instanceof HTMLInputElement && el.type === 'date' && !el.matches(':focus'))
        return { ok: document.hasFocus(), what: 'the date picker button' };
      const drawn = (e: Element) => {
        const s = getComputedStyle(e);
        return (s.outlineStyle !== 'none' && Number.parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';
      };
      let ring = false;
      for (let at: Element | null = el, n = 0; at && n < 3 && !ring; at = at.parentElement, n++)
        ring = drawn(at);
      return {
        ok: el.matches(':focus-visible') && ring,
        what: `${el.outerHTML.slice(0, 160)} focus-visible=${el.matches(':focus-visible')} ring=${ring}`,
      };
    });
    if (state.ok) return;
    seen = state.what;
    await page.waitForTimeout(100);
  }
  assert.fail(`after "${step}" no visible focus: ${seen}`);
}

/** A quick-edit menu (S, A, P, L): opened by its key, typed to filter, Enter picks. */
async function quickEdit(page: Page, key: string, title: RegExp, filter: string) {
  await page.keyboard.press(key);
  const menu = page.getByRole('dialog', { name: title });
  await menu.waitFor();
  await focusShown(page, `${key} opened its menu`);
  await page.keyboard.type(filter);
  await page.keyboard.press('Enter');
  return menu;
}

/** The command menu (Ctrl+K), typed to one command, which Enter runs. */
async function command(page: Page, text: string, option: string | RegExp) {
  await page.keyboard.press('Control+k');
  const menu = page.getByRole('dialog', { name: 'Command menu' });
  await menu.waitFor();
  await focusShown(page, 'Ctrl+K');
  await page.keyboard.type(text);
  await menu.getByRole('option', { name: option, selected: true }).waitFor();
  await page.keyboard.press('Enter');
  await menu.waitFor({ state: 'detached' });
}

const queue = (page: Page) => page.getByRole('list', { name: 'Triage queue' });

describe('UI: a keyboard-only session (issue 26)', () => {
  test('triage, edit, comment and filter without the mouse, the focus always shown', async () => {
    const { page } = await ui.newPage();
    // Signed in already (the sign-in form is not this session's subject): the token is in storage.
    await page.goto('/login');
    await page.evaluate((token) => localStorage.setItem('trackway.token', token), kim.token);
    await page.goto('/my-issues');
    await page.getByRole('heading', { name: 'My issues' }).waitFor();
    await page.waitForFunction(() => document.documentElement.dataset['live'] === 'synced');
    await focusShown(page, 'arriving on My issues');

    // The team's triage queue, from the command menu.
    await command(page, 'triage', /Triage · ENG/);
    await page.waitForURL('**/team/ENG/triage');
    await queue(page).getByRole('listitem').nth(2).waitFor();
    await focusShown(page, 'arriving on the triage queue');

    // J: the oldest; 1 accepts it (Enter on the dialog), 2 declines the next with a comment.
    await page.keyboard.press('j');
    await focusShown(page, 'J in the queue');
    await page.keyboard.press('1');
    await page.getByRole('dialog', { name: /^Accept/ }).waitFor();
    await focusShown(page, 'the Accept dialog');
    await page.keyboard.press('Enter');
    await queue(page).getByText('Alpha crash on save').waitFor({ state: 'detached' });
    await focusShown(page, 'accepted');
    await eventually(
      async () => (await stateOf(filed['Alpha crash on save']!)).type === 'unstarted',
      'accepted',
    );

    await page.keyboard.press('2');
    await page.getByRole('dialog', { name: /^Decline/ }).waitFor();
    await focusShown(page, 'the Decline dialog');
    await page.keyboard.type('Fixed by the footer rewrite');
    await page.keyboard.press('Control+Enter');
    await queue(page).getByText('Bravo typo in footer').waitFor({ state: 'detached' });
    await focusShown(page, 'declined');
    await eventually(
      async () => (await stateOf(filed['Bravo typo in footer']!)).type === 'canceled',
      'declined',
    );
    assert.equal(
      (await stateOf(filed['Charlie asks for dark mode']!)).type,
      'triage',
      'the third still waits',
    );

    // The accepted issue, found through the command menu's search.
    const accepted = await issue(filed['Alpha crash on save']!);
    await command(page, 'Alpha crash', new RegExp(`^${accepted.identifier} Alpha crash on save`));
    await page.waitForURL(`**/issue/${accepted.identifier}`);
    const properties = page.getByRole('complementary', { name: 'Properties' });
    await properties.waitFor();
    await focusShown(page, 'arriving on the issue');

    // S, A, P, L on the open issue, each typed to its choice.
    const started = (
      must(await ui.t.get(`/api/workflow-states?teamId=${engId}`, ui.t.adminToken), 200, 'states') as {
        workflowStates: { id: string; name: string; type: string }[];
      }
    ).workflowStates.find((s) => s.type === 'started')!;
    await quickEdit(
      page,
      's',
      new RegExp(`^Change status – ${accepted.identifier}$`),
      started.name.slice(0, 5),
    );
    await eventually(async () => (await issue(accepted.id)).stateId === started.id, 'started');
    await focusShown(page, 'S');
    await quickEdit(page, 'a', new RegExp(`^Assign to – ${accepted.identifier}$`), 'kim');
    await eventually(async () => (await issue(accepted.id)).assigneeId === kim.user.id, 'assigned to Kim');
    await focusShown(page, 'A');
    await quickEdit(page, 'p', new RegExp(`^Set priority – ${accepted.identifier}$`), 'high');
    await eventually(async () => (await issue(accepted.id)).priority === 2, 'high');
    await focusShown(page, 'P');
    const labels = await quickEdit(page, 'l', new RegExp(`^Labels – ${accepted.identifier}$`), 'back');
    await eventually(async () => (await issue(accepted.id)).labelIds.includes(backendId), 'labelled Backend');
    await focusShown(page, 'L picked a label (the menu stays open)');
    await page.keyboard.press('Escape');
    await labels.waitFor({ state: 'detached' });
    await focusShown(page, 'the labels menu closed');

    // The comment box, reached with Tab; Ctrl+Enter sends.
    const box = page.getByRole('textbox', { name: 'Add a comment' });
    for (let tabs = 0; !(await box.evaluate((el) => el === document.activeElement)); tabs++) {
      assert.ok(tabs < 80, 'the comment box is reached with Tab');
      await page.keyboard.press('Tab');
      await focusShown(page, `Tab ${tabs + 1} on the issue page`);
    }
    await page.keyboard.type('Reproduced: saving twice crashes.');
    await page.keyboard.press('Control+Enter');
    await eventually(async () => {
      const res = await ui.t.get(`/api/issues/${accepted.id}/comments`, ui.t.adminToken);
      return (res.body.comments as { body: string }[]).some(
        (c) => c.body === 'Reproduced: saving twice crashes.',
      );
    }, 'the comment saved');
    await page.locator('.comment-list').getByText('Reproduced: saving twice crashes.').waitFor();
    await focusShown(page, 'the comment sent');
    // Escape leaves the editor (the keyboard stays on its field), a second goes back to the last
    // list (My issues, where the session began); G then A: all issues.
    await page.keyboard.press('Escape');
    await focusShown(page, 'Escape out of the editor');
    await page.keyboard.press('Escape');
    await page.waitForURL((u) => u.pathname === '/my-issues');
    await focusShown(page, 'back on My issues');
    await page.keyboard.press('g');
    await page.keyboard.press('a');
    await page.waitForURL((u) => u.pathname === '/issues');
    await page.locator('.issue-row').first().waitFor();
    await focusShown(page, 'G then A');

    // F: Priority is any of High, Urgent; the list shows what the server says matches.
    await page.keyboard.press('f');
    await page.getByRole('combobox', { name: 'Filter by: type to filter' }).waitFor();
    await focusShown(page, 'F');
    await page.keyboard.type('prio');
    await page.keyboard.press('Enter');
    await page.getByRole('combobox', { name: 'Priority: type to filter' }).waitFor();
    await focusShown(page, 'the Priority values');
    await page.keyboard.type('high');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('urg');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await page.getByRole('group', { name: 'Filter: Priority is any of High, Urgent' }).waitFor();
    await focusShown(page, 'the filter chosen');
    const all = (
      must(await ui.t.get('/api/issues?limit=100', kim.token), 200, 'issues') as {
        issues: { identifier: string; priority: number }[];
      }
    ).issues;
    const want = all
      .filter((i) => i.priority === 1 || i.priority === 2)
      .map((i) => i.identifier)
      .sort();
    assert.deepEqual(want, [accepted.identifier, plain['Delta already urgent']!].sort());
    await eventually(
      async () => {
        const shown = (await page.locator('.issue-row .ident').allTextContents()).sort();
        return JSON.stringify(shown) === JSON.stringify(want);
      },
      `the list shows ${want.join(', ')}`,
    );

    // Nothing serious for axe, in the light theme and the dark one.
    assert.deepEqual(await seriousViolations(page), [], 'axe, light');
    const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    const light = await background();
    await page.emulateMedia({ colorScheme: 'dark' });
    await eventually(async () => (await background()) !== light, 'the dark palette');
    assert.deepEqual(await seriousViolations(page), [], 'axe, dark');
    await page.context().close();
  });
});
