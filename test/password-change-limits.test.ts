// Issue 24, finding 9: a stolen login token or API key must not give unlimited
// guesses at the current password. The current password of a password change
// is counted on the sign-in limits before it is checked (one budget for both
// doors), an API key cannot change its owner's password at all, and a change
// may also end every API key. On a clock the test moves (no waiting).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hashSlots } from '../src/platform/auth/hash-slots.js';
import { type Res, startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let now = Date.now();

before(async () => {
  t = await startTestApp({}, { clock: () => now });
});
after(() => t.close());

const change = (token: string, body: unknown, remoteAddress = '203.0.113.90') =>
  t.request('POST', '/api/auth/change-password', { body, token, remoteAddress });

const statuses = (responses: Res[]) => responses.map((r) => r.status);

describe('change-password: current-password guesses are limited like sign-in', () => {
  test('30 wrong guesses then the right one: 5 answered 401, the rest 429 with Retry-After, nothing changed', async () => {
    const { token, password, email } = await t.register();
    const guesses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        change(token, { currentPassword: `guess-${i}`, newPassword: 'taken-over' }),
      ),
    );
    assert.equal(statuses(guesses).filter((s) => s === 401).length, 5);
    assert.equal(statuses(guesses).filter((s) => s === 429).length, 25);
    const right = await change(token, { currentPassword: password, newPassword: 'taken-over' });
    assert.equal(right.status, 429, JSON.stringify(right.body));
    assert.equal(right.body.error.code, 'RATE_LIMITED');
    assert.ok(Number(right.headers['retry-after']) >= 1);
    // Nothing changed: the old password signs in (from the owner's own address), the token still works.
    const signIn = await t.request('POST', '/api/auth/login', {
      body: { email, password },
      remoteAddress: '203.0.113.91',
    });
    assert.equal(signIn.status, 200);
    assert.equal((await t.get('/api/auth/me', token)).status, 200);
  });

  test('a refused guess checks no password; after the pause the right one goes through and clears the count', async () => {
    const { token, password } = await t.register();
    for (let i = 0; i < 5; i++)
      assert.equal((await change(token, { currentPassword: 'wrong', newPassword: 'next-pw-1' })).status, 401);
    const checked = hashSlots.started.check;
    assert.equal((await change(token, { currentPassword: password, newPassword: 'next-pw-1' })).status, 429);
    assert.equal(hashSlots.started.check, checked, 'a refused attempt checked the password');
    now += 1000;
    const ok = await change(token, { currentPassword: password, newPassword: 'next-pw-1' });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const wrongAgain = await change(ok.body.token, { currentPassword: 'wrong', newPassword: 'next-pw-2' });
    assert.equal(wrongAgain.status, 401, 'the success cleared the failures');
  });

  test('one budget with the sign-in form: guesses through change-password slow sign-in guesses from that address', async () => {
    const { token, email } = await t.register();
    const address = '203.0.113.92';
    for (let i = 0; i < 5; i++)
      assert.equal(
        (await change(token, { currentPassword: 'wrong', newPassword: 'next-pw-1' }, address)).status,
        401,
      );
    const login = await t.request('POST', '/api/auth/login', {
      body: { email, password: 'wrong-again' },
      remoteAddress: address,
    });
    assert.equal(login.status, 429);
  });
});

describe('change-password through an API key', () => {
  test('403 FORBIDDEN before the body is read, whatever the body; nothing changes', async () => {
    const { token, password, email } = await t.register();
    const { key } = (await t.post('/api/api-keys', { label: 'stolen' }, token)).body;
    for (const body of [
      { currentPassword: password, newPassword: 'taken-over' },
      { currentPassword: 'wrong', newPassword: 'taken-over' },
      { nonsense: true },
    ]) {
      const res = await change(key, body);
      assert.equal(res.status, 403, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'FORBIDDEN');
    }
    const signIn = await t.request('POST', '/api/auth/login', {
      body: { email, password },
      remoteAddress: '203.0.113.93',
    });
    assert.equal(signIn.status, 200);
    assert.equal((await t.get('/api/auth/me', key)).status, 200);
  });
});

describe('change-password and API keys', () => {
  test('keys survive a change by default; revokeApiKeys: true ends every one of them', async () => {
    const { token, password } = await t.register();
    const keys = await Promise.all(
      ['one', 'two'].map(
        async (label) => (await t.post('/api/api-keys', { label }, token)).body.key as string,
      ),
    );
    const kept = await change(token, { currentPassword: password, newPassword: 'second-pw' }, '203.0.113.94');
    assert.equal(kept.status, 200);
    assert.equal(kept.body.revokedApiKeys, 0);
    for (const key of keys) assert.equal((await t.get('/api/auth/me', key)).status, 200);
    const ended = await change(
      kept.body.token,
      { currentPassword: 'second-pw', newPassword: 'third-pw', revokeApiKeys: true },
      '203.0.113.94',
    );
    assert.equal(ended.status, 200);
    assert.equal(ended.body.revokedApiKeys, 2);
    for (const key of keys) assert.equal((await t.get('/api/auth/me', key)).status, 401);
    assert.equal((await t.get('/api/auth/me', kept.body.token)).status, 401, 'other sessions end too');
    assert.equal((await t.get('/api/auth/me', ended.body.token)).status, 200);
  });
});
