// Sign-in sessions through every door: each sign-in is a session its owner
// sees and can end (one, all others, this one), an admin can end a user's,
// and an ended session's token is refused at once on REST, GraphQL and the
// change stream. docs/identity.md, "Sessions".
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { MAX_LIVE_SESSIONS, startSession } from '../src/modules/sessions/service.js';
import { gql } from './graphql-helpers.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { openSse, type SseClient } from './support/sse.js';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let t: TestApp;
let base: string;
const open: SseClient[] = [];
before(async () => {
  t = await startTestApp();
  base = await t.listen();
});
after(async () => {
  for (const c of open) c.close();
  await t.close();
});

/** Signs in with a password from a browser; the new session's token. */
async function signIn(email: string, password: string, userAgent = FIREFOX): Promise<string> {
  const res = await t.request('POST', '/api/auth/login', {
    body: { email, password },
    headers: { 'user-agent': userAgent },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.token;
}

const sessionsOf = async (token: string) => {
  const res = await t.get('/api/sessions', token);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.sessions as any[];
};

const refused = async (token: string) => {
  assert.equal((await t.get('/api/auth/me', token)).status, 401);
  const g = await gql(base, `Bearer ${token}`, '{ viewer { id } }');
  assert.equal(g.status, 401, JSON.stringify(g.body));
};

const auditTypes = async (userId: string) =>
  (
    await t.ctx.db
      .selectFrom('audit_entries')
      .select(['type', 'actor_id', 'entity_id', 'metadata', 'user_agent'])
      .where((w) => w.or([w('actor_id', '=', userId), w('entity_id', '=', userId)]))
      .orderBy('created_at')
      .execute()
  ).map((e) => e.type);

describe('a person and their sessions', () => {
  test('each sign-in is a session, listed last used first with its device; `current` marks the caller’s', async () => {
    const { email, password } = await t.register();
    const laptop = await signIn(email, password, FIREFOX);
    const phone = await signIn(email, password, SAFARI);
    const fromLaptop = await sessionsOf(laptop);
    const fromPhone = await sessionsOf(phone);
    // The registration's session, then the two sign-ins.
    assert.equal(fromLaptop.length, 3);
    const laptopRow = fromLaptop.find((s) => s.current)!;
    assert.equal(laptopRow.name, 'Firefox 128 on Linux');
    assert.equal(laptopRow.method, 'password');
    assert.equal(laptopRow.ip, '127.0.0.1');
    const phoneRow = fromPhone.find((s) => s.current)!;
    assert.equal(phoneRow.name, 'Safari 17 on iOS');
    assert.notEqual(phoneRow.id, laptopRow.id);
    assert.deepEqual(fromLaptop.map((s) => s.id).sort(), fromPhone.map((s) => s.id).sort());
    assert.ok(fromLaptop.some((s) => s.method === 'registration'));
  });

  test('ending one session refuses its token on REST and GraphQL at once; the others carry on', async () => {
    const { email, password } = await t.register();
    const a = await signIn(email, password);
    const b = await signIn(email, password);
    assert.equal((await t.get('/api/auth/me', b)).status, 200); // remembered in the credential cache
    const bId = (await sessionsOf(b)).find((s) => s.current).id;
    const res = await t.del(`/api/sessions/${bId}`, a);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await refused(b);
    assert.equal((await t.get('/api/auth/me', a)).status, 200);
    assert.ok(!(await sessionsOf(a)).some((s) => s.id === bId));
    // Ended is ended: a second time is a 404.
    assert.equal((await t.del(`/api/sessions/${bId}`, a)).status, 404);
  });

  test('nobody ends or learns of another person’s sessions', async () => {
    const owner = await t.register();
    const other = await t.register();
    const ownerSession = (await sessionsOf(owner.token))[0].id;
    assert.equal((await t.del(`/api/sessions/${ownerSession}`, other.token)).status, 404);
    assert.ok(!(await sessionsOf(other.token)).some((s) => s.id === ownerSession));
    assert.equal((await t.get('/api/auth/me', owner.token)).status, 200);
    assert.equal((await t.get(`/api/admin/users/${owner.user.id}/sessions`, other.token)).status, 403);
    assert.equal((await t.del(`/api/admin/users/${owner.user.id}/sessions`, other.token)).status, 403);
  });

  test('“end all other sessions” keeps this one; sign-out ends this one', async () => {
    const { email, password, token: first } = await t.register();
    const second = await signIn(email, password);
    const here = await signIn(email, password);
    const res = await t.post('/api/sessions/end-others', {}, here);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.ended, 2);
    await refused(first);
    await refused(second);
    assert.equal((await sessionsOf(here)).length, 1);
    assert.equal((await t.post('/api/auth/logout', {}, here)).status, 200);
    await refused(here);
  });

  test('an API key lists sessions but has none to sign out of; it survives its owner ending them all', async () => {
    const { token } = await t.register();
    const key = (await t.post('/api/api-keys', { label: 'script' }, token)).body.key;
    const list = await t.get('/api/sessions', key);
    assert.equal(list.status, 200);
    assert.ok(list.body.sessions.every((s: any) => s.current === false));
    const out = await t.post('/api/auth/logout', {}, key);
    assert.equal(out.status, 400);
    assert.match(out.body.error.message, /API key/);
    assert.equal((await t.post('/api/sessions/end-others', {}, key)).body.ended, 1);
    await refused(token);
    assert.equal((await t.get('/api/auth/me', key)).status, 200);
  });

  test('a password change ends every other session and carries on in a new one', async () => {
    const { email, password, token: old } = await t.register();
    const other = await signIn(email, password);
    const res = await t.post(
      '/api/auth/change-password',
      { currentPassword: password, newPassword: 'another-password-456' },
      old,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await refused(old);
    await refused(other);
    const live = await sessionsOf(res.body.token);
    assert.equal(live.length, 1);
    assert.equal(live[0].method, 'passwordChange');
    assert.equal(live[0].current, true);
  });

  test('signing in again and again keeps at most MAX_LIVE_SESSIONS live, ending the least recently used', async () => {
    const { user, token } = await t.register();
    const row = await t.ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    for (let i = 0; i < MAX_LIVE_SESSIONS + 2; i++)
      await startSession(t.ctx, row, { ip: '10.0.0.1', userAgent: null }, 'password');
    const live = await t.ctx.db
      .selectFrom('sessions')
      .select((e) => e.fn.countAll<string>().as('n'))
      .where('user_id', '=', user.id)
      .where('ended_at', 'is', null)
      .executeTakeFirstOrThrow();
    assert.equal(Number(live.n), MAX_LIVE_SESSIONS);
    await refused(token); // the registration's session was the least recently used
  });

  test('bad session ids are a 400 or 404 and end nothing', async () => {
    const { token } = await t.register();
    const before = await sessionsOf(token);
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 60 }), fc.uuid()), async (id) => {
        const res = await t.del(`/api/sessions/${encodeURIComponent(id)}`, token);
        assert.ok([400, 404].includes(res.status), `${JSON.stringify(id)}: ${res.status}`);
        const g = await gql(
          base,
          `Bearer ${token}`,
          'mutation($s: String!) { logoutSession(sessionId: $s) { success } }',
          {
            s: id,
          },
        );
        assert.equal(g.body.data, null);
        assert.ok(g.body.errors?.length, JSON.stringify(g.body));
      }),
      { numRuns: 40 },
    );
    assert.deepEqual(await sessionsOf(token), before);
  });
});

