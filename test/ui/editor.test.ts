// In a real browser: the rich editor (components/editor/) writes the Markdown
// the API stores. Slash commands, formatting keys, mention chips, images
// pasted into the text and code blocks, each checked in what the server kept.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { refuseOperation, startUi, type UiEnv, visit } from './browser.js';

let ui: UiEnv;
let page: Page;
let carolId: string;
const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

before(async () => {
  ui = await startUi();
  const made = await ui.t.post(
    '/api/admin/users',
    { name: 'Carol Singer', email: 'carol@editor.test', password: 'password-123', role: 'member' },
    ui.t.adminToken,
  );
  assert.equal(made.status, 201, JSON.stringify(made.body));
  carolId = made.body.user.id;
  ({ page } = await ui.signedIn());
});
after(() => ui?.close());

async function newIssue(title: string, description?: string) {
  const res = await ui.t.post(
    '/api/issues',
    { title, ...(description ? { description } : {}) },
    ui.t.adminToken,
  );
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.issue as { id: string; identifier: string };
}

const description = async (id: string) =>
  (await ui.t.get(`/api/issues/${id}`, ui.t.adminToken)).body.issue.description as string | null;
const commentBodies = async (id: string) =>
  ((await ui.t.get(`/api/issues/${id}/comments`, ui.t.adminToken)).body.comments as { body: string }[]).map(
    (c) => c.body,
  );

