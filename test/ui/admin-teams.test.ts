// End to end in a real browser: the Teams administration. An admin creates a
// team, re-keys it (old identifiers keep resolving), makes it private, manages
// members, the workflow (add, reorder, recolour, archive with replacement) and
// team and workspace labels; a member never sees the section.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { focusLandsOn, screenshot, startUi, type UiEnv } from './browser.js';

let ui: UiEnv;
let page: Page;
let teamId = '';

before(async () => {
  ui = await startUi();
  ({ page } = await ui.signedIn());
});
after(async () => {
  await ui?.close();
});

/** Polls the API until `check` holds (the UI saves in the background). */
async function until<T>(read: () => Promise<T>, check: (v: T) => boolean, what: string): Promise<T> {
  let v = await read();
  for (let i = 0; i < 50 && !check(v); i++) {
    await new Promise((r) => setTimeout(r, 100));
    v = await read();
  }
  assert.ok(check(v), `${what}: ${JSON.stringify(v)}`);
  return v;
}

const states = async () =>
  (await ui.t.get(`/api/workflow-states?teamId=${teamId}`, ui.t.adminToken)).body.workflowStates as {
    id: string;
    name: string;
    type: string;
    color: string;
    position: number;
  }[];
const team = async () => (await ui.t.get(`/api/teams/${teamId}`, ui.t.adminToken)).body.team;