describe('the change stream of an ended session', () => {
  test('closes at once, with no event needed to notice', async () => {
    const { email, password } = await t.register();
    const watching = await signIn(email, password);
    const other = await signIn(email, password);
    const c = await openSse(base, '/api/stream', { authorization: `Bearer ${watching}` });
    open.push(c);
    await c.next((e) => e.event === 'ready');
    const id = (await sessionsOf(watching)).find((s) => s.current).id;
    assert.equal((await t.del(`/api/sessions/${id}`, other)).status, 200);
    await c.next((e) => e.event === 'unauthorized');
    await c.ended;
  });

  test('opened with a ticket, closes when the session that asked for the ticket ends', async () => {
    const { email, password } = await t.register();
    const watching = await signIn(email, password);
    const ticket = (await t.post('/api/stream/tickets', {}, watching)).body.ticket;
    const c = await openSse(base, `/api/stream?ticket=${encodeURIComponent(ticket)}`);
    open.push(c);
    await c.next((e) => e.event === 'ready');
    assert.equal((await t.post('/api/auth/logout', {}, watching)).status, 200);
    await c.next((e) => e.event === 'unauthorized');
    // A ticket asked for in an ended session opens nothing.
    const late = await openSse(base, `/api/stream?ticket=${encodeURIComponent(ticket)}`);
    open.push(late);
    assert.equal(late.status, 401);
  });
});

