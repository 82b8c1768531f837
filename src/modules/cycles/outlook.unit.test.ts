import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cycleOutlook } from './outlook.js';

const day = (date: string, scope: number, completedScope: number) => ({
  date,
  scope,
  completedScope,
  inProgressScope: 0,
  issues: scope,
  completedIssues: completedScope,
});
const cycle = { starts_at: new Date('2026-11-02T00:00:00Z'), ends_at: new Date('2026-11-16T00:00:00Z') };

test("spans the cycle's days; projects the rate so far to the end, at most the scope", () => {
  const days = [day('2026-11-02', 30, 0), day('2026-11-03', 30, 2), day('2026-11-04', 30, 3)];
  assert.deepEqual(cycleOutlook(cycle, days), {
    startDate: '2026-11-02',
    endDate: '2026-11-15',
    scope: 30,
    completedScope: 3,
    projectedScope: 14, // 3 points in 3 days of 14
  });
  const fast = [day('2026-11-02', 4, 3)];
  assert.equal(cycleOutlook(cycle, fast).projectedScope, 4);
});

test('an ended cycle projects what was completed; an upcoming one nothing', () => {
  const days = [day('2026-11-15', 10, 6)];
  assert.equal(cycleOutlook(cycle, days).projectedScope, 6);
  assert.deepEqual(cycleOutlook(cycle, []), {
    startDate: '2026-11-02',
    endDate: '2026-11-15',
    scope: 0,
    completedScope: 0,
    projectedScope: 0,
  });
});
