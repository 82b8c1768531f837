// Project and cycle pages: reached from their lists, each shows its own issues
// (and no other), and a burn-up chart with its figures by day.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, startUi, type UiEnv, visit } from './browser.js';

let ui: UiEnv;
let page: Page;
const DAY = 86_400_000;
const isoDay = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);

before(async () => {
  ui = await startUi();
  for (const flag of ['projects', 'cycles'])
    assert.equal(
      (await ui.t.patch(`/api/admin/flags/${flag}`, { enabled: true }, ui.t.adminToken)).status,
      200,
    );
  ({ page } = await ui.signedIn());
});
after(() => ui?.close());

async function create(path: string, body: Record<string, unknown>) {
  const res = await ui.t.post(path, body, ui.t.adminToken);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

describe('UI: project and cycle pages', () => {
  test('a project page lists its issues and charts scope against completion', async () => {
    const teams = (await ui.t.get('/api/teams', ui.t.adminToken)).body.teams as { id: string; key: string }[];
    const eng = teams.find((x) => x.key === 'ENG')!;
    const { project } = await create('/api/projects', {
      name: 'Launch site',
      teamIds: [eng.id],
      startDate: isoDay(-2),
    });
    const states = (await ui.t.get('/api/workflow-states?teamId=ENG', ui.t.adminToken)).body
      .workflowStates as {
      id: string;
      type: string;
    }[];
    const done = states.find((s) => s.type === 'completed')!;
    const first = (
      await create('/api/issues', { teamId: 'ENG', title: 'Write copy', projectId: project.id, estimate: 2 })
    ).issue;
    await create('/api/issues', { teamId: 'ENG', title: 'Pick fonts', projectId: project.id });
    await create('/api/issues', { teamId: 'ENG', title: 'Not in the project' });
    assert.equal(
      (await ui.t.patch(`/api/issues/${first.id}`, { stateId: done.id }, ui.t.adminToken)).status,
      200,
    );

    await visit(page, '/projects');
    await page.getByRole('link', { name: 'Launch site' }).click();
    await page.getByRole('heading', { name: 'Launch site', level: 1 }).waitFor();
    assert.match(new URL(page.url()).pathname, new RegExp(`/projects/${project.id}$`));
    const chart = page.getByRole('figure');
    await chart.getByText('2 of 3 points completed.', { exact: true }).waitFor();
    await chart
      .getByRole('img', {
        name: /^Burn-up chart from \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d\. 2 of 3 points completed\.$/,
      })
      .waitFor();
    await chart.getByText('Figures by day').click();
    assert.equal(await chart.getByRole('row').count(), 4);
    const list = page.getByRole('list', { name: 'Issues in Launch site' });
    await list.getByText('Write copy').waitFor();
    await list.getByText('Pick fonts').waitFor();
    assert.equal(await list.getByText('Not in the project').count(), 0);
    await screenshot(page, 'project-page');
  });

  test('a cycle page lists its issues with the same chart', async () => {
    const teams = (await ui.t.get('/api/teams', ui.t.adminToken)).body.teams as { id: string; key: string }[];
    const eng = teams.find((x) => x.key === 'ENG')!;
    const { cycle } = await create('/api/cycles', {
      teamId: eng.id,
      startsAt: new Date(Date.now() - DAY).toISOString(),
      endsAt: new Date(Date.now() + 6 * DAY).toISOString(),
    });
    await create('/api/issues', { teamId: 'ENG', title: 'In the cycle', cycleId: cycle.id, estimate: 3 });
    await visit(page, '/cycles');
    await page
      .getByRole('link', { name: new RegExp(`Cycle ${cycle.number}`) })
      .first()
      .click();
    await page.getByRole('heading', { name: new RegExp(`Cycle ${cycle.number}`), level: 1 }).waitFor();
    // A cycle's chart runs to its end, with the pace so far carried on to it.
    await page
      .getByRole('figure')
      .getByText(/^0 of 3 points done; at this rate 0 by the end \(.+\)\.$/)
      .waitFor();
    await page
      .getByRole('list', { name: /^Issues in / })
      .getByText('In the cycle')
      .waitFor();
    await screenshot(page, 'cycle-page');
  });
});
