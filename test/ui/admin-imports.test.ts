// End to end in a real browser: the admin Imports page runs a GitHub import
// against a local server answering as GitHub's REST API (test/support/
// fake-github.ts): a dry run shows what would be created and who is missing
// and writes nothing; the import shows its progress to the end and its report;
// both runs are listed among past imports; a bad repository is refused at its field.
// Then Jira's XML export uploaded as a file: its dry run lists the missing people,
// one of them is mapped to an account here, and the import's bar reaches 100%
// with that account as the assignee of the issues the person had in Jira.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { FAKE_GITHUB_TOKEN, type FakeGithub, startFakeGithub } from '../support/fake-github.js';
import { FAKE_JIRA_PAT, type FakeJira, startFakeJira } from '../support/fake-jira.js';
import { screenshot, seriousViolations, startUi, type UiEnv } from './browser.js';

let ui: UiEnv;
let page: Page;
let gh: FakeGithub;
let jira: FakeJira;

before(async () => {
  gh = await startFakeGithub();
  jira = await startFakeJira();
  // The fake GitHub listens on 127.0.0.1, which the outbound guard refuses unless told.
  ui = await startUi({ webhookAllowPrivate: true });
  ({ page } = await ui.signedIn());
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
    assert.equal(await bar.getAttribute('value'), '100', 'the bar is full once the run ended');
    // GitHub gives its pages, not its issues: the bar counts pages.
    assert.match((await status().textContent()) ?? '', /100% · (\d+) of \1 pages read/);
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

  test('a Jira XML export: dry run, a person mapped to an account, the import to 100%', async () => {
    const member = await ui.t.userWithRole('member');
    const memberId = (await ui.t.get('/api/auth/me', member.token)).body.user.id;
    await page.getByLabel('Source').selectOption('jira-xml');
    await page
      .getByLabel('Jira XML file')
      .setInputFiles(fileURLToPath(new URL('../fixtures/jira/export.xml', import.meta.url)));
    await page.getByLabel('Team key').fill('XML');
    await page.getByRole('button', { name: 'Dry run' }).click();
    await page.getByRole('heading', { name: /^Dry run of jira-xml:/ }).waitFor();
    await status().getByText('completed').waitFor({ timeout: 30_000 });
    assert.match((await page.getByTestId('import-counts').textContent()) ?? '', /issue: 4 would be created/);
    const missing = page.getByTestId('import-missing-users');
    await missing.getByText('former.employee@jira.invalid').waitFor();
    assert.equal((await ui.t.get('/api/teams/XML', ui.t.adminToken)).status, 404, 'a dry run writes nothing');

    const choice = page.getByLabel('jsmith@jira.invalid');
    await choice.selectOption(memberId);
    assert.deepEqual(await seriousViolations(page), []);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('heading', { name: /^Import of jira-xml:/ }).waitFor();
    await status().getByText('completed').waitFor({ timeout: 30_000 });
    const bar = page.getByRole('progressbar', { name: 'Import progress' });
    assert.equal(await bar.getAttribute('value'), '100');
    assert.equal(await bar.getAttribute('max'), '100');
    // Four issues and the duplicate key refused: the five items of the file that are not epics.
    assert.match((await status().textContent()) ?? '', /100% · 5 of 5 issues read/);
    assert.match((await page.getByTestId('import-counts').textContent()) ?? '', /user: 1 mapped/);

    const issues = (await ui.t.get('/api/issues?teamId=XML&limit=50', ui.t.adminToken)).body.issues as any[];
    assert.equal(issues.length, 4);
    const byTitle = new Map(issues.map((i) => [i.title, i]));
    assert.equal(byTitle.get('Renew edge-1').assigneeId, memberId, 'the mapped account is the assignee');
    assert.equal(byTitle.get('Rotate the "edge" certificates — naïve café').assigneeId, memberId);
    const placeholders = await ui.t.ctx.db
      .selectFrom('users')
      .select('email')
      .where('email', '=', 'jsmith@jira.invalid')
      .execute();
    assert.deepEqual(placeholders, [], 'no placeholder for the mapped person');
    await screenshot(page, 'admin-imports-jira-xml');
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      assert.deepEqual(await seriousViolations(page), [], theme);
    }
  });
});
