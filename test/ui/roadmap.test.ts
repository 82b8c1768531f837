// In a real browser: the projects' timeline (issue 26). Bars sit where their
// dates fall on the axis; dragging a bar, its end or a milestone's diamond,
// or arrow keys on a focused bar, change the dates the server keeps; a
// refused write puts the bar back; projects without dates are listed apart;
// axe finds nothing in either theme or at phone width.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { PHONE, seriousViolations, startUi, type UiEnv } from './browser.js';

let ui: UiEnv;
let page: Page;
const PX_PER_DAY = 8; // the month zoom (web/src/lib/timeline-scale.ts)
const DAY = 86_400_000;

/** Today as the browser writes it (same machine, same zone), shifted by `days`. */
const day = (days: number) => new Intl.DateTimeFormat('en-CA').format(new Date(Date.now() + days * DAY));
const between = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / DAY);

before(async () => {
  ui = await startUi();
  assert.equal(
    (await ui.t.patch('/api/admin/flags/projects', { enabled: true }, ui.t.adminToken)).status,
    200,
  );
  ({ page } = await ui.signedIn());
});
after(() => ui?.close());

async function newProject(name: string, dates: { startDate?: string; targetDate?: string }) {
  const res = await ui.t.post('/api/projects', { name, teamIds: ['ENG'], ...dates }, ui.t.adminToken);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.project as { id: string; name: string };
}
const saved = async (id: string) =>
  (await ui.t.get(`/api/projects/${id}`, ui.t.adminToken)).body.project as {
    startDate: string | null;
    targetDate: string | null;
  };

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  let v = await read();
  for (let i = 0; i < 100 && !ok(v); i++) {
    await new Promise((r) => setTimeout(r, 100));
    v = await read();
  }
  assert.ok(ok(v), `${what}: ${JSON.stringify(v)}`);
  return v;
}

const TIMELINE = '/projects?view=timeline';
async function openTimeline(p: Page, query = '') {
  await p.goto(`${TIMELINE}${query}`);
  await timelineShown(p);
}
const timelineShown = (p: Page) => p.getByRole('list', { name: 'Projects by date' }).waitFor();
const bar = (p: Page, name: string) => p.getByRole('button', { name: new RegExp(`^${name}: `) });

async function box(l: Locator) {
  const b = await l.boundingBox();
  assert.ok(b, 'on screen');
  return b;
}

/** Presses the mouse at (x, y) and moves by dx in small steps, as a hand does, then lets go. */
async function dragBy(p: Page, x: number, y: number, dx: number) {
  await p.mouse.move(x, y);
  await p.mouse.down();
  await p.mouse.move(x + dx / 2, y, { steps: 4 });
  await p.mouse.move(x + dx, y, { steps: 4 });
  await p.mouse.up();
}

