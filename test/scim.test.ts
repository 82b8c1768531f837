// SCIM 2.0 provisioning through real HTTP requests, replaying the request
// sequences Microsoft Entra ID ("Tutorial: develop a sample SCIM endpoint",
// "Known issues and resolutions with SCIM 2.0 compliance") and Okta ("SCIM 2.0
// protocol reference") document: users found by filter, created, patched,
// deactivated, replaced and deleted; groups as teams with members added and
// removed. Runs on PGlite and PostgreSQL alike.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { startTestApp, type TestApp, uniqueEmail } from './support/harness.js';
import { openSse, type SseClient } from './support/sse.js';

let t: TestApp;
let base: string;
let scim: string;
const open: SseClient[] = [];

const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';

const call = (method: string, url: string, body?: unknown, token = scim) =>
  t.request(method, `/scim/v2${url}`, {
    token,
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    headers: body !== undefined ? { 'content-type': 'application/scim+json' } : {},
  });

function assertScimError(
  res: { status: number; body: any; headers: any },
  status: number,
  scimType?: string,
) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.match(String(res.headers['content-type']), /application\/scim\+json/);
  assert.deepEqual(res.body.schemas, [ERROR_SCHEMA]);
  assert.equal(res.body.status, String(status));
  assert.equal(typeof res.body.detail, 'string');
  if (scimType) assert.equal(res.body.scimType, scimType);
}

const newToken = async (label = 'Entra ID') => {
  const res = await t.post('/api/admin/scim-tokens', { label }, t.adminToken);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as { scimToken: { id: string; label: string }; token: string };
};

