// Stored XSS through attachments, in a real browser: a member uploads HTML and
// SVG carrying script (and a file that lies about being a PNG) and attaches
// them; an admin opens the issue and clicks each one. The script must never run
// in the app's origin (where the admin's token is): active files are only
// downloaded, allow-listed images are shown in the page, nothing opens a tab.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { startUi, type UiEnv } from './browser.js';

let ui: UiEnv;
let context: BrowserContext;
let page: Page;
let identifier = '';

// Each payload marks the origin it runs in, through storage the app page shares.
const mark = (who: string) =>
  `localStorage.setItem('pwned', '${who}'); (window.opener || window).pwned = '${who}'; document.title = 'pwned';`;
const HTML = `<!doctype html><title>x</title><script>${mark('html')}</script><p>hello</p>`;
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" onload="${mark('svg-onload')}"><script>${mark('svg')}</script><circle r="5"/></svg>`;
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const files: { title: string; type: string; body: string | Buffer; metadataType?: string }[] = [
  { title: 'report.html', type: 'text/html', body: HTML },
  { title: 'diagram.svg', type: 'image/svg+xml', body: SVG },
  // Declared (upload and attachment metadata) as a PNG; the bytes are HTML.
  { title: 'lies.png', type: 'image/png', body: HTML, metadataType: 'image/png' },
  // Attachment metadata claims an image; the server knows it is HTML.
  { title: 'looks-like.png', type: 'text/html', body: HTML, metadataType: 'image/png' },
  { title: 'real.png', type: 'image/png', body: PNG_1X1, metadataType: 'image/png' },
];

before(async () => {
  ui = await startUi();
  const member = await ui.t.register('Mallory');
  const issue = (await ui.t.post('/api/issues', { title: 'Please look at these' }, member.token)).body.issue;
  identifier = issue.identifier;
  for (const f of files) {
    const up = await ui.t.request('POST', '/api/files', {
      payload: f.body,
      headers: { 'content-type': f.type, 'x-filename': f.title },
      token: member.token,
    });
    assert.equal(up.status, 201, JSON.stringify(up.body));
    const metadata = f.metadataType ? { contentType: f.metadataType } : {};
    const att = await ui.t.post(
      `/api/issues/${identifier}/attachments`,
      { title: f.title, url: up.body.file.url, metadata },
      member.token,
    );
    assert.equal(att.status, 201, JSON.stringify(att.body));
  }
  ({ context, page } = await ui.signedIn(`/issue/${identifier}`));
  await page.getByRole('button', { name: 'real.png' }).waitFor();
});
after(() => ui?.close());

/** No page (the app, or one opened from it) saw the payload run, and nothing else opened. */
async function assertNothingRan() {
  for (const p of context.pages()) {
    // A string, since the test code has no DOM types.
    const marks: { stored: string | null; global: string | null; title: string } = await p.evaluate(
      "({ stored: localStorage.getItem('pwned'), global: window.pwned ?? null, title: document.title })",
    );
    assert.deepEqual(marks.stored, null, `script ran in ${p.url()} (localStorage)`);
    assert.equal(marks.global, null, `script ran in ${p.url()} (window)`);
    assert.notEqual(marks.title, 'pwned', `script ran in ${p.url()} (title)`);
  }
  assert.deepEqual(
    context.pages().map((p) => p.url()),
    [page.url()],
    'no other page was opened',
  );
}

/** Clicks, then waits for a download or a new page, whichever comes first. */
async function click(name: string) {
  const download = page.waitForEvent('download');
  download.catch(() => undefined);
  const opened = context.waitForEvent('page').catch(() => null);
  await page.getByRole('button', { name }).click();
  const popup = await Promise.race([download.then(() => null), opened]).catch(() => null);
  // A page opened instead of a download: let it load so its script can show itself.
  await popup?.waitForLoadState('domcontentloaded').catch(() => {});
  return { download };
}

describe('UI: attachments that carry script', () => {
  for (const f of files.filter((f) => f.type !== 'image/png')) {
    test(`clicking ${f.title} (${f.type}) downloads it and runs nothing`, async () => {
      // The server reports an active type, so no preview is shown even when the metadata says image.
      assert.equal(await page.getByRole('img', { name: f.title }).count(), 0);
      const { download } = await click(f.title);
      await assertNothingRan();
      const d = await download;
      assert.equal(d.suggestedFilename(), f.title);
      assert.equal(await fs.readFile(await d.path(), 'utf8'), f.body);
    });
  }

  test('a file declared image/png whose bytes are HTML is only ever decoded as an image', async () => {
    await page.getByRole('button', { name: 'lies.png' }).click();
    const dialog = page.getByRole('dialog', { name: 'lies.png' });
    await dialog.getByRole('img', { name: 'lies.png' }).waitFor();
    await assertNothingRan();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  test('an allow-listed image opens in the page, not in a tab, and can be downloaded', async () => {
    await page.getByRole('button', { name: 'real.png' }).click();
    const dialog = page.getByRole('dialog', { name: 'real.png' });
    const img = dialog.getByRole('img', { name: 'real.png' });
    await img.waitFor();
    await page.waitForFunction(
      (el) => (el as unknown as { complete: boolean; naturalWidth: number }).naturalWidth === 1,
      await img.elementHandle(),
    );
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download' }).click();
    assert.deepEqual(await fs.readFile(await (await download).path()), PNG_1X1);
    await assertNothingRan();
  });
});
