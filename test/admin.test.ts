// Administration through HTTP: feature flags, workspace branding, and who may
// call /api/admin/* (401 without a token, 403 for members and guests).
// Accounts: admin-users.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertError, ZERO_UUID } from './support/errors.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let member: { token: string; user: any };
let guest: { token: string; user: any };
before(async () => {
  t = await startTestApp();
  member = await t.userWithRole('member');
  guest = await t.userWithRole('guest', { teams: ['ENG'] });
});
after(() => t.close());

const flagsOf = async () => {
  const res = await t.get('/api/config');
  return Object.fromEntries(res.body.flags.map((f: any) => [f.key, f.enabled])) as Record<string, boolean>;
};

describe('who may call /api/admin/*', () => {
  const endpoints: [string, string, unknown?][] = [
    ['GET', '/api/admin/flags'],
    ['PATCH', '/api/admin/flags/projects', { enabled: false }],
    ['GET', '/api/admin/users'],
    ['POST', '/api/admin/users', { name: 'X', email: 'x@example.com', password: 'secret1', role: 'member' }],
    ['PATCH', `/api/admin/users/${ZERO_UUID}`, { role: 'member' }],
    ['DELETE', `/api/admin/users/${ZERO_UUID}`],
    ['PATCH', '/api/admin/workspace', { name: 'Hacked' }],
  ];
  for (const [method, url, body] of endpoints) {
    test(`${method} ${url}: 401 without a token, 403 for member and guest`, async () => {
      assertError(await t.request(method, url, { body }), 401, 'UNAUTHENTICATED');
      assertError(await t.request(method, url, { body, token: 'not-a-token' }), 401, 'UNAUTHENTICATED');
      assertError(await t.request(method, url, { body, token: member.token }), 403, 'FORBIDDEN');
      assertError(await t.request(method, url, { body, token: guest.token }), 403, 'FORBIDDEN');
    });
  }

  test('a refused call changes nothing', async () => {
    const before = await flagsOf();
    await t.patch('/api/admin/flags/projects', { enabled: !before['projects'] }, member.token);
    await t.patch('/api/admin/workspace', { name: 'Hacked' }, guest.token);
    assert.deepEqual(await flagsOf(), before);
    assert.notEqual((await t.get('/api/config')).body.workspace.name, 'Hacked');
  });
});

describe('feature flags', () => {
  test('GET /api/admin/flags lists every flag with label and description', async () => {
    const res = await t.get('/api/admin/flags', t.adminToken);
    assert.equal(res.status, 200);
    const keys = res.body.flags.map((f: any) => f.key);
    for (const k of ['projects', 'cycles', 'attachments']) assert.ok(keys.includes(k), k);
    for (const f of res.body.flags) {
      assert.deepEqual(Object.keys(f).sort(), ['description', 'enabled', 'key', 'label']);
      assert.ok(f.description.length > 0);
      assert.ok(f.label.length > 0);
      assert.equal(typeof f.enabled, 'boolean');
    }
  });

  test('PATCH switches a flag off and on, reflected in GET /api/config', async () => {
    const off = await t.patch('/api/admin/flags/cycles', { enabled: false }, t.adminToken);
    assert.equal(off.status, 200);
    assert.deepEqual(off.body, { key: 'cycles', enabled: false });
    assert.equal((await flagsOf())['cycles'], false);
    const admin = await t.get('/api/admin/flags', t.adminToken);
    assert.equal(admin.body.flags.find((f: any) => f.key === 'cycles').enabled, false);

    const on = await t.patch('/api/admin/flags/cycles', { enabled: true }, t.adminToken);
    assert.equal(on.status, 200);
    assert.deepEqual(on.body, { key: 'cycles', enabled: true });
    assert.equal((await flagsOf())['cycles'], true);
  });

  test('setting a flag to its current value is fine', async () => {
    const res = await t.patch('/api/admin/flags/projects', { enabled: true }, t.adminToken);
    assert.equal(res.status, 200);
    assert.equal((await flagsOf())['projects'], true);
  });

  test('unknown key is 404', async () => {
    assertError(
      await t.patch('/api/admin/flags/teleportation', { enabled: true }, t.adminToken),
      404,
      'NOT_FOUND',
    );
  });

  const bad: [string, unknown][] = [
    ['a string', { enabled: 'true' }],
    ['a number', { enabled: 1 }],
    ['null', { enabled: null }],
    ['missing', {}],
    ['an extra field', { enabled: true, label: 'Renamed' }],
    ['an array body', [true]],
  ];
  for (const [what, body] of bad) {
    test(`400 VALIDATION_FAILED when enabled is ${what}, and nothing changes`, async () => {
      const before = await flagsOf();
      const res = await t.patch('/api/admin/flags/projects', body, t.adminToken);
      assertError(res, 400, 'VALIDATION_FAILED');
      assert.ok(res.body.error.details.length > 0);
      assert.deepEqual(await flagsOf(), before);
    });
  }

  test('malformed JSON and a missing body are 400', async () => {
    const malformed = await t.request('PATCH', '/api/admin/flags/projects', {
      token: t.adminToken,
      payload: '{"enabled": tru',
      headers: { 'content-type': 'application/json' },
    });
    assertError(malformed, 400, 'BAD_REQUEST');
    const empty = await t.request('PATCH', '/api/admin/flags/projects', { token: t.adminToken });
    assert.equal(empty.status, 400, JSON.stringify(empty.body));
  });
});

