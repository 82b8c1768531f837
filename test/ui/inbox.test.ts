/// <reference lib="dom" />
// The inbox as a person uses it: the sidebar's unread count, opening a
// notification (read, and on its issue), read/unread, archive, snooze and
// "Mark all read" by mouse and by keyboard, a refused change put back, the
// issue page's Subscribe bell, @-completion in the comment and New issue
// editors, and the email switch on a server without mail.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { mentionedNames } from '../../src/modules/notifications/mentions.js';
import { MENTION } from '../../web/src/lib/mention.js';
import { PHONE, screenshot, seriousViolations, startUi, type UiEnv } from './browser.js';
import { grouped, refuseGroupChanges } from './inbox-group-changes.js';

let ui: UiEnv;
let bob: { id: string; token: string; email: string };
let carol: { id: string; token: string };
const issues: string[] = []; // identifiers, oldest first

async function person(name: string, email: string) {
  const made = await ui.t.userWithRole('member', { name, email });
  return { id: made.user.id as string, token: made.token, email };
}

before(async () => {
  ui = await startUi();
  bob = await person('Bob Builder', 'bob@inbox.test');
  carol = await person('Carol Singer', 'carol@inbox.test');
  // The admin assigns Bob three issues, then mentions him in a comment on a fourth.
  for (const title of ['Fix the gate', 'Paint the fence', 'Oil the hinge', 'Sweep the yard']) {
    const made = await ui.t.post(
      '/api/issues',
      { teamId: 'ENG', title, ...(title === 'Sweep the yard' ? {} : { assigneeId: bob.id }) },
      ui.t.adminToken,
    );
    assert.equal(made.status, 201, JSON.stringify(made.body));
    issues.push(made.body.issue.identifier);
  }
  const comment = await ui.t.post(
    `/api/issues/${issues[3]}/comments`,
    { body: '@bob can you look at this?' },
    ui.t.adminToken,
  );
  assert.equal(comment.status, 201, JSON.stringify(comment.body));
});
after(() => ui?.close());

const unreadCount = async (token: string) =>
  (await ui.t.get('/api/notifications/unread-count', token)).body.count as number;
const inboxLink = (page: Page) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Inbox/ });
const rows = (page: Page) => page.getByRole('list', { name: 'Notifications' }).getByRole('listitem');

/** Does `act` and waits for the server's answer to the request it makes (the screen changes before it). */
async function answered(page: Page, method: string, path: RegExp, act: () => Promise<unknown>) {
  const response = page.waitForResponse((r) => r.request().method() === method && path.test(r.url()));
  await act();
  assert.ok((await response).ok());
}

async function bobsPage(opts: Parameters<UiEnv['newPage']>[0] = {}) {
  const { page } = await ui.signedIn('/', { ...opts, as: bob });
  return page;
}

