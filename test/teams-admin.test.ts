// Team management over REST: changing a team (its key above all: identifiers
// must keep resolving), archiving, memberships, who joins automatically, and
// who may do any of it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let member: { token: string; user: any };
let guest: { token: string; user: any };
before(async () => {
  t = await startTestApp();
  member = await t.register('Mia Member');
  guest = await t.userWithRole('guest');
});
after(() => t.close());

async function newTeam(key: string, extra: Record<string, unknown> = {}) {
  const res = await t.post('/api/teams', { key, name: `Team ${key}`, ...extra }, t.adminToken);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.team;
}

const memberIds = async (team: string) =>
  (await t.get(`/api/teams/${team}/members`, t.adminToken)).body.members.map((m: any) => m.userId);

describe('changing a team key', () => {
  test('old and new identifiers both resolve; new issues take the new key', async () => {
    const team = await newTeam('RNM');
    const first = await t.post('/api/issues', { title: 'Before', teamId: team.id }, member.token);
    const second = await t.post('/api/issues', { title: 'Also before', teamId: 'RNM' }, member.token);
    assert.equal(first.body.issue.identifier, 'RNM-1');

    const res = await t.patch(`/api/teams/${team.id}`, { key: 'CORE' }, t.adminToken);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.team.key, 'CORE');

    for (const ident of ['RNM-1', 'CORE-1', 'rnm-1', 'core-1']) {
      const got = await t.get(`/api/issues/${ident}`, member.token);
      assert.equal(got.status, 200, ident);
      assert.equal(got.body.issue.id, first.body.issue.id);
      assert.equal(got.body.issue.identifier, 'CORE-1');
    }
    assert.equal((await t.get('/api/issues/RNM-2', member.token)).body.issue.id, second.body.issue.id);

    const third = await t.post('/api/issues', { title: 'After', teamId: team.id }, member.token);
    assert.equal(third.body.issue.identifier, 'CORE-3');
    // The team answers to its former key as well; lists filtered by it still work.
    assert.equal((await t.get('/api/teams/RNM', member.token)).body.team.id, team.id);
    const listed = await t.get('/api/issues?teamId=RNM', member.token);
    assert.equal(listed.body.pageInfo.total, 3);
  });

  test('renaming back and forth keeps every identifier on its issue', async () => {
    const team = await newTeam('AAA');
    const issue = (await t.post('/api/issues', { title: 'x', teamId: team.id }, member.token)).body.issue;
    assert.equal((await t.patch(`/api/teams/${team.id}`, { key: 'BBB' }, t.adminToken)).status, 200);
    assert.equal((await t.patch(`/api/teams/${team.id}`, { key: 'AAA' }, t.adminToken)).status, 200);
    for (const ident of ['AAA-1', 'BBB-1']) {
      assert.equal((await t.get(`/api/issues/${ident}`, member.token)).body.issue.id, issue.id);
    }
    assert.equal((await t.get(`/api/issues/${issue.id}`, member.token)).body.issue.identifier, 'AAA-1');
  });

  test('a key another team holds or once held is a 409, and nothing changes', async () => {
    const a = await newTeam('OLDA');
    const b = await newTeam('OLDB');
    await t.post('/api/issues', { title: 'x', teamId: a.id }, member.token);
    assert.equal((await t.patch(`/api/teams/${a.id}`, { key: 'NEWA' }, t.adminToken)).status, 200);
    for (const key of ['OLDA', 'NEWA', 'ENG']) {
      const res = await t.patch(`/api/teams/${b.id}`, { key }, t.adminToken);
      assert.equal(res.status, 409, key);
      assert.equal(res.body.error.code, 'CONFLICT');
      assert.equal(res.body.error.details?.[0]?.field, '/key', 'the form can show it next to the key');
      const created = await t.post('/api/teams', { key, name: 'Taken' }, t.adminToken);
      assert.equal(created.status, 409, key);
    }
    assert.equal((await t.get(`/api/teams/${b.id}`, member.token)).body.team.key, 'OLDB');
    // OLDA-1 still names team A's issue.
    const old = await t.get('/api/issues/OLDA-1', member.token);
    assert.equal(old.body.issue.identifier, 'NEWA-1');
  });

  test('issues created while the key changes all end up with the new key, numbered without gaps', async () => {
    // On PostgreSQL the creations really run beside the change (they queue on the
    // team row's lock); on PGlite they take turns. Either way none keeps the old key.
    const team = await newTeam('RACE');
    const creations = Array.from({ length: 8 }, (_, i) =>
      t.post('/api/issues', { title: `Racing ${i}`, teamId: team.id }, member.token),
    );
    const [rename, ...created] = await Promise.all([
      t.patch(`/api/teams/${team.id}`, { key: 'RACED' }, t.adminToken),
      ...creations,
    ]);
    assert.equal(rename.status, 200);
    const numbers: number[] = [];
    for (const res of created) {
      assert.equal(res.status, 201);
      const now = (await t.get(`/api/issues/${res.body.issue.id}`, member.token)).body.issue;
      assert.equal(now.identifier, `RACED-${now.number}`);
      // Whichever key it was created under resolves to it.
      assert.equal(
        (await t.get(`/api/issues/${res.body.issue.identifier}`, member.token)).body.issue.id,
        now.id,
      );
      assert.equal((await t.get(`/api/issues/RACED-${now.number}`, member.token)).body.issue.id, now.id);
      numbers.push(now.number);
    }
    assert.deepEqual(
      numbers.sort((a, b) => a - b),
      [1, 2, 3, 4, 5, 6, 7, 8],
    );
  });

  for (const [what, body] of [
    ['a lower-case key', { key: 'core' }],
    ['a key starting with a digit', { key: '9AB' }],
    ['a key too long', { key: 'ABCDEFGH' }],
    ['a blank name', { name: ' ' }],
    ['a bad colour', { color: 'blue' }],
    ['an unknown time zone', { timezone: 'Mars/Olympus' }],
    ['an unknown field', { owner: true }],
    ['nothing', {}],
  ] as const) {
    test(`400 for ${what}`, async () => {
      const res = await t.patch('/api/teams/ENG', body, t.adminToken);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'VALIDATION_FAILED');
      assert.equal((await t.get('/api/teams/ENG', member.token)).body.team.name, 'Engineering');
    });
  }
});

