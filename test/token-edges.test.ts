// Login tokens that are correctly signed with the workspace secret but are not
// tokens we would issue, and sessions across suspension: refused with 401 on
// REST and "authentication error" on GraphQL, every time they are sent (the
// verified-token cache must not make an answer depend on the attempt).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SignJWT } from 'jose';
import { gql } from './graphql-helpers.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let base: string;
let key: Uint8Array;
before(async () => {
  t = await startTestApp();
  base = await t.listen();
  const row = await t.ctx.db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', 'jwt_secret')
    .executeTakeFirstOrThrow();
  key = new TextEncoder().encode(row.value);
});
after(() => t.close());

const sign = (claims: Record<string, unknown>, alg = 'HS256') =>
  new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT' }).sign(key);

async function assertRefusedEverywhere(token: string, what: string) {
  for (let i = 0; i < 4; i++) {
    const rest = await t.get('/api/auth/me', token);
    assert.equal(rest.status, 401, `${what} REST try ${i}: ${JSON.stringify(rest.body)}`);
    assert.equal(rest.body.error.code, 'UNAUTHENTICATED');
    const g = await gql(base, `Bearer ${token}`, '{ viewer { id } }');
    assert.equal(g.body.errors?.[0]?.extensions?.type, 'authentication error', `${what} GraphQL try ${i}`);
    assert.equal(g.body.data ?? null, null);
  }
}

describe('hand-signed tokens', () => {
  test('a token built like ours is accepted (the harness signs correctly)', async () => {
    const { user } = await t.register();
    const now = Math.floor(Date.now() / 1000);
    const token = await sign({ sub: user.id, ep: 0, iat: now, exp: now + 600 });
    for (let i = 0; i < 3; i++) assert.equal((await t.get('/api/auth/me', token)).status, 200);
    const g = await gql(base, `Bearer ${token}`, '{ viewer { id } }');
    assert.equal(g.body.data?.viewer?.id, user.id);
  });

  test('refused: no exp, no iat, expired, sub not a uuid, deleted user, HS512, alg none', async () => {
    const { user } = await t.register();
    const gone = await t.register();
    assert.equal((await t.del(`/api/admin/users/${gone.user.id}`, t.adminToken)).status, 200);
    const now = Math.floor(Date.now() / 1000);
    const good = { sub: user.id, ep: 0, iat: now, exp: now + 600 };
    const unsigned = (claims: object) =>
      `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    const cases: [string, string][] = [
      ['no exp', await sign({ sub: user.id, ep: 0, iat: now })],
      ['no iat', await sign({ sub: user.id, ep: 0, exp: now + 600 })],
      ['exp in the past', await sign({ ...good, iat: now - 1200, exp: now - 600 })],
      ['sub not a uuid', await sign({ ...good, sub: 'not-a-uuid' })],
      ['sub with SQL in it', await sign({ ...good, sub: "' or 1=1 --" })],
      ['sub of a deleted user', await sign({ ...good, sub: gone.user.id, ep: 1 })],
      ['sub of a deleted user, old epoch', await sign({ ...good, sub: gone.user.id })],
      ['HS512', await sign(good, 'HS512')],
      ['alg none', unsigned(good)],
    ];
    for (const [what, token] of cases) await assertRefusedEverywhere(token, what);
  });
});

describe('suspension ends sessions', () => {
  test('suspend: old token 401; reactivate: old token still 401, a new login works', async () => {
    const member = await t.register();
    assert.equal((await t.get('/api/auth/me', member.token)).status, 200);
    const suspend = await t.patch(
      `/api/admin/users/${member.user.id}`,
      { status: 'suspended' },
      t.adminToken,
    );
    assert.equal(suspend.status, 200);
    await assertRefusedEverywhere(member.token, 'while suspended');
    const reactivate = await t.patch(
      `/api/admin/users/${member.user.id}`,
      { status: 'active' },
      t.adminToken,
    );
    assert.equal(reactivate.status, 200);
    await assertRefusedEverywhere(member.token, 'after reactivation');
    const login = await t.post('/api/auth/login', { email: member.email, password: member.password });
    assert.equal(login.status, 200);
    assert.equal((await t.get('/api/auth/me', login.body.token)).status, 200);
    const g = await gql(base, `Bearer ${login.body.token}`, '{ viewer { id } }');
    assert.equal(g.body.data?.viewer?.id, member.user.id);
  });

  test('a name change does not end sessions', async () => {
    const member = await t.register();
    await t.patch(`/api/admin/users/${member.user.id}`, { name: 'Renamed Person' }, t.adminToken);
    assert.equal((await t.get('/api/auth/me', member.token)).status, 200);
  });
});