describe('UI: the inbox', () => {
  test('the sidebar counts unread; I opens the inbox, newest first; opening one reads it and shows its issue', async () => {
    const page = await bobsPage();
    await inboxLink(page).filter({ hasText: '4 unread' }).waitFor();
    await page.keyboard.press('i');
    await page.waitForURL(/\/inbox$/);
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    assert.equal(
      await page.getByRole('button', { name: 'Unread', exact: true }).getAttribute('aria-pressed'),
      'true',
    );
    await rows(page).first().waitFor();
    assert.equal(await rows(page).count(), 4);
    const texts = await rows(page).getByRole('link').allInnerTexts();
    assert.match(texts[0]!, /Sweep the yard[\s\S]*mentioned you in a comment/);
    assert.match(texts[1]!, /Oil the hinge[\s\S]*assigned you/);
    assert.match(texts[3]!, /Fix the gate[\s\S]*assigned you/);
    assert.match(texts[0]!, /just now|minute/);

    // On a wide screen a click previews the issue; Enter opens it, and it is read.
    // (At its left: a pointer on the row shows its actions over the right-hand side.)
    await rows(page)
      .first()
      .getByRole('link')
      .click({ position: { x: 24, y: 12 } });
    await page
      .getByRole('region', { name: `Preview: ${issues[3]}` })
      .getByRole('heading', { name: 'Sweep the yard' })
      .waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/issue/${issues[3]}$`));
    await page.getByText('can you look at this?').waitFor();
    await inboxLink(page).filter({ hasText: '3 unread' }).waitFor();
    assert.equal(await unreadCount(bob.token), 3);
  });

  test('keyboard: J/K move, U reads, E archives, the Archived filter unarchives; Snooze hides one; Mark all read', async () => {
    const page = await bobsPage();
    await page.goto('/inbox?show=all');
    await rows(page).first().waitFor();
    assert.equal(await rows(page).count(), 4, 'All keeps the read one');
    // J twice, K once: the first row (the read mention); J: the second, "Oil the hinge".
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    await page.keyboard.press('j');
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');
    assert.match(await focused(), /Oil the hinge/);
    // Left in the preview, it is read; U makes it unread again (and read, and unread).
    await inboxLink(page).filter({ hasText: '2 unread' }).waitFor();
    await grouped(page, { read: false }, () => page.keyboard.press('u'));
    await inboxLink(page).filter({ hasText: '3 unread' }).waitFor();
    await grouped(page, { read: true }, () => page.keyboard.press('u'));
    await inboxLink(page).filter({ hasText: '2 unread' }).waitFor();
    await grouped(page, { read: false }, () => page.keyboard.press('u'));
    await inboxLink(page).filter({ hasText: '3 unread' }).waitFor();
    await grouped(page, { archived: true }, () => page.keyboard.press('e'));
    await page.getByRole('link', { name: /Oil the hinge/ }).waitFor({ state: 'detached' });
    assert.match(await focused(), /Paint the fence/, 'focus stays in the list');
    // Focus (and the preview) moved to Paint the fence, which the dwell reads.
    await inboxLink(page).filter({ hasText: '1 unread' }).waitFor();
    const archived = await ui.t.get('/api/notifications?archived=true', bob.token);
    assert.deepEqual(
      archived.body.notifications.map((n: any) => n.issue.identifier),
      [issues[2]],
    );

    await page.getByRole('button', { name: 'Archived', exact: true }).click();
    await page.waitForURL(/show=archived/);
    await grouped(page, { archived: false }, () =>
      page.getByRole('button', { name: `Unarchive: ${issues[2]}` }).click(),
    );
    await page.getByText('Nothing archived.').waitFor();
    await page.getByRole('button', { name: 'All', exact: true }).click();
    await page.getByRole('link', { name: /Oil the hinge/ }).waitFor();

    // Snooze "Fix the gate" for an hour from its menu, with the keyboard.
    await page.getByRole('button', { name: `Snooze: ${issues[0]}` }).click();
    const menu = page.getByRole('menu', { name: `Snooze ${issues[0]} until` });
    await menu.getByRole('menuitem', { name: /In 1 hour/ }).waitFor();
    await screenshot(page, 'inbox-snooze');
    await grouped(page, { snoozedUntilAt: '*' }, () => page.keyboard.press('Enter'));
    await page.getByRole('link', { name: /Fix the gate/ }).waitFor({ state: 'detached' });
    const snoozed = (await ui.t.get('/api/notifications?limit=50', bob.token)).body.notifications;
    assert.ok(!snoozed.some((n: any) => n.issue.identifier === issues[0]), 'hidden from the inbox');
    assert.equal(await unreadCount(bob.token), 1, 'Oil the hinge, unarchived unread');

    await answered(page, 'POST', /\/read-all$/, () =>
      page.getByRole('button', { name: 'Mark all read' }).click(),
    );
    await page.getByRole('button', { name: 'Unread', exact: true }).click();
    await page.getByText('No unread notifications. You are all caught up.').waitFor();
    await inboxLink(page).filter({ hasNotText: 'unread' }).waitFor();
    assert.equal(await unreadCount(bob.token), 0);
  });

  test('a change the server refuses is put back, with the reason shown', async () => {
    const page = await bobsPage();
    await page.goto('/inbox?show=all');
    await rows(page).first().waitFor();
    const before = await rows(page).count();
    await refuseGroupChanges(page, 'Notification not found');
    await page.getByRole('button', { name: `Archive: ${issues[1]}` }).click();
    await page.getByRole('alert').filter({ hasText: 'Notification not found' }).waitFor();
    await page.getByRole('link', { name: /Paint the fence/ }).waitFor();
    assert.equal(await rows(page).count(), before);
    assert.equal((await ui.t.get('/api/notifications?archived=true', bob.token)).body.pageInfo.total, 0);
  });

  test('the bell subscribes to an issue; its next comment raises the count without a reload', async () => {
    const made = await ui.t.post('/api/issues', { teamId: 'ENG', title: 'Watch this one' }, ui.t.adminToken);
    const id = made.body.issue.identifier as string;
    const page = await bobsPage();
    await page.goto(`/issue/${id}`);
    await answered(page, 'PUT', /\/subscription$/, () =>
      page.getByRole('button', { name: 'Subscribe' }).click(),
    );
    await page.getByRole('button', { name: 'Unsubscribe' }).waitFor();
    await screenshot(page, 'issue-bell');
    assert.equal((await ui.t.get(`/api/issues/${id}/subscription`, bob.token)).body.subscribed, true);
    await inboxLink(page).filter({ hasNotText: 'unread' }).waitFor();
    await ui.t.post(`/api/issues/${id}/comments`, { body: 'News for subscribers' }, ui.t.adminToken);
    await inboxLink(page).filter({ hasText: '1 unread' }).waitFor({ timeout: 10_000 });

    await answered(page, 'DELETE', /\/subscription$/, () =>
      page.getByRole('button', { name: 'Unsubscribe' }).click(),
    );
    await page.getByRole('button', { name: 'Subscribe' }).waitFor();
    assert.equal((await ui.t.get(`/api/issues/${id}/subscription`, bob.token)).body.subscribed, false);
  });

  test('assigned in another browser, the count rises without a reload', async () => {
    const made = await ui.t.post('/api/issues', { teamId: 'ENG', title: 'Assigned live' }, ui.t.adminToken);
    const id = made.body.issue.identifier as string;
    const page = await bobsPage();
    const before = await unreadCount(bob.token);
    await inboxLink(page).waitFor();
    const { page: admin } = await ui.signedIn(`/issue/${id}`);
    const assignee = admin.getByLabel('Assignee');
    await assignee.locator('option', { hasText: 'Bob Builder' }).waitFor({ state: 'attached' });
    const since = Date.now();
    await assignee.selectOption({ label: 'Bob Builder' });
    await inboxLink(page)
      .filter({ hasText: `${before + 1} unread` })
      .waitFor({ timeout: 10_000 });
    console.log(`# inbox: the count rose ${Date.now() - since} ms after the assignment in the other browser`);
    await admin.close();
  });

  test('@ and letters offer people to mention; arrows, Enter or Tab insert, Escape closes', async () => {
    const page = await bobsPage();
    await page.goto(`/issue/${issues[1]}`);
    const field = page.getByRole('textbox', { name: 'Add a comment' });
    await field.click();
    await field.pressSequentially('Thanks @ca');
    const list = page.getByRole('listbox', { name: 'People and issues to mention' });
    await list.getByRole('option', { name: /@Carol/ }).waitFor();
    await screenshot(page, 'mention-list');
    assert.equal(await field.getAttribute('aria-controls'), await list.getAttribute('id'));
    assert.equal(await list.getByRole('option', { name: /^@/ }).count(), 1, 'one person');
    await page.keyboard.press('Enter');
    await field.locator('.mention', { hasText: '@Carol' }).waitFor();
    assert.equal(await list.count(), 0);
    // Escape closes the list and nothing else; typing goes on.
    await field.pressSequentially('and @');
    await list.getByRole('option').first().waitFor();
    assert.ok((await list.getByRole('option').count()) >= 3, 'everyone, for a bare @');
    await page.keyboard.press('Escape');
    assert.equal(await list.count(), 0);
    await field.pressSequentially('a, thanks');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    await page.getByRole('region', { name: 'Comments' }).getByRole('link', { name: '@Carol' }).waitFor();
    // It shows at once; its actions come once the server has it.
    await page
      .locator('.comment', { hasText: '@Carol' })
      .getByRole('button', { name: /Edit comment/ })
      .waitFor();
    const carols = (await ui.t.get('/api/notifications', carol.token)).body.notifications;
    assert.equal(carols[0]?.type, 'issueCommentMention');
    assert.equal(carols[0]?.issue.identifier, issues[1]);

    // The New issue dialog: Tab inserts; Escape closes the list, not the dialog.
    await page.keyboard.press('c');
    const dialog = page.getByRole('dialog', { name: 'New issue' });
    const description = dialog.getByRole('textbox', { name: 'Description' });
    await description.click();
    await description.pressSequentially('Ask @si');
    await dialog.getByRole('option', { name: /@Carol/ }).waitFor();
    await page.keyboard.press('Tab');
    await description.locator('.mention', { hasText: '@Carol' }).waitFor();
    await description.pressSequentially('@b');
    await dialog.getByRole('option', { name: /@Bob/ }).waitFor();
    await page.keyboard.press('Escape');
    assert.equal(await dialog.getByRole('listbox').count(), 0);
    assert.ok(await dialog.isVisible(), 'the dialog stays open');
  });

  test('the web and the server read mentions by one rule', () => {
    const web = (text: string) =>
      [...text.matchAll(new RegExp(MENTION, 'gu'))].map((m) => m[1]!.toLowerCase());
    for (const text of ['@Carol hi', 'bob@example.com', '(@dave.) and @ana-maria', '@@x @é1 x@y @_z'])
      assert.deepEqual(web(text), mentionedNames(text), text);
  });

  test('without a mail server the email switch is off-limits and says why', async () => {
    const page = await bobsPage();
    await page.goto('/settings/account');
    const toggle = page.getByRole('switch', { name: 'Email me my notifications' });
    await toggle.waitFor();
    assert.equal(await toggle.isDisabled(), true);
    assert.equal(await toggle.isChecked(), true, 'the stored choice shows');
    await page.getByText('This server sends no email').waitFor();
    await screenshot(page, 'settings-email');
  });

  test('? lists the inbox keys; axe finds nothing serious in the inbox, light and dark, desktop and phone', async () => {
    // A fresh unread notification beside the read ones.
    await ui.t.post(
      '/api/issues',
      { teamId: 'ENG', title: 'Axe check', assigneeId: bob.id },
      ui.t.adminToken,
    );
    const found: string[] = [];
    const check = async (page: Page, what: string, path: string) => {
      await page.goto(path);
      await page.getByRole('heading', { name: 'Inbox' }).waitFor();
      await page.waitForFunction(() => !document.querySelector('.boot, .loading'));
      if (path.endsWith('all')) await screenshot(page, `inbox-${what}`);
      for (const v of await seriousViolations(page)) found.push(`${what} ${path}: ${v}`);
    };
    // Rows of both kinds (read and unread), then the empty state; the same in dark, and on a phone.
    const desktop = await bobsPage();
    await check(desktop, 'desktop-light', '/inbox?show=all');
    await check(desktop, 'desktop-light', '/inbox?show=archived');
    await desktop.emulateMedia({ colorScheme: 'dark' });
    await check(desktop, 'desktop-dark', '/inbox?show=all');
    await check(desktop, 'desktop-dark', '/inbox?show=archived');
    await check(await bobsPage({ viewport: PHONE, colorScheme: 'dark' }), 'phone-dark', '/inbox?show=all');

    await desktop.keyboard.press('?');
    const help = desktop.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.getByRole('region', { name: 'Inbox' }).getByText('Archive (or unarchive)').waitFor();
    await help.getByRole('region', { name: 'Anywhere' }).getByText('Open the inbox').waitFor();
    await desktop.keyboard.press('Escape');
    assert.deepEqual(found, []);
  });
});

describe("UI: a new person's inbox", () => {
  test('an empty inbox says so', async () => {
    const dan = await person('Dan Newcomer', 'dan@inbox.test');
    const { page } = await ui.signedIn('/inbox?show=all', { as: dan });
    await page.getByText('Your inbox is empty.').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Mark all read' }).isDisabled(), true);
  });
});
