// End to end in a real browser: the admin Imports page runs a GitHub import
// against a local server answering as GitHub's REST API (test/support/
// fake-github.ts): a dry run shows what would be created and who is missing
// and writes nothing; the import shows its progress to the end and its report;
// both runs are listed among past imports; a bad repository is refused at its field.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { FAKE_GITHUB_TOKEN, type FakeGithub, startFakeGithub } from '../support/fake-github.js';
import { FAKE_JIRA_PAT, type FakeJira, startFakeJira } from '../support/fake-jira.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  screenshot,
  seriousViolations,
  signIn,
  startUi,
  type UiEnv,
} from './browser.js';

let ui: UiEnv;
let page: Page;
let gh: FakeGithub;
let jira: FakeJira;

before(async () => {
  gh = await startFakeGithub();
  jira = await startFakeJira();
  // The fake GitHub listens on 127.0.0.1, which the outbound guard refuses unless told.
  ui = await startUi({ webhookAllowPrivate: true });
  ({ page } = await ui.newPage());
  await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
});
after(async () => {
  await ui?.close();
  await gh?.close();
  await jira?.close();
});

const status = () => page.getByTestId('import-status');

describe('UI: imports', () => {
  test('a GitHub dry run, then the import, with progress and a report', async () => {
    await page.getByRole('link', { name: 'Imports', exact: true }).click();
    await page.getByRole('heading', { name: 'Imports', level: 1 }).waitFor();
    assert.equal(await page.getByLabel('Source').inputValue(), 'github');

    await page.getByLabel('Repository').fill('not a repository');
    await page.getByLabel('Token').fill(FAKE_GITHUB_TOKEN);
    await page.getByLabel('API URL').fill(gh.url);
    await page.getByRole('button', { name: 'Dry run' }).click();
    await page.getByText(/repo must be owner\/name/).waitFor();

    await page.getByLabel('Repository').fill('acme/widgets');
    await page.getByRole('button', { name: 'Dry run' }).click();
    await page.getByRole('heading', { name: 'Dry run of github:' }).waitFor();
    await status().getByText('completed').waitFor({ timeout: 30_000 });
    const missing = page.getByTestId('import-missing-users');
    for (const email of ['alice-dev@users.noreply.github.com', 'ghost@users.noreply.github.com'])
      await missing.getByText(email).waitFor();
    assert.match((await page.getByTestId('import-counts').textContent()) ?? '', /issue: 4 would be created/);
    assert.equal(
      (await ui.t.get('/api/teams/WIDGETS', ui.t.adminToken)).status,
      404,
      'a dry run writes nothing',
    );
    assert.deepEqual(await seriousViolations(page), []);

    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('heading', { name: /^Import of github:/ }).waitFor();
    const bar = page.getByRole('progressbar', { name: 'Import progress' });
    await bar.waitFor();
    await status().getByText('completed').waitFor({ timeout: 30_000 });
    assert.equal(await bar.getAttribute('value'), '1', 'the bar is full once the run ended');
    assert.match((await status().textContent()) ?? '', /4 issues read/);
    assert.match((await page.getByTestId('import-counts').textContent()) ?? '', /issue: 4 created/);
    const issues = (await ui.t.get('/api/issues?teamId=WIDGETS&limit=50', ui.t.adminToken)).body.issues;
    assert.equal(issues.length, 4);

    const rows = page.getByRole('table').getByRole('row');
    await assert.doesNotReject(rows.nth(2).waitFor());
    assert.equal(await rows.count(), 3, 'the header and both runs');
    await screenshot(page, 'admin-imports');
    assert.deepEqual(await seriousViolations(page), []);
  });

  test('a Jira Data Center import: a personal access token without an email, a query, the report', async () => {
    await page.getByLabel('Source').selectOption('jira');
    await page.getByLabel('Jira site').fill(`${jira.url}/jira`);
    await page.getByLabel('JQL').fill('project = OPS');
    await page.getByLabel('Jira token').fill('not the token');
    await page.getByRole('button', { name: 'Dry run' }).click();
    await status().getByText('failed').waitFor({ timeout: 30_000 });
    assert.match((await page.getByTestId('import-run').textContent()) ?? '', /401|authenticat/i);

    await page.getByLabel('Jira token').fill(FAKE_JIRA_PAT);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('heading', { name: /^Import of jira:/ }).waitFor();
    await status().getByText('completed').waitFor({ timeout: 30_000 });
    assert.match((await page.getByTestId('import-counts').textContent()) ?? '', /issue: \d+ created/);
    const ops = await ui.t.get('/api/issues?teamId=OPS&limit=50', ui.t.adminToken);
    assert.equal(ops.status, 200);
    assert.ok(ops.body.issues.length > 0, 'the issues are here');
    assert.deepEqual(await seriousViolations(page), []);
  });
});
