// End to end in a real browser: the admin Backups page saves a directory
// target, "Back up now" runs the real backup worker, and the run shows as
// succeeded with its size; the archive is in the directory, complete. A
// relative directory is refused at its field.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { seriousViolations, startUi, type UiEnv } from './browser.js';

let ui: UiEnv;
let page: Page;
let dir: string;

before(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trackway-ui-backups-'));
  ui = await startUi();
  ({ page } = await ui.signedIn());
});
after(async () => {
  await ui?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('UI: backups', () => {
  test('save a directory target, back up now, and see the run succeed with its size', async () => {
    await page.getByRole('link', { name: 'Backups', exact: true }).click();
    await page.getByRole('heading', { name: 'Backups', level: 1 }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Back up now' }).isDisabled(), true);
    await page.getByText('No backups yet.').waitFor();

    await page.getByLabel('Target', { exact: true }).selectOption('directory');
    await page.getByLabel('Directory', { exact: true }).fill('relative/dir');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.field-error, .error-message').first().waitFor();
    assert.equal((await ui.t.get('/api/admin/backups/settings', ui.t.adminToken)).body.settings.target, null);

    const target = path.join(dir, 'archives');
    await page.getByLabel('Directory', { exact: true }).fill(target);
    await page.getByLabel('Archives to keep').fill('3');
    await page.getByRole('button', { name: 'Save' }).click();
    const now = page.getByRole('button', { name: 'Back up now' });
    for (let i = 0; i < 100 && !(await now.isEnabled()); i++) await page.waitForTimeout(100);
    assert.equal(await now.isEnabled(), true, 'a saved target enables Back up now');
    const saved = (await ui.t.get('/api/admin/backups/settings', ui.t.adminToken)).body.settings;
    assert.deepEqual(saved.target, { kind: 'directory', path: target });
    assert.equal(saved.retention, 3);

    await now.click();
    const row = page.getByTestId('backup-run').first();
    await row.getByTestId('backup-state').getByText('succeeded').waitFor({ timeout: 60_000 });
    const names = await fs.readdir(target);
    assert.equal(names.length, 1);
    assert.match(names[0] as string, /^trackway-backup-\d{8}T\d{6}Z-[0-9a-f]{8}\.tar$/);
    await row.getByText(names[0] as string).waitFor();
    await row.getByText(/\d+(\.\d)? (KB|MB)/).waitFor();
    assert.deepEqual(await seriousViolations(page), []);
  });
});
