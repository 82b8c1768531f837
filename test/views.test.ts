// Saved views over REST: personal and shared views, who sees and changes
// them (owner, admin, other member, guest, a private team), validation of
// filterData (the issue-list filter compiler) and display, and the order of
// checks: not found, then forbidden, then bad input; a refused request
// changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let owner: { token: string; user: any };
let other: { token: string; user: any };
let guest: { token: string; user: any };
let engId: string;
let vaultId: string;

before(async () => {
  t = await startTestApp();
  owner = await t.userWithRole('member', { teams: ['ENG'] });
  other = await t.userWithRole('member', { teams: ['ENG'] });
  guest = await t.userWithRole('guest', { teams: ['ENG'] });
  engId = (await t.get('/api/teams/ENG', t.adminToken)).body.team.id;
  const vault = await t.post('/api/teams', { name: 'Vault', key: 'VLT', private: true }, t.adminToken);
  assert.equal(vault.status, 201, JSON.stringify(vault.body));
  vaultId = vault.body.team.id;
  assert.equal(
    (await t.post(`/api/teams/VLT/members`, { userId: owner.user.id }, t.adminToken)).status < 300,
    true,
  );
});
after(() => t.close());

async function view(body: Record<string, unknown>, token = owner.token) {
  const res = await t.post('/api/views', { name: 'A view', ...body }, token);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.view;
}

