// End to end in a real browser: a team's cycle settings are changed on its
// administration page, the real cycle worker plans the upcoming cycles, which
// the Cycles page lists, and the current cycle's burn-up is drawn to its end
// with the ideal and projection lines and a summary sentence; axe finds
// nothing in either theme. A team's owner who is not an admin reaches the same
// settings from the sidebar and saves them; another member has no way in.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { seriousViolations, startUi, type UiEnv, visit } from './browser.js';

let ui: UiEnv;
/** The admin's page of the first test, seen again in the dark theme by the second. */
let adminPage: Page;
before(async () => {
  ui = await startUi();
});
after(() => ui?.close());

const engCycles = async () =>
  (await ui.t.get('/api/cycles?teamId=ENG&limit=50', ui.t.adminToken)).body.cycles as any[];

test('change the cycle settings, see the upcoming cycles, and the burn-up to the end (light)', async () => {
  const { page } = await ui.signedIn('/admin/teams/ENG', { colorScheme: 'light' });
  adminPage = page;
  const section = page.getByRole('region', { name: 'Cycles' });
  await section.waitFor();
  assert.equal(await section.getByLabel('Cycle length').isDisabled(), true);
  await section.getByLabel('Create cycles automatically').check();
  await section.getByLabel('Cycle length').selectOption('1');
  await section.getByLabel('Cycles start on').selectOption('3');
  await section.getByLabel('Upcoming cycles planned').selectOption('3');
  assert.deepEqual(await seriousViolations(page), []);
  await section.getByRole('button', { name: 'Save cycle settings' }).click();
  await section.getByRole('status').getByText('Saved').waitFor();
  const team = (await ui.t.get('/api/teams/ENG', ui.t.adminToken)).body.team;
  assert.deepEqual(
    [team.cyclesAutomatic, team.cycleDuration, team.cycleStartDay, team.upcomingCycleCount],
    [true, 1, 3, 3],
  );

  // The worker was woken by the save: the current cycle and three upcoming, on Wednesdays.
  for (let i = 0; i < 200 && (await engCycles()).length < 4; i++) await page.waitForTimeout(100);
  const cycles = await engCycles();
  assert.equal(cycles.length, 4);
  assert.equal(cycles.filter((c) => c.status === 'upcoming').length, 3);
  await visit(page, '/cycles');
  const eng = page.getByRole('region', { name: 'Engineering' });
  await eng.getByRole('heading', { name: 'Upcoming' }).waitFor();
  assert.equal(await eng.getByRole('link', { name: /Cycle \d/ }).count(), 4);

  // Two issues in the current cycle, one of them done: half done so far.
  const current = cycles.find((c) => c.status === 'current');
  const done = await ui.t.ctx.db
    .selectFrom('workflow_states as s')
    .innerJoin('teams as t', 't.id', 's.team_id')
    .select('s.id')
    .where('t.key', '=', 'ENG')
    .where('s.type', '=', 'completed')
    .executeTakeFirstOrThrow();
  for (const title of ['Plan the cycle', 'Ship the cycle']) {
    const res = await ui.t.post(
      '/api/issues',
      { title, teamId: 'ENG', cycleId: current.id },
      ui.t.adminToken,
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    if (title.startsWith('Plan'))
      await ui.t.patch(`/api/issues/${res.body.issue.id}`, { stateId: done.id }, ui.t.adminToken);
  }
  await visit(page, `/cycles/${current.id}`);
  const summary = page.getByTestId('burnup-summary');
  await summary.getByText(/^1 of 2 points done; at this rate [\d.]+ by the end/).waitFor();
  const chart = page.locator('.burnup svg');
  const ideal = chart.locator('[data-series="ideal"]');
  const projected = chart.locator('[data-series="projected"]');
  // Both run to the chart's right edge: the cycle's last day.
  assert.equal(await ideal.getAttribute('x2'), '532');
  assert.equal(await projected.getAttribute('x2'), '532');
  const legend = page.locator('.burnup-legend');
  for (const name of ['Scope', 'Completed', 'Ideal', 'Projection']) await legend.getByText(name).waitFor();
  assert.match((await chart.getAttribute('aria-label')) ?? '', /at this rate/);
  assert.deepEqual(await seriousViolations(page), []);
});

test('the settings and the burn-up have no axe violations in the dark theme', async () => {
  // The same page as the first test's, the scheme emulated (the app follows the system's).
  const page = adminPage;
  await page.emulateMedia({ colorScheme: 'dark' });
  await visit(page, '/admin/teams/ENG');
  await page.getByRole('region', { name: 'Cycles' }).getByLabel('Cycle length').waitFor();
  assert.deepEqual(await seriousViolations(page), []);
  const current = (await engCycles()).find((c) => c.status === 'current');
  assert.ok(current, 'the first test planned a current cycle');
  await visit(page, `/cycles/${current.id}`);
  await page.getByTestId('burnup-summary').waitFor();
  assert.deepEqual(await seriousViolations(page), []);
});

test("a team's owner changes its cycle settings from the sidebar; a plain member cannot", async () => {
  const owner = await ui.t.userWithRole('member', { teams: ['ENG'], name: 'Olive Owner' });
  const made = await ui.t.patch(`/api/teams/ENG/members/${owner.user.id}`, { owner: true }, ui.t.adminToken);
  assert.equal(made.status, 200, JSON.stringify(made.body));
  const { page } = await ui.signedIn('/', { colorScheme: 'light', as: owner });
  await page.getByRole('link', { name: 'Team settings · ENG' }).click();
  await page.waitForURL(/\/team\/ENG\/settings$/);
  const section = page.getByRole('region', { name: 'Cycles' });
  await section.getByLabel('Upcoming cycles planned').waitFor();
  assert.equal(await page.getByRole('link', { name: /administration/ }).count(), 0, 'no admin pages offered');
  assert.deepEqual(await seriousViolations(page), []);
  await section.getByLabel('Create cycles automatically').check();
  await section.getByLabel('Upcoming cycles planned').selectOption('2');
  await section.getByLabel('Cycle length').selectOption('2');
  await section.getByRole('button', { name: 'Save cycle settings' }).click();
  await section.getByRole('status').getByText('Saved').waitFor();
  const team = (await ui.t.get('/api/teams/ENG', ui.t.adminToken)).body.team;
  assert.deepEqual([team.cyclesAutomatic, team.upcomingCycleCount, team.cycleDuration], [true, 2, 2]);

  // A member who owns nothing: no link, and the address says who may.
  const plain = await ui.t.userWithRole('member', { teams: ['ENG'], name: 'Pat Plain' });
  const other = await ui.signedIn('/', { colorScheme: 'light', as: plain });
  await other.page.getByRole('link', { name: 'Account' }).waitFor();
  assert.equal(await other.page.getByRole('link', { name: /^Team settings/ }).count(), 0);
  await visit(other.page, '/team/ENG/settings');
  await other.page.getByText('Only the owners of Engineering and admins change its settings.').waitFor();
  assert.equal(await other.page.getByRole('button', { name: 'Save cycle settings' }).count(), 0);
});
