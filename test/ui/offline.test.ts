// In a real browser, without the server: the offline status in the shell, edits
// and comments kept in the browser (over a reload, whose page comes from the
// app shell's service worker), sent in the order they were made once the
// server is back, an edit the server then refuses undone and reported, and a
// new issue or comment whose answer was lost on the way back made once when
// it is sent again (web/src/lib/connection.ts, write-queue.ts,
// web/sw/service-worker.js; the client-chosen ids of docs/API.md).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  screenshot,
  seriousViolations,
  signIn,
  startUi,
  type UiEnv,
  visit,
} from './browser.js';

let ui: UiEnv;
let page: Page;
let context: BrowserContext;
let parent: { id: string; identifier: string };
let child: { id: string; identifier: string };

async function newIssue(title: string, parentId?: string) {
  const res = await ui.t.post(
    '/api/issues',
    { title, teamId: 'ENG', ...(parentId ? { parentId } : {}) },
    ui.t.adminToken,
  );
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.issue as { id: string; identifier: string };
}

async function saved(id: string) {
  const res = await ui.t.get(`/api/issues/${id}`, ui.t.adminToken);
  assert.equal(res.status, 200);
  return res.body.issue as { priority: number };
}

async function savedComments(id: string) {
  const res = await ui.t.get(`/api/issues/${id}/comments`, ui.t.adminToken);
  assert.equal(res.status, 200);
  return res.body.comments as { body: string; createdAt: string }[];
}

const status = () => page.getByRole('status').filter({ hasText: /Offline|waiting|sending/ });
const priority = () =>
  page.getByRole('complementary', { name: 'Properties' }).getByRole('combobox', { name: 'Priority' });

/** Opens an issue inside the app (no document load), so what was read before stays cached. */
async function openIssue(identifier: string, title: string) {
  await visit(page, `/issue/${identifier}`);
  await page.waitForFunction((t) => document.title.startsWith(t), `${identifier} ${title}`);
  await priority().waitFor();
}

before(async () => {
  ui = await startUi();
  parent = await newIssue('Planned on a train');
  child = await newIssue('Dropped while away', parent.id);
  ({ page, context } = await ui.signedIn('/', { serviceWorker: true }));
});
after(() => ui?.close());

