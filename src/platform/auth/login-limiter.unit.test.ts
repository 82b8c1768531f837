// Login rate limits with an injected clock: per account failures, per address
// attempts, window expiry, and a success clearing the account's failures.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_LOGIN_LIMITS, LoginLimiter } from './login-limiter.js';

function limiter(opts = { perAccount: 3, perAddress: 5, windowMs: 60_000 }) {
  let now = 1_000_000;
  const l = new LoginLimiter(opts, () => now);
  return {
    l,
    advance(ms: number) {
      now += ms;
    },
  };
}

/** One failed sign-in as the service does it: attempt, then failed. */
function fail(l: LoginLimiter, email: string, address: string): number {
  const wait = l.attempt(email, address);
  if (wait === 0) l.failed(email);
  return wait;
}

describe('LoginLimiter', () => {
  test('defaults: 10 failures per account, 100 attempts per address, 15 minutes', () => {
    assert.deepEqual(DEFAULT_LOGIN_LIMITS, { perAccount: 10, perAddress: 100, windowMs: 15 * 60_000 });
  });

  test('blocks an account after perAccount failures, from any address', () => {
    const { l } = limiter();
    for (let i = 0; i < 3; i++) assert.equal(fail(l, 'a@x', `10.0.0.${i}`), 0);
    const wait = l.attempt('a@x', '10.0.0.99');
    assert.ok(wait > 0 && wait <= 60, `wait ${wait}`);
    assert.equal(l.attempt('b@x', '10.0.0.99'), 0, 'other accounts are unaffected');
  });

  test('the wait is the seconds until the oldest counted failure leaves the window', () => {
    const { l, advance } = limiter();
    fail(l, 'a@x', 'ip');
    advance(20_000);
    fail(l, 'a@x', 'ip');
    fail(l, 'a@x', 'ip');
    assert.equal(l.attempt('a@x', 'ip'), 40);
    advance(39_000);
    assert.equal(l.attempt('a@x', 'ip'), 1);
  });

  test('failures expire with the window', () => {
    const { l, advance } = limiter();
    for (let i = 0; i < 3; i++) fail(l, 'a@x', 'ip');
    assert.ok(l.attempt('a@x', 'ip') > 0);
    advance(60_001);
    assert.equal(l.attempt('a@x', 'ip'), 0);
  });

  test('the window slides: an old failure drops out while newer ones still count', () => {
    const { l, advance } = limiter();
    fail(l, 'a@x', 'ip');
    advance(30_000);
    fail(l, 'a@x', 'ip');
    fail(l, 'a@x', 'ip');
    advance(30_001); // the first failure is now outside the window
    assert.equal(l.attempt('a@x', 'ip'), 0);
    l.failed('a@x');
    assert.ok(l.attempt('a@x', 'ip') > 0, 'three failures in the window again');
  });

  test('a success clears the account’s failures', () => {
    const { l } = limiter({ perAccount: 3, perAddress: 100, windowMs: 60_000 });
    fail(l, 'a@x', 'ip');
    fail(l, 'a@x', 'ip');
    assert.equal(l.attempt('a@x', 'ip'), 0);
    l.succeeded('a@x');
    fail(l, 'a@x', 'ip');
    fail(l, 'a@x', 'ip');
    assert.equal(l.attempt('a@x', 'ip'), 0, 'only two failures since the success');
  });

  test('blocks an address after perAddress attempts, successful or not, across accounts', () => {
    const { l } = limiter();
    for (let i = 0; i < 5; i++) {
      assert.equal(l.attempt(`user${i}@x`, '192.0.2.1'), 0);
      l.succeeded(`user${i}@x`);
    }
    assert.ok(l.attempt('someone@x', '192.0.2.1') > 0);
    assert.equal(l.attempt('someone@x', '192.0.2.2'), 0, 'other addresses are unaffected');
  });

  test('a refused attempt is not counted against the address', () => {
    const { l, advance } = limiter({ perAccount: 100, perAddress: 2, windowMs: 60_000 });
    l.attempt('a@x', 'ip');
    advance(10_000);
    l.attempt('a@x', 'ip');
    for (let i = 0; i < 10; i++) assert.ok(l.attempt('a@x', 'ip') > 0);
    advance(50_001); // the first attempt leaves the window; refusals did not extend it
    assert.equal(l.attempt('a@x', 'ip'), 0);
  });

  test('a blocked account stays blocked whatever the password: success is not reached', () => {
    const { l } = limiter();
    for (let i = 0; i < 3; i++) fail(l, 'a@x', 'ip');
    for (let i = 0; i < 5; i++) assert.ok(l.attempt('a@x', `addr${i}`) > 0);
  });

  test('pruning old entries (every 1000 checks) keeps counts right', () => {
    const { l, advance } = limiter({ perAccount: 3, perAddress: 10_000, windowMs: 60_000 });
    fail(l, 'old@x', 'ip');
    advance(61_000);
    for (let i = 0; i < 1000; i++) l.attempt(`u${i}@x`, 'ip');
    fail(l, 'kept@x', 'ip');
    fail(l, 'kept@x', 'ip');
    fail(l, 'kept@x', 'ip');
    assert.ok(l.attempt('kept@x', 'ip') > 0);
    assert.equal(l.attempt('old@x', 'ip'), 0);
  });
});
