// The audit log holds an entry for each administrative and security event,
// written by the action itself through the API: one test per event kind, each
// checking the type, who did it (with the request's address and user agent),
// what it was done to, and the fields before and after. Sessions' entries are
// in sessions.test.ts, SCIM's in scim.test.ts. docs/identity.md, "Audit log".
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { insertResetToken } from '../src/modules/auth/queries.js';
import { startTestApp, type TestApp, uniqueEmail } from './support/harness.js';

const AGENT = 'audit-test/1.0';
let t: TestApp;
let adminId: string;
before(async () => {
  t = await startTestApp();
  adminId = (await t.get('/api/auth/me', t.adminToken)).body.user.id;
});
after(() => t.close());

/** A request as the admin (or `token`), from a known user agent. */
const as = (method: string, url: string, body?: unknown, token = t.adminToken) =>
  t.request(method, url, {
    token,
    ...(body === undefined ? {} : { body }),
    headers: { 'user-agent': AGENT },
  });

/** The newest entry of `type` (about `entityId` when given). */
async function newest(type: string, entityId?: string) {
  let q = t.ctx.db.selectFrom('audit_entries').selectAll().where('type', '=', type);
  if (entityId) q = q.where('entity_id', '=', entityId);
  const entry = await q.orderBy('created_at', 'desc').executeTakeFirst();
  assert.ok(entry, `no ${type} entry`);
  return entry;
}

const byAdmin = (e: {
  actor_kind: string;
  actor_id: string | null;
  ip: string | null;
  user_agent: string | null;
}) => {
  assert.equal(e.actor_kind, 'user');
  assert.equal(e.actor_id, adminId);
  assert.equal(e.ip, '127.0.0.1');
  assert.equal(e.user_agent, AGENT);
};

