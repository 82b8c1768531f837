// First start and restarts: the seed on an empty database, a restart that
// changes nothing and keeps tokens valid, and the generated admin password
// printed once by the real server.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../src/app.js';
import { DEFAULT_STATES } from '../src/first-start.js';
import type { Database } from '../src/platform/db/database.js';
import { emptyDatabase } from './support/empty-database.js';
import { testConfig } from './support/env.js';
import { startTestApp, type TestApp } from './support/harness.js';

async function counts(db: Database['db']) {
  const n = async (table: 'teams' | 'workflow_states' | 'labels' | 'feature_flags' | 'users' | 'workspace') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    teams: await n('teams'),
    states: await n('workflow_states'),
    labels: await n('labels'),
    flags: await n('feature_flags'),
    users: await n('users'),
    workspace: await n('workspace'),
  };
}

describe('first start on an empty database', () => {
  let database: Database;
  let built: Awaited<ReturnType<typeof buildApp>>;
  before(async () => {
    database = await emptyDatabase({ migrated: false });
    const config = testConfig({ adminEmail: undefined, adminPassword: undefined });
    built = await buildApp({ config, database, logger: false });
    await built.app.ready();
  });
  after(async () => {
    await built.app.close();
    await database.close();
  });

  test('seeds workspace, team ENG with its workflow, labels and flags', async () => {
    const db = database.db;
    const team = await db.selectFrom('teams').selectAll().executeTakeFirstOrThrow();
    assert.equal(team.key, 'ENG');
    const states = await db
      .selectFrom('workflow_states')
      .select(['name', 'type'])
      .where('team_id', '=', team.id)
      .orderBy('position')
      .execute();
    assert.deepEqual(states, [
      { name: 'Backlog', type: 'backlog' },
      { name: 'Todo', type: 'unstarted' },
      { name: 'In Progress', type: 'started' },
      { name: 'In Review', type: 'started' },
      { name: 'Done', type: 'completed' },
      { name: 'Canceled', type: 'canceled' },
      { name: 'Duplicate', type: 'canceled' },
    ]);
    assert.equal(states.length, DEFAULT_STATES.length);
    const labels = (await db.selectFrom('labels').select('name').execute()).map((l) => l.name).sort();
    assert.deepEqual(labels, ['Bug', 'Feature', 'Improvement']);

    const config = await built.app.inject({ method: 'GET', url: '/api/config' });
    assert.equal(config.statusCode, 200);
    const body = config.json();
    assert.ok(body.workspace.name.length > 0);
    assert.match(body.workspace.accentColor, /^#[0-9a-f]{6}$/);
    const flags = body.flags.map((f: { key: string }) => f.key);
    for (const k of ['projects', 'cycles', 'attachments']) assert.ok(flags.includes(k), k);
  });

  test('with ADMIN_EMAIL and ADMIN_PASSWORD unset, creates admin@localhost with a generated password that signs in', async () => {
    assert.ok(built.generatedAdmin);
    assert.equal(built.generatedAdmin.email, 'admin@localhost');
    assert.ok(built.generatedAdmin.password.length >= 12);
    const res = await built.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'admin@localhost', password: built.generatedAdmin.password },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().user.role, 'admin');
  });

  test('stores a JWT secret in the database', async () => {
    const row = await database.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', 'jwt_secret')
      .executeTakeFirst();
    assert.ok(row && row.value.length >= 32);
  });
});

describe('restart on a populated database', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  test('building the app again changes nothing and keeps tokens valid', async () => {
    const { token } = await t.register('Survivor');
    const key = await t.post('/api/api-keys', { label: 'restart' }, token);
    await t.patch('/api/admin/workspace', { name: 'Renamed Before Restart' }, t.adminToken);
    await t.patch('/api/admin/flags/cycles', { enabled: false }, t.adminToken);
    const before = await counts(t.ctx.db);

    for (const overrides of [{}, { adminEmail: undefined, adminPassword: undefined }]) {
      const second = await buildApp({ config: testConfig(overrides), database: t.database, logger: false });
      try {
        assert.equal(second.generatedAdmin, undefined, 'no admin is generated on a populated database');
        assert.deepEqual(await counts(t.ctx.db), before);
        const inject = (url: string, credential: string) =>
          second.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${credential}` } });
        assert.equal((await inject('/api/auth/me', token)).statusCode, 200, 'member token still valid');
        assert.equal((await inject('/api/admin/flags', t.adminToken)).statusCode, 200, 'admin token valid');
        assert.equal((await inject('/api/auth/me', key.body.key)).statusCode, 200, 'API key still valid');
        const config = (await second.app.inject({ method: 'GET', url: '/api/config' })).json();
        assert.equal(config.workspace.name, 'Renamed Before Restart', 'branding kept');
        assert.equal(config.flags.find((f: any) => f.key === 'cycles').enabled, false, 'flags kept');
      } finally {
        await second.app.close();
      }
    }
  });

  test('a different ADMIN_EMAIL on restart does not create another admin', async () => {
    const before = await counts(t.ctx.db);
    const second = await buildApp({
      config: testConfig({ adminEmail: 'someone-else@example.com', adminPassword: 'another-pw' }),
      database: t.database,
      logger: false,
    });
    await second.app.close();
    assert.deepEqual(await counts(t.ctx.db), before);
    const login = await t.post('/api/auth/login', {
      email: 'someone-else@example.com',
      password: 'another-pw',
    });
    assert.equal(login.status, 401);
  });
});