describe('PATCH /api/admin/workspace', () => {
  test('updates name, tagline and accent colour, reflected in GET /api/config', async () => {
    const res = await t.patch(
      '/api/admin/workspace',
      { name: 'Acme Tracker', tagline: 'Ship it', accentColor: '#12AB9f' },
      t.adminToken,
    );
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.workspace, {
      name: 'Acme Tracker',
      tagline: 'Ship it',
      accentColor: '#12ab9f',
    });
    const config = await t.get('/api/config');
    assert.deepEqual(config.body.workspace, res.body.workspace);
  });

  test('a partial update keeps the other fields; an empty tagline is allowed', async () => {
    const before = (await t.get('/api/config')).body.workspace;
    const res = await t.patch('/api/admin/workspace', { tagline: '' }, t.adminToken);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.workspace, { ...before, tagline: '' });
  });

  const bad: [string, unknown, string][] = [
    ['a colour name', { accentColor: 'red' }, '/accentColor'],
    ['a short hex colour', { accentColor: '#fff' }, '/accentColor'],
    ['a non-hex colour', { accentColor: '#gggggg' }, '/accentColor'],
    ['a colour without #', { accentColor: '123456' }, '/accentColor'],
    ['a colour with alpha', { accentColor: '#12345678' }, '/accentColor'],
    ['an empty name', { name: '' }, '/name'],
    ['a blank name', { name: '   ' }, '/name'],
    ['a numeric name', { name: 5 }, '/name'],
    ['a null tagline', { tagline: null }, '/tagline'],
    ['an unknown field', { logo: 'x.png' }, '/logo'],
  ];
  for (const [what, body, field] of bad) {
    test(`400 VALIDATION_FAILED naming ${field} for ${what}, and nothing changes`, async () => {
      const before = (await t.get('/api/config')).body.workspace;
      const res = await t.patch('/api/admin/workspace', body, t.adminToken);
      assertError(res, 400, 'VALIDATION_FAILED');
      assert.ok(
        res.body.error.details.some((d: any) => d.field === field),
        JSON.stringify(res.body),
      );
      assert.deepEqual((await t.get('/api/config')).body.workspace, before);
    });
  }

  test('a valid field beside an invalid one is not applied either', async () => {
    const before = (await t.get('/api/config')).body.workspace;
    const res = await t.patch(
      '/api/admin/workspace',
      { name: 'Half Applied', accentColor: 'blue' },
      t.adminToken,
    );
    assert.equal(res.status, 400);
    assert.deepEqual((await t.get('/api/config')).body.workspace, before);
  });

  test('malformed JSON is 400', async () => {
    const res = await t.request('PATCH', '/api/admin/workspace', {
      token: t.adminToken,
      payload: "{'name': 'single quotes'}",
      headers: { 'content-type': 'application/json' },
    });
    assertError(res, 400, 'BAD_REQUEST');
  });
});