describe('PATCH /api/teams/:id', () => {
  test('changes the held settings', async () => {
    const team = await newTeam('SET');
    const res = await t.patch(
      `/api/teams/${team.id}`,
      {
        name: 'Settings',
        description: 'd',
        color: '#AABBCC',
        icon: 'Rocket',
        private: true,
        timezone: 'Europe/Paris',
        cyclesEnabled: false,
      },
      t.adminToken,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const { name, description, color, icon, timezone, cyclesEnabled } = res.body.team;
    assert.deepEqual(
      { name, description, color, icon, private: res.body.team.private, timezone, cyclesEnabled },
      {
        name: 'Settings',
        description: 'd',
        color: '#aabbcc',
        icon: 'Rocket',
        private: true,
        timezone: 'Europe/Paris',
        cyclesEnabled: false,
      },
    );
    assert.equal(
      (await t.patch(`/api/teams/${team.id}`, { description: null }, t.adminToken)).body.team.description,
      null,
    );
  });

  test('404 for an unknown team', async () => {
    assert.equal((await t.patch('/api/teams/NOPE', { name: 'x' }, t.adminToken)).status, 404);
  });
});

describe('archiving a team', () => {
  test('keeps its issues; unarchive brings it back', async () => {
    const team = await newTeam('ARC');
    const issue = (await t.post('/api/issues', { title: 'kept', teamId: team.id }, member.token)).body.issue;
    const res = await t.post(`/api/teams/${team.id}/archive`, {}, t.adminToken);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(res.body.team.archivedAt);
    assert.equal((await t.get(`/api/issues/${issue.id}`, member.token)).status, 200);
    // Its issues can still be edited, but no issue can be created in it or moved to it.
    assert.equal(
      (await t.patch(`/api/issues/${issue.id}`, { title: 'still kept' }, member.token)).status,
      200,
    );
    const elsewhere = (await t.post('/api/issues', { title: 'in ENG', teamId: 'ENG' }, member.token)).body
      .issue;
    for (const res of [
      await t.post('/api/issues', { title: 'new', teamId: team.id }, member.token),
      await t.patch(`/api/issues/${elsewhere.id}`, { teamId: team.id }, member.token),
    ]) {
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.details[0].field, '/teamId');
    }
    const back = await t.post(`/api/teams/${team.id}/unarchive`, {}, t.adminToken);
    assert.equal(back.body.team.archivedAt, null);
  });

  test('the last active team cannot be archived', async () => {
    const teams = (await t.get('/api/teams', t.adminToken)).body.teams.filter((x: any) => !x.archivedAt);
    const [last, ...others] = teams;
    for (const other of others) {
      assert.equal((await t.post(`/api/teams/${other.id}/archive`, {}, t.adminToken)).status, 200);
    }
    const res = await t.post(`/api/teams/${last.id}/archive`, {}, t.adminToken);
    assert.equal(res.status, 400);
    assert.equal((await t.get(`/api/teams/${last.id}`, t.adminToken)).body.team.archivedAt, null);
    for (const other of others) {
      assert.equal((await t.post(`/api/teams/${other.id}/unarchive`, {}, t.adminToken)).status, 200);
    }
  });
});