/** Waits until `read` gives `expected` (the save is sent after the screen changes). */
async function eventually<T>(read: () => Promise<T>, expected: T) {
  let last: T | undefined;
  for (let i = 0; i < 100; i++) {
    last = await read();
    if (JSON.stringify(last) === JSON.stringify(expected)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.deepEqual(last, expected);
}

/** Opens the issue in the app (no document load) and its description editor. */
async function openDescription(identifier: string): Promise<Locator> {
  await visit(page, `/issue/${identifier}`);
  await page.getByRole('button', { name: 'Edit description' }).click();
  const box = page.getByRole('textbox', { name: 'Description' });
  await box.waitFor();
  // The editor focuses itself, caret at the end, once mounted: on a busy machine that came after
  // the test had moved the caret, and a pasted image landed at the end (CI, both databases).
  await page.waitForFunction((el) => el?.contains(document.activeElement), await box.elementHandle());
  return box;
}

describe('UI: the rich editor', () => {
  test('a slash command makes a checklist; ticking it in the rendered description saves the tick', async () => {
    const issue = await newIssue('Groceries');
    const box = await openDescription(issue.identifier);
    await box.pressSequentially('/check');
    const commands = page.getByRole('listbox', { name: 'Commands' });
    await commands.getByRole('option', { name: /Checklist/ }).waitFor();
    await page.keyboard.press('Enter');
    await box.pressSequentially('Buy milk');
    await page.keyboard.press('Enter');
    await box.pressSequentially('Buy bread');
    await page.keyboard.press('ControlOrMeta+Enter');
    await eventually(() => description(issue.id), '- [ ] Buy milk\n- [ ] Buy bread');

    const region = page.getByRole('region', { name: 'Description' });
    const bread = region.getByRole('checkbox', { name: 'Buy bread' });
    // The saved description may render once more after the save (its refetch, the change
    // stream); a click that such a render swallowed is given again until the tick is saved.
    await bread.waitFor();
    await bread.click();
    for (let i = 0; (await description(issue.id)) !== '- [ ] Buy milk\n- [x] Buy bread'; i++) {
      assert.ok(i < 100, 'the tick is saved');
      if (!(await bread.isChecked())) await bread.click();
      await new Promise((r) => setTimeout(r, 100));
    }
    // Saved; a re-read that left before the save may land after it, and the change stream's
    // event for the save then brings the tick back: shown ticked, at the latest after that.
    for (let i = 0; !(await bread.isChecked()); i++) {
      assert.ok(i < 100, 'shown ticked');
      await new Promise((r) => setTimeout(r, 100));
    }
    // The box sits on the text's first line.
    const boxAt = (await bread.boundingBox())!;
    const textAt = (await region.getByText('Buy bread').boundingBox())!;
    assert.ok(
      Math.abs(boxAt.y + boxAt.height / 2 - (textAt.y + textAt.height / 2)) < 6,
      'aligned with its text',
    );
  });

  test('Mod-B makes bold, stored as **; Markdown typed turns into formatting as it is typed', async () => {
    const issue = await newIssue('Loud words');
    await visit(page, `/issue/${issue.identifier}`);
    const box = page.getByRole('textbox', { name: 'Add a comment' });
    await box.click();
    await box.pressSequentially('say ');
    await page.keyboard.press('ControlOrMeta+b');
    await box.pressSequentially('loud');
    await page.keyboard.press('ControlOrMeta+b');
    await box.pressSequentially(' and `quiet` and *soft* ');
    await page.keyboard.press('ControlOrMeta+Enter');
    // The space that ended `*soft*` (and made it italic) stays, as typed.
    await eventually(() => commentBodies(issue.id), ['say **loud** and `quiet` and *soft* ']);
    await page.locator('.comment strong', { hasText: 'loud' }).waitFor();
    assert.equal(await box.textContent(), '', 'the box is empty again');
  });

  test('an @-mention is a chip in the editor and stored as @name', async () => {
    const issue = await newIssue('Ask around');
    await visit(page, `/issue/${issue.identifier}`);
    const box = page.getByRole('textbox', { name: 'Add a comment' });
    await box.click();
    await box.pressSequentially('Thanks @car');
    const list = page.getByRole('listbox', { name: 'People and issues to mention' });
    await list.getByRole('option', { name: /@Carol/ }).waitFor();
    assert.equal(await box.getAttribute('aria-controls'), await list.getAttribute('id'));
    await page.keyboard.press('Enter');
    await box.locator('.mention', { hasText: '@Carol' }).waitFor();
    await box.pressSequentially('for ENG-1');
    await box.locator('.issue-ref', { hasText: 'ENG-1' }).waitFor();
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    await eventually(() => commentBodies(issue.id), ['Thanks @Carol for ENG-1']);
    const carols = (await ui.t.get('/api/notifications', await tokenOf('carol@editor.test'))).body
      .notifications;
    assert.ok(
      carols.some((n: { type: string }) => n.type === 'issueCommentMention'),
      'the mention reached Carol',
    );
    assert.ok(carolId);
  });

  test('a pasted image is uploaded and placed at the cursor; a refused one leaves nothing', async () => {
    const issue = await newIssue('Screenshots');
    const box = await openDescription(issue.identifier);
    await box.pressSequentially('before  after');
    for (let i = 0; i < ' after'.length; i++) await page.keyboard.press('ArrowLeft');
    await paste(box, 'dot.png');
    await box.locator('img[alt="dot.png"]').waitFor();
    await page.keyboard.press('ControlOrMeta+Enter');
    await page.getByRole('button', { name: 'Edit description' }).waitFor();
    const saved = (await description(issue.id)) ?? '';
    assert.match(saved, /^before !\[dot\.png\]\(http:\/\/127\.0\.0\.1:\d+\/api\/files\/[^)]+\) after$/);
    // Shown in the rendered description, fetched with the sign-in token.
    const img = page.getByRole('region', { name: 'Description' }).getByRole('img', { name: 'dot.png' });
    await img.waitFor();
    await page.waitForFunction(() => document.querySelector('.description img[src^="blob:"]') !== null);
    const attachments = await ui.t.get(`/api/issues/${issue.id}/attachments`, ui.t.adminToken);
    assert.equal(attachments.body.attachments.length, 0, 'inline, not an attachment');

    const refused = await refuseOperation(page, 'Upload', 'No uploads today');
    const again = await openDescription(issue.identifier);
    await again.click();
    await page.keyboard.press('ControlOrMeta+End');
    await paste(again, 'nope.png');
    await page.getByRole('alert').filter({ hasText: 'No uploads today' }).waitFor();
    assert.equal(await page.locator('.image-uploading').count(), 0, 'the placeholder is gone');
    await refused.stop();
    await page.keyboard.press('ControlOrMeta+Enter');
    await page.getByRole('button', { name: 'Edit description' }).waitFor();
    assert.equal(await description(issue.id), saved, 'nothing added');
  });

  test('Markdown pasted as plain text arrives formatted and is stored as it was', async () => {
    const issue = await newIssue('Pasted notes');
    await visit(page, `/issue/${issue.identifier}`);
    const box = page.getByRole('textbox', { name: 'Add a comment' });
    await box.click();
    const notes = '## Steps\n\n- [ ] open the **gate**\n- [x] oil it';
    await box.evaluate((el, text) => {
      const data = new DataTransfer();
      data.setData('text/plain', text);
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, notes);
    await box.locator('h2', { hasText: 'Steps' }).waitFor();
    await page.keyboard.press('ControlOrMeta+Enter');
    await eventually(() => commentBodies(issue.id), [notes]);
  });

  test('a code block with its language comes back as it was', async () => {
    const source = '```ts\nconst a = 1;\n```\n\nafter';
    const issue = await newIssue('Code', source);
    const box = await openDescription(issue.identifier);
    await box.locator('pre code').waitFor();
    await page.keyboard.press('ControlOrMeta+End');
    await box.pressSequentially(' it');
    await page.keyboard.press('ControlOrMeta+Enter');
    await eventually(() => description(issue.id), `${source} it`);
    // A code block typed: ``` and a language, then the code.
    const typed = await newIssue('Typed code');
    const box2 = await openDescription(typed.identifier);
    await box2.pressSequentially('```sql ');
    await box2.pressSequentially('select 1;');
    await page.keyboard.press('ControlOrMeta+Enter');
    await eventually(() => description(typed.id), '```sql\nselect 1;\n```');
  });

  test('typing goes on through live updates of the issue and of the reference data', async () => {
    const issue = await newIssue('Moving target', 'start');
    const box = await openDescription(issue.identifier);
    await page.keyboard.press('ControlOrMeta+End');
    const words = ' the quick brown fox jumps over the lazy dog and keeps on running';
    // Others change the issue and the workspace while the keys go in: each change reaches this
    // page through the change stream and refetches what the page shows around the editor.
    const others = (async () => {
      for (let i = 1; i <= 3; i++) {
        await new Promise((r) => setTimeout(r, 150));
        const title = await ui.t.patch(
          `/api/issues/${issue.id}`,
          { title: `Moving target ${i}` },
          ui.t.adminToken,
        );
        assert.equal(title.status, 200, JSON.stringify(title.body));
        const comment = await ui.t.post(
          `/api/issues/${issue.id}/comments`,
          { body: `note ${i}` },
          ui.t.adminToken,
        );
        assert.equal(comment.status, 201, JSON.stringify(comment.body));
        const label = await ui.t.post(
          '/api/labels',
          { name: `moving-${i}`, color: '#aa3344' },
          ui.t.adminToken,
        );
        assert.equal(label.status, 201, JSON.stringify(label.body));
      }
    })();
    await Promise.all([box.pressSequentially(words, { delay: 25 }), others]);
    // The page has shown the last change while the editor stayed open.
    await page.waitForFunction(
      () => (document.getElementById('issue-title') as HTMLInputElement | null)?.value === 'Moving target 3',
    );
    await page.locator('.comment', { hasText: 'note 3' }).waitFor();
    await box.pressSequentially(' home');
    assert.equal(await box.textContent(), `start${words} home`);
    await page.keyboard.press('ControlOrMeta+Enter');
    await eventually(() => description(issue.id), `start${words} home`);
  });

  test('Escape leaves the editor; in the New issue dialog a second Escape closes it', async () => {
    await visit(page, '/issues');
    await page.locator('.new-issue').click();
    const dialog = page.getByRole('dialog', { name: 'New issue' });
    const box = dialog.getByRole('textbox', { name: 'Description' });
    await box.click();
    await box.pressSequentially('/');
    await dialog.getByRole('listbox', { name: 'Commands' }).waitFor();
    await page.keyboard.press('Escape');
    assert.equal(await dialog.getByRole('listbox').count(), 0, 'the list closes');
    assert.ok(await box.evaluate((el) => el === document.activeElement), 'still typing');
    await page.keyboard.press('Escape');
    // The editor gives the keyboard up on the next frame.
    await page.waitForFunction((el) => el !== document.activeElement, await box.elementHandle(), {
      timeout: 5_000,
    });
    assert.ok(await dialog.isVisible(), 'the dialog stays');
  });
});

async function tokenOf(email: string) {
  const login = await ui.t.post('/api/auth/login', { email, password: 'password-123' });
  return login.body.token as string;
}

/** A paste of a PNG file, as the browser delivers one from the clipboard. */
async function paste(box: Locator, name: string) {
  await box.evaluate(
    (el, [b64, filename]) => {
      const bytes = Uint8Array.from(atob(b64!), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], filename!, { type: 'image/png' }));
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    },
    [PNG_1X1, name],
  );
}