async function newUser(role = 'member') {
  const email = uniqueEmail('audited');
  const res = await as('POST', '/api/admin/users', {
    name: 'Audited Person',
    email,
    password: 'password-123',
    role,
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { id: res.body.user.id as string, email };
}

describe('users', () => {
  test('user.created: by the admin, with name, email and role', async () => {
    const u = await newUser();
    const e = await newest('user.created', u.id);
    byAdmin(e);
    assert.deepEqual(e.after, { name: 'Audited Person', email: u.email, role: 'member' });
    assert.equal(e.entity_label, u.email);
  });

  test('user.created: a registration is its own actor', async () => {
    const { user } = await t.register();
    const e = await newest('user.created', user.id);
    assert.equal(e.actor_id, user.id);
  });

  test('user.roleChanged: the role before and after, nothing else', async () => {
    const u = await newUser();
    assert.equal(
      (await as('PATCH', `/api/admin/users/${u.id}`, { role: 'guest', name: 'Renamed' })).status,
      200,
    );
    const e = await newest('user.roleChanged', u.id);
    byAdmin(e);
    assert.deepEqual([e.before, e.after], [{ role: 'member' }, { role: 'guest' }]);
    const renamed = await newest('user.updated', u.id);
    assert.deepEqual([renamed.before, renamed.after], [{ name: 'Audited Person' }, { name: 'Renamed' }]);
  });

  test('user.statusChanged: suspension and reactivation', async () => {
    const u = await newUser();
    await as('PATCH', `/api/admin/users/${u.id}`, { status: 'suspended' });
    byAdmin(await newest('user.statusChanged', u.id));
    await as('PATCH', `/api/admin/users/${u.id}`, { status: 'active' });
    const e = await newest('user.statusChanged', u.id);
    assert.deepEqual([e.before, e.after], [{ status: 'suspended' }, { status: 'active' }]);
  });

  test('user.updated: a change that changes nothing writes nothing', async () => {
    const u = await newUser();
    await as('PATCH', `/api/admin/users/${u.id}`, { role: 'member' });
    const n = await t.ctx.db
      .selectFrom('audit_entries')
      .select((e) => e.fn.countAll<string>().as('n'))
      .where('entity_id', '=', u.id)
      .where('type', 'in', ['user.roleChanged', 'user.updated', 'user.statusChanged'])
      .executeTakeFirstOrThrow();
    assert.equal(Number(n.n), 0);
  });

  test('user.deleted: who it was', async () => {
    const u = await newUser();
    assert.equal((await as('DELETE', `/api/admin/users/${u.id}`)).status, 200);
    const e = await newest('user.deleted', u.id);
    byAdmin(e);
    assert.deepEqual(e.before, { name: 'Audited Person', email: u.email, role: 'member', status: 'active' });
  });

  test('user.passwordChanged: by the user, never the password', async () => {
    const { token, user, password } = await t.register();
    const res = await as(
      'POST',
      '/api/auth/change-password',
      { currentPassword: password, newPassword: 'brand-new-password-1' },
      token,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const e = await newest('user.passwordChanged', user.id);
    assert.equal(e.actor_id, user.id);
    assert.equal(e.user_agent, AGENT);
    assert.ok(!JSON.stringify(e).includes('brand-new-password-1'));
    assert.ok(!JSON.stringify(e).includes(password));
  });

  test('user.passwordReset: with how many API keys it revoked', async () => {
    const { user, token } = await t.register();
    await as('POST', '/api/api-keys', { label: 'x' }, token);
    const secret = randomBytes(32).toString('base64url');
    await insertResetToken(t.ctx.db, user.id, createHash('sha256').update(secret).digest('hex'), 60_000);
    const res = await t.post('/api/auth/password-reset/confirm', {
      token: secret,
      password: 'reset-password-1',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const e = await newest('user.passwordReset', user.id);
    assert.deepEqual(e.metadata, { revokedApiKeys: 1 });
  });
});

describe('sign-in and API keys', () => {
  test('auth.signInFailed: the email tried and why, for unknown and known accounts', async () => {
    const ghost = uniqueEmail('ghost');
    assert.equal((await t.post('/api/auth/login', { email: ghost, password: 'nope-nope' })).status, 401);
    const unknown = await t.ctx.db
      .selectFrom('audit_entries')
      .selectAll()
      .where('type', '=', 'auth.signInFailed')
      .where('actor_label', '=', ghost)
      .executeTakeFirstOrThrow();
    assert.equal(unknown.actor_kind, 'anonymous');
    assert.deepEqual(unknown.metadata, { reason: 'unknownEmail', method: 'password' });
    const { email, user } = await t.register();
    await t.post('/api/auth/login', { email, password: 'wrong-password' });
    const known = await t.ctx.db
      .selectFrom('audit_entries')
      .selectAll()
      .where('type', '=', 'auth.signInFailed')
      .where('actor_id', '=', user.id)
      .executeTakeFirstOrThrow();
    assert.equal((known.metadata as { reason: string }).reason, 'wrongPassword');
    assert.ok(!JSON.stringify(known).includes('wrong-password'));
  });

  test('apiKey.created and apiKey.revoked: label and hint, never the key', async () => {
    const { token, user } = await t.register();
    const made = await as('POST', '/api/api-keys', { label: 'deploy bot' }, token);
    const created = await newest('apiKey.created', made.body.apiKey.id);
    assert.equal(created.actor_id, user.id);
    assert.deepEqual(created.after, { label: 'deploy bot', hint: made.body.apiKey.hint });
    assert.ok(!JSON.stringify(created).includes(made.body.key));
    await as('DELETE', `/api/api-keys/${made.body.apiKey.id}`, undefined, token);
    const revoked = await newest('apiKey.revoked', made.body.apiKey.id);
    assert.equal(revoked.actor_id, user.id);
    assert.deepEqual(revoked.before, { label: 'deploy bot', hint: made.body.apiKey.hint });
  });

  test("auth.apiKeyFirstUse: once, at the first use only, with the request's address and user agent", async () => {
    const { token, user } = await t.register();
    const made = await as('POST', '/api/api-keys', { label: 'first' }, token);
    const me = () => as('GET', '/api/auth/me', undefined, made.body.key);
    await Promise.all([me(), me()]);
    await me();
    const entries = await t.ctx.db
      .selectFrom('audit_entries')
      .selectAll()
      .where('type', '=', 'auth.apiKeyFirstUse')
      .where('entity_id', '=', made.body.apiKey.id)
      .execute();
    assert.equal(entries.length, 1);
    assert.equal(entries[0]!.actor_kind, 'apiKey');
    assert.equal(entries[0]!.actor_id, user.id);
    assert.equal(entries[0]!.ip, '127.0.0.1');
    assert.equal(entries[0]!.user_agent, AGENT);
  });

  test('auth.apiKeyFirstUse: a first use over GraphQL carries its origin too', async () => {
    const { token } = await t.register();
    const made = await as('POST', '/api/api-keys', { label: 'graphql first' }, token);
    const res = await as('POST', '/graphql', { query: '{ viewer { id } }' }, made.body.key);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const e = await newest('auth.apiKeyFirstUse', made.body.apiKey.id);
    assert.equal(e.ip, '127.0.0.1');
    assert.equal(e.user_agent, AGENT);
  });
});

describe('workspace settings', () => {
  test('featureFlag.changed: the flag before and after; setting it to what it is writes nothing', async () => {
    const flags = (await as('GET', '/api/admin/flags')).body.flags as { key: string; enabled: boolean }[];
    const flag = flags[0]!;
    await as('PATCH', `/api/admin/flags/${flag.key}`, { enabled: !flag.enabled });
    const e = await newest('featureFlag.changed', flag.key);
    byAdmin(e);
    assert.deepEqual([e.before, e.after], [{ enabled: flag.enabled }, { enabled: !flag.enabled }]);
    await as('PATCH', `/api/admin/flags/${flag.key}`, { enabled: !flag.enabled });
    assert.equal((await newest('featureFlag.changed', flag.key)).id, e.id);
    await as('PATCH', `/api/admin/flags/${flag.key}`, { enabled: flag.enabled });
  });

  test('workspace.brandingChanged: only the fields that changed', async () => {
    const res = await as('PATCH', '/api/admin/workspace', { name: 'Audited Corp', accentColor: '#112233' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const e = await newest('workspace.brandingChanged');
    byAdmin(e);
    assert.deepEqual(e.after, { name: 'Audited Corp', accentColor: '#112233' });
    assert.deepEqual(Object.keys(e.before as object).sort(), ['accentColor', 'name']);
  });

  test('workspace.registrationChanged: open and domains', async () => {
    await as('PATCH', '/api/admin/registration', { open: true, allowedEmailDomains: ['example.com'] });
    const e = await newest('workspace.registrationChanged');
    byAdmin(e);
    assert.deepEqual((e.after as { allowedEmailDomains: string[] }).allowedEmailDomains, ['example.com']);
    await as('PATCH', '/api/admin/registration', { allowedEmailDomains: [] });
  });
});

describe('teams and memberships', () => {
  const key = () => `A${randomBytes(2).toString('hex').toUpperCase()}`;

  test('team.created, team.updated (a change, an archive)', async () => {
    const k = key();
    const team = (await as('POST', '/api/teams', { name: 'Audited team', key: k })).body.team;
    const created = await newest('team.created', team.id);
    byAdmin(created);
    assert.deepEqual(created.after, { key: k, name: 'Audited team', private: false });
    await as('PATCH', `/api/teams/${team.id}`, { name: 'Audited team 2' });
    const updated = await newest('team.updated', team.id);
    assert.deepEqual([updated.before, updated.after], [{ name: 'Audited team' }, { name: 'Audited team 2' }]);
    await as('POST', `/api/teams/${team.id}/archive`, {});
    const archived = await newest('team.updated', team.id);
    assert.deepEqual(archived.after, { archived: true });
  });

  test('team.memberAdded, team.memberRoleChanged, team.memberRemoved', async () => {
    const team = (await as('POST', '/api/teams', { name: 'Members', key: key(), private: true })).body.team;
    const u = await newUser();
    assert.equal((await as('POST', `/api/teams/${team.id}/members`, { userId: u.id })).status, 201);
    const added = await newest('team.memberAdded', team.id);
    byAdmin(added);
    assert.deepEqual(added.after, { userId: u.id, owner: false });
    await as('PATCH', `/api/teams/${team.id}/members/${u.id}`, { owner: true });
    const role = await newest('team.memberRoleChanged', team.id);
    assert.deepEqual(
      [role.before, role.after],
      [
        { userId: u.id, owner: false },
        { userId: u.id, owner: true },
      ],
    );
    await as('DELETE', `/api/teams/${team.id}/members/${u.id}`);
    const removed = await newest('team.memberRemoved', team.id);
    assert.deepEqual(removed.before, { userId: u.id, owner: true });
  });
});

describe('workflow states', () => {
  const engId = async () => (await as('GET', '/api/teams/ENG')).body.team.id as string;

  test('workflowState.created: team, name, type and colour', async () => {
    const teamId = await engId();
    const res = await as('POST', '/api/workflow-states', {
      teamId,
      name: 'Audited review',
      type: 'started',
      color: '#AABBCC',
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const e = await newest('workflowState.created', res.body.workflowState.id);
    byAdmin(e);
    assert.equal(e.entity_type, 'workflowState');
    assert.equal(e.entity_label, 'Audited review');
    assert.deepEqual(e.after, { teamId, name: 'Audited review', type: 'started', color: '#aabbcc' });
    assert.equal(e.before, null);
  });

  test('workflowState.updated: only the fields that changed; no change, no entry', async () => {
    const teamId = await engId();
    const made = await as('POST', '/api/workflow-states', {
      teamId,
      name: 'QA',
      type: 'started',
      color: '#112233',
    });
    const id = made.body.workflowState.id as string;
    const res = await as('PATCH', `/api/workflow-states/${id}`, { name: 'Quality', color: '#112233' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const e = await newest('workflowState.updated', id);
    byAdmin(e);
    assert.equal(e.entity_label, 'Quality');
    assert.deepEqual([e.before, e.after], [{ name: 'QA' }, { name: 'Quality' }]);
    await as('PATCH', `/api/workflow-states/${id}`, { name: 'Quality' });
    assert.equal((await newest('workflowState.updated', id)).id, e.id);
  });

  test('workflowState.deleted: an archive, with where its issues went; a refused archive writes none', async () => {
    const teamId = await engId();
    const mk = async (name: string) =>
      (await as('POST', '/api/workflow-states', { teamId, name, type: 'unstarted', color: '#445566' })).body
        .workflowState.id as string;
    const doomed = await mk('Doomed');
    const refuge = await mk('Refuge');
    const issue = await as('POST', '/api/issues', { teamId, title: 'in a doomed state', stateId: doomed });
    assert.equal(issue.status, 201, JSON.stringify(issue.body));
    // Refused: the state still has an issue and no replacement is named.
    assert.equal((await as('POST', `/api/workflow-states/${doomed}/archive`, {})).status, 400);
    const none = await t.ctx.db
      .selectFrom('audit_entries')
      .select('id')
      .where('type', '=', 'workflowState.deleted')
      .where('entity_id', '=', doomed)
      .execute();
    assert.equal(none.length, 0);
    const res = await as('POST', `/api/workflow-states/${doomed}/archive`, { replacementStateId: refuge });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const e = await newest('workflowState.deleted', doomed);
    byAdmin(e);
    assert.deepEqual(e.before, { teamId, name: 'Doomed', type: 'unstarted' });
    assert.equal(e.after, null);
    assert.deepEqual(e.metadata, { archived: true, replacementStateId: refuge, movedIssues: 1 });
  });
});

describe('webhooks', () => {
  const URL_WITH_CREDENTIALS = 'http://hook-user:hook-pass@127.0.0.1:9/in?token=hook-token&team=eng';
  const REDACTED = 'http://***@127.0.0.1:9/in?token=***&team=***';
  const SECRET = 'a-webhook-secret-of-32-characters';

  async function newWebhook() {
    const res = await as('POST', '/api/admin/webhooks', {
      url: URL_WITH_CREDENTIALS,
      secret: SECRET,
      label: 'Audited hook',
      resourceTypes: ['issue'],
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.webhook.id as string;
  }

  /** Neither the secret nor the URL's credentials appear anywhere in the entry. */
  const noSecrets = (e: object, ...secrets: string[]) => {
    const text = JSON.stringify(e);
    for (const s of [SECRET, 'hook-user', 'hook-pass', 'hook-token', ...secrets]) {
      assert.ok(!text.includes(s), `${s} in ${text}`);
    }
  };

  test('webhook.created: its settings, the URL without credentials, never the secret', async () => {
    const id = await newWebhook();
    const e = await newest('webhook.created', id);
    byAdmin(e);
    assert.equal(e.entity_type, 'webhook');
    assert.equal(e.entity_label, 'Audited hook');
    assert.deepEqual(e.after, {
      url: REDACTED,
      label: 'Audited hook',
      enabled: true,
      resourceTypes: ['issue'],
      teamId: null,
      allPublicTeams: true,
    });
    noSecrets(e);
  });

  test('webhook.updated: the changed fields; a rotated secret is said, never shown', async () => {
    const id = await newWebhook();
    const res = await as('PATCH', `/api/admin/webhooks/${id}`, { enabled: false, label: 'Quiet hook' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const e = await newest('webhook.updated', id);
    byAdmin(e);
    assert.deepEqual(
      [e.before, e.after],
      [
        { enabled: true, label: 'Audited hook' },
        { enabled: false, label: 'Quiet hook' },
      ],
    );
    assert.deepEqual(e.metadata, {});
    const rotated = await as('POST', `/api/admin/webhooks/${id}/rotate-secret`, {});
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    const r = await newest('webhook.updated', id);
    assert.notEqual(r.id, e.id);
    byAdmin(r);
    assert.deepEqual(r.metadata, { secretRotated: true });
    assert.equal(r.before, null);
    assert.equal(r.after, null);
    noSecrets(r, rotated.body.secret);
    // A secret set by hand (GraphQL's webhookUpdate takes one) and new credentials
    // in the URL are said the same way.
    const changed = await as('POST', '/graphql', {
      query:
        'mutation($id: String!, $input: WebhookUpdateInput!) { webhookUpdate(id: $id, input: $input) { success } }',
      variables: {
        id,
        input: {
          secret: 'another-secret-of-enough-length',
          url: 'http://other-user:other-pass@127.0.0.1:9/in?token=other-token&team=eng',
        },
      },
    });
    assert.equal(changed.body.data?.webhookUpdate?.success, true, JSON.stringify(changed.body));
    const c = await newest('webhook.updated', id);
    assert.deepEqual(c.metadata, { secretRotated: true, urlCredentialsChanged: true });
    noSecrets(c, 'another-secret-of-enough-length', 'other-user', 'other-pass', 'other-token');
  });

  test('webhook.deleted: what it was', async () => {
    const id = await newWebhook();
    assert.equal((await as('DELETE', `/api/admin/webhooks/${id}`)).status, 200);
    const e = await newest('webhook.deleted', id);
    byAdmin(e);
    assert.equal((e.before as { url: string }).url, REDACTED);
    assert.equal(e.after, null);
    noSecrets(e);
  });
});

describe('the log itself', () => {
  test('the application cannot rewrite or remove an entry through SQL', async () => {
    const e = await newest('user.created');
    await assert.rejects(
      t.ctx.db
        .updateTable('audit_entries')
        .set({ actor_label: 'someone else' })
        .where('id', '=', e.id)
        .execute(),
    );
    await assert.rejects(t.ctx.db.deleteFrom('audit_entries').where('id', '=', e.id).execute());
    assert.equal((await newest('user.created')).actor_label, e.actor_label);
  });
});
