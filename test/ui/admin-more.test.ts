// End to end in a real browser: webhook endpoints (secret once, disable, delivery
// log, redeliver), projects and cycles pages, user administration.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, startUi, type UiEnv } from './browser.js';

let ui: UiEnv;
let page: Page;
let receiver: http.Server;
let receiverUrl = '';
let received = 0;

before(async () => {
  ui = await startUi();
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  ({ page } = await ui.signedIn());
});
after(async () => {
  await ui?.close();
  receiver?.close();
});

describe('UI: more administration', () => {
  test('an admin registers a webhook, sees the secret once, sees deliveries and redelivers', async () => {
    await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
    await page.getByLabel('Endpoint URL').fill(receiverUrl);
    await page.getByLabel('Endpoint label').fill('Receiver');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const box = page.getByRole('region', { name: 'New webhook secret' });
    const secret = (await box.locator('code').textContent())?.trim() ?? '';
    assert.ok(secret.length >= 16, 'the secret is shown');
    await page.getByRole('button', { name: 'Done' }).click();
    const list = await ui.t.get('/api/admin/webhooks', ui.t.adminToken);
    assert.equal(list.body.webhooks.length, 1);
    assert.equal(JSON.stringify(list.body).includes(secret), false, 'the list never has the secret');

    // An issue change makes a delivery; the log shows it and can send it again.
    const created = await ui.t.post('/api/issues', { title: 'Webhook trigger' }, ui.t.adminToken);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    await page.getByRole('button', { name: 'Deliveries' }).click();
    const redeliver = page.getByRole('button', { name: 'Redeliver' }).first();
    for (let i = 0; i < 50 && (await redeliver.count()) === 0; i++) {
      await page.getByRole('button', { name: 'Hide deliveries' }).click();
      await page.waitForTimeout(200);
      await page.getByRole('button', { name: 'Deliveries' }).click();
    }
    await page.getByRole('cell', { name: 'issue.create' }).first().waitFor();
    await screenshot(page, 'webhooks');
    const before = received;
    await redeliver.click();
    for (let i = 0; i < 100 && received === before; i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(received > before, 'the redelivery reached the receiver');

    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('button', { name: 'Enable' }).waitFor();
    const after = await ui.t.get('/api/admin/webhooks', ui.t.adminToken);
    assert.equal(after.body.webhooks[0].enabled, false);
  });

  test('an admin creates a user with a role, suspends and reactivates, then deletes them', async () => {
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    const email = `ui-user-${Date.now()}@example.com`;
    await page.getByLabel('Name', { exact: true }).fill('Linus Member');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Initial password').fill('password-123');
    await page.getByLabel('Role', { exact: true }).selectOption('guest');
    await page.getByRole('button', { name: 'Add user' }).click();
    await page.getByRole('cell', { name: email }).waitFor();
    await page.getByRole('button', { name: 'Suspend Linus Member' }).click();
    await page.getByRole('button', { name: 'Reactivate Linus Member' }).waitFor();
    const login = await ui.t.post('/api/auth/login', { email, password: 'password-123' });
    assert.equal(login.status, 403);
    await page.getByRole('button', { name: 'Reactivate Linus Member' }).click();
    await page.getByRole('button', { name: 'Suspend Linus Member' }).waitFor();
    await page.getByLabel('Role of Linus Member').selectOption('member');
    await screenshot(page, 'users');
    await page.getByRole('button', { name: 'Delete Linus Member' }).click();
    await page.getByRole('cell', { name: email }).waitFor({ state: 'detached' });
  });

  test('projects and cycles pages list what the API holds', async () => {
    const project = await ui.t.post('/api/projects', { name: 'Checkout revamp' }, ui.t.adminToken);
    assert.equal(project.status, 201, JSON.stringify(project.body));
    await page.getByRole('link', { name: 'Projects', exact: true }).click();
    await page.getByRole('cell', { name: 'Checkout revamp' }).waitFor();
    await page.getByLabel('New project name').fill('Mobile app');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('cell', { name: 'Mobile app' }).waitFor();
    await page.getByLabel('Health of Checkout revamp').selectOption('atRisk');
    await page.getByLabel('Status of Checkout revamp').selectOption('started');
    const id = project.body.project.id;
    for (let i = 0; i < 50; i++) {
      const p = await ui.t.get(`/api/projects/${id}`, ui.t.adminToken);
      if (p.body.project?.health === 'atRisk' && p.body.project?.status === 'started') break;
      assert.ok(i < 49, `project not updated: ${JSON.stringify(p.body)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await screenshot(page, 'projects');

    const teams = await ui.t.get('/api/teams', ui.t.adminToken);
    const teamId = (teams.body.teams ?? teams.body)[0].id;
    const now = Date.now();
    const cycle = await ui.t.post(
      '/api/cycles',
      {
        teamId,
        startsAt: new Date(now - 86400e3).toISOString(),
        endsAt: new Date(now + 6 * 86400e3).toISOString(),
      },
      ui.t.adminToken,
    );
    assert.equal(cycle.status, 201, JSON.stringify(cycle.body));
    await page.getByRole('link', { name: 'Cycles', exact: true }).click();
    await page.getByRole('heading', { name: 'Current' }).waitFor();
    await page.getByLabel('Cycle name (optional)').fill('Hardening');
    await page.getByRole('button', { name: 'Add cycle' }).click();
    await page.getByRole('heading', { name: 'Upcoming' }).waitFor();
    await page.getByText('Hardening', { exact: true }).waitFor();
    await screenshot(page, 'cycles');
  });
});