describe('UI: teams administration', () => {
  test('an admin creates a team, re-keys it and makes it private; the old identifier still opens the issue', async () => {
    await page.getByRole('link', { name: 'Teams', exact: true }).click();
    await page.getByLabel('Team key').fill('uit');
    await page.getByLabel('Team name').fill('UI Team');
    await page.getByRole('button', { name: 'Create team' }).click();
    await page.getByRole('heading', { name: 'UI Team (UIT)' }).waitFor();
    const created = await ui.t.get('/api/teams/UIT', ui.t.adminToken);
    assert.equal(created.status, 200);
    teamId = created.body.team.id;
    assert.equal(created.body.team.private, false);

    const issue = await ui.t.post(
      '/api/issues',
      { title: 'Made before the key change', teamId },
      ui.t.adminToken,
    );
    assert.equal(issue.body.issue.identifier, 'UIT-1');

    await page.getByLabel('Team key').fill('UIX');
    await page.getByText('links to UIT-n keep working').waitFor();
    await page.getByLabel('Team name').fill('UI Crew');
    await page.getByRole('checkbox', { name: /Private team/ }).check();
    await page.getByRole('button', { name: 'Save team' }).click();
    await page.getByRole('heading', { name: 'UI Crew (UIX)' }).waitFor();
    const saved = await team();
    assert.equal(saved.key, 'UIX');
    assert.equal(saved.private, true);

    // A key another team holds is refused next to the field.
    await page.getByLabel('Team key').fill('ENG');
    await page.getByRole('button', { name: 'Save team' }).click();
    await page.locator('.field-error', { hasText: 'used by another team' }).waitFor();
    assert.equal(await page.getByLabel('Team key').getAttribute('aria-invalid'), 'true');
    assert.equal((await team()).key, 'UIX');

    await page.goto('/issue/UIT-1');
    await page.getByText('UIX-1').first().waitFor();
    assert.equal(await page.getByLabel('Title', { exact: true }).inputValue(), 'Made before the key change');

    await page.goto('/admin/teams');
    const row = page.getByRole('row', { name: /UIX/ });
    await row.getByRole('cell', { name: 'Private' }).waitFor();
    const count = (await ui.t.get(`/api/teams/${teamId}/members`, ui.t.adminToken)).body.members.length;
    await row.getByRole('cell', { name: String(count), exact: true }).waitFor();
    await row.getByRole('link', { name: 'UI Crew' }).click();
    await page.getByRole('heading', { name: 'UI Crew (UIX)' }).waitFor();
    await screenshot(page, 'admin-team');
  });

  test('an admin adds and removes a member', async () => {
    // Created after the team went private, so not a member automatically.
    const member = await ui.t.userWithRole('member');
    await page.reload();
    await page.getByLabel('Add a member').selectOption(member.user.id);
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByRole('button', { name: 'Remove A member' }).waitFor();
    const members = async () =>
      (await ui.t.get(`/api/teams/${teamId}/members`, ui.t.adminToken)).body.members.map(
        (m: { userId: string }) => m.userId,
      ) as string[];
    assert.ok((await members()).includes(member.user.id));
    await page.getByRole('button', { name: 'Remove A member' }).click();
    await page.getByRole('button', { name: 'Remove A member' }).waitFor({ state: 'detached' });
    assert.equal((await members()).includes(member.user.id), false);
  });

  test('an admin edits the workflow: add, reorder, recolour, archive with a replacement', async () => {
    await page.getByLabel('New state name').fill('QA');
    await page.getByLabel('New state type').selectOption('started');
    await page.getByRole('button', { name: 'Add state' }).click();
    await page.getByLabel('Name of QA').waitFor();
    let list = await states();
    const qa = list.find((s) => s.name === 'QA');
    assert.equal(qa?.type, 'started');

    const pos = (l: { name: string; position: number }[], n: string) =>
      l.find((s) => s.name === n)?.position ?? Number.NaN;
    // By keyboard, as the last of the started states: up puts it between In
    // Progress and In Review, down puts it back last. The row's node moves, and
    // the focus stays on its buttons (on "up" once "down" is disabled).
    await page.getByRole('button', { name: 'Move QA up' }).focus();
    await page.keyboard.press('Enter');
    await until(
      states,
      (l) => pos(l, 'In Progress') < pos(l, 'QA') && pos(l, 'QA') < pos(l, 'In Review'),
      'QA moved before In Review',
    );
    // The page shows the new order once "down" is enabled again.
    await page.getByRole('button', { name: 'Move QA down', disabled: false }).focus();
    await page.keyboard.press('Enter');
    await until(states, (l) => pos(l, 'In Review') < pos(l, 'QA'), 'QA moved back last');
    await page.getByRole('button', { name: 'Move QA down', disabled: true }).waitFor();
    await focusLandsOn(page, 'Move QA up');
    await page.keyboard.press('Enter');
    list = await until(
      states,
      (l) => pos(l, 'In Progress') < pos(l, 'QA') && pos(l, 'QA') < pos(l, 'In Review'),
      'QA moved before In Review again',
    );

    await page.getByLabel('Colour of QA').fill('#ff0000');
    await page.getByLabel('Name of QA').fill('Quality check');
    await page.getByRole('button', { name: 'Save QA' }).click();
    await page.getByLabel('Name of Quality check').waitFor();
    list = await states();
    const renamed = list.find((s) => s.id === qa?.id);
    assert.equal(renamed?.name, 'Quality check');
    assert.equal(renamed?.color, '#ff0000');

    // The last backlog state cannot go: the API's refusal is shown.
    await page.getByRole('button', { name: 'Archive Backlog' }).click();
    const dialog = page.getByRole('dialog', { name: 'Archive Backlog' });
    await dialog.getByRole('button', { name: 'Archive state' }).click();
    await dialog.getByRole('alert').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    assert.ok((await states()).some((s) => s.name === 'Backlog'));

    // An issue in In Review moves to the chosen replacement.
    const inReview = list.find((s) => s.name === 'In Review');
    const issue = await ui.t.post(
      '/api/issues',
      { title: 'Waiting for review', teamId, stateId: inReview?.id },
      ui.t.adminToken,
    );
    assert.equal(issue.status, 201, JSON.stringify(issue.body));
    await page.getByRole('button', { name: 'Archive In Review' }).click();
    const archive = page.getByRole('dialog', { name: 'Archive In Review' });
    await archive.getByLabel('Replacement state').selectOption(qa?.id ?? '');
    await archive.getByRole('button', { name: 'Archive state' }).click();
    await page.getByLabel('Name of In Review').waitFor({ state: 'detached' });
    const moved = await ui.t.get(`/api/issues/${issue.body.issue.id}`, ui.t.adminToken);
    assert.equal(moved.body.issue.stateId, qa?.id);
    assert.equal(
      (await states()).some((s) => s.name === 'In Review'),
      false,
    );
    await screenshot(page, 'admin-workflow');
  });

  test('the issue list names the team in group headers once it spans several teams', async () => {
    const other = await ui.t.post('/api/issues', { title: 'In the first team' }, ui.t.adminToken);
    assert.equal(other.status, 201, JSON.stringify(other.body));
    assert.notEqual(other.body.issue.teamId, teamId);
    await page.getByRole('link', { name: 'Issues', exact: true }).click();
    await page.getByRole('button', { name: /^UIX · Backlog/ }).waitFor();
    // The status filter's choices say which team each state belongs to.
    await page.getByRole('button', { name: '+ Add filter' }).click();
    await page.keyboard.type('status');
    await page.keyboard.press('Enter');
    const states = page.getByRole('listbox', { name: 'Status' });
    await states
      .getByRole('option', { name: /Backlog.*UIX/ })
      .first()
      .waitFor();
    await page.keyboard.press('Escape');
    await page.goto(`/admin/teams/${teamId}`);
  });

  test('an admin manages a team label and a workspace label', async () => {
    const labels = async () => (await ui.t.get('/api/labels', ui.t.adminToken)).body.labels as any[];
    await page.getByLabel('New team label name').fill('ui-bug');
    await page.getByRole('button', { name: 'Create team label' }).click();
    await page.getByLabel('Name of label ui-bug').fill('ui-defect');
    await page.getByLabel('Colour of label ui-bug').fill('#00aa00');
    await page.getByRole('button', { name: 'Save label ui-bug' }).click();
    await page.getByLabel('Name of label ui-defect').waitFor();
    const teamLabel = (await labels()).find((l) => l.name === 'ui-defect');
    assert.equal(teamLabel?.teamId, teamId);
    assert.equal(teamLabel?.color, '#00aa00');
    await page.getByRole('button', { name: 'Delete label ui-defect' }).click();
    await page.getByLabel('Name of label ui-defect').waitFor({ state: 'detached' });
    assert.equal(
      (await labels()).some((l) => l.name === 'ui-defect'),
      false,
    );

    await page.getByRole('link', { name: 'Labels', exact: true }).click();
    await page.getByLabel('New workspace label name').fill('ws-wide');
    await page.getByRole('button', { name: 'Create workspace label' }).click();
    await page.getByLabel('Name of label ws-wide').fill('ws-everywhere');
    await page.getByRole('button', { name: 'Save label ws-wide' }).click();
    await page.getByLabel('Name of label ws-everywhere').waitFor();
    const wsLabel = (await labels()).find((l) => l.name === 'ws-everywhere');
    assert.equal(wsLabel?.teamId, null);
    await page.getByRole('button', { name: 'Delete label ws-everywhere' }).click();
    await page.getByLabel('Name of label ws-everywhere').waitFor({ state: 'detached' });
    assert.equal(
      (await labels()).some((l) => l.name === 'ws-everywhere'),
      false,
    );
  });

  test('an admin archives and unarchives the team', async () => {
    await page.goto(`/admin/teams/${teamId}`);
    await page.getByRole('button', { name: 'Archive team' }).click();
    await page.getByRole('button', { name: 'Unarchive team' }).waitFor();
    assert.ok((await team()).archivedAt);
    await page.goto('/admin/teams');
    await page.getByRole('row', { name: /UIX/ }).getByText('archived').waitFor();
    await page.getByRole('link', { name: 'UI Crew' }).click();
    await page.getByRole('button', { name: 'Unarchive team' }).click();
    await page.getByRole('button', { name: 'Archive team' }).waitFor();
    await until(team, (t) => t.archivedAt === null, 'unarchived');
  });

  test('a member sees no Teams administration', async () => {
    const member = await ui.t.userWithRole('member');
    const { page: mine } = await ui.signedIn('/', { as: member });
    assert.equal(await mine.getByRole('link', { name: 'Teams', exact: true }).count(), 0);
    assert.equal(await mine.getByRole('link', { name: 'Labels', exact: true }).count(), 0);
    await mine.goto('/admin/teams');
    await mine.getByRole('heading', { name: 'Not found' }).waitFor();
    assert.equal(await mine.getByRole('button', { name: 'Create team' }).count(), 0);
  });
});