const count = async () =>
  Number(
    (
      await t.ctx.db
        .selectFrom('custom_views')
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const ids = async (token: string, query = '') =>
  ((await t.get(`/api/views${query}`, token)).body.views as { id: string }[]).map((v) => v.id);

describe('REST /api/views', () => {
  test('a personal view: its owner reads, lists, changes and deletes it; nobody else sees it, admins included', async () => {
    const v = await view({
      name: '  My bugs ',
      filterData: { assignee: { isMe: { eq: true } }, priority: { lte: 2 } },
      display: { group: 'state', order: 'priority', properties: ['identifier', 'assignee'] },
      color: '#5E6AD2',
    });
    assert.equal(v.name, 'My bugs');
    assert.equal(v.shared, false);
    assert.equal(v.ownerId, owner.user.id);
    assert.equal(v.creatorId, owner.user.id);
    assert.equal(v.teamId, null);
    assert.equal(v.color, '#5e6ad2');
    assert.match(v.slugId, /^[0-9a-f]{12}$/);
    assert.deepEqual(v.filterData, { assignee: { isMe: { eq: true } }, priority: { lte: 2 } });
    assert.deepEqual(v.display, {
      group: 'state',
      order: 'priority',
      properties: ['identifier', 'assignee'],
    });

    assert.equal((await t.get(`/api/views/${v.id}`, owner.token)).body.view.name, 'My bugs');
    for (const token of [other.token, t.adminToken, guest.token]) {
      assert.equal((await t.get(`/api/views/${v.id}`, token)).status, 404);
      assert.equal((await ids(token)).includes(v.id), false);
      assert.equal((await t.patch(`/api/views/${v.id}`, { name: 'x' }, token)).status, 404);
      assert.equal((await t.del(`/api/views/${v.id}`, token)).status, 404);
    }
    assert.equal((await ids(owner.token)).includes(v.id), true);

    const changed = await t.patch(
      `/api/views/${v.id}`,
      { name: 'Mine', description: 'what I do' },
      owner.token,
    );
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal(changed.body.view.name, 'Mine');
    assert.equal(changed.body.view.description, 'what I do');
    assert.ok(changed.body.view.updatedAt > v.updatedAt);

    const gone = await t.del(`/api/views/${v.id}`, owner.token);
    assert.deepEqual(gone.body, { ok: true, id: v.id });
    assert.equal((await t.get(`/api/views/${v.id}`, owner.token)).status, 404);
  });

  test("a workspace view (shared, no team) is every member's and admin's, not a guest's", async () => {
    const v = await view({ name: 'Everything open', shared: true });
    for (const token of [owner.token, other.token, t.adminToken]) {
      assert.equal((await t.get(`/api/views/${v.id}`, token)).status, 200);
      assert.equal((await ids(token, '?shared=true')).includes(v.id), true);
    }
    assert.equal((await t.get(`/api/views/${v.id}`, guest.token)).status, 404);
    assert.equal((await ids(other.token, '?shared=false')).includes(v.id), false);
  });

  test("a team's shared view follows the team: a guest of ENG sees ENG's, a member outside a private team does not", async () => {
    const eng = await view({ name: 'ENG board', shared: true, teamId: 'ENG' });
    assert.equal(eng.teamId, engId);
    const vault = await view({ name: 'Vault board', shared: true, teamId: vaultId });
    assert.equal((await t.get(`/api/views/${eng.id}`, guest.token)).status, 200);
    assert.equal((await ids(guest.token, `?teamId=${engId}`)).includes(eng.id), true);
    assert.equal((await t.get(`/api/views/${vault.id}`, other.token)).status, 404);
    assert.equal((await t.get(`/api/views/${vault.id}`, guest.token)).status, 404);
    assert.equal((await t.get(`/api/views/${vault.id}`, t.adminToken)).status, 200);
    assert.deepEqual(await ids(owner.token, `?teamId=${vaultId}`), [vault.id]);
    // The team filter narrows; it never widens what the caller sees.
    assert.deepEqual(await ids(other.token, `?teamId=${vaultId}`), []);
  });

  test('a shared view is changed and deleted by its owner or an admin, not by other members', async () => {
    const v = await view({ name: 'Team triage', shared: true, teamId: 'ENG' });
    const refused = await t.patch(`/api/views/${v.id}`, { name: 'Mine now' }, other.token);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'FORBIDDEN');
    assert.equal((await t.del(`/api/views/${v.id}`, other.token)).status, 403);
    assert.equal((await t.del(`/api/views/${v.id}`, guest.token)).status, 403);
    assert.equal((await t.get(`/api/views/${v.id}`, owner.token)).body.view.name, 'Team triage');

    const byAdmin = await t.patch(`/api/views/${v.id}`, { name: 'Triage' }, t.adminToken);
    assert.equal(byAdmin.status, 200);
    assert.equal(byAdmin.body.view.name, 'Triage');
    assert.equal(byAdmin.body.view.ownerId, owner.user.id);
    assert.equal((await t.del(`/api/views/${v.id}`, t.adminToken)).status, 200);
    assert.equal((await t.get(`/api/views/${v.id}`, owner.token)).status, 404);
  });

  test("an admin who unshares someone's view is answered with what they saved, then no longer sees it", async () => {
    const v = await view({ name: 'Soon personal', shared: true, teamId: 'ENG' });
    const unshared = await t.patch(`/api/views/${v.id}`, { shared: false }, t.adminToken);
    assert.equal(unshared.status, 200, JSON.stringify(unshared.body));
    assert.equal(unshared.body.view.shared, false);
    assert.equal(unshared.body.view.ownerId, owner.user.id);
    assert.equal(unshared.body.view.name, 'Soon personal');
    assert.equal((await t.get(`/api/views/${v.id}`, t.adminToken)).status, 404);
    assert.deepEqual((await t.get(`/api/views/${v.id}`, owner.token)).body.view, unshared.body.view);
  });

  test('guests keep personal views but cannot share them', async () => {
    const before = await count();
    const refused = await t.post('/api/views', { name: 'Guest share', shared: true }, guest.token);
    assert.equal(refused.status, 403);
    assert.equal(await count(), before);
    const mine = await view({ name: 'Guest own', teamId: 'ENG' }, guest.token);
    assert.equal((await t.patch(`/api/views/${mine.id}`, { shared: true }, guest.token)).status, 403);
    assert.equal((await t.get(`/api/views/${mine.id}`, guest.token)).body.view.shared, false);
    assert.equal(
      (await t.patch(`/api/views/${mine.id}`, { name: 'Guest renamed' }, guest.token)).status,
      200,
    );
  });

  test('bad filterData or display: 400 naming the field, nothing saved or changed', async () => {
    const before = await count();
    const cases: [Record<string, unknown>, string][] = [
      [{ filterData: { bogus: { eq: 1 } } }, '/filterData.bogus'],
      [{ filterData: { createdAt: { gt: 'not a date' } } }, '/filterData.createdAt.gt'],
      [{ filterData: { dueDate: { eq: '2024-02-30' } } }, '/filterData.dueDate.eq'],
      [{ filterData: { title: { contains: 'x'.repeat(1_001) } } }, '/filterData.title.contains'],
      [{ display: { group: 'mood' } }, '/display/group'],
      [{ display: { properties: ['state', 'state'] } }, '/display/properties'],
      [{ display: { layout: 'board' } }, '/display'],
      [{ teamId: vaultId }, '/teamId'],
      [{ name: '   ' }, '/name'],
      [{ color: 'blue' }, '/color'],
    ];
    for (const [body, field] of cases) {
      const res = await t.post('/api/views', { name: 'Bad', ...body }, other.token);
      assert.equal(res.status, 400, `${JSON.stringify(body).slice(0, 80)}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'VALIDATION_FAILED');
      assert.ok(
        res.body.error.details.some((d: { field: string }) => d.field.startsWith(field)),
        `${field}: ${JSON.stringify(res.body.error.details)}`,
      );
    }
    assert.equal(await count(), before);

    const v = await view({ name: 'Keeps its filter', filterData: { priority: { eq: 1 } } });
    const res = await t.patch(
      `/api/views/${v.id}`,
      { filterData: { priority: { eq: 'high' } } },
      owner.token,
    );
    assert.equal(res.status, 400);
    assert.equal(res.body.error.details[0].field, '/filterData.priority.eq');
    assert.deepEqual((await t.get(`/api/views/${v.id}`, owner.token)).body.view.filterData, {
      priority: { eq: 1 },
    });
  });

  test('authorization comes before validation: hidden is 404, not allowed is 403, whatever the input', async () => {
    const personal = await view({ name: 'Private one' });
    const shared = await view({ name: 'Shared one', shared: true });
    const bad = { filterData: { bogus: { eq: 1 } } };
    assert.equal((await t.patch(`/api/views/${personal.id}`, bad, other.token)).status, 404);
    assert.equal((await t.patch(`/api/views/${shared.id}`, bad, other.token)).status, 403);
    assert.equal((await t.post('/api/views', { name: 'G', shared: true, ...bad }, guest.token)).status, 403);
    assert.equal((await t.patch(`/api/views/${shared.id}`, bad, owner.token)).status, 400);
  });

  test('ownerId: only an admin names someone else, and only for a shared view', async () => {
    const member = await t.post(
      '/api/views',
      { name: 'For you', shared: true, ownerId: other.user.id },
      owner.token,
    );
    assert.equal(member.status, 403);
    const personal = await t.post('/api/views', { name: 'For you', ownerId: other.user.id }, t.adminToken);
    assert.equal(personal.status, 400);
    assert.equal(personal.body.error.details[0].field, '/ownerId');
    const toGuest = await t.post(
      '/api/views',
      { name: 'For you', shared: true, ownerId: guest.user.id },
      t.adminToken,
    );
    assert.equal(toGuest.status, 400);
    const handed = await view({ name: 'Handed over', shared: true, ownerId: other.user.id }, t.adminToken);
    assert.equal(handed.ownerId, other.user.id);
    assert.equal(handed.creatorId, (await t.get('/api/auth/me', t.adminToken)).body.user.id);
    assert.equal(
      (await t.patch(`/api/views/${handed.id}`, { name: 'Renamed by owner' }, other.token)).status,
      200,
    );
  });

  test('lists page newest first with a total', async () => {
    const a = await view({ name: 'Page A' }, guest.token);
    const b = await view({ name: 'Page B' }, guest.token);
    const first = await t.get('/api/views?limit=1', guest.token);
    assert.equal(first.status, 200);
    assert.deepEqual(
      first.body.views.map((v: { id: string }) => v.id),
      [b.id],
    );
    assert.ok(first.body.pageInfo.total >= 2);
    const second = await t.get('/api/views?limit=1&offset=1', guest.token);
    assert.deepEqual(
      second.body.views.map((v: { id: string }) => v.id),
      [a.id],
    );
    assert.equal((await t.get('/api/views?teamId=ENG', guest.token)).status, 400);
  });
});
