// In a real browser: My issues' tabs (issue 26). Assigned, Created and
// Subscribed each list what their name says for the signed-in person, the
// view's display settings carry from tab to tab, and the sidebar keeps
// My issues current on every tab.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { seriousViolations, startUi, type UiEnv, visit } from './browser.js';

let ui: UiEnv;
let page: Page;
let teamId: string;
let adminId: string;
let memberToken: string;

before(async () => {
  ui = await startUi();
  const teams = (await ui.t.get('/api/teams', ui.t.adminToken)).body.teams as { id: string }[];
  teamId = teams[0]!.id;
  adminId = (await ui.t.get('/api/auth/me', ui.t.adminToken)).body.user.id;
  memberToken = (await ui.t.userWithRole('member', { teams: [teamId] })).token;
  ({ page } = await ui.signedIn());
});
after(() => ui?.close());

async function issue(title: string, token: string, extra: Record<string, unknown> = {}) {
  const res = await ui.t.post('/api/issues', { teamId, title, ...extra }, token);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.issue as { id: string; identifier: string };
}

/** The titles the list shows, once its count reads `count`. */
async function titlesShown(count: number) {
  await page.locator('.list-bar', { hasText: `${count} ${count === 1 ? 'issue' : 'issues'}` }).waitFor();
  return (await page.locator('.issue-row .title').allTextContents()).sort();
}

describe('UI: My issues', () => {
  test('Assigned, Created and Subscribed list what their names say; the view carries over', async () => {
    await issue('Assigned to me by a teammate', memberToken, { assigneeId: adminId, dueDate: '2020-01-02' });
    await issue('Created by me, nobody assigned', ui.t.adminToken, { dueDate: '2999-01-02' });
    const followed = await issue('A teammate’s issue I follow', memberToken);
    await issue('A teammate’s issue I do not follow', memberToken);
    const sub = await ui.t.request('PUT', `/api/issues/${followed.id}/subscription`, {
      token: ui.t.adminToken,
    });
    assert.equal(sub.status, 200, JSON.stringify(sub.body));

    await visit(page, '/my-issues?order=created');
    const tabs = page.getByRole('navigation', { name: 'My issues' });
    assert.equal(await tabs.getByRole('link', { name: 'Assigned' }).getAttribute('aria-current'), 'page');
    assert.deepEqual(await titlesShown(1), ['Assigned to me by a teammate']);
    // Past due and open: said in words and marked, not only coloured; the avatar shows initials.
    const row = page.locator('.issue-row', { hasText: 'Assigned to me by a teammate' });
    assert.equal((await row.locator('.due.overdue').textContent())?.includes('Overdue, due'), true);
    assert.equal(await row.getByRole('img', { name: /^Assigned to / }).textContent(), 'A');
    assert.deepEqual(await seriousViolations(page), []);

    await tabs.getByRole('link', { name: 'Created' }).click();
    await page.waitForURL(/\/my-issues\/created/);
    assert.deepEqual(await titlesShown(1), ['Created by me, nobody assigned']);
    // A date still to come is a plain date.
    const future = page.locator('.issue-row', { hasText: 'Created by me' }).locator('.due');
    assert.equal(await future.getAttribute('class'), 'due');
    assert.equal(new URL(page.url()).searchParams.get('order'), 'created', 'the view carried over');
    assert.equal(await tabs.getByRole('link', { name: 'Created' }).getAttribute('aria-current'), 'page');
    // The sidebar still says where the person is.
    const sidebar = page.getByRole('link', { name: 'My issues', exact: true });
    assert.equal(await sidebar.getAttribute('aria-current'), 'page');

    // Creating and being assigned subscribe too (docs/notifications.md): three of the four.
    await tabs.getByRole('link', { name: 'Subscribed' }).click();
    await page.waitForURL(/\/my-issues\/subscribed/);
    assert.deepEqual(await titlesShown(3), [
      'A teammate’s issue I follow',
      'Assigned to me by a teammate',
      'Created by me, nobody assigned',
    ]);
  });
});
