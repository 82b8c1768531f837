// test-runner: any database
// The limit arithmetic with an injected clock (no database): the back-off per
// (account, address), the buckets, expiry, and how addresses are keyed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addressKey, DEFAULT_LOGIN_LIMITS } from './login-limiter.js';
import { Backoff, Bucket, EMPTY, retryAfterSeconds, type ThrottleState } from './login-limiter-rules.js';

const T0 = 1_700_000_000_000;

/** Attempts at `now`, counting each one the rule allows; returns the waits seen. */
function attempts(rule: Backoff | Bucket, state: ThrottleState, now: number, n: number) {
  const waits: number[] = [];
  for (let i = 0; i < n; i++) {
    const wait = rule.wait(state, now);
    waits.push(wait);
    if (wait === 0) state = rule.take(state, now);
  }
  return { waits, state };
}

describe('defaults', () => {
  test('5 free failures per account and address, then 1 s doubling to 15 min; buckets of 10, 100 and 10', () => {
    assert.deepEqual(DEFAULT_LOGIN_LIMITS.perAccountAddress, {
      free: 5,
      firstDelayMs: 1000,
      maxDelayMs: 15 * 60_000,
      forgetAfterMs: 24 * 3600_000,
    });
    assert.deepEqual(DEFAULT_LOGIN_LIMITS.perAccount, { capacity: 10, windowMs: 15 * 60_000 });
    assert.deepEqual(DEFAULT_LOGIN_LIMITS.perAddress, { capacity: 100, windowMs: 15 * 60_000 });
    assert.deepEqual(DEFAULT_LOGIN_LIMITS.registrations, { capacity: 10, windowMs: 3600_000 });
  });
});

describe('Backoff', () => {
  const rule = new Backoff(3, 1000, 8000, 60_000);

  test('the first `free` attempts pass at once; the next must wait', () => {
    const { waits, state } = attempts(rule, EMPTY, T0, 5);
    assert.deepEqual(waits, [0, 0, 0, 1000, 1000]);
    assert.equal(state.count, 3, 'refused attempts are not counted');
  });

  test('each further failure doubles the pause after the previous attempt, up to the cap', () => {
    let state = attempts(rule, EMPTY, T0, 3).state;
    let now = T0;
    const pauses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const wait = rule.wait(state, now);
      pauses.push(wait);
      now += wait;
      assert.equal(rule.wait(state, now), 0, 'allowed once the pause is over');
      state = rule.take(state, now);
    }
    assert.deepEqual(pauses, [1000, 2000, 4000, 8000, 8000, 8000]);
  });

  test('the wait counts down from the last attempt', () => {
    const { state } = attempts(rule, EMPTY, T0, 3);
    assert.equal(rule.wait(state, T0 + 400), 600);
    assert.equal(rule.wait(state, T0 + 1000), 0);
  });

  test('the count is forgotten after forgetAfterMs without an attempt', () => {
    const { state } = attempts(rule, { count: 20, lastAt: T0 }, T0, 0);
    assert.equal(rule.wait(state, T0 + 59_999), 0, 'past the capped pause, one attempt may go');
    assert.equal(rule.take(state, T0 + 59_999).count, 21, 'but it still counts on top');
    assert.equal(rule.take(state, T0 + 60_000).count, 1, 'after a quiet period it starts again');
    assert.equal(rule.expiresAt(state), T0 + 60_000);
  });
});

describe('Bucket', () => {
  const rule = new Bucket(4, 60_000); // one attempt back every 15 s

  test('a burst of `capacity` passes, then one per window/capacity', () => {
    const { waits, state } = attempts(rule, EMPTY, T0, 6);
    assert.deepEqual(waits, [0, 0, 0, 0, 15_000, 15_000]);
    assert.equal(rule.wait(state, T0 + 5_000), 10_000);
    assert.equal(rule.wait(state, T0 + 15_000), 0);
    assert.ok(rule.wait(rule.take(state, T0 + 15_000), T0 + 15_000) > 0, 'and only one');
  });

  test('it drains completely after the window, and says when its row is empty', () => {
    const { state } = attempts(rule, EMPTY, T0, 4);
    assert.equal(rule.expiresAt(state), T0 + 60_000);
    assert.equal(rule.level(state, T0 + 60_000), 0);
    assert.equal(attempts(rule, state, T0 + 60_000, 4).waits.join(), '0,0,0,0');
  });

  test('a refund gives one attempt back', () => {
    const { state } = attempts(rule, EMPTY, T0, 4);
    const refunded = rule.refund(state, T0);
    assert.equal(rule.wait(refunded, T0), 0);
    assert.equal(rule.refund(EMPTY, T0).count, 0, 'never below empty');
  });
});

test('Retry-After is whole seconds, at least 1', () => {
  assert.equal(retryAfterSeconds(1), 1);
  assert.equal(retryAfterSeconds(1000), 1);
  assert.equal(retryAfterSeconds(1001), 2);
  assert.equal(retryAfterSeconds(15 * 60_000), 900);
});

describe('addressKey', () => {
  test('IPv4 as is, also when IPv4-mapped', () => {
    assert.equal(addressKey('203.0.113.9'), '203.0.113.9');
    assert.equal(addressKey('::ffff:203.0.113.9'), '203.0.113.9');
  });

  test('IPv6 by its /64, however it is written', () => {
    const key = '2001:db8:1:2::/64';
    assert.equal(addressKey('2001:db8:1:2::1'), key);
    assert.equal(addressKey('2001:0DB8:0001:0002:aaaa:bbbb:cccc:dddd'), key);
    assert.equal(addressKey('2001:db8:1:2:ffff::'), key);
    assert.equal(addressKey('2001:db8:1:2::1%eth0'), key);
    assert.notEqual(addressKey('2001:db8:1:3::1'), key);
    assert.equal(addressKey('::1'), '0:0:0:0::/64');
    assert.equal(addressKey('64:ff9b::203.0.113.9'), '64:ff9b:0:0::/64');
  });
});