describe('UI: offline', () => {
  test('the shell is kept by the service worker, built files only, in a cache named by the build', async () => {
    await page.goto(`/issue/${parent.identifier}`);
    await priority().waitFor();
    // Installed (every file of the shell fetched and kept), then in charge of this page; slow on a loaded machine.
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    // Its clients.claim() takes this page over when it activates; on a loaded machine that came
    // after 30 s once (CI), so a page still not controlled loads again, as a visitor's next one would.
    const controlled = () => page.evaluate(() => navigator.serviceWorker.controller !== null);
    if (!(await controlled())) await page.waitForTimeout(2_000);
    if (!(await controlled())) {
      await page.reload();
      await priority().waitFor();
    }
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
    const kept = await page.evaluate(async () => {
      const names = await caches.keys();
      const urls = [];
      for (const n of names)
        for (const r of await (await caches.open(n)).keys()) urls.push(new URL(r.url).pathname);
      return { names, urls };
    });
    assert.equal(kept.names.length, 1);
    assert.match(kept.names[0]!, /^trackway-shell-[0-9a-f]{16}$/);
    assert.ok(kept.urls.includes('/'), 'index.html');
    assert.ok(kept.urls.some((u) => /^\/assets\/app-.*\.js$/.test(u)));
    assert.ok(kept.urls.some((u) => /^\/assets\/app-.*\.css$/.test(u)));
    assert.ok(!kept.urls.some((u) => /^\/(api|graphql)/.test(u)), 'no API answer is kept');
    assert.ok(!kept.urls.some((u) => /graphiql|monaco/.test(u)), "GraphiQL's files are not the app's");
    const worker = await ui.t.app.inject({ method: 'GET', url: '/sw.js' });
    assert.equal(worker.statusCode, 200);
    assert.match(String(worker.headers['content-type']), /javascript/);
    assert.equal(worker.headers['cache-control'], 'no-cache');
    assert.match(String(worker.headers['content-security-policy']), /worker-src 'self'/);
  });

  test('edits and comments made offline survive a reload and reach the server in order', async () => {
    await page.waitForFunction(() => document.documentElement.dataset['live'] === 'synced');
    await context.setOffline(true);
    await status()
      .filter({ hasText: /^Offline$/ })
      .waitFor();

    await priority().selectOption({ label: 'Urgent' });
    assert.equal(await priority().inputValue(), '1', 'shown at once');
    const box = page.getByLabel('Add a comment');
    for (const words of ['First, from the train', 'Second, still offline']) {
      await box.fill(words);
      await page.getByRole('button', { name: 'Comment', exact: true }).click();
      await page.locator('.comment', { hasText: words }).waitFor();
    }
    await status().filter({ hasText: 'Offline — 3 changes waiting' }).waitFor();
    assert.equal((await saved(parent.id)).priority, 0, 'nothing reached the server');
    assert.deepEqual(await savedComments(parent.id), []);

    // A reload without the server: the page is ours (from the worker's cache), the edits still waiting.
    const reloaded = await page.reload();
    assert.ok(reloaded?.fromServiceWorker(), 'the document came from the service worker');
    await page.getByRole('heading', { name: 'Cannot reach the server' }).waitFor();
    await status().filter({ hasText: 'Offline — 3 changes waiting' }).waitFor();
    await page.getByText('Show what is waiting').click();
    assert.deepEqual(await page.locator('.connection-list li').allTextContents(), [
      `${parent.identifier}: priority`,
      `Comment on ${parent.identifier}`,
      `Comment on ${parent.identifier}`,
    ]);
    await screenshot(page, 'offline-reload');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      assert.deepEqual(await seriousViolations(page), [], `axe, ${scheme}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });

    await context.setOffline(false);
    await page.getByRole('complementary', { name: 'Properties' }).waitFor({ timeout: 20_000 });
    await status().waitFor({ state: 'detached', timeout: 20_000 });
    const comments = await savedComments(parent.id);
    assert.deepEqual(
      [...comments].sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map((c) => c.body),
      ['First, from the train', 'Second, still offline'],
      'each comment once, in the order written',
    );
    assert.equal((await saved(parent.id)).priority, 1);
    const history = (await ui.t.get(`/api/issues/${parent.id}/history`, ui.t.adminToken)).body.history as {
      changes: Record<string, unknown>;
      createdAt: string;
    }[];
    const edit = history.find((h) => 'priority' in h.changes);
    assert.ok(edit && edit.createdAt <= comments.map((c) => c.createdAt).sort()[0]!, 'the edit went first');
    // The page shows what the server has: the comments saved (no longer sending), the priority kept.
    // (After the reload nothing was drawn as sending: wait for the comments read from the server.)
    await page.locator('.comment', { hasText: 'Second, still offline' }).waitFor();
    await page.waitForFunction(() => !document.body.textContent?.includes('sending…'));
    assert.equal(await page.locator('.comment', { hasText: 'Second, still offline' }).count(), 1);
    await page.waitForFunction(
      (el) => (el as HTMLSelectElement | null)?.value === '1',
      await priority().elementHandle(),
    );
  });

  test('an edit the server refuses on its return is undone and reported; the next one is saved', async () => {
    await openIssue(child.identifier, 'Dropped while away');
    await openIssue(parent.identifier, 'Planned on a train');
    await page.waitForFunction(() => document.documentElement.dataset['live'] === 'synced');
    await context.setOffline(true);
    await status()
      .filter({ hasText: /^Offline$/ })
      .waitFor();

    // Both pages were read before: the app moves between them offline.
    await openIssue(child.identifier, 'Dropped while away');
    await priority().selectOption({ label: 'High' });
    await openIssue(parent.identifier, 'Planned on a train');
    await priority().selectOption({ label: 'Low' });
    await status().filter({ hasText: 'Offline — 2 changes waiting' }).waitFor();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      assert.deepEqual(await seriousViolations(page), [], `axe with the indicator, ${scheme}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });

    // Meanwhile someone deletes the sub-issue.
    assert.equal((await ui.t.del(`/api/issues/${child.id}`, ui.t.adminToken)).status, 200);
    await context.setOffline(false);

    const refused = page.getByRole('alert').filter({ hasText: 'Not saved' });
    await refused.waitFor({ timeout: 20_000 });
    assert.match(
      (await refused.locator('li').allTextContents()).join('\n'),
      new RegExp(`^${child.identifier}: priority — .+`),
    );
    await screenshot(page, 'offline-refused');
    // Reported as it happens; the rest is still being sent until the status goes.
    await status().waitFor({ state: 'detached', timeout: 20_000 });
    assert.equal((await saved(parent.id)).priority, 4, 'the edit behind the refused one is saved');
    // The page was read again: the sub-issue is gone from the parent's list, the saved value shows.
    await page.getByRole('link', { name: /Dropped while away/ }).waitFor({ state: 'detached' });
    assert.equal(await priority().inputValue(), '4');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      assert.deepEqual(await seriousViolations(page), [], `axe with the refusal shown, ${scheme}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await refused.getByRole('button', { name: 'Dismiss' }).click();
    await refused.waitFor({ state: 'detached' });
  });

  test('a new comment or issue whose answer is lost is kept, sent again, and made once', async () => {
    // Its own page without the service worker, so that the test's route sees every request.
    const lossy = (await ui.newPage()).page;
    await signIn(lossy, ADMIN_EMAIL, ADMIN_PASSWORD);
    const issue = await newIssue('Answers lost on the way back');
    /** The first create of each kind reaches the server, which makes it; its answer never comes back. */
    const lost = new Set<string>();
    const tries = new Map<string, number>();
    await lossy.route('**/graphql', async (route) => {
      const kind = /\b(issueCreate|commentCreate)\b/.exec(route.request().postData() ?? '')?.[1];
      if (kind) tries.set(kind, (tries.get(kind) ?? 0) + 1);
      if (!kind || lost.has(kind)) return route.fallback();
      lost.add(kind);
      const answered = await route.fetch();
      assert.equal(answered.status(), 200);
      assert.equal((await answered.json()).errors, undefined, 'the server made it');
      await route.abort('connectionreset');
    });
    const waiting = lossy.getByRole('status').filter({ hasText: /Offline|waiting|sending/ });
    /** Until the create was sent a second time (the queue waits for the server to answer a probe). */
    const sentAgain = async (kind: string) => {
      for (let i = 0; i < 200 && (tries.get(kind) ?? 0) < 2; i++) await lossy.waitForTimeout(100);
    };

    await lossy.goto(`/issue/${issue.identifier}`);
    await lossy.getByLabel('Add a comment').fill('Said once, sent twice');
    await lossy.getByRole('button', { name: 'Comment', exact: true }).click();
    await lossy.locator('.comment', { hasText: 'Said once, sent twice' }).waitFor();
    // Kept as waiting, then sent again when the server answers a probe.
    await sentAgain('commentCreate');
    await waiting.waitFor({ state: 'detached', timeout: 20_000 });
    assert.equal(tries.get('commentCreate'), 2, 'the first try reached the server, the second was a replay');
    assert.deepEqual(
      (await savedComments(issue.id)).map((c) => c.body),
      ['Said once, sent twice'],
      'one comment',
    );
    await lossy.waitForFunction(() => !document.body.textContent?.includes('sending…'));
    assert.equal(await lossy.locator('.comment', { hasText: 'Said once, sent twice' }).count(), 1);

    const title = `Made once ${Date.now()}`;
    await lossy.getByRole('button', { name: /New issue/ }).click();
    const dialog = lossy.getByRole('dialog', { name: 'New issue' });
    await dialog.getByLabel('Title').fill(title);
    await dialog.getByRole('button', { name: 'Create issue' }).click();
    await dialog.waitFor({ state: 'detached' });
    await sentAgain('issueCreate');
    await waiting.waitFor({ state: 'detached', timeout: 20_000 });
    assert.equal(tries.get('issueCreate'), 2, 'the first try reached the server, the second was a replay');
    const made = await ui.t.get(`/api/issues?q=${encodeURIComponent(title)}`, ui.t.adminToken);
    assert.deepEqual(
      made.body.issues.map((i: { title: string }) => i.title),
      [title],
      'one issue',
    );
    // The list shows the saved issue, once: the row drawn while it was sending had its id.
    await lossy.goto('/issues');
    const rows = lossy.getByRole('list', { name: 'Issues' }).getByRole('link', { name: new RegExp(title) });
    await rows.first().waitFor();
    assert.equal(await rows.count(), 1);
    await lossy.context().close();
  });

  test('a session refused on return asks to sign in again and keeps the edit until then', async () => {
    await page.waitForFunction(() => document.documentElement.dataset['live'] === 'synced');
    await context.setOffline(true);
    await status()
      .filter({ hasText: /^Offline$/ })
      .waitFor();
    await priority().selectOption({ label: 'Medium' });
    await status().filter({ hasText: 'Offline — 1 change waiting' }).waitFor();
    // The session ends elsewhere (signed out on another device).
    const token = await page.evaluate(() => localStorage.getItem('trackway.token'));
    assert.equal((await ui.t.post('/api/auth/logout', {}, token!)).status < 300, true);
    await context.setOffline(false);
    await page.getByLabel('Password').waitFor({ timeout: 20_000 });
    await status().filter({ hasText: 'Sign in again to send 1 change waiting' }).waitFor();
    assert.equal((await saved(parent.id)).priority, 4, 'not sent without a session');
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await status().waitFor({ state: 'detached', timeout: 20_000 });
    assert.equal((await saved(parent.id)).priority, 3, 'sent once signed in again');
  });
});
