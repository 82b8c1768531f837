// test-runner: any database
// Login tokens: signature, expiry and the cache of verified tokens.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SignJWT } from 'jose';
import { TOKEN_LIFETIME_SECONDS, TokenSigner } from './tokens.js';

const SECRET = 's'.repeat(40);
const U1 = '11111111-1111-4111-8111-111111111111';
const U2 = '22222222-2222-4222-8222-222222222222';

describe('TokenSigner', () => {
  test('verifies its own tokens, again from the cache, and refuses tampered or foreign ones', async () => {
    const signer = new TokenSigner(SECRET);
    const token = await signer.sign({ userId: U1, epoch: 3 });
    assert.deepEqual(await signer.verify(token), { userId: U1, epoch: 3 });
    assert.deepEqual(await signer.verify(token), { userId: U1, epoch: 3 });
    const [h, p, s] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ sub: 'admin', ep: 3, exp: 9_999_999_999 })).toString(
      'base64url',
    );
    assert.equal(await signer.verify(`${h}.${forged}.${s}`), undefined);
    assert.equal(await signer.verify(`${h}.${p}.${s!.slice(0, -2)}xx`), undefined);
    const other = await new TokenSigner('o'.repeat(40)).sign({ userId: U1, epoch: 3 });
    assert.equal(await signer.verify(other), undefined);
  });

  test('a cached token stops verifying when it expires', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: Date.parse('2026-01-01T00:00:00Z') });
    const signer = new TokenSigner(SECRET);
    const token = await signer.sign({ userId: U2, epoch: 0 });
    assert.ok(await signer.verify(token));
    t.mock.timers.tick((TOKEN_LIFETIME_SECONDS - 60) * 1000);
    assert.ok(await signer.verify(token));
    t.mock.timers.tick(120 * 1000);
    assert.equal(await signer.verify(token), undefined);
    assert.equal(await signer.verify(token), undefined);
  });

  test('refuses correctly signed tokens that lack exp or iat, or carry a bad sub or epoch, every time', async () => {
    const signer = new TokenSigner(SECRET);
    const key = new TextEncoder().encode(SECRET);
    const now = Math.floor(Date.now() / 1000);
    const make = (claims: Record<string, unknown>, alg = 'HS256') =>
      new SignJWT(claims).setProtectedHeader({ alg }).sign(key);
    const good = { sub: U1, ep: 0, iat: now, exp: now + 60 };
    assert.deepEqual(await signer.verify(await make(good)), { userId: U1, epoch: 0 });
    const refused: [string, Record<string, unknown>, string?][] = [
      ['no exp', { sub: U1, ep: 0, iat: now }],
      ['no iat', { sub: U1, ep: 0, exp: now + 60 }],
      ['expired', { ...good, iat: now - 120, exp: now - 60 }],
      ['issued in the future', { ...good, iat: now + 3600, exp: now + 7200 }],
      ['older than a token lives', { ...good, iat: now - TOKEN_LIFETIME_SECONDS - 60, exp: now + 60 }],
      ['sub not a uuid', { ...good, sub: 'admin' }],
      ['sub a number', { ...good, sub: 42 }],
      ['no sub', { ep: 0, iat: now, exp: now + 60 }],
      ['epoch a string', { ...good, ep: '0' }],
      ['epoch negative', { ...good, ep: -1 }],
      ['HS512', good, 'HS512'],
    ];
    for (const [what, claims, alg] of refused) {
      const token = await make(claims, alg);
      for (let i = 0; i < 3; i++) assert.equal(await signer.verify(token), undefined, `${what}, try ${i}`);
    }
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(good)).toString('base64url')}.`;
    assert.equal(await signer.verify(none), undefined);
  });
});
