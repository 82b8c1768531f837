/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser.)
// Every screen size and both themes: a phone gets a drawer instead of the
// sidebar and the properties below its description; no page scrolls
// sideways from 360 px up; the dark theme follows the system until the user
// picks one; and axe finds no serious accessibility problem on any main page,
// at desktop and phone sizes, light and dark.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  PHONE,
  screenshot,
  seriousViolations,
  signIn,
  startUi,
  type UiEnv,
  visit,
} from './browser.js';

let ui: UiEnv;
before(async () => {
  ui = await startUi();
  const token = ui.t.adminToken;
  for (let i = 0; i < 6; i++)
    await ui.t.post(
      '/api/issues',
      {
        teamId: 'ENG',
        title: `Responsive check ${i} with a title long enough to wrap`,
        description: 'Body **text**',
        priority: i % 5,
      },
      token,
    );
  const project = await ui.t.post('/api/projects', { name: 'Phone app', teamIds: [] }, token);
  assert.ok(project.status === 201 || project.status === 400, JSON.stringify(project.body));
});
after(() => ui?.close());

/** Opens a page of the app and waits until nothing on it is loading. */
async function open(page: Page, path: string) {
  await page.goto(path);
  await page.locator('main#main').waitFor();
  await page.waitForFunction(() => !document.querySelector('.boot, .loading'));
}

/** The page scrolls sideways: its content is wider than the window. */
const overflowsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);

/** Relative luminance of the page background (0 black .. 1 white). */
const backgroundLuminance = (page: Page) =>
  page.evaluate(() => {
    const [r, g, b] = getComputedStyle(document.body.parentElement!)
      .backgroundColor.match(/\d+(\.\d+)?/g)!
      .map(Number);
    return (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255;
  });

describe('UI on every screen size', () => {
  test('on a phone the sidebar is a drawer: Menu opens it, choosing a page closes it', async () => {
    const { page } = await ui.signedIn('/', { viewport: PHONE });
    const menu = page.getByRole('button', { name: 'Menu', exact: true });
    await menu.waitFor();
    assert.equal(await menu.getAttribute('aria-expanded'), 'false');
    assert.equal(
      await page.getByRole('navigation', { name: 'Main' }).count(),
      0,
      'the closed drawer is hidden',
    );
    await menu.click();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.waitFor();
    assert.equal(await menu.getAttribute('aria-expanded'), 'true');
    await screenshot(page, 'phone-drawer');
    await nav.getByRole('link', { name: 'Board', exact: true }).click();
    await page.getByRole('heading', { name: 'Board', level: 1 }).waitFor();
    await nav.waitFor({ state: 'hidden' });
    assert.equal(await menu.getAttribute('aria-expanded'), 'false');
    // Escape closes it too.
    await menu.click();
    await nav.waitFor();
    await page.keyboard.press('Escape');
    await nav.waitFor({ state: 'hidden' });
  });

  test('on a phone the issue properties come right below the description', async () => {
    const { page } = await ui.signedIn('/issue/ENG-2', { viewport: PHONE });
    const description = page.getByRole('region', { name: 'Description' });
    const properties = page.getByRole('complementary', { name: 'Properties' });
    await properties.waitFor();
    const d = (await description.boundingBox())!;
    const p = (await properties.boundingBox())!;
    assert.ok(p.y >= d.y + d.height - 1, 'properties below the description');
    assert.ok(p.width > PHONE.width * 0.9, 'properties take the whole width');
    const comments = (await page.getByLabel('Add a comment').boundingBox())!;
    assert.ok(comments.y > p.y + p.height - 1, 'comments after the properties');
    await screenshot(page, 'phone-issue');
  });

  test('no page scrolls sideways at 360 px', async () => {
    const { page } = await ui.signedIn('/', { viewport: { width: 360, height: 740 } });
    for (const path of [
      '/issues',
      '/board',
      '/issue/ENG-1',
      '/projects',
      '/cycles',
      '/settings/account',
      '/admin/users',
    ]) {
      await open(page, path);
      assert.equal(await overflowsSideways(page), false, `${path} fits 360 px`);
    }
  });

  test('the theme follows the system until picked, and the pick is kept', async () => {
    const { page } = await ui.signedIn('/', { colorScheme: 'dark' });
    assert.ok((await backgroundLuminance(page)) < 0.2, 'dark system: dark page');
    await page.getByRole('button', { name: 'Use light theme' }).click();
    assert.ok((await backgroundLuminance(page)) > 0.9, 'picked light');
    await page.reload();
    await page.getByRole('button', { name: 'Use dark theme' }).waitFor();
    assert.ok((await backgroundLuminance(page)) > 0.9, 'the pick survives a reload');
    await page.getByRole('button', { name: 'Use dark theme' }).click();
    assert.ok((await backgroundLuminance(page)) < 0.2, 'picked dark');
    await screenshot(page, 'dark-issues');

    const light = await ui.signedIn('/', { colorScheme: 'light' });
    assert.ok((await backgroundLuminance(light.page)) > 0.9, 'light system: light page');
  });

  // Every page of the app: signed out first, then each signed-in page an admin can open.
  const signedOut = ['/login', '/register', '/forgot-password'];
  const pages = [
    '/inbox',
    '/issues',
    '/my-issues',
    '/board',
    '/issue/ENG-1',
    '/projects',
    '/cycles',
    '/settings/account',
    '/settings/api-keys',
    '/admin/users',
    '/admin/teams',
    '/admin/teams/ENG',
    '/admin/labels',
    '/admin/flags',
    '/admin/branding',
    '/admin/webhooks',
  ];
  // Every screen in each look (desktop light, desktop dark, phone dark), reached inside the
  // app: the colour scheme changes in place, and axe is loaded into a page once
  // (browser.ts seriousViolations). The phone is a page of its own (touch, no hover).
  test('axe finds no serious or critical violation (desktop light and dark, phone dark)', async () => {
    const desktop = (await ui.newPage()).page;
    const phone = (await ui.newPage({ viewport: PHONE, colorScheme: 'dark' })).page;
    const looks = [
      ['desktop, light', desktop, 'light'],
      ['desktop, dark', desktop, 'dark'],
      ['phone, dark', phone, 'dark'],
    ] as const;
    const found: string[] = [];
    for (const path of signedOut)
      for (const [what, page, scheme] of looks) {
        if (new URL(page.url()).pathname !== path) {
          await page.goto(path);
          await page.getByRole('heading', { level: 2 }).first().waitFor();
        }
        await page.emulateMedia({ colorScheme: scheme });
        for (const v of await seriousViolations(page)) found.push(`${what} ${path}: ${v}`);
      }
    await signIn(desktop, ADMIN_EMAIL, ADMIN_PASSWORD);
    await signIn(phone, ADMIN_EMAIL, ADMIN_PASSWORD);
    for (const [what, page, scheme] of looks) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const path of pages) {
        await visit(page, path);
        for (const v of await seriousViolations(page)) found.push(`${what} ${path}: ${v}`);
      }
    }
    assert.deepEqual(found, []);
  });
});
