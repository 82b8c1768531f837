// Login tokens: signature, expiry and the cache of verified tokens.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TOKEN_LIFETIME_SECONDS, TokenSigner } from './tokens.js';

const SECRET = 's'.repeat(40);

describe('TokenSigner', () => {
  test('verifies its own tokens, again from the cache, and refuses tampered or foreign ones', async () => {
    const signer = new TokenSigner(SECRET);
    const token = await signer.sign({ userId: 'u1', epoch: 3 });
    assert.deepEqual(await signer.verify(token), { userId: 'u1', epoch: 3 });
    assert.deepEqual(await signer.verify(token), { userId: 'u1', epoch: 3 });
    const [h, p, s] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ sub: 'admin', ep: 3, exp: 9_999_999_999 })).toString(
      'base64url',
    );
    assert.equal(await signer.verify(`${h}.${forged}.${s}`), undefined);
    assert.equal(await signer.verify(`${h}.${p}.${s!.slice(0, -2)}xx`), undefined);
    const other = await new TokenSigner('o'.repeat(40)).sign({ userId: 'u1', epoch: 3 });
    assert.equal(await signer.verify(other), undefined);
  });

  test('a cached token stops verifying when it expires', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: Date.parse('2026-01-01T00:00:00Z') });
    const signer = new TokenSigner(SECRET);
    const token = await signer.sign({ userId: 'u2', epoch: 0 });
    assert.ok(await signer.verify(token));
    t.mock.timers.tick((TOKEN_LIFETIME_SECONDS - 60) * 1000);
    assert.ok(await signer.verify(token));
    t.mock.timers.tick(120 * 1000);
    assert.equal(await signer.verify(token), undefined);
    assert.equal(await signer.verify(token), undefined);
  });
});
