// End to end in a real browser: a project's milestones (add, reorder, their
// progress), the milestone picker on an issue (only its project's
// milestones), and sub-issues with their progress, checked through the API.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, startUi, type UiEnv, visit } from './browser.js';

let ui: UiEnv;
let page: Page;

before(async () => {
  ui = await startUi();
  ({ page } = await ui.signedIn());
});
after(() => ui?.close());

const api = {
  get: async (path: string) => (await ui.t.get(path, ui.t.adminToken)).body,
  post: async (path: string, body: unknown) => {
    const res = await ui.t.post(path, body, ui.t.adminToken);
    assert.ok(res.status < 300, JSON.stringify(res.body));
    return res.body;
  },
  patch: async (path: string, body: unknown) => (await ui.t.patch(path, body, ui.t.adminToken)).body,
};

async function eventually<T>(fn: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 50; i++) {
    const v = await fn();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const names = async (projectId: string) =>
  ((await api.get(`/api/projects/${projectId}/milestones`)).milestones as { name: string }[]).map(
    (m) => m.name,
  );

describe('UI: milestones and sub-issues', () => {
  let projectId = '';

  test('a project shows its milestones; they are added and reordered there', async () => {
    projectId = (await api.post('/api/projects', { name: 'Launch plan', teamIds: ['ENG'] })).project.id;
    await visit(page, '/projects');
    await page
      .getByRole('row', { name: /Launch plan/ })
      .getByRole('button', { name: 'Show milestones' })
      .click();
    const section = page.getByRole('region', { name: 'Milestones of Launch plan' });
    await section.getByText('No milestones yet.').waitFor();
    await section.getByLabel('New milestone').fill('Beta');
    await section.getByLabel('Target date').fill('2099-05-01');
    await section.getByRole('button', { name: 'Add milestone' }).click();
    await section.getByText('Beta', { exact: true }).waitFor();
    await section.getByLabel('New milestone').fill('General availability');
    await section.getByRole('button', { name: 'Add milestone' }).click();
    await section.getByText('General availability', { exact: true }).waitFor();
    assert.deepEqual(await names(projectId), ['Beta', 'General availability']);
    const [beta] = (await api.get(`/api/projects/${projectId}/milestones`)).milestones;
    assert.equal(beta.targetDate, '2099-05-01');

    await section.getByRole('button', { name: 'Move General availability up' }).click();
    await eventually(
      () => names(projectId),
      (n) => n[0] === 'General availability',
      'the reorder',
    );
    await section.locator('li').first().getByText('General availability').waitFor();
    await screenshot(page, 'project-milestones');
  });

  test('the milestone picker offers only the milestones of the issue project and sets one', async () => {
    const other = (await api.post('/api/projects', { name: 'Elsewhere', teamIds: ['ENG'] })).project.id;
    await api.post(`/api/projects/${other}/milestones`, { name: 'Not this one' });
    const issue = (await api.post('/api/issues', { title: 'Ship the beta', projectId })).issue;
    await visit(page, `/issue/${issue.identifier}`);
    const picker = page.getByLabel('Milestone');
    await picker.waitFor();
    // The project's milestones arrive after the picker shows: wait for them, then check the list.
    await picker.locator('option', { hasText: 'Beta' }).waitFor({ state: 'attached' });
    const options = await picker.locator('option').allTextContents();
    assert.deepEqual(options, ['No milestone', 'General availability', 'Beta']);
    await picker.selectOption({ label: 'Beta' });
    const updated = await eventually(
      () => api.get(`/api/issues/${issue.id}`),
      (b) => b.issue.projectMilestoneId !== null,
      'the milestone to be set',
    );
    const beta = (await api.get(`/api/projects/${projectId}/milestones`)).milestones.find(
      (m: { name: string }) => m.name === 'Beta',
    );
    assert.equal(updated.issue.projectMilestoneId, beta.id);
    assert.equal(beta.progress.issueCount, 1);
  });

  test('sub-issues are listed with their progress and added from the issue page', async () => {
    const parent = (await api.post('/api/issues', { title: 'Parent work' })).issue;
    await visit(page, `/issue/${parent.identifier}`);
    const section = page.getByRole('region', { name: /Sub-issues/ });
    await section.getByLabel('New sub-issue').fill('First step');
    await section.getByRole('button', { name: 'Add sub-issue' }).click();
    await section.getByRole('link', { name: /First step/ }).waitFor();
    await section.getByLabel('New sub-issue').fill('Second step');
    await section.getByRole('button', { name: 'Add sub-issue' }).click();
    await section.getByRole('link', { name: /Second step/ }).waitFor();
    await section.getByRole('status').filter({ hasText: '0/2 done' }).waitFor();

    const children = (await api.get(`/api/issues/${parent.id}`)).issue.childProgress;
    assert.deepEqual(children, { total: 2, completed: 0, canceled: 0 });
    // Complete one through the API; the page shows it after a reload.
    const list = await api.get(`/api/issues?limit=250&q=First%20step`);
    const first = list.issues.find((i: { title: string }) => i.title === 'First step');
    assert.equal(first.parentId, parent.id);
    const states = await api.get(`/api/workflow-states?teamId=${first.teamId}`);
    const done = states.workflowStates.find((s: { type: string }) => s.type === 'completed');
    await api.patch(`/api/issues/${first.id}`, { stateId: done.id });
    await page.reload();
    await page
      .getByRole('region', { name: /Sub-issues/ })
      .getByRole('status')
      .filter({ hasText: '1/2 done' })
      .waitFor();
    // Oldest first, each with its state's name (the list and the count both come from REST).
    const items = page.getByRole('list', { name: 'Sub-issues' }).getByRole('listitem');
    await items
      .nth(0)
      .filter({ hasText: `First step ${done.name}` })
      .waitFor();
    assert.match((await items.nth(1).textContent()) ?? '', /Second step/);
    await screenshot(page, 'sub-issues');

    // The child's page links back to its parent.
    await page.getByRole('link', { name: /First step/ }).click();
    await page
      .getByRole('navigation', { name: 'Breadcrumb' })
      .getByRole('link', { name: parent.identifier })
      .waitFor();
  });
});