describe('UI: the projects timeline', () => {
  test('reached from the Projects tabs, kept in the address; bars placed by their dates on the axis', async () => {
    await newProject('Alpha', { startDate: day(2), targetDate: day(20) });
    await page.goto('/projects');
    await page
      .getByRole('navigation', { name: 'Projects view' })
      .getByRole('link', { name: 'Timeline' })
      .click();
    await page.waitForURL(/view=timeline/);
    await page.getByRole('list', { name: 'Projects by date' }).waitFor();

    const alpha = await box(bar(page, 'Alpha'));
    const todayLine = await box(page.locator('.rm-today'));
    // The bar starts 2 days after today's column and covers 19 days (both ends included).
    assert.ok(Math.abs(alpha.x - todayLine.x - 2 * PX_PER_DAY) <= 1, `${alpha.x} vs today ${todayLine.x}`);
    assert.ok(Math.abs(alpha.width - 19 * PX_PER_DAY) <= 1, `width ${alpha.width}`);
    // And against a month tick of the axis: the first of next month is where its days say.
    const next = new Date(Date.parse(`${day(0)}T00:00:00Z`));
    const firstNext = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 1))
      .toISOString()
      .slice(0, 10);
    const monthTick = await box(page.locator(`.rm-tick[data-day="${firstNext}"]`));
    assert.ok(
      Math.abs(alpha.x - monthTick.x - between(firstNext, day(2)) * PX_PER_DAY) <= 1,
      `bar ${alpha.x}, tick ${firstNext} at ${monthTick.x}`,
    );

    // Zoom and grouping live in the address.
    await page.getByRole('radio', { name: 'Weeks' }).check();
    await page.waitForURL(/zoom=week/);
    const wide = await box(bar(page, 'Alpha'));
    assert.ok(Math.abs(wide.width - 19 * 32) <= 1, `week zoom width ${wide.width}`);
    await page.getByLabel('Group by').selectOption('team');
    await page.waitForURL(/group=team/);
    await page.getByRole('heading', { level: 3, name: /Engineering|ENG/ }).waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 3, name: /Engineering|ENG/ }).waitFor();
    assert.equal(await page.getByRole('radio', { name: 'Weeks' }).isChecked(), true);
  });

  test('dragging a bar moves both dates; dragging its end changes only the target', async () => {
    const p = await newProject('Bravo', { startDate: day(3), targetDate: day(10) });
    await openTimeline(page);
    const b = await box(bar(page, 'Bravo'));
    await dragBy(page, b.x + b.width / 2, b.y + b.height / 2, 5 * PX_PER_DAY);
    await eventually(
      () => saved(p.id),
      (s) => s.startDate === day(8) && s.targetDate === day(15),
      'moved by five days',
    );
    await page.reload();
    const moved = bar(page, 'Bravo');
    assert.equal(await moved.getAttribute('data-start'), day(8));
    assert.equal(await moved.getAttribute('data-target'), day(15));

    const m = await box(moved);
    await dragBy(page, m.x + m.width - 2, m.y + m.height / 2, 3 * PX_PER_DAY);
    await eventually(
      () => saved(p.id),
      (s) => s.startDate === day(8) && s.targetDate === day(18),
      'target three days later, start kept',
    );
  });

  test("dragging a milestone's diamond changes its target date", async () => {
    const p = await newProject('Charlie', { startDate: day(1), targetDate: day(30) });
    const res = await ui.t.post(
      `/api/projects/${p.id}/milestones`,
      { name: 'Beta', targetDate: day(12) },
      ui.t.adminToken,
    );
    assert.equal(res.status, 201);
    const id = res.body.milestone.id as string;
    await openTimeline(page);
    const diamond = page.getByRole('button', { name: /^Milestone Beta of Charlie/ });
    const d = await box(diamond);
    await dragBy(page, d.x + d.width / 2, d.y + d.height / 2, -2 * PX_PER_DAY);
    await eventually(
      async () => (await ui.t.get(`/api/milestones/${id}`, ui.t.adminToken)).body.milestone.targetDate,
      (t) => t === day(10),
      'milestone two days earlier',
    );
    assert.deepEqual(await saved(p.id), { ...(await saved(p.id)), startDate: day(1), targetDate: day(30) });
  });

  test('by keyboard: arrows move a focused bar a day, Shift+arrows its target, Alt+arrows its start; announced', async () => {
    const p = await newProject('Delta', { startDate: day(4), targetDate: day(9) });
    await openTimeline(page);
    const delta = bar(page, 'Delta');
    await delta.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await page
      .getByRole('status')
      .filter({ hasText: /^Delta: / })
      .waitFor();
    await eventually(
      () => saved(p.id),
      (s) => s.startDate === day(7) && s.targetDate === day(12),
      'three days later',
    );
    await page.keyboard.press('Shift+ArrowLeft');
    await page.keyboard.press('Shift+ArrowLeft');
    await eventually(
      () => saved(p.id),
      (s) => s.startDate === day(7) && s.targetDate === day(10),
      'target two days earlier',
    );
    await page
      .getByRole('status')
      .filter({ hasText: /^Saved: Delta/ })
      .waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-target')), day(10));
    // Alt+arrows change the start alone; leaving the bar saves without waiting.
    await page.keyboard.press('Alt+ArrowLeft');
    await page.keyboard.press('Tab');
    await eventually(
      () => saved(p.id),
      (s) => s.startDate === day(6) && s.targetDate === day(10),
      'start a day earlier',
    );
  });

  test('a refused write puts the bar back (a member made a guest meanwhile)', async () => {
    const p = await newProject('Echo', { startDate: day(2), targetDate: day(6) });
    const member = await ui.t.userWithRole('member', { teams: ['ENG'] });
    const { context, page: theirs } = await ui.signedIn(TIMELINE, { as: member });
    await timelineShown(theirs);
    const echo = bar(theirs, 'Echo');
    await echo.waitFor();
    const demoted = await ui.t.patch(
      `/api/admin/users/${member.user.id}`,
      { role: 'guest' },
      ui.t.adminToken,
    );
    assert.equal(demoted.status, 200, JSON.stringify(demoted.body));

    const b = await box(echo);
    await dragBy(theirs, b.x + b.width / 2, b.y + b.height / 2, 4 * PX_PER_DAY);
    await theirs.getByRole('alert').filter({ hasText: /guest/i }).waitFor();
    await theirs
      .getByRole('status')
      .filter({ hasText: /^Not saved/ })
      .waitFor();
    assert.equal(await echo.getAttribute('data-start'), day(2));
    assert.equal(await echo.getAttribute('data-target'), day(6));
    assert.deepEqual([(await saved(p.id)).startDate, (await saved(p.id)).targetDate], [day(2), day(6)]);
    await context.close();
  });

  test('projects without dates are listed apart and scheduled in one click', async () => {
    const p = await newProject('Foxtrot', {});
    await openTimeline(page);
    const apart = page.getByRole('region', { name: /Not on the timeline/ });
    await apart.getByRole('link', { name: 'Foxtrot' }).waitFor();
    await apart.getByRole('button', { name: 'Schedule Foxtrot' }).click();
    await bar(page, 'Foxtrot').waitFor();
    await eventually(
      () => saved(p.id),
      (s) => s.startDate === day(0) && s.targetDate === day(13),
      'two weeks from today',
    );
  });

  test('guests read it only; axe finds nothing in light and dark and at phone width', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { context, page: p } = await ui.signedIn(`${TIMELINE}&group=status`, { colorScheme });
      await timelineShown(p);
      assert.deepEqual(await seriousViolations(p), [], `axe, ${colorScheme}`);
      await context.close();
    }
    const guest = await ui.t.userWithRole('guest', { teams: ['ENG'] });
    const { context: phoneContext, page: phone } = await ui.signedIn(TIMELINE, {
      viewport: PHONE,
      as: guest,
    });
    await timelineShown(phone);
    await phone.getByRole('img', { name: /^Alpha: / }).waitFor();
    assert.equal(await phone.getByRole('button', { name: /^Alpha: / }).count(), 0, 'no draggable bar');
    assert.deepEqual(await seriousViolations(phone), [], 'axe, phone');
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= PHONE.width, `the page does not scroll sideways (${width}px)`);
    // Open timelines would each read every project again on each of the next test's 200 creations.
    await phoneContext.close();
  });
  test('200 projects: only the rows in view are drawn, and scrolling reaches the last', async () => {
    // No open timeline meanwhile: each creation would make it read the projects again.
    await page.goto('/issues');
    for (let i = 0; i < 200; i += 20)
      await Promise.all(
        Array.from({ length: 20 }, (_, k) =>
          newProject(`Bulk ${String(i + k).padStart(3, '0')}`, {
            startDate: day(40 + i + k),
            targetDate: day(60 + i + k),
          }),
        ),
      );
    await openTimeline(page);
    await page.getByRole('button', { name: /^Bulk 000: / }).waitFor();
    const drawn = await page.locator('.rm-row').count();
    assert.ok(drawn < 60, `${drawn} rows drawn of more than 200`);
    await page.locator('.roadmap-scroll').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await page.getByRole('button', { name: /^Bulk 199: / }).waitFor();
    assert.equal(await page.getByRole('button', { name: /^Bulk 000: / }).count(), 0, 'the first rows left');
  });
});
