/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser.)
// The defects of issue 14, each driven as a person meets it: a reload while the
// server is unreachable keeps the session; the API's issue url opens the issue;
// property edits show at once with a busy sign and roll back when refused; a
// view (grouping, order, filters) lives in the address; every change is in the
// issue's activity with a relative time; tabs are titled after their page.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page, Route } from 'playwright-core';
import { holdOperation, refuseOperation, startUi, type UiEnv, visit } from './browser.js';

let ui: UiEnv;
let page: Page;
let issue: { id: string; identifier: string; url: string; title: string };
before(async () => {
  ui = await startUi();
  const res = await ui.t.post(
    '/api/issues',
    { teamId: 'ENG', title: 'Defects checked', priority: 3 },
    ui.t.adminToken,
  );
  assert.equal(res.status, 201);
  issue = res.body.issue;
  ({ page } = await ui.signedIn());
});
after(() => ui?.close());

describe('UI: the defects of issue 14', () => {
  test('a reload while the server is unreachable keeps the session and offers to try again', async () => {
    // The app probes /healthz while the server is away and tries again by itself once it
    // answers (lib/connection.ts): held down too, so that only the button brings it back.
    const refuse = (r: Route) => r.abort('connectionrefused');
    await page.route('**/api/auth/me', refuse);
    await page.route('**/healthz', refuse);
    await page.reload();
    const alert = page.getByRole('alert').filter({ hasText: 'Cannot reach the server' });
    await alert.waitFor();
    await alert.getByText('You are still signed in').waitFor();
    await page.unroute('**/api/auth/me', refuse);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await page.locator('main#main').waitFor();
    await page.unroute('**/healthz', refuse);
    assert.ok(await page.evaluate("localStorage.getItem('trackway.token')"), 'the token is kept');
  });

  test("the API's issue url opens the issue, and the tab is titled after it", async () => {
    assert.match(issue.url, new RegExp(`/issue/${issue.identifier}/`));
    // Opened from outside the app (a link the API gave): a document load.
    await page.goto(new URL(issue.url).pathname);
    await page.getByRole('complementary', { name: 'Properties' }).waitFor();
    assert.equal(await page.getByLabel('Title').inputValue(), 'Defects checked');
    await page.waitForFunction((t) => document.title.startsWith(t), `${issue.identifier} Defects checked ·`);
    await visit(page, '/board');
    await page.waitForFunction(() => document.title.startsWith('Board ·'));
  });

  test('a property edit shows at once with a busy sign, and goes back when refused', async () => {
    await visit(page, `/issue/${issue.identifier}`);
    const priority = page
      .getByRole('complementary', { name: 'Properties' })
      .getByRole('combobox', { name: 'Priority' });
    await priority.waitFor();
    const held = await holdOperation(page, 'UpdateIssue');
    await priority.selectOption({ label: 'Urgent' });
    assert.equal(await priority.inputValue(), '1', 'shown before the server answers');
    assert.equal(await priority.getAttribute('aria-busy'), 'true');
    held.release();
    await page.waitForFunction(
      (el) => el?.getAttribute('aria-busy') !== 'true',
      await priority.elementHandle(),
    );
    await held.stop();
    assert.equal((await ui.t.get(`/api/issues/${issue.id}`, ui.t.adminToken)).body.issue.priority, 1);

    // A refusal: the old value comes back, with the reason next to it.
    const refused = await refuseOperation(page, 'UpdateIssue', 'Refused for the test');
    await priority.selectOption({ label: 'Low' });
    await page.getByRole('alert').filter({ hasText: 'Refused for the test' }).waitFor();
    assert.equal(await priority.inputValue(), '1', 'rolled back');
    await refused.stop();
  });

  test('the activity lists every change, with relative times', async () => {
    await ui.t.patch(`/api/issues/${issue.id}`, { title: 'Defects checked again' }, ui.t.adminToken);
    await visit(page, `/issue/${issue.identifier}`);
    const activity = page.getByRole('region', { name: 'Activity' });
    await activity.getByText('renamed the issue to “Defects checked again”').waitFor();
    await activity.getByText(/changed priority from Medium to Urgent/).waitFor();
    const time = activity.locator('time').first();
    assert.match((await time.textContent()) ?? '', /just now|minute/);
    assert.ok(await time.getAttribute('title'), 'the exact time on hover');
  });

  test('grouping, order and filters live in the address and survive a reload', async () => {
    await visit(page, '/issues?group=priority&order=created&priority=1');
    await page.getByRole('link', { name: /Defects checked again/ }).waitFor();
    await page.getByText('Display', { exact: true }).click();
    const grouping = page.getByRole('combobox', { name: 'Grouping' });
    assert.equal(await grouping.inputValue(), 'priority');
    assert.equal(await page.getByRole('combobox', { name: 'Ordering' }).inputValue(), 'created');
    await grouping.selectOption('assignee');
    await page.waitForURL(/group=assignee/);
    await page.reload();
    await page.getByRole('link', { name: /Defects checked again/ }).waitFor();
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('group'), 'assignee');
    // The old single-value address became the filter builder's own words.
    assert.equal(url.searchParams.get('f'), 'priority.is.1');
  });
});
