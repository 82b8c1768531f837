import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './support/env.js';
import { startTestApp, type TestApp, uniqueEmail } from './support/harness.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

describe('POST /api/auth/register', () => {
  test('creates a member, returns a token and the user without secrets', async () => {
    const email = uniqueEmail();
    const res = await t.post('/api/auth/register', { name: 'Ada Lovelace', email, password: 'secret1' });
    assert.equal(res.status, 201);
    assert.equal(typeof res.body.token, 'string');
    assert.deepEqual(Object.keys(res.body.user).sort(), [
      'avatarUrl',
      'createdAt',
      'displayName',
      'email',
      'id',
      'name',
      'role',
      'status',
      'updatedAt',
    ]);
    assert.equal(res.body.user.role, 'member');
    assert.equal(res.body.user.status, 'active');
    assert.equal(res.body.user.email, email);
    const me = await t.get('/api/auth/me', res.body.token);
    assert.equal(me.status, 200);
    assert.equal(me.body.user.id, res.body.user.id);
  });

  test('ignores a requested role: registration always yields a member', async () => {
    const res = await t.post('/api/auth/register', {
      name: 'Mallory',
      email: uniqueEmail(),
      password: 'secret1',
      role: 'admin',
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.user.role, 'member');
  });

  test('refuses a duplicate email case-insensitively with 409', async () => {
    const email = uniqueEmail();
    assert.equal((await t.post('/api/auth/register', { name: 'A', email, password: 'secret1' })).status, 201);
    const dup = await t.post('/api/auth/register', {
      name: 'B',
      email: email.toUpperCase(),
      password: 'secret1',
    });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.error.code, 'CONFLICT');
  });

  const bad: [string, unknown][] = [
    ['missing name', { email: 'x@example.com', password: 'secret1' }],
    ['missing email', { name: 'X', password: 'secret1' }],
    ['missing password', { name: 'X', email: 'x@example.com' }],
    ['short password', { name: 'X', email: 'x@example.com', password: '12345' }],
    ['malformed email', { name: 'X', email: 'not-an-email', password: 'secret1' }],
    ['number as name', { name: 42, email: 'x@example.com', password: 'secret1' }],
    ['blank name', { name: '   ', email: 'x@example.com', password: 'secret1' }],
    ['array body', [1, 2]],
    ['unknown field', { name: 'X', email: 'x@example.com', password: 'secret1', isAdmin: true }],
  ];
  for (const [what, body] of bad) {
    test(`400 VALIDATION_FAILED for ${what}`, async () => {
      const res = await t.post('/api/auth/register', body);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'VALIDATION_FAILED');
      assert.ok(Array.isArray(res.body.error.details) && res.body.error.details.length > 0);
    });
  }

  test('names every invalid field in details', async () => {
    const res = await t.post('/api/auth/register', { name: 'X', email: 'nope', password: '1' });
    assert.equal(res.status, 400);
    const fields = res.body.error.details.map((d: { field: string }) => d.field).sort();
    assert.deepEqual(fields, ['/email', '/password']);
  });

  test('malformed JSON is a 400 JSON error', async () => {
    const res = await t.request('POST', '/api/auth/register', {
      payload: '{"name": "x",',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'BAD_REQUEST');
  });

  test('a body over 1 MiB is refused with 413', async () => {
    const res = await t.request('POST', '/api/auth/register', {
      payload: JSON.stringify({ name: 'x'.repeat(1_100_000), email: 'a@example.com', password: 'secret1' }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 413);
    assert.equal(res.body.error.code, 'PAYLOAD_TOO_LARGE');
  });

  test('a non-JSON content type is refused with 415', async () => {
    const res = await t.request('POST', '/api/auth/register', {
      payload: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(res.status, 415);
    assert.equal(res.body.error.code, 'UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('POST /api/auth/login', () => {
  test('signs in with the right password, email case-insensitive', async () => {
    const { email, password, user } = await t.register();
    const res = await t.post('/api/auth/login', { email: email.toUpperCase(), password });
    assert.equal(res.status, 200);
    assert.equal(res.body.user.id, user.id);
    assert.equal(res.body.user.password, undefined);
    assert.equal(res.body.user.passwordHash, undefined);
    assert.equal((await t.get('/api/auth/me', res.body.token)).status, 200);
  });

  test('401 for a wrong password and for an unknown email, same message', async () => {
    const { email } = await t.register();
    const wrong = await t.post('/api/auth/login', { email, password: 'wrong-password' });
    const unknown = await t.post('/api/auth/login', { email: uniqueEmail('ghost'), password: 'whatever' });
    assert.equal(wrong.status, 401);
    assert.equal(unknown.status, 401);
    assert.equal(wrong.body.error.code, 'INVALID_CREDENTIALS');
    assert.equal(wrong.body.error.message, unknown.body.error.message);
  });

  test('403 for a suspended account, and login works again after reactivation', async () => {
    const { email, password, user } = await t.register();
    const s = await t.patch(`/api/admin/users/${user.id}`, { status: 'suspended' }, t.adminToken);
    assert.equal(s.status, 200);
    const res = await t.post('/api/auth/login', { email, password });
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'ACCOUNT_SUSPENDED');
    await t.patch(`/api/admin/users/${user.id}`, { status: 'active' }, t.adminToken);
    assert.equal((await t.post('/api/auth/login', { email, password })).status, 200);
  });

  test('bad input is a 400', async () => {
    for (const body of [{}, { email: 'a@example.com' }, { email: 5, password: 'x' }, 'text']) {
      const res = await t.post('/api/auth/login', body);
      assert.equal(res.status, 400, JSON.stringify(body));
    }
  });

  // Rate limits: test/login-limits.test.ts, on a clock the tests move.
});

describe('tokens', () => {
  test('401 without a token, with garbage, and with a forged signature', async () => {
    assert.equal((await t.get('/api/auth/me')).status, 401);
    assert.equal((await t.get('/api/auth/me', 'garbage')).status, 401);
    const { token } = await t.register();
    const [h, p] = token.split('.');
    const forged = `${h}.${p}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
    const res = await t.get('/api/auth/me', forged);
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, 'UNAUTHENTICATED');
  });

  test('a token expires after 7 days', async () => {
    const { token } = await t.register();
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    assert.equal(payload.exp - payload.iat, 7 * 24 * 3600);
  });

  test('a suspended user’s existing token is refused', async () => {
    const { token, user } = await t.register();
    await t.patch(`/api/admin/users/${user.id}`, { status: 'suspended' }, t.adminToken);
    assert.equal((await t.get('/api/auth/me', token)).status, 401);
  });

  test('a deleted user’s token is refused', async () => {
    const { token, user } = await t.register();
    assert.equal((await t.del(`/api/admin/users/${user.id}`, t.adminToken)).status, 200);
    assert.equal((await t.get('/api/auth/me', token)).status, 401);
  });
});

describe('PATCH /api/auth/me', () => {
  test('changes the caller’s own name and nothing else', async () => {
    const { token, user } = await t.register('Old Name');
    const res = await t.patch('/api/auth/me', { name: '  Ada  Lovelace ' }, token);
    assert.equal(res.status, 200);
    assert.equal(res.body.user.name, 'Ada  Lovelace');
    assert.equal(res.body.user.displayName, 'Ada');
    assert.equal(res.body.user.role, user.role);
    assert.equal((await t.get('/api/auth/me', token)).body.user.name, 'Ada  Lovelace');
  });

  test('refuses other fields, a blank name and missing credentials', async () => {
    const { token } = await t.register();
    assert.equal((await t.patch('/api/auth/me', { name: 'X', role: 'admin' }, token)).status, 400);
    assert.equal((await t.patch('/api/auth/me', { email: 'x@example.com' }, token)).status, 400);
    assert.equal((await t.patch('/api/auth/me', { name: '   ' }, token)).status, 400);
    assert.equal((await t.patch('/api/auth/me', { name: 5 }, token)).status, 400);
    assert.equal((await t.patch('/api/auth/me', { name: 'X' })).status, 401);
    assert.equal((await t.get('/api/auth/me', token)).body.user.role, 'member');
  });
});

describe('POST /api/auth/change-password', () => {
  test('changes the password and retires earlier tokens', async () => {
    const { email, password, token } = await t.register();
    const res = await t.post(
      '/api/auth/change-password',
      { currentPassword: password, newPassword: 'brand-new-pw' },
      token,
    );
    assert.equal(res.status, 200);
    assert.equal(res.body.ok, true);
    assert.equal((await t.get('/api/auth/me', token)).status, 401, 'old token refused');
    assert.equal((await t.get('/api/auth/me', res.body.token)).status, 200, 'fresh token works');
    assert.equal((await t.post('/api/auth/login', { email, password })).status, 401);
    assert.equal((await t.post('/api/auth/login', { email, password: 'brand-new-pw' })).status, 200);
  });

  test('401 for a wrong current password, and nothing changes', async () => {
    const { email, password, token } = await t.register();
    const res = await t.post(
      '/api/auth/change-password',
      { currentPassword: 'nope-nope', newPassword: 'another1' },
      token,
    );
    assert.equal(res.status, 401);
    assert.equal((await t.post('/api/auth/login', { email, password })).status, 200);
  });

  test('400 for a short new password or missing fields; 401 without a token', async () => {
    const { password, token } = await t.register();
    const short = await t.post(
      '/api/auth/change-password',
      { currentPassword: password, newPassword: '123' },
      token,
    );
    assert.equal(short.status, 400);
    assert.equal(
      (await t.post('/api/auth/change-password', { currentPassword: password }, token)).status,
      400,
    );
    assert.equal(
      (await t.post('/api/auth/change-password', { currentPassword: 'a', newPassword: 'bbbbbb' })).status,
      401,
    );
  });
});

describe('bad input on the remaining account endpoints', () => {
  test('change-password: wrong types, unknown fields and malformed JSON are 400; nothing changes', async () => {
    const { email, password, token } = await t.register();
    for (const body of [
      { currentPassword: password, newPassword: 123456 },
      { currentPassword: 42, newPassword: 'another-pw' },
      { currentPassword: password, newPassword: 'another-pw', confirm: 'another-pw' },
      { newPassword: 'another-pw' },
      [],
    ]) {
      const res = await t.post('/api/auth/change-password', body, token);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.code, 'VALIDATION_FAILED');
    }
    const malformed = await t.request('POST', '/api/auth/change-password', {
      token,
      payload: '{"currentPassword":',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.error.code, 'BAD_REQUEST');
    assert.equal((await t.post('/api/auth/login', { email, password })).status, 200);
  });

  test('login: a malformed email is just wrong credentials (401), an unknown field 400', async () => {
    const res = await t.post('/api/auth/login', { email: 'not-an-email', password: 'whatever' });
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, 'INVALID_CREDENTIALS');
    const extra = await t.post('/api/auth/login', { email: 'a@example.com', password: 'x', remember: true });
    assert.equal(extra.status, 400);
    assert.equal(extra.body.error.code, 'VALIDATION_FAILED');
  });

  test('register: an email over 320 characters and a password over 1000 are 400', async () => {
    const long = await t.post('/api/auth/register', {
      name: 'X',
      email: `${'a'.repeat(320)}@example.com`,
      password: 'secret1',
    });
    assert.equal(long.status, 400);
    const huge = await t.post('/api/auth/register', {
      name: 'X',
      email: uniqueEmail(),
      password: 'p'.repeat(1001),
    });
    assert.equal(huge.status, 400);
  });

  test('me: ignores a query string and never returns secrets', async () => {
    const { token } = await t.register();
    const res = await t.get('/api/auth/me?x=1', token);
    assert.equal(res.status, 200);
    assert.equal(res.body.user.passwordHash, undefined);
    assert.ok(!JSON.stringify(res.body).includes('argon2'));
  });
});

describe('GET /api/config', () => {
  test('is public and shows workspace and flags without descriptions', async () => {
    const res = await t.get('/api/config');
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body.workspace).sort(), ['accentColor', 'name', 'tagline']);
    assert.match(res.body.workspace.accentColor, /^#[0-9a-f]{6}$/);
    const keys = res.body.flags.map((f: { key: string }) => f.key);
    assert.ok(keys.includes('projects') && keys.includes('cycles'));
    for (const f of res.body.flags) {
      assert.deepEqual(Object.keys(f).sort(), ['enabled', 'key', 'label']);
    }
  });

  test('the seeded admin signs in', async () => {
    assert.equal(
      (await t.post('/api/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).status,
      200,
    );
  });
});
