// Administration → Audit log in a real browser: the admin sees who did what,
// narrows it by type, searches it, filters it by address, exports it; axe clean
// in both themes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { recordAudit } from '../../src/modules/audit/record.js';
import { seriousViolations, startUi, type UiEnv, visit } from './browser.js';

let ui: UiEnv;
before(async () => {
  ui = await startUi();
  const made = await ui.t.post(
    '/api/admin/users',
    { name: 'Logged Person', email: 'logged@example.com', password: 'password-123', role: 'member' },
    ui.t.adminToken,
  );
  await ui.t.patch(`/api/admin/users/${made.body.user.id}`, { role: 'guest' }, ui.t.adminToken);
  // From an address no request of the test has.
  await recordAudit(ui.t.ctx.db, {
    type: 'auth.signInFailed',
    actor: { kind: 'anonymous', label: 'stranger@far.example', ip: '198.51.100.9', userAgent: 'far/1' },
    metadata: { reason: 'unknownEmail', method: 'password' },
  });
});
after(() => ui?.close());

/**
 * One page for all the tests (a context and a document load each cost more than the checks):
 * the scheme is emulated (the app follows the system's), and the log is opened afresh inside the
 * app, through another page, so that no filter of the test before is left.
 */
let opened: Page | undefined;
async function auditLog(colorScheme: 'light' | 'dark'): Promise<Page> {
  if (!opened) {
    opened = (await ui.signedIn('/admin/audit', { colorScheme })).page;
    return opened;
  }
  await opened.emulateMedia({ colorScheme });
  await visit(opened, '/admin/users');
  await visit(opened, '/admin/audit');
  return opened;
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the audit log lists, filters and exports (${colorScheme})`, async () => {
    const page = await auditLog(colorScheme);
    const table = page.getByRole('table');
    await table.getByText("A user's role changed").first().waitFor();
    await table.getByText('A user was created').first().waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await page.getByLabel('Type').selectOption('user.roleChanged');
    await page.getByRole('heading', { name: /Entries \(1\)/ }).waitFor();
    assert.equal(await table.getByText('A user was created').count(), 0);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export NDJSON' }).click();
    const file = await download;
    assert.equal(file.suggestedFilename(), 'audit-log.ndjson');
  });
}

test('the audit log is searched by text and filtered by address', async () => {
  const page = await auditLog('light');
  const table = page.getByRole('table');
  await table.getByText('stranger@far.example').waitFor();
  const search = page.getByRole('search', { name: 'Search the audit log' });
  // The target's label, in another case: the person's creation and role change.
  await search.getByLabel('Search').fill('LOGGED@Example');
  await search.getByLabel('Search').press('Enter');
  await page.getByRole('heading', { name: /Entries \(2\)/ }).waitFor();
  assert.equal(await table.getByText('stranger@far.example').count(), 0);
  assert.equal(await table.getByText('logged@example.com').count(), 2);
  // The address, with the search cleared.
  await search.getByLabel('Search').fill('');
  await search.getByLabel('IP address').fill('198.51.100.9');
  await search.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('heading', { name: /Entries \(1\)/ }).waitFor();
  await table.getByText('stranger@far.example').waitFor();
  assert.equal(await table.getByText('198.51.100.9').count(), 1);
  assert.deepEqual(await seriousViolations(page), []);
  // Not an address: the server's refusal is shown, not a blank page.
  await search.getByLabel('IP address').fill('198.51.100');
  await search.getByLabel('IP address').press('Enter');
  await page
    .getByRole('alert')
    .filter({ hasText: /IP address/i })
    .waitFor();
});
