// test-runner: any database
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { retryDelayMs, scheduleSpanMs } from '../src/modules/webhooks/schedule.js';
import { DEFAULT_TUNING } from '../src/modules/webhooks/tuning.js';

const DAY = 86_400_000;

test('the default schedule retries for about three days, then gives up', () => {
  const span = scheduleSpanMs(60_000, DEFAULT_TUNING.maxAttempts);
  assert.ok(span >= 3 * DAY && span <= 3.5 * DAY, `${span / DAY} days`);
  assert.equal(DEFAULT_TUNING.disableAfterMs, 3 * DAY);
  assert.equal(DEFAULT_TUNING.timeoutMs, 10_000);
  assert.ok(DEFAULT_TUNING.leaseMs > DEFAULT_TUNING.timeoutMs, 'a lease outlives any attempt');
});

test('delays start at the base, double, cap at 512x, with +-20% jitter', () => {
  const mid = () => 0.5;
  assert.equal(retryDelayMs(60_000, 1, mid), 60_000);
  assert.equal(retryDelayMs(60_000, 2, mid), 120_000);
  assert.equal(retryDelayMs(60_000, 5, mid), 960_000);
  assert.equal(retryDelayMs(60_000, 10, mid), 512 * 60_000);
  assert.equal(retryDelayMs(60_000, 17, mid), 512 * 60_000);
  assert.equal(
    retryDelayMs(1000, 1, () => 0),
    800,
  );
  assert.equal(
    retryDelayMs(1000, 1, () => 0.999999),
    1200,
  );
  for (let i = 0; i < 100; i++) {
    const d = retryDelayMs(1000, 3);
    assert.ok(d >= 3200 && d <= 4800, String(d));
  }
});
