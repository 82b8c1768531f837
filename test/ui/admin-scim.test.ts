// End to end in a real browser: the Provisioning (SCIM) admin page creates a
// token (secret shown once), the token works against /scim/v2, and revoking it
// on the page stops it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { seriousViolations, startUi, type UiEnv } from './browser.js';

let ui: UiEnv;
let page: Page;

before(async () => {
  ui = await startUi();
  ({ page } = await ui.signedIn());
});
after(async () => {
  await ui?.close();
});

describe('UI: provisioning (SCIM)', () => {
  test('an admin creates a token, sees it once, and revokes it', async () => {
    await page.getByRole('link', { name: 'Provisioning (SCIM)', exact: true }).click();
    await page.getByLabel('Token label').fill('Entra ID');
    await page.getByRole('button', { name: 'Create token' }).click();
    const box = page.getByRole('region', { name: 'New SCIM token' });
    const token = (await box.locator('code').textContent())?.trim() ?? '';
    assert.match(token, /^scim_/);
    assert.deepEqual(await seriousViolations(page), []);
    await page.getByRole('button', { name: 'Done' }).click();
    const use = () => ui.t.request('GET', '/scim/v2/Users', { token });
    assert.equal((await use()).status, 200);
    const list = await ui.t.get('/api/admin/scim-tokens', ui.t.adminToken);
    assert.equal(JSON.stringify(list.body).includes(token), false, 'the list never has the secret');

    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Revoke Entra ID' }).click();
    await page.getByText(/^Revoked /).waitFor();
    assert.equal((await use()).status, 401);
  });
});
