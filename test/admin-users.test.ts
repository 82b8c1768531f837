// Accounts through /api/admin/users: list, create, change role and status,
// delete, and the rule that one active admin always remains.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertError, ZERO_UUID } from './support/errors.js';
import { startTestApp, type TestApp, uniqueEmail } from './support/harness.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
  // Accounts of every role for the lists to show.
  await t.userWithRole('member');
  await t.userWithRole('guest', { teams: ['ENG'] });
});
after(() => t.close());

describe('GET /api/admin/users', () => {
  test('lists accounts without secrets, oldest first, with pageInfo', async () => {
    const res = await t.get('/api/admin/users', t.adminToken);
    assert.equal(res.status, 200);
    assert.ok(res.body.users.length >= 3);
    for (const u of res.body.users) {
      assert.equal(u.password, undefined);
      assert.equal(u.passwordHash, undefined);
      assert.ok(['admin', 'member', 'guest'].includes(u.role));
      assert.ok(['active', 'suspended'].includes(u.status));
      for (const k of ['id', 'name', 'email', 'role', 'status']) assert.ok(k in u, k);
    }
    const created = res.body.users.map((u: any) => u.createdAt);
    assert.deepEqual([...created].sort(), created);
    assert.equal(res.body.pageInfo.total, res.body.users.length);
    assert.equal(res.body.pageInfo.limit, 250);
  });

  test('limit and offset page through; bad paging is 400', async () => {
    const all = (await t.get('/api/admin/users', t.adminToken)).body.users;
    const page = await t.get('/api/admin/users?limit=1&offset=1', t.adminToken);
    assert.equal(page.status, 200);
    assert.deepEqual(
      page.body.users.map((u: any) => u.id),
      [all[1].id],
    );
    for (const q of ['limit=0', 'limit=251', 'limit=abc', 'offset=-1', 'sort=name']) {
      assertError(await t.get(`/api/admin/users?${q}`, t.adminToken), 400, 'VALIDATION_FAILED');
    }
  });
});

