// Personal API keys through HTTP: created once, listed without the secret,
// usable wherever a login token is, revocable, private to their owner.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertError, ZERO_UUID } from './support/errors.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

describe('POST /api/api-keys', () => {
  test('returns the key once, with its record; GET lists it without the secret', async () => {
    const { token } = await t.register();
    const res = await t.post('/api/api-keys', { label: '  CI runner  ' }, token);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const { apiKey, key } = res.body;
    assert.match(key, /^tw_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(Object.keys(apiKey).sort(), ['createdAt', 'hint', 'id', 'label', 'lastUsedAt']);
    assert.equal(apiKey.label, 'CI runner');
    assert.equal(apiKey.lastUsedAt, null);
    assert.ok(!Number.isNaN(Date.parse(apiKey.createdAt)));
    assert.ok(apiKey.hint.startsWith(key.slice(0, 7)) && apiKey.hint.endsWith(key.slice(-4)));
    assert.ok(!apiKey.hint.includes(key.slice(7, -4)));

    const list = await t.get('/api/api-keys', token);
    assert.equal(list.status, 200);
    assert.equal(list.body.apiKeys.length, 1);
    assert.deepEqual(list.body.apiKeys[0], apiKey);
    assert.ok(!JSON.stringify(list.body).includes(key), 'the secret is never listed');
  });

  test('only a hash is stored', async () => {
    const { token } = await t.register();
    const { body } = await t.post('/api/api-keys', { label: 'stored' }, token);
    const row = await t.ctx.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', body.apiKey.id)
      .executeTakeFirstOrThrow();
    assert.ok(!JSON.stringify(row).includes(body.key));
    assert.match(row.key_hash, /^[0-9a-f]{64}$/);
  });

  test('each key is different; the list is newest first and per user', async () => {
    const { token } = await t.register();
    const one = await t.post('/api/api-keys', { label: 'one' }, token);
    const two = await t.post('/api/api-keys', { label: 'two' }, token);
    assert.notEqual(one.body.key, two.body.key);
    const list = await t.get('/api/api-keys', token);
    assert.deepEqual(
      list.body.apiKeys.map((k: any) => k.label),
      ['two', 'one'],
    );
    const other = await t.register();
    assert.deepEqual((await t.get('/api/api-keys', other.token)).body.apiKeys, []);
  });

  const bad: [string, unknown][] = [
    ['missing label', {}],
    ['empty label', { label: '' }],
    ['blank label', { label: '   ' }],
    ['numeric label', { label: 42 }],
    ['label over 100 characters', { label: 'x'.repeat(101) }],
    ['unknown field', { label: 'ok', scopes: ['read'] }],
    ['array body', ['ok']],
  ];
  for (const [what, body] of bad) {
    test(`400 VALIDATION_FAILED for ${what}, and no key is created`, async () => {
      const { token } = await t.register();
      const res = await t.post('/api/api-keys', body, token);
      assertError(res, 400, 'VALIDATION_FAILED');
      assert.ok(res.body.error.details.length > 0);
      assert.deepEqual((await t.get('/api/api-keys', token)).body.apiKeys, []);
    });
  }

  test('malformed JSON is 400; 401 without a token', async () => {
    const { token } = await t.register();
    const res = await t.request('POST', '/api/api-keys', {
      token,
      payload: '{label:',
      headers: { 'content-type': 'application/json' },
    });
    assertError(res, 400, 'BAD_REQUEST');
    assertError(await t.post('/api/api-keys', { label: 'x' }), 401, 'UNAUTHENTICATED');
    assertError(await t.get('/api/api-keys'), 401, 'UNAUTHENTICATED');
    assertError(await t.del(`/api/api-keys/${ZERO_UUID}`), 401, 'UNAUTHENTICATED');
  });
});

describe('using a key', () => {
  test('works as a Bearer credential wherever a login token works, as its owner', async () => {
    const { token, user } = await t.register('Key Owner');
    const { body } = await t.post('/api/api-keys', { label: 'script' }, token);
    const me = await t.get('/api/auth/me', body.key);
    assert.equal(me.status, 200);
    assert.equal(me.body.user.id, user.id);
    // A key can manage keys too, like a login token.
    assert.equal((await t.get('/api/api-keys', body.key)).status, 200);
  });

  test('an admin’s key carries admin rights; a member’s does not', async () => {
    const admin = await t.post('/api/api-keys', { label: 'admin script' }, t.adminToken);
    assert.equal((await t.get('/api/admin/flags', admin.body.key)).status, 200);
    const { token } = await t.register();
    const member = await t.post('/api/api-keys', { label: 'member script' }, token);
    assertError(await t.get('/api/admin/flags', member.body.key), 403, 'FORBIDDEN');
  });

  test('lastUsedAt is set after use', async () => {
    const { token } = await t.register();
    const { body } = await t.post('/api/api-keys', { label: 'used' }, token);
    assert.equal((await t.get('/api/auth/me', body.key)).status, 200);
    const [listed] = (await t.get('/api/api-keys', token)).body.apiKeys;
    assert.ok(listed.lastUsedAt, 'lastUsedAt set');
    assert.ok(Date.parse(listed.lastUsedAt) >= Date.parse(listed.createdAt));
  });

  test('a key keeps working after its owner changes password (keys are separate credentials)', async () => {
    const { token, password } = await t.register();
    const { body } = await t.post('/api/api-keys', { label: 'long-lived' }, token);
    const changed = await t.post(
      '/api/auth/change-password',
      { currentPassword: password, newPassword: 'changed-pw' },
      token,
    );
    assert.equal(changed.status, 200);
    assert.equal((await t.get('/api/auth/me', body.key)).status, 200);
  });

  test('a suspended owner’s key is refused, and works again after reactivation', async () => {
    const { token, user } = await t.register();
    const { body } = await t.post('/api/api-keys', { label: 'suspend me' }, token);
    await t.patch(`/api/admin/users/${user.id}`, { status: 'suspended' }, t.adminToken);
    assertError(await t.get('/api/auth/me', body.key), 401, 'UNAUTHENTICATED');
    await t.patch(`/api/admin/users/${user.id}`, { status: 'active' }, t.adminToken);
    assert.equal((await t.get('/api/auth/me', body.key)).status, 200);
  });

  const invalid: [string, string][] = [
    ['an unknown key of the right shape', `tw_${'A'.repeat(43)}`],
    ['a key too short', 'tw_abc'],
    ['a key with a wrong prefix', `xx_${'A'.repeat(43)}`],
    ['a key with bad characters', `tw_${'!'.repeat(43)}`],
  ];
  for (const [what, key] of invalid) {
    test(`401 UNAUTHENTICATED for ${what}`, async () => {
      assertError(await t.get('/api/auth/me', key), 401, 'UNAUTHENTICATED');
    });
  }

  test('401 for a key sent without the Bearer prefix or with another scheme on REST', async () => {
    const { token } = await t.register();
    const { body } = await t.post('/api/api-keys', { label: 'bare' }, token);
    const bare = await t.request('GET', '/api/auth/me', { headers: { authorization: body.key } });
    assertError(bare, 401, 'UNAUTHENTICATED');
    const basic = await t.request('GET', '/api/auth/me', { headers: { authorization: `Basic ${body.key}` } });
    assertError(basic, 401, 'UNAUTHENTICATED');
    const lower = await t.request('GET', '/api/auth/me', {
      headers: { authorization: `bearer ${body.key}` },
    });
    assert.equal(lower.status, 200, 'the scheme name is case-insensitive');
  });
});

describe('DELETE /api/api-keys/:id', () => {
  test('revokes: the key is refused and no longer listed', async () => {
    const { token } = await t.register();
    const keep = await t.post('/api/api-keys', { label: 'keep' }, token);
    const drop = await t.post('/api/api-keys', { label: 'drop' }, token);
    const res = await t.del(`/api/api-keys/${drop.body.apiKey.id}`, token);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { ok: true });
    assertError(await t.get('/api/auth/me', drop.body.key), 401, 'UNAUTHENTICATED');
    assert.equal((await t.get('/api/auth/me', keep.body.key)).status, 200);
    assert.deepEqual(
      (await t.get('/api/api-keys', token)).body.apiKeys.map((k: any) => k.label),
      ['keep'],
    );
    assertError(await t.del(`/api/api-keys/${drop.body.apiKey.id}`, token), 404, 'NOT_FOUND');
  });

  test('another user’s key id is 404 and the key keeps working', async () => {
    const owner = await t.register();
    const { body } = await t.post('/api/api-keys', { label: 'mine' }, owner.token);
    const other = await t.register();
    assertError(await t.del(`/api/api-keys/${body.apiKey.id}`, other.token), 404, 'NOT_FOUND');
    // Not even an admin can revoke someone else's key through this endpoint.
    assertError(await t.del(`/api/api-keys/${body.apiKey.id}`, t.adminToken), 404, 'NOT_FOUND');
    assert.equal((await t.get('/api/auth/me', body.key)).status, 200);
  });

  test('unknown id is 404; malformed id is 400', async () => {
    const { token } = await t.register();
    assertError(await t.del(`/api/api-keys/${ZERO_UUID}`, token), 404, 'NOT_FOUND');
    assertError(await t.del('/api/api-keys/not-a-uuid', token), 400, 'VALIDATION_FAILED');
  });

  test('a key can revoke itself, and is refused afterwards', async () => {
    const { token } = await t.register();
    const { body } = await t.post('/api/api-keys', { label: 'self' }, token);
    assert.equal((await t.del(`/api/api-keys/${body.apiKey.id}`, body.key)).status, 200);
    assertError(await t.get('/api/auth/me', body.key), 401, 'UNAUTHENTICATED');
  });
});
