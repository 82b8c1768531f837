/// <reference lib="dom" />
// The inbox grouped by issue (issue 26): one row per issue with its unread
// count, the preview pane J/K drive on a wide screen (and its dwell that reads
// the group), U and E acting on every notification of the issue (read back
// from the API), a group past the page's 50 archived and unarchived whole, no
// pane on a phone, and axe with the pane open.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { PHONE, screenshot, seriousViolations, startUi, type UiEnv } from './browser.js';
import { grouped, refuseGroupChanges } from './inbox-group-changes.js';

let ui: UiEnv;
let bob: { id: string; token: string; email: string };
let gate: string; // three events: assigned, then two comments
let fence: string; // one event: assigned

before(async () => {
  ui = await startUi();
  const made = await ui.t.userWithRole('member', { name: 'Bob Builder', email: 'bob@grouped.test' });
  bob = { id: made.user.id, token: made.token, email: made.email };
  const issue = async (title: string, description: string) => {
    const r = await ui.t.post(
      '/api/issues',
      { teamId: 'ENG', title, description, assigneeId: bob.id },
      ui.t.adminToken,
    );
    assert.equal(r.status, 201, JSON.stringify(r.body));
    return r.body.issue.identifier as string;
  };
  gate = await issue('Grouped gate', 'The **gate** squeaks at night.');
  fence = await issue('Lone fence', 'Paint it *green*.');
  for (const body of ['First look', 'Second look']) {
    const r = await ui.t.post(`/api/issues/${gate}/comments`, { body }, ui.t.adminToken);
    assert.equal(r.status, 201, JSON.stringify(r.body));
  }
});
after(() => ui?.close());

const rows = (page: Page) => page.getByRole('list', { name: 'Notifications' }).getByRole('listitem');
const row = (page: Page, title: string) => rows(page).filter({ hasText: title });
const preview = (page: Page) => page.getByRole('region', { name: /^Preview/ });

/** Bob's notifications of one issue, as the REST inbox lists them (archived ones with `archived`). */
async function bobs(identifier: string, query = 'limit=100') {
  const r = await ui.t.get(`/api/notifications?${query}`, bob.token);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return (r.body.notifications as any[]).filter((n) => n.issue.identifier === identifier);
}

async function bobsPage(opts: Parameters<UiEnv['newPage']>[0] = {}) {
  const { page } = await ui.signedIn('/', { ...opts, as: bob });
  return page;
}

