// In a real browser: a private team's issues exist only for its members. The
// list, the board, the issue page and the search menu of a member outside the
// team, and of a guest in no team, show none of them; a member inside sees them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startUi, type UiEnv, visit } from './browser.js';

const PASSWORD = 'password-123'; // what the harness gives the users it creates
let ui: UiEnv;
let secret: { identifier: string };

before(async () => {
  ui = await startUi();
  const { t } = ui;
  const team = await t.post('/api/teams', { name: 'Payroll', key: 'PAY', private: true }, t.adminToken);
  assert.equal(team.status, 201, JSON.stringify(team.body));
  const made = await t.post('/api/issues', { title: 'Salary bands 2027', teamId: 'PAY' }, t.adminToken);
  assert.equal(made.status, 201);
  secret = made.body.issue;
  assert.equal((await t.post('/api/issues', { title: 'Public roadmap' }, t.adminToken)).status, 201);
});
after(() => ui?.close());

async function as(user: { email: string }, path: string) {
  const { page } = await ui.signedIn(path, { as: { email: user.email, password: PASSWORD } });
  return page;
}

const issueList = (page: Page) => page.getByRole('list', { name: 'Issues' });

describe('UI: a private team is there only for its members', () => {
  test('a member outside it sees no trace: list, board, issue page, search', async () => {
    const page = await as(await ui.t.userWithRole('member'), '/issues');
    await issueList(page)
      .getByRole('link', { name: /Public roadmap/ })
      .waitFor();
    assert.equal(await page.getByText('Salary bands 2027').count(), 0);
    await visit(page, '/board');
    await page.getByRole('link', { name: /Public roadmap/ }).waitFor();
    assert.equal(await page.getByText('Salary bands 2027').count(), 0);
    await visit(page, `/issue/${secret.identifier}`);
    await page.getByText('Issue not found').waitFor();
    await page.keyboard.press('Control+k');
    // The menu asks the server once typing pauses; its answer is what counts.
    const searched = page.waitForResponse(
      (r) => r.url().endsWith('/graphql') && (r.request().postData() ?? '').includes('searchableContent'),
    );
    await page.getByRole('combobox', { name: 'Type a command or search issues' }).fill('Salary');
    const answer = await (await searched).json();
    assert.deepEqual(answer.data.issues.nodes, []);
    assert.equal(await page.getByRole('option', { name: /Salary bands/ }).count(), 0);
  });

  test('a member inside it finds the issue in the list and through the search menu', async () => {
    const insider = await ui.t.userWithRole('member', { teams: ['PAY'] });
    const page = await as(insider, '/issues');
    await issueList(page)
      .getByRole('link', { name: /Salary bands 2027/ })
      .waitFor();
    await page.keyboard.press('Control+k');
    await page.getByRole('combobox', { name: 'Type a command or search issues' }).fill('salary band');
    await page.getByRole('option', { name: /Salary bands 2027/ }).waitFor();
  });

  test('a guest in no team sees no issues at all', async () => {
    const page = await as(await ui.t.userWithRole('guest'), '/issues');
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    // Give the list time to load, then check that nothing of either team is there.
    await page.waitForLoadState('networkidle');
    assert.equal(await page.getByText('Public roadmap').count(), 0);
    assert.equal(await page.getByText('Salary bands 2027').count(), 0);
    await visit(page, `/issue/${secret.identifier}`);
    await page.getByText('Issue not found').waitFor();
  });
});
