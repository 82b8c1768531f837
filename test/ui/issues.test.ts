// End to end in a real browser: creating, finding, moving, commenting on and
// attaching to issues, through the UI, checked through the API.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, startUi, type UiEnv, visit } from './browser.js';

let ui: UiEnv;
let page: Page;
const title = `Checkout button misaligned ${Date.now().toString(36)}`;
let identifier = '';

before(async () => {
  ui = await startUi();
  ({ page } = await ui.signedIn());
});
after(() => ui?.close());

async function apiIssue(id: string) {
  const res = await ui.t.get(`/api/issues/${id}`, ui.t.adminToken);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.issue ?? res.body;
}

async function eventually<T>(fn: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 50; i++) {
    const v = await fn();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('UI: issues', () => {
  test('the New issue dialog creates an issue that shows in the list and on the board', async () => {
    await page.getByRole('button', { name: /New issue/ }).click();
    const dialog = page.getByRole('dialog', { name: 'New issue' });
    await dialog.getByLabel('Title').fill(title);
    await dialog.getByLabel('Priority').selectOption({ label: 'High' });
    await dialog.getByLabel('Bug').check();
    await screenshot(page, 'create-dialog');
    await dialog.getByRole('button', { name: 'Create issue' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Created [A-Z]+-\d+/ })
      .waitFor();
    identifier = /\/issue\/([A-Z]+-\d+)/.exec(page.url())?.[1] ?? '';
    assert.match(identifier, /^[A-Z]+-\d+$/);
    const created = await apiIssue(identifier);
    assert.equal(created.title, title);
    assert.equal(created.priority, 2);

    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Issues', exact: true }).click();
    await page
      .getByRole('list', { name: 'Issues' })
      .getByRole('link', { name: new RegExp(title) })
      .waitFor();
    await screenshot(page, 'issues-list');

    await nav.getByRole('link', { name: 'Board', exact: true }).click();
    await page
      .getByRole('region', { name: 'Backlog' })
      .getByRole('link', { name: new RegExp(title) })
      .waitFor();
    await screenshot(page, 'board');
  });

  test('dragging the card to another column changes its state through the API', async () => {
    await visit(page, '/board');
    const card = page.getByRole('region', { name: 'Backlog' }).getByRole('link', { name: new RegExp(title) });
    const todo = page.getByRole('region', { name: 'Todo' });
    await card.dragTo(todo);
    await todo.getByRole('link', { name: new RegExp(title) }).waitFor();
    const states = await ui.t.get('/api/workflow-states', ui.t.adminToken);
    const todoState = (states.body.workflowStates ?? states.body.states ?? states.body).find(
      (s: { name: string }) => s.name === 'Todo',
    );
    await eventually(
      () => apiIssue(identifier),
      (i) => i.stateId === todoState.id,
      'the issue to be in Todo',
    );
  });

  test('the list searches and filters', async () => {
    await visit(page, '/issues');
    await page.getByLabel('Search', { exact: true }).fill('misaligned');
    await page.getByRole('link', { name: new RegExp(title) }).waitFor();
    await page.getByLabel('Search', { exact: true }).fill('no-such-words-anywhere');
    await page.getByText('No issues match.').waitFor();
    await page.getByLabel('Search', { exact: true }).fill('');
    // The filter builder: a field, then a value, each menu typed to.
    await page.getByRole('button', { name: '+ Add filter' }).click();
    await page.keyboard.type('prio');
    await page.keyboard.press('Enter');
    await page.keyboard.type('low');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await page.getByText('No issues match.').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByRole('link', { name: new RegExp(title) }).waitFor();
    // Keyboard: j moves through the rows (group header, then the issue), Enter opens.
    await page.locator('body').click({ position: { x: 600, y: 10 } });
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    // A function, not a string: a string is eval'd in the page, which the CSP refuses.
    await page.waitForFunction(() =>
      (globalThis as any).document.activeElement?.classList.contains('issue-row'),
    );
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/issue/${identifier}`);
  });

  test('commenting, editing the comment, and a description that cannot run script', async () => {
    await visit(page, `/issue/${identifier}`);
    // Markdown typed in the editor becomes formatting as it is typed, and is stored as Markdown.
    await page.getByLabel('Add a comment').pressSequentially('Repro on **Safari** only');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    await page.locator('.comment strong', { hasText: 'Safari' }).waitFor();
    // It shows at once; its actions come once the server has it.
    await page
      .locator('.comment', { hasText: 'Safari' })
      .getByRole('button', { name: /Edit comment/ })
      .waitFor();
    const comments = await ui.t.get(`/api/issues/${identifier}/comments`, ui.t.adminToken);
    const list = comments.body.comments ?? comments.body;
    assert.ok(list.some((c: { body: string }) => c.body.includes('Safari')));

    await page.getByRole('button', { name: /Edit comment/ }).click();
    await page.getByLabel('Edit comment').fill('Repro on Safari and Firefox');
    await page.getByRole('button', { name: 'Save comment' }).click();
    await page.getByText('Repro on Safari and Firefox').waitFor();

    let dialogs = 0;
    page.on('dialog', () => dialogs++);
    await page.getByRole('button', { name: 'Edit description' }).click();
    // Typed: the editor takes the HTML as text and refuses the javascript: link.
    await page
      .getByRole('textbox', { name: 'Description' })
      .pressSequentially(
        '<img src=x onerror="alert(1)"> [click](javascript:alert(2)) <script>alert(3)</script> [ok](https://example.com) ',
      );
    await page.getByRole('button', { name: 'Save description' }).click();
    await page.getByRole('link', { name: 'ok', exact: true }).waitFor();
    assert.equal(
      await page.getByRole('link', { name: 'ok', exact: true }).getAttribute('href'),
      'https://example.com',
    );
    assert.equal(
      await page.getByRole('link', { name: 'click' }).count(),
      0,
      'javascript: links are not links',
    );
    assert.equal(await page.locator('.description script, .description img[src="x"]').count(), 0);
    await page.getByText('<script>alert(3)</script>').waitFor();
    assert.equal(dialogs, 0);
  });

  test('uploading an attachment with the file picker previews the image', async () => {
    await visit(page, `/issue/${identifier}`);
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    await page
      .getByLabel('Attach files')
      .setInputFiles({ name: 'screenshot.png', mimeType: 'image/png', buffer: png });
    const preview = page.getByRole('img', { name: 'screenshot.png' });
    await preview.or(page.getByRole('alert')).first().waitFor();
    assert.equal(
      await page.getByRole('alert').count(),
      0,
      await page.getByRole('alert').allTextContents().then(String),
    );
    const width = () => preview.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);
    await eventually(width, (w) => w === 1, 'the preview image to load');
    await screenshot(page, 'issue-page');
    const res = await ui.t.request('POST', '/graphql', {
      token: ui.t.adminToken,
      body: { query: `{ issue(id: "${identifier}") { attachments { nodes { title url } } } }` },
    });
    const atts = res.body.data.issue.attachments.nodes;
    assert.equal(atts.length, 1);
    assert.equal(atts[0].title, 'screenshot.png');
  });

  test('dropping a file and pasting an image also attach them', async () => {
    await visit(page, `/issue/${identifier}`);
    await page
      .getByRole('button', { name: 'Choose files' })
      .or(page.getByText('Choose files'))
      .first()
      .waitFor();
    await page.evaluate(`(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['hello'], 'notes.txt', { type: 'text/plain' }));
      const zone = document.querySelector('.dropzone');
      zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    })()`);
    await page.getByRole('button', { name: 'notes.txt' }).waitFor();
    await page.evaluate(`(() => {
      const dt = new DataTransfer();
      const bytes = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], 'pasted.png', { type: 'image/png' }));
      document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    })()`);
    await page.getByRole('img', { name: 'pasted.png' }).waitFor();
    const res = await ui.t.request('POST', '/graphql', {
      token: ui.t.adminToken,
      body: { query: `{ issue(id: "${identifier}") { attachments { nodes { title } } } }` },
    });
    const titles = res.body.data.issue.attachments.nodes.map((a: { title: string }) => a.title).sort();
    assert.deepEqual(titles, ['notes.txt', 'pasted.png', 'screenshot.png']);
  });

  test('files go up one by one: a refusal stops the rest and says why', async () => {
    const issue = (await ui.t.post('/api/issues', { title: 'Two files' }, ui.t.adminToken)).body.issue;
    await visit(page, `/issue/${issue.identifier}`);
    let attaches = 0;
    await page.route('**/graphql', (route) => {
      if (!route.request().postData()?.includes('mutation Attach')) return route.fallback();
      attaches += 1;
      if (attaches === 1) return route.fallback();
      const message = 'The second is refused';
      return route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({
          data: null,
          errors: [{ message, extensions: { userPresentableMessage: message } }],
        }),
      });
    });
    await page.getByLabel('Attach files').setInputFiles([
      { name: 'one.txt', mimeType: 'text/plain', buffer: Buffer.from('one') },
      { name: 'two.txt', mimeType: 'text/plain', buffer: Buffer.from('two') },
      { name: 'three.txt', mimeType: 'text/plain', buffer: Buffer.from('three') },
    ]);
    await page.getByRole('alert').filter({ hasText: 'The second is refused' }).waitFor();
    await page.getByRole('button', { name: 'one.txt' }).waitFor();
    await page.unroute('**/graphql');
    assert.equal(attaches, 2, 'the third file was not sent');
    assert.equal(await page.getByRole('status').filter({ hasText: 'Uploading' }).count(), 0);
    const res = await ui.t.request('POST', '/graphql', {
      token: ui.t.adminToken,
      body: { query: `{ issue(id: "${issue.identifier}") { attachments { nodes { title } } } }` },
    });
    assert.deepEqual(
      res.body.data.issue.attachments.nodes.map((a: { title: string }) => a.title),
      ['one.txt'],
    );
  });

  test('C opens the create dialog from anywhere; Ctrl+K jumps', async () => {
    await visit(page, '/settings/account');
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    await page.keyboard.press('c');
    await page.getByRole('dialog', { name: 'New issue' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'New issue' }).waitFor({ state: 'detached' });
    await page.keyboard.press('Control+k');
    const menu = page.getByRole('combobox', { name: 'Type a command or search issues' });
    await menu.fill('board');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Board' }).waitFor();
    await page.keyboard.press('Control+k');
    await menu.fill(identifier);
    await page.getByRole('option', { name: new RegExp(title) }).waitFor();
    await screenshot(page, 'command-menu');
    await page.getByRole('option', { name: new RegExp(title) }).click();
    await page.waitForURL(`**/issue/${identifier}`);
  });
});