describe('an admin and a user’s sessions', () => {
  test('lists them and ends them all: every token of the user is refused, their API keys keep working', async () => {
    const member = await t.userWithRole('member');
    const key = (await t.post('/api/api-keys', { label: 'ci' }, member.token)).body.key;
    const list = await t.get(`/api/admin/users/${member.user.id}/sessions`, t.adminToken);
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.equal(list.body.pageInfo.total, 1);
    assert.equal(list.body.sessions[0].current, false);
    const one = list.body.sessions[0].id;
    const wrong = await t.del(
      `/api/admin/users/${member.user.id}/sessions/${crypto.randomUUID()}`,
      t.adminToken,
    );
    assert.equal(wrong.status, 404);
    const res = await t.del(`/api/admin/users/${member.user.id}/sessions`, t.adminToken);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.ended, 1);
    await refused(member.token);
    assert.equal((await t.get('/api/auth/me', key)).status, 200);
    const entries = await t.ctx.db
      .selectFrom('audit_entries')
      .selectAll()
      .where('type', '=', 'session.ended')
      .where('entity_id', '=', member.user.id)
      .execute();
    assert.equal(entries.length, 1);
    assert.deepEqual((entries[0]!.metadata as any).sessionIds, [one]);
    assert.equal((entries[0]!.metadata as any).by, 'admin');
  });
});

describe('GraphQL, as the third-party schema names it', () => {
  test('authenticationSessions, logoutOtherSessions, logout; userSessions and userRevokeSession for admins', async () => {
    const { email, password, user } = await t.register();
    const first = await signIn(email, password);
    const here = await signIn(email, password, SAFARI);
    const q = await gql(
      base,
      `Bearer ${here}`,
      '{ authenticationSessions { id name isCurrentSession type ip } }',
    );
    assert.equal(q.status, 200, JSON.stringify(q.body));
    const listed = q.body.data.authenticationSessions;
    assert.equal(listed.length, 3);
    assert.deepEqual(
      listed.filter((s: any) => s.isCurrentSession).map((s: any) => s.name),
      ['Safari 17 on iOS'],
    );
    const others = await gql(base, `Bearer ${here}`, 'mutation { logoutOtherSessions { success } }');
    assert.equal(others.body.data.logoutOtherSessions.success, true);
    await refused(first);

    const byMember = await gql(base, `Bearer ${here}`, `{ userSessions(id: "${user.id}") { id } }`);
    assert.equal(byMember.body.data, null);
    const admin = await gql(
      base,
      `Bearer ${t.adminToken}`,
      `{ userSessions(id: "${user.id}") { id isCurrentSession } }`,
    );
    assert.equal(admin.body.data.userSessions.length, 1);
    const revoke = await gql(
      base,
      `Bearer ${t.adminToken}`,
      `mutation { userRevokeSession(id: "${user.id}", sessionId: "${admin.body.data.userSessions[0].id}") { success } }`,
    );
    assert.equal(revoke.body.data.userRevokeSession.success, true, JSON.stringify(revoke.body));
    await refused(here);
  });

  test('logout ends the caller’s session; logoutAllSessions ends every one', async () => {
    const { email, password } = await t.register();
    const a = await signIn(email, password);
    const b = await signIn(email, password);
    assert.equal(
      (await gql(base, `Bearer ${a}`, 'mutation { logout { success } }')).body.data.logout.success,
      true,
    );
    await refused(a);
    assert.equal((await t.get('/api/auth/me', b)).status, 200);
    const c = await signIn(email, password);
    const all = await gql(base, `Bearer ${c}`, 'mutation { logoutAllSessions { success } }');
    assert.equal(all.body.data.logoutAllSessions.success, true);
    await refused(b);
    await refused(c);
  });
});

describe('the audit log', () => {
  test('records sign-in with its method and device, sign-out, and a session ended by its owner', async () => {
    const { email, password, user } = await t.register();
    const a = await signIn(email, password);
    const b = await signIn(email, password);
    const bId = (await sessionsOf(b)).find((s) => s.current).id;
    await t.del(`/api/sessions/${bId}`, a);
    await t.post('/api/auth/logout', {}, a);
    assert.deepEqual(await auditTypes(user.id), [
      'user.created',
      'auth.signIn',
      'auth.signIn',
      'auth.signIn',
      'session.ended',
      'auth.signOut',
    ]);
    const signIn1 = await t.ctx.db
      .selectFrom('audit_entries')
      .selectAll()
      .where('actor_id', '=', user.id)
      .where('type', '=', 'auth.signIn')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    assert.equal((signIn1.metadata as any).method, 'password');
    assert.equal(signIn1.user_agent, FIREFOX);
    assert.equal(signIn1.ip, '127.0.0.1');
  });
});