describe('UI: the inbox grouped by issue', () => {
  test('three events on one issue and one on another make two rows, "3 new" and "1 new", newest first', async () => {
    const page = await bobsPage();
    await page.goto('/inbox');
    await rows(page).first().waitFor();
    assert.equal(await rows(page).count(), 2);
    const texts = await rows(page).getByRole('link').allInnerTexts();
    assert.match(texts[0]!, new RegExp(`${gate}[\\s\\S]*Grouped gate[\\s\\S]*commented[\\s\\S]*3 new`));
    assert.match(texts[1]!, new RegExp(`${fence}[\\s\\S]*Lone fence[\\s\\S]*assigned you[\\s\\S]*1 new`));
    assert.equal(await preview(page).getByText('Select a notification').count(), 1, 'nothing selected yet');
  });

  test('J/K move the selection and the preview follows; dwelling on a group reads it', async () => {
    const page = await bobsPage();
    await page.goto('/inbox?show=all');
    await rows(page).first().waitFor();
    await page.keyboard.press('j');
    const pane = page.getByRole('region', { name: `Preview: ${gate}` });
    await pane.getByRole('heading', { name: 'Grouped gate' }).waitFor();
    await pane.locator('.markdown strong', { hasText: 'gate' }).waitFor();
    await pane.getByText('squeaks at night').waitFor();
    assert.equal(await pane.getByRole('listitem').count(), 3, "the group's three events");
    assert.equal(await pane.getByText('Bob Builder').count(), 1, 'the assignee');
    await page.keyboard.press('j');
    const fencePane = page.getByRole('region', { name: `Preview: ${fence}` });
    await fencePane.getByRole('heading', { name: 'Lone fence' }).waitFor();
    await fencePane.locator('.markdown em', { hasText: 'green' }).waitFor();
    await screenshot(page, 'inbox-preview');
    // Left on Lone fence, it is read after the dwell.
    await row(page, 'Lone fence').filter({ hasNotText: '1 new' }).waitFor();
    await waitFor(async () => (await bobs(fence)).every((n) => n.readAt));
    // Enter opens the full issue.
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/issue/${fence}$`));
    await page.getByText('Paint it').waitFor();
  });

  test('U reads and unreads every notification of the group', async () => {
    const page = await bobsPage();
    await page.goto('/inbox?show=all');
    await rows(page).first().waitFor();
    await page.keyboard.press('j');
    // The dwell reads the group first (whatever it was); then U toggles it.
    await row(page, 'Grouped gate').filter({ hasNotText: 'new' }).waitFor();
    await waitFor(async () => (await bobs(gate)).every((n) => n.readAt));
    await grouped(page, { read: false }, () => page.keyboard.press('u'));
    await row(page, 'Grouped gate').filter({ hasText: '3 new' }).waitFor();
    const unread = await bobs(gate);
    assert.equal(unread.length, 3);
    assert.ok(
      unread.every((n) => n.readAt === null),
      'all three unread',
    );
    await grouped(page, { read: true }, () => page.keyboard.press('u'));
    await row(page, 'Grouped gate').filter({ hasNotText: 'new' }).waitFor();
    assert.ok(
      (await bobs(gate)).every((n) => n.readAt !== null),
      'all three read',
    );
  });

  test('E archives the whole group; a refused archive comes back with the reason', async () => {
    const page = await bobsPage();
    await page.goto('/inbox?show=all');
    await rows(page).first().waitFor();
    // Refused first: the row stays and the reason shows.
    const allow = await refuseGroupChanges(page, 'Entity not found');
    await row(page, 'Grouped gate')
      .getByRole('button', { name: `Archive: ${gate}` })
      .click();
    await page.getByRole('alert').filter({ hasText: 'Entity not found' }).waitFor();
    await row(page, 'Grouped gate').waitFor();
    assert.equal(await rows(page).count(), 2);
    await allow();

    await page.getByRole('link', { name: /Grouped gate/ }).focus();
    await grouped(page, { archived: true }, () => page.keyboard.press('e'));
    await row(page, 'Grouped gate').waitFor({ state: 'detached' });
    assert.equal(await rows(page).count(), 1);
    const archived = await bobs(gate, 'archived=true&limit=100');
    assert.equal(archived.length, 3, 'every notification of the issue archived');
    assert.ok(archived.every((n) => n.archivedAt));
    assert.deepEqual(await bobs(gate), [], 'none left in the inbox');

    // Archived shows it as one row; E there unarchives the group.
    await page.getByRole('button', { name: 'Archived', exact: true }).click();
    await row(page, 'Grouped gate').waitFor();
    assert.equal(await rows(page).count(), 1);
    await page.getByRole('link', { name: /Grouped gate/ }).focus();
    await grouped(page, { archived: false }, () => page.keyboard.press('e'));
    await page.getByText('Nothing archived.').waitFor();
    await waitFor(async () => (await bobs(gate)).length === 3);
  });

  test('a phone has no preview pane: a tap opens the issue', async () => {
    const page = await bobsPage({ viewport: PHONE });
    await page.goto('/inbox?show=all');
    await rows(page).first().waitFor();
    assert.equal(await preview(page).count(), 0);
    await page.keyboard.press('j');
    assert.equal(await preview(page).count(), 0, 'J moves focus, no pane');
    await row(page, 'Lone fence').getByRole('link').tap();
    await page.waitForURL(new RegExp(`/issue/${fence}$`));
  });

  test('axe finds nothing serious with the preview open, light and dark', async () => {
    const page = await bobsPage();
    const found: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/inbox?show=all');
      await rows(page).first().waitFor();
      await page.keyboard.press('j');
      await preview(page).locator('.markdown').waitFor();
      await page.waitForFunction(() => !document.querySelector('.boot, .loading'));
      await screenshot(page, `inbox-preview-${scheme}`);
      for (const v of await seriousViolations(page)) found.push(`${scheme}: ${v}`);
    }
    assert.deepEqual(found, []);
  });

  // Last: its 56 notifications fill the first page of anyone's inbox.
  test('a group of more notifications than a page holds is archived and unarchived whole', async () => {
    // The earlier tests' pages would each read the inbox again at every one of these comments.
    for (const c of ui.browser.contexts()) await c.close();
    const made = await ui.t.post(
      '/api/issues',
      { teamId: 'ENG', title: 'Busy door', assigneeId: bob.id },
      ui.t.adminToken,
    );
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const door = made.body.issue.identifier as string;
    for (let n = 0; n < 55; n++) {
      const r = await ui.t.post(`/api/issues/${door}/comments`, { body: `Knock ${n}` }, ui.t.adminToken);
      assert.equal(r.status, 201, JSON.stringify(r.body));
    }
    const archivedOf = async () => (await bobs(door, 'archived=true&limit=250')).length;
    assert.equal((await bobs(door, 'limit=250')).length, 56, 'assigned and 55 comments: past a page of 50');
    const page = await bobsPage();
    await page.goto('/inbox?show=all');
    await row(page, 'Busy door').waitFor();
    await grouped(page, { archived: true }, () =>
      row(page, 'Busy door')
        .getByRole('button', { name: `Archive: ${door}` })
        .click(),
    );
    await row(page, 'Busy door').waitFor({ state: 'detached' });
    assert.equal(await archivedOf(), 56);

    // Archived loads a page of 50 notifications; the row stands for all 56, and so does Unarchive.
    await page.getByRole('button', { name: 'Archived', exact: true }).click();
    await row(page, 'Busy door').waitFor();
    await grouped(page, { archived: false }, () =>
      row(page, 'Busy door')
        .getByRole('button', { name: `Unarchive: ${door}` })
        .click(),
    );
    await row(page, 'Busy door').waitFor({ state: 'detached' });
    assert.equal(await archivedOf(), 0, 'none left archived, the unloaded ones included');
    assert.equal((await bobs(door, 'limit=250')).length, 56);
  });
});

/** Polls a server-side fact the screen has already shown (its write may still be on its way). */
async function waitFor(fact: () => Promise<boolean>, ms = 10_000) {
  const until = Date.now() + ms;
  while (!(await fact())) {
    if (Date.now() > until) assert.fail('the server never got there');
    await new Promise((r) => setTimeout(r, 100));
  }
}
