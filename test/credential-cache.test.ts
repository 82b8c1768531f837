// The credential cache (platform/auth/credential-cache.ts): a token's or API
// key's owner is read once, and every change to their access, by this
// instance, another one or plain SQL, is seen by the next request.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from '../src/app.js';
import { generateApiKey } from '../src/platform/auth/api-key-secrets.js';
import { openDatabase } from '../src/platform/db/database.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

/** The statements a request runs to learn who its credential belongs to (auth/queries.ts, users/queries.ts). */
async function credentialReads(send: () => Promise<unknown>): Promise<number> {
  let reads = 0;
  const off = t.database.onStatement((sql) => {
    if (sql.startsWith('select * from "users" where "deleted_at" is null and "id" = $1')) reads++;
    if (/from "api_keys" inner join "users"/.test(sql)) reads++;
  });
  try {
    await send();
  } finally {
    off();
  }
  return reads;
}

/** Repeats `probe` until it returns true; fails after `ms` (the notification is asynchronous). */
async function eventually(probe: () => Promise<boolean>, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) assert.fail(`not within ${ms} ms: ${what}`);
    await sleep(10);
  }
}

const status = async (token: string) => (await t.get('/api/auth/me', token)).status;

describe('a known credential costs no read', () => {
  test("a token's user is read on its first request only", async () => {
    const { token } = await t.register();
    assert.equal(await credentialReads(() => t.get('/api/auth/me', token)), 1);
    assert.equal(await credentialReads(() => t.get('/api/auth/me', token)), 0);
  });

  test("an API key's owner is read on its first request only", async () => {
    const { token } = await t.register();
    const { body } = await t.post('/api/api-keys', { label: 'cached' }, token);
    assert.equal(await credentialReads(() => t.get('/api/auth/me', body.key)), 1);
    assert.equal(await credentialReads(() => t.get('/api/auth/me', body.key)), 0);
  });

  test('an unknown key is read every time, never remembered', async () => {
    const unknown = generateApiKey().key;
    assert.equal(await credentialReads(() => t.get('/api/auth/me', unknown)), 1);
    assert.equal(await credentialReads(() => t.get('/api/auth/me', unknown)), 1);
  });
});

describe('changes through the API take effect on the next request', () => {
  test('suspension refuses the token and the key at once; reactivation brings back the key', async () => {
    const { token, user } = await t.register();
    const { body } = await t.post('/api/api-keys', { label: 'k' }, token);
    assert.equal(await status(token), 200);
    assert.equal(await status(body.key), 200);
    await t.patch(`/api/admin/users/${user.id}`, { status: 'suspended' }, t.adminToken);
    assert.equal(await status(token), 401);
    assert.equal(await status(body.key), 401);
    await t.patch(`/api/admin/users/${user.id}`, { status: 'active' }, t.adminToken);
    assert.equal(await status(body.key), 200);
    assert.equal(await status(token), 401, 'suspension retired the login token');
  });

  test('a role change applies to the next request', async () => {
    const { token, user } = await t.userWithRole('admin');
    assert.equal((await t.get('/api/admin/users', token)).status, 200);
    await t.patch(`/api/admin/users/${user.id}`, { role: 'member' }, t.adminToken);
    assert.equal((await t.get('/api/admin/users', token)).status, 403);
  });

  test('a revoked key is refused at once', async () => {
    const { token } = await t.register();
    const { body } = await t.post('/api/api-keys', { label: 'k' }, token);
    assert.equal(await status(body.key), 200);
    assert.equal((await t.del(`/api/api-keys/${body.apiKey.id}`, token)).status, 200);
    assert.equal(await status(body.key), 401);
  });

  test('a password change retires the old token at once', async () => {
    const { token, password } = await t.register();
    assert.equal(await status(token), 200);
    const changed = await t.post(
      '/api/auth/change-password',
      { currentPassword: password, newPassword: 'another-password' },
      token,
    );
    assert.equal(changed.status, 200);
    assert.equal(await status(token), 401);
    assert.equal(await status(changed.body.token), 200);
  });
});

describe('changes made elsewhere reach the cache through the database', () => {
  test('a suspension written in SQL refuses a remembered token and key', async () => {
    const { token, user } = await t.register();
    const { body } = await t.post('/api/api-keys', { label: 'k' }, token);
    assert.equal(await status(token), 200);
    assert.equal(await status(body.key), 200);
    await t.ctx.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', user.id).execute();
    await eventually(async () => (await status(token)) === 401, 'the token is refused');
    await eventually(async () => (await status(body.key)) === 401, 'the key is refused');
  });

  test('a key deleted in SQL is refused', async () => {
    const { token } = await t.register();
    const { body } = await t.post('/api/api-keys', { label: 'k' }, token);
    assert.equal(await status(body.key), 200);
    await t.ctx.db.deleteFrom('api_keys').where('id', '=', body.apiKey.id).execute();
    await eventually(async () => (await status(body.key)) === 401, 'the key is refused');
  });

  test('another instance on the same database sees a suspension made here', async () => {
    const database = t.database.url ? await openDatabase({ databaseUrl: t.database.url }) : t.database;
    const second = await buildApp({
      config: t.config,
      database: { ...database, close: async () => undefined },
      logger: false,
    });
    try {
      const { token, user } = await t.register();
      const onSecond = async () =>
        (
          await second.app.inject({
            method: 'GET',
            url: '/api/auth/me',
            headers: { authorization: `Bearer ${token}` },
          })
        ).statusCode;
      await eventually(async () => (await onSecond()) === 200, 'the second instance knows the token');
      assert.equal(await onSecond(), 200);
      await t.patch(`/api/admin/users/${user.id}`, { status: 'suspended' }, t.adminToken);
      await eventually(async () => (await onSecond()) === 401, 'the second instance refuses it');
    } finally {
      await second.app.close();
      if (database !== t.database) await database.close();
    }
  });
});