/** Entra ID's user creation body (its docs' "Create User" request). */
const entraUser = (email: string, externalId: string) => ({
  schemas: [USER, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
  externalId,
  userName: email,
  active: true,
  emails: [{ primary: true, type: 'work', value: email }],
  meta: { resourceType: 'User' },
  name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
  roles: [],
});

const userCount = async () =>
  Number(
    (
      await t.ctx.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const auditTypes = async () =>
  await t.ctx.db
    .selectFrom('audit_entries')
    .select(['type', 'actor_kind', 'actor_label'])
    .orderBy('created_at')
    .execute();

before(async () => {
  t = await startTestApp({ streamHeartbeatMs: 150 });
  base = await t.listen();
  scim = (await newToken()).token;
});
after(async () => {
  for (const c of open) c.close();
  await t.close();
});

describe('SCIM tokens', () => {
  test('created once, listed without the secret, only a hash stored; revoked tokens are refused at once', async () => {
    const { scimToken, token } = await newToken('Okta');
    assert.match(token, /^scim_[A-Za-z0-9_-]{43}$/);
    const list = await t.get('/api/admin/scim-tokens', t.adminToken);
    assert.equal(list.status, 200);
    assert.ok(list.body.scimTokens.some((x: any) => x.id === scimToken.id && x.revokedAt === null));
    assert.ok(!JSON.stringify(list.body).includes(token));
    const row = await t.ctx.db
      .selectFrom('scim_tokens')
      .selectAll()
      .where('id', '=', scimToken.id)
      .executeTakeFirstOrThrow();
    assert.ok(!JSON.stringify(row).includes(token));

    assert.equal((await call('GET', '/Users', undefined, token)).status, 200);
    const used = await t.ctx.db
      .selectFrom('scim_tokens')
      .select('last_used_at')
      .where('id', '=', scimToken.id)
      .executeTakeFirstOrThrow();
    assert.ok(used.last_used_at);
    assert.equal((await t.del(`/api/admin/scim-tokens/${scimToken.id}`, t.adminToken)).status, 200);
    assertScimError(await call('GET', '/Users', undefined, token), 401);
    assert.equal((await t.del(`/api/admin/scim-tokens/${scimToken.id}`, t.adminToken)).status, 404);
    const audit = await auditTypes();
    assert.ok(audit.some((a) => a.type === 'scim.tokenCreated'));
    assert.ok(audit.some((a) => a.type === 'scim.tokenRevoked'));
  });

  test('members and guests cannot manage tokens, before their body is read', async () => {
    const { scimToken } = await newToken('kept');
    for (const role of ['member', 'guest'] as const) {
      const u = await t.userWithRole(role);
      assert.equal((await t.post('/api/admin/scim-tokens', { label: 'x' }, u.token)).status, 403);
      assert.equal((await t.post('/api/admin/scim-tokens', 'not json at all', u.token)).status, 403);
      assert.equal((await t.get('/api/admin/scim-tokens', u.token)).status, 403);
      assert.equal((await t.del(`/api/admin/scim-tokens/${scimToken.id}`, u.token)).status, 403);
    }
    const still = await t.ctx.db
      .selectFrom('scim_tokens')
      .select('revoked_at')
      .where('id', '=', scimToken.id)
      .executeTakeFirstOrThrow();
    assert.equal(still.revoked_at, null);
  });

  test('a SCIM token is no user: it reaches nothing outside /scim/v2, and a login token nothing inside', async () => {
    for (const path of ['/api/auth/me', '/api/teams', '/api/admin/users', '/api/admin/scim-tokens']) {
      assert.equal((await t.get(path, scim)).status, 401, path);
    }
    assertScimError(await call('GET', '/Users', undefined, t.adminToken), 401);
    assertScimError(await call('GET', '/Users', undefined, ''), 401);
  });
});

describe('discovery', () => {
  test('ServiceProviderConfig, ResourceTypes and Schemas', async () => {
    const spc = await call('GET', '/ServiceProviderConfig');
    assert.equal(spc.status, 200);
    assert.match(String(spc.headers['content-type']), /application\/scim\+json/);
    assert.equal(spc.body.patch.supported, true);
    assert.equal(spc.body.filter.supported, true);
    const types = await call('GET', '/ResourceTypes');
    assert.deepEqual(
      types.body.Resources.map((r: any) => r.endpoint),
      ['/Users', '/Groups'],
    );
    const schemas = await call('GET', '/Schemas');
    assert.deepEqual(
      schemas.body.Resources.map((r: any) => r.id),
      [USER, GROUP],
    );
  });
});

describe('Users: the Entra ID sequence', () => {
  test('find by filter, create, find again, patch name and email, deactivate with "False", reactivate, delete', async () => {
    const email = uniqueEmail('entra');
    const externalId = `ext-${Date.now()}`;
    const none = await call('GET', `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}`);
    assert.equal(none.status, 200);
    assert.equal(none.body.totalResults, 0);
    assert.deepEqual(none.body.Resources, []);

    const created = await call('POST', '/Users', entraUser(email, externalId));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id;
    assert.equal(created.body.userName, email);
    assert.equal(created.body.externalId, externalId);
    assert.equal(created.body.displayName, 'givenName familyName');
    assert.equal(created.body.active, true);

    // Entra ID checks the same user again with a different case and by externalId.
    const byName = await call(
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${email.toUpperCase()}"`)}`,
    );
    assert.equal(byName.body.totalResults, 1);
    assert.equal(byName.body.Resources[0].id, id);
    const byExt = await call('GET', `/Users?filter=${encodeURIComponent(`externalId eq "${externalId}"`)}`);
    assert.equal(byExt.body.Resources[0].id, id);
    const byEmail = await call('GET', `/Users?filter=${encodeURIComponent(`emails.value eq "${email}"`)}`);
    assert.equal(byEmail.body.Resources[0].id, id);

    // A second create of the same userName: 409 uniqueness.
    assertScimError(await call('POST', '/Users', entraUser(email, 'other')), 409, 'uniqueness');

    const patched = await call('PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'ignored@example.com' },
      ],
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.displayName, 'givenName updatedFamilyName');
    assert.equal(patched.body.userName, email, 'userName is the email; emails mirror it');

    // Path-less replace with an object value (Entra ID).
    const pathless = await call('PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', value: { displayName: 'Ada Lovelace', externalId: `${externalId}-2` } }],
    });
    assert.equal(pathless.status, 200, JSON.stringify(pathless.body));
    assert.equal(pathless.body.displayName, 'Ada Lovelace');
    assert.equal(pathless.body.externalId, `${externalId}-2`);

    // Deactivation with "False" as a string, as Entra ID sends it.
    const off = await call('PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    assert.equal(off.body.active, false);
    const row = await t.ctx.db
      .selectFrom('users')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.equal(row.status, 'suspended');

    const on = await call('PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'active', value: true }],
    });
    assert.equal(on.body.active, true);

    assert.equal((await call('DELETE', `/Users/${id}`)).status, 204);
    assertScimError(await call('GET', `/Users/${id}`), 404);
    const gone = await t.ctx.db
      .selectFrom('users')
      .select('deleted_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.ok(gone.deleted_at);

    const audit = (await auditTypes()).filter((a) => a.type.startsWith('scim.user'));
    for (const type of ['scim.userCreated', 'scim.userUpdated', 'scim.userDeactivated', 'scim.userDeleted']) {
      assert.ok(
        audit.some((a) => a.type === type && a.actor_kind === 'scim' && a.actor_label === 'Entra ID'),
        type,
      );
    }
  });

  test('deactivation ends a live session and an open change stream at once', async () => {
    const email = uniqueEmail('live');
    const created = await call('POST', '/Users', entraUser(email, `live-${Date.now()}`));
    const id = created.body.id;
    // The provisioned account signs in with a password an admin resets (here: set directly).
    const admin = await t.patch(`/api/admin/users/${id}`, { role: 'member' }, t.adminToken);
    assert.equal(admin.status, 200, JSON.stringify(admin.body));
    const { hashPassword } = await import('../src/platform/auth/passwords.js');
    await t.ctx.db
      .updateTable('users')
      .set({ password_hash: await hashPassword('password-123') })
      .where('id', '=', id)
      .execute();
    const login = await t.post('/api/auth/login', { email, password: 'password-123' });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    const token = login.body.token;
    const stream = await openSse(base, '/api/stream', { authorization: `Bearer ${token}` });
    open.push(stream);
    await stream.next((e) => e.event === 'ready');

    const off = await call('PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    assert.equal(off.status, 200);
    assert.equal((await t.get('/api/auth/me', token)).status, 401);
    // No other change happens: the suspension alone ends the stream.
    await stream.next((e) => e.event === 'unauthorized', 1000);
    await stream.ended;
  });
});

describe('Users: the Okta sequence', () => {
  test('create, replace the whole user with PUT (rename, deactivate), list with paging', async () => {
    const email = uniqueEmail('okta');
    const created = await call('POST', '/Users', {
      schemas: [USER],
      userName: email,
      name: { givenName: 'John', familyName: 'Doe' },
      emails: [{ primary: true, value: email, type: 'work' }],
      displayName: 'John Doe',
      locale: 'en-US',
      externalId: `00u${Date.now()}`,
      groups: [],
      password: 'ignored-1',
      active: true,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id;
    const put = await call('PUT', `/Users/${id}`, {
      schemas: [USER],
      id,
      userName: email,
      name: { givenName: 'Jane', familyName: 'Doe' },
      emails: [{ primary: true, value: email, type: 'work' }],
      active: false,
      groups: [],
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal(put.body.displayName, 'Jane Doe');
    assert.equal(put.body.active, false);
    assert.equal(put.body.externalId, undefined, 'PUT replaces: an omitted externalId is cleared');

    const page = await call('GET', '/Users?startIndex=1&count=2');
    assert.equal(page.status, 200);
    assert.equal(page.body.Resources.length, 2);
    assert.equal(page.body.startIndex, 1);
    assert.ok(page.body.totalResults >= 3);
    const second = await call('GET', '/Users?startIndex=2&count=1');
    assert.equal(second.body.Resources[0].id, page.body.Resources[1].id);
    assert.equal((await call('GET', '/Users?count=0')).body.Resources.length, 0);
  });
});

describe('Groups are teams', () => {
  test('Entra ID: create, add members, remove one by value filter, rename, delete (archive)', async () => {
    const a = (await call('POST', '/Users', entraUser(uniqueEmail('ga'), `ga-${Date.now()}`))).body.id;
    const b = (await call('POST', '/Users', entraUser(uniqueEmail('gb'), `gb-${Date.now()}`))).body.id;
    const none = await call(
      'GET',
      `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "Design Ops"')}`,
    );
    assert.equal(none.body.totalResults, 0);
    const created = await call('POST', '/Groups', {
      schemas: [GROUP],
      externalId: `grp-${Date.now()}`,
      displayName: 'Design Ops',
      members: [],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id;
    const team = await t.ctx.db
      .selectFrom('teams')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.equal(team.key, 'DES');
    assert.equal(team.private, true);

    const add = await call('PATCH', `/Groups/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Add', path: 'members', value: [{ value: a }, { value: b }] }],
    });
    assert.equal(add.status, 204, JSON.stringify(add.body));
    let got = await call('GET', `/Groups/${id}`);
    assert.deepEqual(got.body.members.map((m: any) => m.value).sort(), [a, b].sort());

    const remove = await call('PATCH', `/Groups/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Remove', path: `members[value eq "${a}"]` }],
    });
    assert.equal(remove.status, 204, JSON.stringify(remove.body));
    got = await call('GET', `/Groups/${id}`);
    assert.deepEqual(
      got.body.members.map((m: any) => m.value),
      [b],
    );

    const rename = await call('PATCH', `/Groups/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'displayName', value: 'Design Operations' }],
    });
    assert.equal(rename.status, 204);
    const found = await call(
      'GET',
      `/Groups?filter=${encodeURIComponent('displayName eq "Design Operations"')}`,
    );
    assert.equal(found.body.Resources[0].id, id);

    // A second group of the same name gets the next free key.
    const twin = await call('POST', '/Groups', { schemas: [GROUP], displayName: 'Design Ops' });
    const twinTeam = await t.ctx.db
      .selectFrom('teams')
      .select('key')
      .where('id', '=', twin.body.id)
      .executeTakeFirstOrThrow();
    assert.equal(twinTeam.key, 'DES2');

    // Okta replaces members with PUT.
    const put = await call('PUT', `/Groups/${id}`, {
      schemas: [GROUP],
      displayName: 'Design Operations',
      members: [{ value: a }],
    });
    assert.equal(put.status, 200);
    assert.deepEqual(
      put.body.members.map((m: any) => m.value),
      [a],
    );

    assertScimError(
      await call('PATCH', `/Groups/${id}`, {
        schemas: [PATCH_OP],
        Operations: [
          { op: 'add', path: 'members', value: [{ value: '00000000-0000-4000-8000-000000000000' }] },
        ],
      }),
      400,
      'invalidValue',
    );

    assert.equal((await call('DELETE', `/Groups/${id}`)).status, 204);
    assertScimError(await call('GET', `/Groups/${id}`), 404);
    const archived = await t.ctx.db
      .selectFrom('teams')
      .select('archived_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.ok(archived.archived_at);
    const audit = (await auditTypes()).map((x) => x.type);
    for (const type of ['scim.groupCreated', 'scim.groupUpdated', 'scim.groupDeleted'])
      assert.ok(audit.includes(type), type);
  });
});

describe('errors are SCIM errors, and change nothing', () => {
  test('bad JSON, unknown route, unknown filter attribute, unsupported operator, body too large, missing user', async () => {
    const bad = await t.request('POST', '/scim/v2/Users', {
      token: scim,
      payload: '{"userName":',
      headers: { 'content-type': 'application/scim+json' },
    });
    assertScimError(bad, 400, 'invalidSyntax');
    assertScimError(await call('GET', '/Nope'), 404);
    assertScimError(
      await call('GET', `/Users?filter=${encodeURIComponent('title eq "x"')}`),
      400,
      'invalidFilter',
    );
    assertScimError(
      await call('GET', `/Users?filter=${encodeURIComponent('userName co "x"')}`),
      400,
      'invalidFilter',
    );
    assertScimError(
      await call('GET', `/Users?filter=${encodeURIComponent('userName eq')}`),
      400,
      'invalidFilter',
    );
    assertScimError(await call('GET', '/Users/not-a-uuid'), 404);
    const huge = await t.request('POST', '/scim/v2/Users', {
      token: scim,
      payload: JSON.stringify({ userName: 'x@example.com', displayName: 'x'.repeat(2_000_000) }),
      headers: { 'content-type': 'application/scim+json' },
    });
    assertScimError(huge, 413);
    assertScimError(await call('POST', '/Users', { userName: 'not-an-email' }), 400, 'invalidValue');
    assertScimError(
      await call('PATCH', '/Users/00000000-0000-4000-8000-000000000000', {
        schemas: [PATCH_OP],
        Operations: [],
      }),
      404,
    );
  });
});

describe('fast-check: SCIM bodies and filters never answer 5xx; a 4xx changes nothing', () => {
  const json = fc.jsonValue({ maxDepth: 3 });
  const userish = fc.record(
    {
      userName: fc.oneof(fc.emailAddress(), fc.string(), json),
      displayName: fc.oneof(fc.string(), json),
      active: fc.oneof(fc.boolean(), fc.constantFrom('True', 'False', 'yes'), json),
      externalId: fc.oneof(fc.string(), json),
      name: fc.oneof(fc.record({ givenName: fc.string(), familyName: fc.string() }), json),
    },
    { requiredKeys: [] },
  );

  test('POST /Users', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(userish, json), async (body) => {
        const before = await userCount();
        const res = await call('POST', '/Users', body);
        assert.ok(res.status < 500, `${res.status} ${JSON.stringify(res.body)}`);
        if (res.status >= 400) {
          assert.deepEqual(res.body.schemas, [ERROR_SCHEMA]);
          assert.equal(await userCount(), before);
        }
      }),
      { numRuns: 40 },
    );
  });

  test('PATCH /Users/:id', async () => {
    const id = (await call('POST', '/Users', entraUser(uniqueEmail('fuzz'), `fz-${Date.now()}`))).body.id;
    const op = fc.record(
      {
        op: fc.oneof(fc.constantFrom('add', 'Replace', 'remove', 'move'), json),
        path: fc.oneof(
          fc.constantFrom('active', 'name.familyName', 'emails[type eq "work"].value', 'members', 'x[', ''),
          json,
        ),
        value: json,
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 4 }), async (ops) => {
        const before = await t.ctx.db
          .selectFrom('users')
          .selectAll()
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        const res = await call('PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: ops });
        assert.ok(res.status < 500, `${res.status} ${JSON.stringify(res.body)}`);
        if (res.status >= 400) {
          const after = await t.ctx.db
            .selectFrom('users')
            .selectAll()
            .where('id', '=', id)
            .executeTakeFirstOrThrow();
          assert.deepEqual(after, before);
        }
      }),
      { numRuns: 40 },
    );
  });

  test('filters', async () => {
    const attr = fc.constantFrom(
      'userName',
      'externalId',
      'emails.value',
      'id',
      'title',
      'meta.created',
      'emails[type eq "work"].value',
    );
    const filter = fc.oneof(
      fc.string(),
      fc
        .tuple(attr, fc.constantFrom('eq', 'ne', 'co', 'sw', 'pr', 'gt'), fc.string())
        .map(([a, o, v]) => `${a} ${o} ${JSON.stringify(v)}`),
    );
    await fc.assert(
      fc.asyncProperty(filter, async (f) => {
        for (const path of ['/Users', '/Groups']) {
          const res = await call('GET', `${path}?filter=${encodeURIComponent(f)}`);
          assert.ok(
            res.status === 200 || res.status === 400,
            `${f}: ${res.status} ${JSON.stringify(res.body)}`,
          );
          if (res.status === 400) assert.equal(res.body.scimType, 'invalidFilter');
        }
      }),
      { numRuns: 60 },
    );
  });
});
