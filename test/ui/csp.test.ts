// The Content-Security-Policy in a real browser: the app's pages, GraphiQL and
// the API docs work under it without a single reported violation, and it does
// refuse what it is there to refuse (inline script). Every UI test file also
// fails on any violation (test/ui/browser.ts); these visit each page on purpose.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { ADMIN_EMAIL, startUi, type UiEnv } from './browser.js';

let ui: UiEnv;
let page: Page;

const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

before(async () => {
  ui = await startUi();
  ({ page } = await ui.signedIn());
});
after(() => ui?.close());

/** Navigates and checks the page came with the policy, so "no violation" means something. */
async function visit(path: string) {
  const res = await page.goto(path);
  assert.match(String(res?.headers()['content-security-policy']), /script-src 'self'[;,]?/);
}

describe('UI under the Content-Security-Policy', () => {
  test('an inline script is refused and reported (the policy and the reporter work)', async () => {
    await visit('/issues');
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    const before = ui.cspViolations.length;
    const report = page.waitForEvent('console', (m) => m.text().startsWith('CSP violation:'));
    // As injected markup would: an inline <script> added to the document.
    await page.evaluate(
      "document.body.append(Object.assign(document.createElement('script'), { textContent: 'window.inlineRan = true' }))",
    );
    await report;
    assert.equal(await page.evaluate('window.inlineRan ?? false'), false);
    const reported = ui.cspViolations.splice(before); // expected: keep it from failing close()
    assert.equal(reported.length, 1, JSON.stringify(reported));
    assert.match(reported[0]!, /script-src-elem blocked inline/);
  });

  test('the app pages, an image preview and a description with images report no violation', async () => {
    const png = await ui.t.request('POST', '/api/files', {
      payload: PNG_1X1,
      headers: { 'content-type': 'image/png', 'x-filename': 'dot.png' },
      token: ui.t.adminToken,
    });
    const issue = (
      await ui.t.post(
        '/api/issues',
        {
          title: 'Pictures',
          description: `Here ![dot](${png.body.file.url}) and ![elsewhere](http://localhost:9/x.png)`,
        },
        ui.t.adminToken,
      )
    ).body.issue;
    await ui.t.post(
      `/api/issues/${issue.identifier}/attachments`,
      { title: 'dot.png', url: png.body.file.url, metadata: { contentType: 'image/png' } },
      ui.t.adminToken,
    );
    await visit(`/issue/${issue.identifier}`);
    const preview = page.getByRole('img', { name: 'dot.png' });
    await preview.waitFor();
    await page.waitForFunction(
      (el) => (el as unknown as { naturalWidth: number }).naturalWidth === 1,
      await preview.elementHandle(),
    );
    for (const path of [
      '/issues',
      '/board',
      '/projects',
      '/settings/account',
      '/admin/users',
      '/admin/branding',
    ]) {
      await visit(path);
      await page.getByRole('main').waitFor();
      await page.getByRole('heading', { level: 1 }).first().waitFor();
    }
    assert.deepEqual(ui.cspViolations, []);
  });

  test('GraphiQL loads its editor and runs a query without a violation', async () => {
    await visit('/graphql');
    await page.getByText('query Viewer').first().waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: /execute query/i }).click();
    await page.getByText(`"${ADMIN_EMAIL}"`).first().waitFor({ timeout: 60_000 });
    assert.deepEqual(ui.cspViolations, []);
  });

  test('the API docs page lists every tag and opens one without a violation', async () => {
    await visit('/api/docs');
    // Every tag of the document is listed (collapsed: Swagger UI stops rendering
    // expanded operations past about 130, app.ts), and one opens on a click.
    const doc = (await ui.t.request('GET', '/api/openapi.json', {})).body;
    const tags = new Set<string>();
    for (const ops of Object.values<any>(doc.paths))
      for (const op of Object.values<any>(ops)) for (const tag of op.tags ?? []) tags.add(tag);
    await page.locator('.opblock-tag').first().waitFor({ timeout: 30_000 });
    await page
      .locator('.opblock-tag')
      .nth(tags.size - 1)
      .waitFor();
    assert.deepEqual(
      new Set(
        await page.locator('.opblock-tag').evaluateAll((els) => els.map((e) => e.getAttribute('data-tag'))),
      ),
      tags,
    );
    await page.locator('.opblock-tag[data-tag="files"]').click();
    await page.getByText('/api/files/{id}').first().waitFor();
    await page.getByText('Download a file').first().waitFor();
    assert.deepEqual(ui.cspViolations, []);
  });
});
