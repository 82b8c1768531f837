// test-runner: any database
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { seal, unseal } from './sealed.js';

test('a sealed link opens with its key only, and not once altered', () => {
  const key = randomBytes(32);
  const link = 'http://trackway.test/reset-password?token=abc';
  const sealed = seal(key, link);
  assert.ok(!sealed.includes('abc'), 'not readable as stored');
  assert.equal(unseal(key, sealed), link);
  assert.notEqual(seal(key, link), sealed, 'a fresh nonce each time');
  assert.equal(unseal(randomBytes(32), sealed), null);
  const raw = Buffer.from(sealed, 'base64url');
  raw[raw.length - 1]! ^= 1;
  assert.equal(unseal(key, raw.toString('base64url')), null);
  assert.equal(unseal(key, 'short'), null);
});
