// The OAuth endpoints' request budget (modules/oauth/budget.ts) through HTTP,
// on a clock the test moves: per address, per app from an address, and
// dynamic registrations per address; over it, 429 JSON with Retry-After and
// the provider never sees the request.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Res, startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let now = Date.UTC(2026, 10, 27, 12, 0, 0);
const MINUTE = 60_000;

before(async () => {
  t = await startTestApp(
    {},
    {
      clock: () => now,
      loginLimits: {
        oauthPerAddress: { capacity: 6, windowMs: 6 * MINUTE },
        oauthPerClient: { capacity: 3, windowMs: 3 * MINUTE },
        oauthRegistrations: { capacity: 2, windowMs: 60 * MINUTE },
      },
    },
  );
});
after(() => t.close());

const form = { 'content-type': 'application/x-www-form-urlencoded' };

/** A token request naming `clientId` (in the body, or by HTTP Basic) from `address`. */
const tokenRequest = (clientId: string, address: string, basic = false) =>
  t.request('POST', '/oauth/token', {
    remoteAddress: address,
    headers: basic
      ? { ...form, authorization: `Basic ${Buffer.from(`${clientId}:secret`).toString('base64')}` }
      : form,
    payload: new URLSearchParams({
      grant_type: 'authorization_code',
      code: 'nope',
      ...(basic ? {} : { client_id: clientId }),
    }).toString(),
  });

function assertLimited(res: Res) {
  assert.equal(res.status, 429, JSON.stringify(res.body));
  assert.equal(res.body.error.code, 'RATE_LIMITED');
  const wait = Number(res.headers['retry-after']);
  assert.ok(Number.isInteger(wait) && wait >= 1, `Retry-After ${res.headers['retry-after']}`);
}

describe('the OAuth request budget', () => {
  test('one app from one address, then the address; other addresses and apps are untouched', async () => {
    const a = '203.0.113.10';
    for (let i = 0; i < 3; i++) assert.notEqual((await tokenRequest('app-one', a)).status, 429);
    // The app's three from this address are spent, whether it names itself in the body or by Basic.
    assertLimited(await tokenRequest('app-one', a));
    assertLimited(await tokenRequest('app-one', a, true));
    // Another app from the same address still has the address's rest (three of six).
    for (let i = 0; i < 3; i++) assert.notEqual((await tokenRequest(`app-${i + 2}`, a)).status, 429);
    // Now the address is spent, on every endpoint, with or without an app.
    assertLimited(await tokenRequest('app-new', a));
    assertLimited(
      await t.request('GET', '/oauth/authorize?client_id=x&response_type=code', { remoteAddress: a }),
    );
    assertLimited(
      await t.request('POST', '/oauth/revoke', { remoteAddress: a, headers: form, payload: 'token=x' }),
    );
    // The same app from elsewhere is not held back by this address.
    assert.notEqual((await tokenRequest('app-one', '203.0.113.11')).status, 429);
    // The buckets drain: a minute frees one request for the app here.
    now += MINUTE;
    assert.notEqual((await tokenRequest('app-one', a)).status, 429);
  });

  test('parallel requests get exactly the budget', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () => tokenRequest('app-par', '203.0.113.20')),
    );
    assert.equal(results.filter((r) => r.status === 429).length, 9);
    for (const r of results.filter((x) => x.status === 429)) assertLimited(r);
  });

  test('dynamic registrations: two an hour from one address', async () => {
    const register = (address: string) =>
      t.request('POST', '/oauth/register', {
        remoteAddress: address,
        body: {
          client_name: 'Budget',
          redirect_uris: ['http://127.0.0.1:9/cb'],
          token_endpoint_auth_method: 'none',
        },
      });
    assert.equal((await register('203.0.113.30')).status, 201);
    assert.equal((await register('203.0.113.30')).status, 201);
    assertLimited(await register('203.0.113.30'));
    assert.equal((await register('203.0.113.31')).status, 201);
  });
});
