// In a real browser: project updates (issue 26). Posting an update with "At
// risk" shows it at once with its badge, author and time, keeps it once
// saved, and the project's health follows on its page and in the Projects
// list; a refused update goes away with its text back in the box.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startUi, type UiEnv, visit } from './browser.js';

let ui: UiEnv;
let page: Page;
before(async () => {
  ui = await startUi();
  assert.equal(
    (await ui.t.patch('/api/admin/flags/projects', { enabled: true }, ui.t.adminToken)).status,
    200,
  );
  ({ page } = await ui.signedIn());
});
after(() => ui?.close());

async function newProject(name: string) {
  const res = await ui.t.post('/api/projects', { name }, ui.t.adminToken);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.project as { id: string; name: string };
}

const savedUpdates = async (projectId: string) =>
  (await ui.t.get(`/api/projects/${projectId}/updates`, ui.t.adminToken)).body.projectUpdates as {
    body: string;
    health: string;
  }[];

describe('UI: project updates', () => {
  test('post an update "At risk": badge on the project page and health in the Projects list', async () => {
    const project = await newProject('Rocket launch');
    await visit(page, `/projects/${project.id}`);
    const updates = page.getByRole('region', { name: 'Updates' });
    await updates.getByText('No updates yet.').waitFor();
    // The rich editor: its formatting keys, stored as Markdown.
    const box = updates.getByRole('textbox', { name: 'Write an update' });
    await box.click();
    await box.pressSequentially('Vendor is late; ');
    await page.keyboard.press('ControlOrMeta+b');
    await box.pressSequentially('launch may slip');
    await page.keyboard.press('ControlOrMeta+b');
    await box.pressSequentially('.');
    await box.locator('strong', { hasText: 'launch may slip' }).waitFor();
    await updates.getByRole('radio', { name: 'At risk' }).check();
    await updates.getByRole('button', { name: 'Post update' }).click();

    const posted = updates.locator('.project-update', { hasText: 'launch may slip' });
    await posted.waitFor();
    await posted.locator('.health.atRisk', { hasText: 'At risk' }).waitFor();
    await posted.getByText('Admin', { exact: false }).first().waitFor();
    await page.waitForFunction(() => !document.body.textContent?.includes('sending…'));
    assert.deepEqual(
      (await savedUpdates(project.id)).map((u) => [u.body, u.health]),
      [['Vendor is late; **launch may slip**.', 'atRisk']],
    );
    // The project's own health follows its newest update, on its page and in the list.
    const own = page.getByRole('region', { name: 'Properties' }).getByLabel('Health');
    while ((await own.inputValue()) !== 'atRisk') await page.waitForTimeout(50);
    // A document load: the health is read at once, and the app's cached project list may be older.
    await page.goto('/projects');
    const health = page.getByRole('combobox', { name: 'Health of Rocket launch' });
    await health.waitFor();
    assert.equal(await health.inputValue(), 'atRisk');
    assert.match((await health.getAttribute('class')) ?? '', /\batRisk\b/);
  });

  test('shown before the server answers; refused, it goes away and the text comes back', async () => {
    const project = await newProject('Slow project');
    await visit(page, `/projects/${project.id}`);
    const updates = page.getByRole('region', { name: 'Updates' });
    const box = updates.getByRole('textbox', { name: 'Write an update' });
    await box.waitFor();

    const held = await holdRest(page, `/api/projects/${project.id}/updates`);
    await box.fill('All good');
    await updates.getByRole('button', { name: 'Post update' }).click();
    await updates.locator('.project-update', { hasText: 'All good' }).getByText('sending…').waitFor();
    assert.deepEqual(await savedUpdates(project.id), [], 'not saved yet');
    held.release();
    await page.waitForFunction(() => !document.body.textContent?.includes('sending…'));
    await held.stop();

    const refused = await refuseRest(page, `/api/projects/${project.id}/updates`, 'Not today');
    await box.fill('Never kept');
    await updates.getByRole('button', { name: 'Post update' }).click();
    await updates.getByRole('alert').filter({ hasText: 'Not today' }).waitFor();
    await page.waitForFunction((el) => el.textContent === 'Never kept', await box.elementHandle());
    assert.equal(await updates.locator('.project-update', { hasText: 'Never kept' }).count(), 0);
    await refused.stop();
    assert.deepEqual(
      (await savedUpdates(project.id)).map((u) => u.body),
      ['All good'],
    );
  });
});

/** Holds POSTs to `path` until released (a slow server). */
async function holdRest(p: Page, path: string) {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const url = (u: URL) => u.pathname === path;
  const handler = async (route: import('playwright-core').Route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    await gate;
    return route.fallback();
  };
  await p.route(url, handler);
  return { release, stop: () => p.unroute(url, handler) };
}

/** Answers POSTs to `path` with a 400 and `message`, as the server refuses. */
async function refuseRest(p: Page, path: string, message: string) {
  const url = (u: URL) => u.pathname === path;
  const handler = (route: import('playwright-core').Route) =>
    route.request().method() !== 'POST'
      ? route.fallback()
      : route.fulfill({
          status: 400,
          contentType: 'application/json',
          body: JSON.stringify({ error: { status: 400, code: 'VALIDATION_FAILED', message } }),
        });
  await p.route(url, handler);
  return { stop: () => p.unroute(url, handler) };
}
