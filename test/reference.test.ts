import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let member: { token: string; user: any };
before(async () => {
  t = await startTestApp();
  member = await t.register('Mia Member');
});
after(() => t.close());

describe('GET /api/teams', () => {
  test('lists the seeded team with its fields', async () => {
    const res = await t.get('/api/teams', member.token);
    assert.equal(res.status, 200);
    const eng = res.body.teams.find((x: any) => x.key === 'ENG');
    assert.ok(eng);
    for (const k of ['id', 'key', 'name', 'description', 'color', 'createdAt', 'updatedAt'])
      assert.ok(k in eng);
  });

  test('401 without a token', async () => {
    assert.equal((await t.get('/api/teams')).status, 401);
  });

  test('GET /api/teams/:id by id and by key; 404 unknown', async () => {
    const list = await t.get('/api/teams', member.token);
    const eng = list.body.teams[0];
    assert.equal((await t.get(`/api/teams/${eng.id}`, member.token)).body.team.key, eng.key);
    assert.equal((await t.get('/api/teams/eng', member.token)).body.team.id, eng.id);
    assert.equal((await t.get('/api/teams/NOPE', member.token)).status, 404);
    assert.equal((await t.get('/api/teams/00000000-0000-0000-0000-000000000000', member.token)).status, 404);
  });
});

describe('POST /api/teams', () => {
  test('admin creates a team with the default workflow; active users become members', async () => {
    const res = await t.post(
      '/api/teams',
      { key: 'OPS', name: 'Operations', description: 'Keeps the lights on', color: '#112233' },
      t.adminToken,
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.team.key, 'OPS');
    assert.equal(res.body.team.color, '#112233');
    const states = await t.get(`/api/workflow-states?teamId=${res.body.team.id}`, member.token);
    assert.deepEqual(
      states.body.workflowStates.map((s: any) => [s.name, s.type]),
      [
        ['Backlog', 'backlog'],
        ['Todo', 'unstarted'],
        ['In Progress', 'started'],
        ['In Review', 'started'],
        ['Done', 'completed'],
        ['Canceled', 'canceled'],
        ['Duplicate', 'canceled'],
      ],
    );
    const members = await t.ctx.db
      .selectFrom('team_memberships')
      .select('user_id')
      .where('team_id', '=', res.body.team.id)
      .execute();
    assert.ok(members.some((m) => m.user_id === member.user.id));
    // The new team can take issues right away, numbered from 1.
    const issue = await t.post('/api/issues', { title: 'First ops issue', teamId: 'OPS' }, member.token);
    assert.equal(issue.status, 201);
    assert.equal(issue.body.issue.identifier, 'OPS-1');
  });

  test('409 on a duplicate key', async () => {
    assert.equal((await t.post('/api/teams', { key: 'DUP', name: 'A' }, t.adminToken)).status, 201);
    const dup = await t.post('/api/teams', { key: 'DUP', name: 'B' }, t.adminToken);
    assert.equal(dup.status, 409);
    assert.equal(dup.body.error.code, 'CONFLICT');
  });

  for (const [what, body] of [
    ['lower-case key', { key: 'eng2', name: 'X' }],
    ['key starting with a digit', { key: '1AB', name: 'X' }],
    ['key too long', { key: 'ABCDEFGH', name: 'X' }],
    ['missing name', { key: 'ABC' }],
    ['blank name', { key: 'ABC', name: '  ' }],
    ['bad colour', { key: 'ABC', name: 'X', color: 'red' }],
    ['unknown field', { key: 'ABC', name: 'X', owner: 'me' }],
  ] as const) {
    test(`400 for ${what}`, async () => {
      const res = await t.post('/api/teams', body, t.adminToken);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'VALIDATION_FAILED');
    });
  }

  test('403 for members and guests', async () => {
    const guest = await t.userWithRole('guest', { teams: ['ENG'] });
    assert.equal((await t.post('/api/teams', { key: 'MEM', name: 'X' }, member.token)).status, 403);
    assert.equal((await t.post('/api/teams', { key: 'GST', name: 'X' }, guest.token)).status, 403);
  });
});

describe('GET /api/workflow-states', () => {
  test('ordered by team then position; teamId narrows (id or key)', async () => {
    const all = await t.get('/api/workflow-states', member.token);
    assert.equal(all.status, 200);
    const teams = (await t.get('/api/teams', member.token)).body.teams.map((x: any) => x.id);
    const order = all.body.workflowStates.map((s: any) => [teams.indexOf(s.teamId), s.position]);
    const sorted = [...order].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    assert.deepEqual(order, sorted);
    const eng = await t.get('/api/workflow-states?teamId=ENG', member.token);
    assert.equal(eng.body.workflowStates.length, 7);
    assert.ok(eng.body.workflowStates.every((s: any) => s.teamId === teams[0]));
    for (const k of ['id', 'teamId', 'name', 'type', 'color', 'position']) {
      assert.ok(k in eng.body.workflowStates[0]);
    }
  });

  test('404 for an unknown team', async () => {
    const res = await t.get('/api/workflow-states?teamId=00000000-0000-0000-0000-000000000000', member.token);
    assert.equal(res.status, 404);
  });
});

describe('GET /api/labels', () => {
  test('workspace labels are listed; teamId adds that team only', async () => {
    const all = await t.get('/api/labels', member.token);
    assert.equal(all.status, 200);
    const names = all.body.labels.map((l: any) => l.name);
    for (const n of ['Bug', 'Feature', 'Improvement']) assert.ok(names.includes(n));
    const team = await t.post('/api/teams', { key: 'LBL', name: 'Labels team' }, t.adminToken);
    const own = await t.post(
      '/api/labels',
      { name: 'Team only', color: '#aabbcc', teamId: team.body.team.id },
      member.token,
    );
    assert.equal(own.status, 201);
    const eng = await t.get('/api/labels?teamId=ENG', member.token);
    assert.ok(!eng.body.labels.some((l: any) => l.name === 'Team only'));
    assert.ok(eng.body.labels.some((l: any) => l.name === 'Bug'));
    const lbl = await t.get(`/api/labels?teamId=${team.body.team.id}`, member.token);
    const lblNames = lbl.body.labels.map((l: any) => l.name);
    assert.ok(lblNames.includes('Team only') && lblNames.includes('Bug'));
  });

  test('404 for an unknown team', async () => {
    assert.equal((await t.get('/api/labels?teamId=NOPE', member.token)).status, 404);
  });
});

test('the OpenAPI document describes the issue-tracking routes', async () => {
  const res = await t.get('/api/openapi.json');
  assert.equal(res.status, 200);
  for (const path of [
    '/api/issues',
    '/api/issues/{id}',
    '/api/issues/{id}/comments',
    '/api/comments/{id}',
    '/api/teams',
    '/api/workflow-states',
    '/api/labels',
    '/api/labels/{id}',
  ]) {
    assert.ok(res.body.paths[path], path);
  }
});