describe('POST /api/admin/users', () => {
  for (const role of ['admin', 'member', 'guest'] as const) {
    test(`creates a ${role} who can sign in`, async () => {
      const email = uniqueEmail(role);
      const res = await t.post(
        '/api/admin/users',
        { name: `New ${role}`, email, password: 'secret1', role },
        t.adminToken,
      );
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.user.role, role);
      assert.equal(res.body.user.status, 'active');
      assert.equal(res.body.user.email, email);
      assert.equal(res.body.user.name, `New ${role}`);
      assert.equal(res.body.user.password, undefined);
      const login = await t.post('/api/auth/login', { email, password: 'secret1' });
      assert.equal(login.status, 200);
      assert.equal(login.body.user.role, role);
      const listed = await t.get('/api/admin/users', t.adminToken);
      assert.ok(listed.body.users.some((u: any) => u.id === res.body.user.id));
    });
  }

  test('the new admin can administer', async () => {
    const { token } = await t.userWithRole('admin');
    assert.equal((await t.get('/api/admin/flags', token)).status, 200);
  });

  test('stores the email in lower case', async () => {
    const email = uniqueEmail('Mixed').replace('Mixed', 'MiXeD');
    const res = await t.post(
      '/api/admin/users',
      { name: 'Mixed', email, password: 'secret1', role: 'member' },
      t.adminToken,
    );
    assert.equal(res.status, 201);
    assert.equal(res.body.user.email, email.toLowerCase());
  });

  test('409 CONFLICT for an email already used, whatever its case', async () => {
    const { email } = await t.register();
    for (const e of [email, email.toUpperCase()]) {
      const res = await t.post(
        '/api/admin/users',
        { name: 'Dup', email: e, password: 'secret1', role: 'member' },
        t.adminToken,
      );
      assertError(res, 409, 'CONFLICT');
    }
  });

  const valid = { name: 'X', email: 'valid@example.com', password: 'secret1', role: 'member' };
  const bad: [string, unknown, string][] = [
    ['missing name', { ...valid, name: undefined }, '/name'],
    ['missing email', { ...valid, email: undefined }, '/email'],
    ['missing password', { ...valid, password: undefined }, '/password'],
    ['missing role', { ...valid, role: undefined }, '/role'],
    ['a password of 5 characters', { ...valid, password: '12345' }, '/password'],
    ['a malformed email', { ...valid, email: 'not-an-email' }, '/email'],
    ['an email without domain', { ...valid, email: 'someone@' }, '/email'],
    ['an unknown role', { ...valid, role: 'owner' }, '/role'],
    ['a numeric name', { ...valid, name: 7 }, '/name'],
    ['a blank name', { ...valid, name: '   ' }, '/name'],
    ['a boolean password', { ...valid, password: true }, '/password'],
    ['an unknown field', { ...valid, status: 'suspended' }, '/status'],
  ];
  for (const [what, body, field] of bad) {
    test(`400 VALIDATION_FAILED naming ${field} for ${what}`, async () => {
      const before = (await t.get('/api/admin/users', t.adminToken)).body.pageInfo.total;
      const res = await t.post('/api/admin/users', body, t.adminToken);
      assertError(res, 400, 'VALIDATION_FAILED');
      assert.ok(
        res.body.error.details.some((d: any) => d.field === field),
        JSON.stringify(res.body.error.details),
      );
      assert.equal((await t.get('/api/admin/users', t.adminToken)).body.pageInfo.total, before);
    });
  }

  test('malformed JSON is 400 and a non-JSON body 415', async () => {
    const malformed = await t.request('POST', '/api/admin/users', {
      token: t.adminToken,
      payload: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    assertError(malformed, 400, 'BAD_REQUEST');
    const form = await t.request('POST', '/api/admin/users', {
      token: t.adminToken,
      payload: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assertError(form, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('PATCH /api/admin/users/:id', () => {
  test('changes role, status and name', async () => {
    const { user } = await t.register('Rolf Role');
    const guestRes = await t.patch(`/api/admin/users/${user.id}`, { role: 'guest' }, t.adminToken);
    assert.equal(guestRes.status, 200);
    assert.equal(guestRes.body.user.role, 'guest');
    const both = await t.patch(
      `/api/admin/users/${user.id}`,
      { role: 'admin', status: 'suspended' },
      t.adminToken,
    );
    assert.equal(both.status, 200);
    assert.equal(both.body.user.role, 'admin');
    assert.equal(both.body.user.status, 'suspended');
    const renamed = await t.patch(`/api/admin/users/${user.id}`, { name: 'Rolf Renamed' }, t.adminToken);
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.user.name, 'Rolf Renamed');
    assert.equal(renamed.body.user.role, 'admin');
    const listed = (await t.get('/api/admin/users', t.adminToken)).body.users.find(
      (u: any) => u.id === user.id,
    );
    assert.equal(listed.name, 'Rolf Renamed');
    assert.equal(listed.status, 'suspended');
  });

  test('a promoted member gains admin access on the next request; a demoted admin loses it', async () => {
    const { token, user } = await t.register();
    assert.equal((await t.get('/api/admin/flags', token)).status, 403);
    await t.patch(`/api/admin/users/${user.id}`, { role: 'admin' }, t.adminToken);
    assert.equal((await t.get('/api/admin/flags', token)).status, 200);
    await t.patch(`/api/admin/users/${user.id}`, { role: 'member' }, t.adminToken);
    assert.equal((await t.get('/api/admin/flags', token)).status, 403);
  });

  test('404 for an unknown id and for a malformed id', async () => {
    assertError(
      await t.patch(`/api/admin/users/${ZERO_UUID}`, { role: 'member' }, t.adminToken),
      404,
      'NOT_FOUND',
    );
    const malformed = await t.patch('/api/admin/users/not-a-uuid', { role: 'member' }, t.adminToken);
    assert.ok([400, 404].includes(malformed.status), JSON.stringify(malformed.body));
    assert.ok(malformed.body.error.code);
  });

  test('404 for a deleted user', async () => {
    const { user } = await t.register();
    assert.equal((await t.del(`/api/admin/users/${user.id}`, t.adminToken)).status, 200);
    assertError(
      await t.patch(`/api/admin/users/${user.id}`, { name: 'Ghost' }, t.adminToken),
      404,
      'NOT_FOUND',
    );
  });

  const bad: [string, unknown][] = [
    ['an empty body', {}],
    ['an unknown role', { role: 'superuser' }],
    ['an unknown status', { status: 'banned' }],
    ['a numeric role', { role: 1 }],
    ['a blank name', { name: ' ' }],
    ['an email change (not a known field)', { email: 'new@example.com' }],
    ['a password (not a known field)', { password: 'secret12' }],
  ];
  for (const [what, body] of bad) {
    test(`400 VALIDATION_FAILED for ${what}, and nothing changes`, async () => {
      const { user } = await t.register('Still Same');
      const res = await t.patch(`/api/admin/users/${user.id}`, body, t.adminToken);
      assertError(res, 400, 'VALIDATION_FAILED');
      const after = (await t.get('/api/admin/users', t.adminToken)).body.users.find(
        (u: any) => u.id === user.id,
      );
      assert.equal(after.role, 'member');
      assert.equal(after.status, 'active');
      assert.equal(after.name, 'Still Same');
      assert.equal(after.email, user.email);
    });
  }
});

describe('DELETE /api/admin/users/:id', () => {
  test('deletes: the user leaves the lists, cannot sign in, and their token and API keys are refused', async () => {
    const { token, user, email, password } = await t.register('Doomed Dora');
    const key = await t.post('/api/api-keys', { label: 'ci' }, token);
    assert.equal(key.status, 201);
    assert.equal((await t.get('/api/auth/me', key.body.key)).status, 200);

    const res = await t.del(`/api/admin/users/${user.id}`, t.adminToken);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { ok: true });

    const admins = (await t.get('/api/admin/users', t.adminToken)).body.users;
    assert.ok(!admins.some((u: any) => u.id === user.id));
    const members = (await t.get('/api/users', t.adminToken)).body.users;
    assert.ok(!members.some((u: any) => u.id === user.id));
    assertError(await t.post('/api/auth/login', { email, password }), 401, 'INVALID_CREDENTIALS');
    assertError(await t.get('/api/auth/me', token), 401, 'UNAUTHENTICATED');
    assertError(await t.get('/api/auth/me', key.body.key), 401, 'UNAUTHENTICATED');
  });

  test('a second delete is 404; unknown id is 404', async () => {
    const { user } = await t.register();
    assert.equal((await t.del(`/api/admin/users/${user.id}`, t.adminToken)).status, 200);
    assertError(await t.del(`/api/admin/users/${user.id}`, t.adminToken), 404, 'NOT_FOUND');
    assertError(await t.del(`/api/admin/users/${ZERO_UUID}`, t.adminToken), 404, 'NOT_FOUND');
    const malformed = await t.del('/api/admin/users/12345', t.adminToken);
    assert.ok([400, 404].includes(malformed.status), JSON.stringify(malformed.body));
  });

  test('the email of a deleted user can be registered again, as a new account', async () => {
    const { user, email } = await t.register('First Owner');
    await t.del(`/api/admin/users/${user.id}`, t.adminToken);
    const again = await t.post('/api/auth/register', {
      name: 'Second Owner',
      email: email.toUpperCase(),
      password: 'secret1',
    });
    assert.equal(again.status, 201, JSON.stringify(again.body));
    assert.notEqual(again.body.user.id, user.id);
    assert.equal(
      (await t.post('/api/auth/login', { email, password: 'secret1' })).body.user.id,
      again.body.user.id,
    );
  });

  test('what the user wrote stays with their name; they are unassigned and lose memberships', async () => {
    const { user } = await t.register('Writer Wanda');
    const db = t.ctx.db;
    const team = await db.selectFrom('teams').select('id').where('key', '=', 'ENG').executeTakeFirstOrThrow();
    const state = await db
      .selectFrom('workflow_states')
      .select('id')
      .where('team_id', '=', team.id)
      .executeTakeFirstOrThrow();
    const issue = await db
      .insertInto('issues')
      .values({
        team_id: team.id,
        number: 90_001,
        identifier: 'ENG-90001',
        title: 'Written by Wanda',
        state_id: state.id,
        creator_id: user.id,
        assignee_id: user.id,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    assert.ok(
      await db
        .selectFrom('team_memberships')
        .select('user_id')
        .where('user_id', '=', user.id)
        .executeTakeFirst(),
    );

    assert.equal((await t.del(`/api/admin/users/${user.id}`, t.adminToken)).status, 200);

    const row = await db
      .selectFrom('issues')
      .innerJoin('users', 'users.id', 'issues.creator_id')
      .select(['issues.assignee_id', 'users.name', 'users.deleted_at'])
      .where('issues.id', '=', issue.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.assignee_id, null);
    assert.equal(row.name, 'Writer Wanda');
    assert.ok(row.deleted_at);
    assert.equal(
      await db
        .selectFrom('team_memberships')
        .select('user_id')
        .where('user_id', '=', user.id)
        .executeTakeFirst(),
      undefined,
    );
  });
});

describe('the last active admin', () => {
  // This file's seeded admin is the only admin unless a test adds one; each
  // test here starts from a state with exactly one active admin.
  const activeAdmins = async () =>
    (await t.get('/api/admin/users', t.adminToken)).body.users.filter(
      (u: any) => u.role === 'admin' && u.status === 'active',
    );
  const me = async () => (await t.get('/api/auth/me', t.adminToken)).body.user;

  before(async () => {
    // Demote every other admin the earlier tests created.
    const self = await me();
    for (const a of await activeAdmins()) {
      if (a.id !== self.id) await t.patch(`/api/admin/users/${a.id}`, { role: 'member' }, t.adminToken);
    }
    assert.equal((await activeAdmins()).length, 1);
  });

  for (const [what, body] of [
    ['demoted to member', { role: 'member' }],
    ['demoted to guest', { role: 'guest' }],
    ['suspended', { status: 'suspended' }],
  ] as const) {
    test(`cannot be ${what}: 400 LAST_ADMIN and nothing changes`, async () => {
      const self = await me();
      const res = await t.patch(`/api/admin/users/${self.id}`, body, t.adminToken);
      assertError(res, 400, 'LAST_ADMIN');
      const after = await me();
      assert.equal(after.role, 'admin');
      assert.equal(after.status, 'active');
    });
  }

  test('cannot be deleted: 400 LAST_ADMIN', async () => {
    const self = await me();
    assertError(await t.del(`/api/admin/users/${self.id}`, t.adminToken), 400, 'LAST_ADMIN');
    assert.equal((await t.get('/api/auth/me', t.adminToken)).status, 200);
  });

  test('a suspended admin does not count: the active one is still the last', async () => {
    const other = await t.userWithRole('admin');
    assert.equal(
      (await t.patch(`/api/admin/users/${other.user.id}`, { status: 'suspended' }, t.adminToken)).status,
      200,
    );
    const self = await me();
    assertError(
      await t.patch(`/api/admin/users/${self.id}`, { role: 'member' }, t.adminToken),
      400,
      'LAST_ADMIN',
    );
    await t.patch(`/api/admin/users/${other.user.id}`, { role: 'member', status: 'active' }, t.adminToken);
  });

  test('renaming the last admin, or setting role admin again, is allowed', async () => {
    const self = await me();
    const res = await t.patch(`/api/admin/users/${self.id}`, { name: 'Chief', role: 'admin' }, t.adminToken);
    assert.equal(res.status, 200);
    assert.equal(res.body.user.name, 'Chief');
  });

  test('with two admins, one can demote the other, and then is the last', async () => {
    const other = await t.userWithRole('admin');
    const res = await t.patch(`/api/admin/users/${other.user.id}`, { role: 'member' }, t.adminToken);
    assert.equal(res.status, 200);
    assert.equal(res.body.user.role, 'member');
    assert.equal((await activeAdmins()).length, 1);

    const again = await t.userWithRole('admin');
    // The second admin demotes the first (the seeded one), then cannot demote itself.
    const self = await me();
    assert.equal((await t.patch(`/api/admin/users/${self.id}`, { role: 'member' }, again.token)).status, 200);
    assertError(
      await t.patch(`/api/admin/users/${again.user.id}`, { role: 'member' }, again.token),
      400,
      'LAST_ADMIN',
    );
    // Restore the seeded admin for the remaining tests.
    assert.equal((await t.patch(`/api/admin/users/${self.id}`, { role: 'admin' }, again.token)).status, 200);
    assert.equal(
      (await t.patch(`/api/admin/users/${again.user.id}`, { role: 'member' }, t.adminToken)).status,
      200,
    );
    assert.equal((await activeAdmins()).length, 1);
  });

  test('with two admins, one can delete the other', async () => {
    const other = await t.userWithRole('admin');
    assert.equal((await t.del(`/api/admin/users/${other.user.id}`, t.adminToken)).status, 200);
    assert.equal((await activeAdmins()).length, 1);
  });
});