describe('memberships', () => {
  test('admins add and remove members; the list shows them', async () => {
    const team = await newTeam('MBR', { private: true });
    // A private team starts with its creator only.
    const admin = (await t.get('/api/auth/me', t.adminToken)).body.user;
    assert.deepEqual(await memberIds(team.id), [admin.id]);

    const added = await t.post(`/api/teams/${team.id}/members`, { userId: guest.user.id }, t.adminToken);
    assert.equal(added.status, 201, JSON.stringify(added.body));
    assert.equal(added.body.membership.userId, guest.user.id);
    assert.equal(added.body.membership.owner, false);
    // The private team is there for its new member, and does not exist for a member outside it.
    assert.equal((await t.get(`/api/teams/MBR/members`, member.token)).status, 404);
    const list = await t.get(`/api/teams/MBR/members`, guest.token);
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.members.map((m: any) => [m.userId, m.user.email]),
      [
        [admin.id, admin.email],
        [guest.user.id, guest.user.email],
      ],
    );

    const again = await t.post(`/api/teams/${team.id}/members`, { userId: guest.user.id }, t.adminToken);
    assert.equal(again.status, 409);
    const listed = (await t.get('/api/teams', guest.token)).body.teams.find((x: any) => x.id === team.id);
    assert.equal(listed.memberCount, 2, 'the list of teams counts members');

    const changed = await t.patch(
      `/api/teams/${team.id}/members/${guest.user.id}`,
      { owner: true, sortOrder: 3 },
      t.adminToken,
    );
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual([changed.body.membership.owner, changed.body.membership.sortOrder], [true, 3]);
    assert.equal(
      (await t.patch(`/api/teams/${team.id}/members/${guest.user.id}`, {}, t.adminToken)).status,
      400,
    );
    const notMember = await t.patch(
      `/api/teams/${team.id}/members/${member.user.id}`,
      { owner: true },
      t.adminToken,
    );
    assert.equal(notMember.status, 404);

    assert.equal((await t.del(`/api/teams/${team.id}/members/${guest.user.id}`, t.adminToken)).status, 200);
    assert.deepEqual(await memberIds(team.id), [admin.id]);
    assert.equal((await t.del(`/api/teams/${team.id}/members/${guest.user.id}`, t.adminToken)).status, 404);
  });

  test('400 for an unknown or deleted user, a malformed id, an archived team; 404 for an unknown team', async () => {
    const team = await newTeam('MBX');
    const gone = await t.userWithRole('member');
    assert.equal((await t.del(`/api/admin/users/${gone.user.id}`, t.adminToken)).status, 200);
    for (const userId of ['00000000-0000-0000-0000-000000000000', gone.user.id]) {
      const res = await t.post(`/api/teams/${team.id}/members`, { userId }, t.adminToken);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.details[0].field, '/userId');
    }
    assert.equal((await t.post(`/api/teams/${team.id}/members`, { userId: 'x' }, t.adminToken)).status, 400);
    assert.equal(
      (await t.post('/api/teams/NOPE/members', { userId: guest.user.id }, t.adminToken)).status,
      404,
    );
    await t.post(`/api/teams/${team.id}/archive`, {}, t.adminToken);
    const archived = await t.post(`/api/teams/${team.id}/members`, { userId: guest.user.id }, t.adminToken);
    assert.equal(archived.status, 400);
  });

  test('guests join no team until added; members join every public team', async () => {
    const g = await t.userWithRole('guest');
    const m = await t.userWithRole('member');
    const teams = (await t.get('/api/teams', t.adminToken)).body.teams;
    for (const team of teams) {
      const ids = await memberIds(team.id);
      assert.equal(ids.includes(g.user.id), false, team.key);
      assert.equal(ids.includes(m.user.id), !team.private && !team.archivedAt, team.key);
    }
    // A new public team takes members and admins, not guests.
    const fresh = await newTeam('NEWP');
    const ids = await memberIds(fresh.id);
    assert.ok(ids.includes(m.user.id));
    assert.ok(ids.includes(member.user.id));
    assert.equal(ids.includes(g.user.id), false);
    assert.equal(ids.includes(guest.user.id), false);
  });
});

describe('who may manage teams', () => {
  test('members and guests get 403 on every write, and nothing changes', async () => {
    const team = await newTeam('ROLE');
    for (const who of [member, guest]) {
      const writes = [
        t.patch(`/api/teams/${team.id}`, { name: 'Hijacked' }, who.token),
        t.post(`/api/teams/${team.id}/archive`, {}, who.token),
        t.post(`/api/teams/${team.id}/unarchive`, {}, who.token),
        t.post(`/api/teams/${team.id}/members`, { userId: who.user.id }, who.token),
        t.patch(`/api/teams/${team.id}/members/${member.user.id}`, { owner: true }, who.token),
        t.del(`/api/teams/${team.id}/members/${member.user.id}`, who.token),
      ];
      for (const res of await Promise.all(writes)) {
        assert.equal(res.status, 403, JSON.stringify(res.body));
        assert.equal(res.body.error.code, 'FORBIDDEN');
      }
    }
    const after = (await t.get(`/api/teams/${team.id}`, member.token)).body.team;
    assert.equal(after.name, 'Team ROLE');
    assert.equal(after.archivedAt, null);
    assert.ok((await memberIds(team.id)).includes(member.user.id));
  });
});
