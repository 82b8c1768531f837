/// <reference lib="dom" />
// A new project update in the inbox (issue 26): written through the API by
// someone else, it reaches a member of the project as a row of its own,
// grouped by project, with the project's name, the update's health and the
// start of its text; the preview pane shows the whole update and the way to
// the project's page; Enter opens it; U reads the project's group (read back
// from the API).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, startUi, type UiEnv, visit } from './browser.js';

let ui: UiEnv;
let dana: { id: string; token: string; email: string };
let projectId: string;

before(async () => {
  ui = await startUi();
  const made = await ui.t.userWithRole('member', {
    teams: ['ENG'],
    name: 'Dana Member',
    email: 'dana@project-updates.test',
  });
  dana = { id: made.user.id, token: made.token, email: made.email };
  const project = await ui.t.post(
    '/api/projects',
    { name: 'Harbour bridge', teamIds: ['ENG'], memberIds: [dana.id] },
    ui.t.adminToken,
  );
  assert.equal(project.status, 201, JSON.stringify(project.body));
  projectId = project.body.project.id;
  // Written by the admin, not by Dana: hers to hear of.
  const update = await ui.t.post(
    `/api/projects/${projectId}/updates`,
    { body: '## Week 12\n\nThe **deck** is poured; the cables wait for steel.', health: 'atRisk' },
    ui.t.adminToken,
  );
  assert.equal(update.status, 201, JSON.stringify(update.body));
  // An issue's notification beside it, so the page holds both kinds of row.
  const issue = await ui.t.post(
    '/api/issues',
    { teamId: 'ENG', title: 'Order the cables', assigneeId: dana.id },
    ui.t.adminToken,
  );
  assert.equal(issue.status, 201, JSON.stringify(issue.body));
});
after(() => ui?.close());

const rows = (page: Page) => page.getByRole('list', { name: 'Notifications' }).getByRole('listitem');
const projectRow = (page: Page) => rows(page).filter({ hasText: 'Harbour bridge' });

/** Dana's notifications about the project, as the REST inbox lists them. */
async function danas() {
  const r = await ui.t.get('/api/notifications?limit=100', dana.token);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return (r.body.notifications as any[]).filter((n) => n.projectId === projectId);
}

describe('UI: a project update in the inbox', () => {
  test("a project row with the update's health and text; the preview shows the update and leads to the project", async () => {
    const { page } = await ui.signedIn('/', { as: dana });
    await visit(page, '/inbox?show=all');
    await projectRow(page).waitFor();
    assert.equal(await rows(page).count(), 2, 'the project row and the issue row');
    const text = (await projectRow(page).getByRole('link').textContent()) ?? '';
    assert.match(text, /Project[\s\S]*Harbour bridge/);
    assert.match(text, /posted an update/);
    assert.match(text, /At risk/);
    assert.match(text, /Week 12 The deck is poured/, 'the start of its text, without Markdown marks');
    assert.match(text, /1 new/);

    // Selected, the preview pane shows the update whole, and a link to the project.
    await projectRow(page).getByRole('link').focus();
    const pane = page.getByRole('region', { name: 'Preview: Harbour bridge' });
    await pane.getByRole('heading', { name: 'Harbour bridge' }).waitFor();
    await pane.locator('.markdown strong', { hasText: 'deck' }).waitFor();
    await pane.getByText('the cables wait for steel').waitFor();
    assert.equal(await pane.locator('.health.atRisk').count(), 1, 'its health');
    await screenshot(page, 'inbox-project-update');
    const open = pane.getByRole('link', { name: 'Open project' });
    assert.match((await open.getAttribute('href')) ?? '', new RegExp(`/projects/${projectId}#update-`));

    // Enter opens the project's page, where the update is.
    await projectRow(page).getByRole('link').press('Enter');
    await page.waitForURL(new RegExp(`/projects/${projectId}#update-`));
    await page.getByRole('heading', { name: 'Harbour bridge' }).first().waitFor();
    await page.getByText('the cables wait for steel').waitFor();
    await page.context().close();
  });

  test("U reads and unreads the project's group", async () => {
    const { page } = await ui.signedIn('/', { as: dana, viewport: { width: 800, height: 900 } });
    await visit(page, '/inbox?show=all');
    await projectRow(page).waitFor();
    // A narrow screen has no preview pane, so nothing is read by dwelling on the row.
    await projectRow(page).getByRole('link').focus();
    const before = (await danas())[0]!;
    const wanted = before.readAt === null;
    await page.keyboard.press('u');
    await waitFor(async () => (await danas()).every((n) => (n.readAt !== null) === wanted));
    await page.keyboard.press('u');
    await waitFor(async () => (await danas()).every((n) => (n.readAt !== null) !== wanted));
    await page.context().close();
  });
});

async function waitFor(check: () => Promise<boolean>, ms = 5_000) {
  for (const until = Date.now() + ms; Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
    if (await check()) return;
  }
  assert.ok(await check(), 'waited for the change');
}
