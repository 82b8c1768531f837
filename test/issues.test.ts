import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let member: { token: string; user: any };
let guest: { token: string; user: any };
let eng: any;
let states: Record<string, any>;
let labels: Record<string, any>;
const NO_ID = '00000000-0000-0000-0000-000000000000';

const create = (body: Record<string, unknown>, token = member.token) => t.post('/api/issues', body, token);

async function events(type: string, action: string) {
  const rows = await t.ctx.db
    .selectFrom('webhook_events')
    .selectAll()
    .where('type', '=', type)
    .where('action', '=', action)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.payload as any);
}

before(async () => {
  t = await startTestApp();
  member = await t.register('Grace Hopper');
  guest = await t.userWithRole('guest', { teams: ['ENG'] });
  eng = (await t.get('/api/teams/ENG', member.token)).body.team;
  const s = await t.get('/api/workflow-states?teamId=ENG', member.token);
  states = Object.fromEntries(s.body.workflowStates.map((x: any) => [x.name, x]));
  const l = await t.get('/api/labels', member.token);
  labels = Object.fromEntries(l.body.labels.map((x: any) => [x.name, x]));
});
after(() => t.close());

describe('POST /api/issues', () => {
  test('creates with defaults: first team, backlog state, identifier, url, branch name', async () => {
    const res = await create({ title: 'Fix the login page' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const i = res.body.issue;
    assert.equal(i.teamId, eng.id);
    assert.equal(i.stateId, states['Backlog'].id);
    assert.match(i.identifier, /^ENG-\d+$/);
    assert.equal(i.identifier, `ENG-${i.number}`);
    assert.equal(i.priority, 0);
    assert.equal(i.priorityLabel, 'No priority');
    assert.deepEqual(i.labelIds, []);
    assert.equal(i.creatorId, member.user.id);
    assert.equal(i.assigneeId, null);
    assert.equal(i.url, `http://trackway.test/issue/${i.identifier}/fix-the-login-page`);
    assert.equal(i.branchName, `grace/${i.identifier.toLowerCase()}-fix-the-login-page`);
    for (const k of ['createdAt', 'updatedAt', 'startedAt', 'completedAt', 'canceledAt', 'archivedAt']) {
      assert.ok(k in i, k);
    }
    const subs = await t.ctx.db
      .selectFrom('issue_subscribers')
      .selectAll()
      .where('issue_id', '=', i.id)
      .execute();
    assert.deepEqual(
      subs.map((x) => x.user_id),
      [member.user.id],
    );
  });

  test('takes every field; team by key; assignee subscribed and names the branch', async () => {
    const admin = (await t.get('/api/auth/me', t.adminToken)).body.user;
    const res = await create({
      title: 'Ship the café menu',
      teamId: 'ENG',
      description: 'Some **markdown**',
      priority: 2,
      estimate: 3,
      dueDate: '2030-01-31',
      stateId: states['In Progress'].id,
      assigneeId: admin.id,
      labelIds: [labels['Bug'].id, labels['Feature'].id, labels['Bug'].id],
      sortOrder: 12.5,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const i = res.body.issue;
    assert.equal(i.description, 'Some **markdown**');
    assert.equal(i.priorityLabel, 'High');
    assert.equal(i.estimate, 3);
    assert.equal(i.dueDate, '2030-01-31');
    assert.equal(i.stateId, states['In Progress'].id);
    assert.ok(i.startedAt, 'started state sets startedAt');
    assert.equal(i.assigneeId, admin.id);
    assert.deepEqual([...i.labelIds].sort(), [labels['Bug'].id, labels['Feature'].id].sort());
    assert.equal(i.sortOrder, 12.5);
    assert.equal(i.branchName, `admin/${i.identifier.toLowerCase()}-ship-the-cafe-menu`);
    const subs = await t.ctx.db
      .selectFrom('issue_subscribers')
      .selectAll()
      .where('issue_id', '=', i.id)
      .execute();
    assert.equal(subs.length, 2);
  });

  test('a long title gives a slug of at most 40 characters', async () => {
    const res = await create({ title: 'A very long title that goes on and on well past forty characters' });
    const slug = res.body.issue.url.split('/').pop();
    assert.ok(slug.length <= 40 && slug.length > 20, slug);
    assert.ok(!slug.endsWith('-'));
  });

  const bad: [string, unknown, string][] = [
    ['missing title', {}, '/title'],
    ['blank title', { title: '   ' }, '/title'],
    ['title too long', { title: 'x'.repeat(513) }, '/title'],
    ['numeric title', { title: 42 }, '/title'],
    ['priority 5', { title: 'x', priority: 5 }, '/priority'],
    ['priority as string', { title: 'x', priority: '1' }, '/priority'],
    ['fractional priority', { title: 'x', priority: 1.5 }, '/priority'],
    ['bad due date', { title: 'x', dueDate: '2030-02-30' }, '/dueDate'],
    ['labelIds not an array', { title: 'x', labelIds: 'abc' }, '/labelIds'],
    ['malformed assigneeId', { title: 'x', assigneeId: 'nobody' }, '/assigneeId'],
    ['unknown field', { title: 'x', status: 'open' }, '/status'],
    ['unknown team', { title: 'x', teamId: 'NOPE' }, '/teamId'],
    ['unknown state', { title: 'x', stateId: NO_ID }, '/stateId'],
    ['unknown assignee', { title: 'x', assigneeId: NO_ID }, '/assigneeId'],
    ['unknown project', { title: 'x', projectId: NO_ID }, '/projectId'],
    ['unknown cycle', { title: 'x', cycleId: NO_ID }, '/cycleId'],
    ['unknown parent', { title: 'x', parentId: 'ENG-99999' }, '/parentId'],
    ['unknown label', { title: 'x', labelIds: [NO_ID] }, '/labelIds/0'],
  ];
  for (const [what, body, field] of bad) {
    test(`400 for ${what}, naming ${field}`, async () => {
      const before = await t.ctx.db.selectFrom('issues').select('id').execute();
      const res = await create(body as Record<string, unknown>);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'VALIDATION_FAILED');
      assert.ok(
        res.body.error.details.some((d: any) => d.field === field),
        JSON.stringify(res.body.error.details),
      );
      const afterRows = await t.ctx.db.selectFrom('issues').select('id').execute();
      assert.equal(afterRows.length, before.length, 'nothing created');
    });
  }

  test('400 for a state or a label of another team', async () => {
    const team = await t.post('/api/teams', { key: 'OTH', name: 'Other' }, t.adminToken);
    const oth = team.body.team;
    const othStates = (await t.get(`/api/workflow-states?teamId=${oth.id}`, member.token)).body
      .workflowStates;
    const othLabel = await t.post(
      '/api/labels',
      { name: 'Oth only', color: '#123456', teamId: oth.id },
      member.token,
    );
    const s = await create({ title: 'x', teamId: 'ENG', stateId: othStates[0].id });
    assert.equal(s.status, 400);
    assert.equal(s.body.error.details[0].field, '/stateId');
    const l = await create({ title: 'x', teamId: 'ENG', labelIds: [othLabel.body.label.id] });
    assert.equal(l.status, 400);
    assert.equal(l.body.error.details[0].field, '/labelIds/0');
    const ok = await create({ title: 'x', teamId: 'OTH', labelIds: [othLabel.body.label.id] });
    assert.equal(ok.status, 201);
    assert.equal(ok.body.issue.identifier, 'OTH-1');
    assert.equal(ok.body.issue.stateId, othStates[0].id);
  });

  test('403 for guests', async () => {
    const res = await create({ title: 'Guest issue' }, guest.token);
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'FORBIDDEN');
  });

  test('401 without a token', async () => {
    assert.equal((await t.post('/api/issues', { title: 'x' })).status, 401);
  });

  test('writes an issue.create event with the presented issue', async () => {
    const res = await create({ title: 'Evented issue' });
    const evs = await events('issue', 'create');
    const ev = evs.find((e) => e.data.id === res.body.issue.id);
    assert.ok(ev);
    assert.equal(ev.data.identifier, res.body.issue.identifier);
    assert.equal(ev.data.title, 'Evented issue');
    assert.equal(ev.actor.id, member.user.id);
    assert.equal(ev.url, res.body.issue.url);
  });
});

describe('GET /api/issues/:id', () => {
  test('by id, by identifier, case-insensitive key', async () => {
    const i = (await create({ title: 'Find me' })).body.issue;
    for (const key of [i.id, i.identifier, i.identifier.toLowerCase()]) {
      const res = await t.get(`/api/issues/${key}`, guest.token);
      assert.equal(res.status, 200, key);
      assert.equal(res.body.issue.id, i.id);
    }
  });

  test('404 for unknown ids and identifiers', async () => {
    for (const key of [NO_ID, 'ENG-999999', 'nonsense', 'ZZZ-1']) {
      const res = await t.get(`/api/issues/${key}`, member.token);
      assert.equal(res.status, 404, key);
      assert.equal(res.body.error.code, 'NOT_FOUND');
    }
  });
});

describe('PATCH /api/issues/:id', () => {
  test('partial update; null clears; history and issue.update event with updatedFrom', async () => {
    const admin = (await t.get('/api/auth/me', t.adminToken)).body.user;
    const i = (
      await create({
        title: 'Patch me',
        description: 'before',
        estimate: 2,
        dueDate: '2030-05-01',
        assigneeId: admin.id,
        labelIds: [labels['Bug'].id],
      })
    ).body.issue;
    const res = await t.patch(
      `/api/issues/${i.identifier}`,
      { title: 'Patched', priority: 1, description: null, estimate: null, dueDate: null, assigneeId: null },
      member.token,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const u = res.body.issue;
    assert.equal(u.title, 'Patched');
    assert.equal(u.priority, 1);
    assert.equal(u.priorityLabel, 'Urgent');
    assert.equal(u.description, null);
    assert.equal(u.estimate, null);
    assert.equal(u.dueDate, null);
    assert.equal(u.assigneeId, null);
    assert.deepEqual(u.labelIds, [labels['Bug'].id], 'absent labelIds keep the set');
    assert.equal(u.branchName, `grace/${i.identifier.toLowerCase()}-patched`);

    const hist = await t.get(`/api/issues/${i.id}/history`, member.token);
    assert.equal(hist.status, 200);
    const last = hist.body.history.at(-1);
    assert.deepEqual(last.changes.title, { from: 'Patch me', to: 'Patched' });
    assert.deepEqual(last.changes.assigneeId, { from: admin.id, to: null });
    assert.equal(last.actorId, member.user.id);

    const ev = (await events('issue', 'update')).filter((e) => e.data.id === i.id).at(-1);
    assert.equal(ev.data.title, 'Patched');
    assert.equal(ev.updatedFrom.title, 'Patch me');
    assert.equal(ev.updatedFrom.priority, 0);
    assert.equal(ev.updatedFrom.description, 'before');
    assert.equal(ev.updatedFrom.assigneeId, admin.id);
    assert.ok(!('stateId' in ev.updatedFrom), 'unchanged fields are not in updatedFrom');
  });

  test('labelIds replaces the set; an unchanged patch writes no event', async () => {
    const i = (await create({ title: 'Labels', labelIds: [labels['Bug'].id] })).body.issue;
    const res = await t.patch(`/api/issues/${i.id}`, { labelIds: [labels['Feature'].id] }, member.token);
    assert.deepEqual(res.body.issue.labelIds, [labels['Feature'].id]);
    const cleared = await t.patch(`/api/issues/${i.id}`, { labelIds: [] }, member.token);
    assert.deepEqual(cleared.body.issue.labelIds, []);
    const count = (await events('issue', 'update')).length;
    const same = await t.patch(`/api/issues/${i.id}`, { title: 'Labels', labelIds: [] }, member.token);
    assert.equal(same.status, 200);
    assert.equal((await events('issue', 'update')).length, count);
  });

  test('state type changes set and clear startedAt, completedAt, canceledAt', async () => {
    const i = (await create({ title: 'Lifecycle' })).body.issue;
    assert.equal(i.startedAt, null);
    const move = (name: string) => t.patch(`/api/issues/${i.id}`, { stateId: states[name].id }, member.token);
    const started = (await move('In Progress')).body.issue;
    assert.ok(started.startedAt);
    const review = (await move('In Review')).body.issue;
    assert.equal(review.startedAt, started.startedAt, 'started -> started keeps startedAt');
    const done = (await move('Done')).body.issue;
    assert.ok(done.completedAt);
    assert.equal(done.startedAt, started.startedAt);
    const reopened = (await move('Todo')).body.issue;
    assert.equal(reopened.completedAt, null);
    const canceled = (await move('Canceled')).body.issue;
    assert.ok(canceled.canceledAt);
    const back = (await move('Backlog')).body.issue;
    assert.equal(back.canceledAt, null);
    assert.equal(back.completedAt, null);
  });

  test('moving teams: new identifier, old one still resolves, state mapped by type', async () => {
    await t.post('/api/teams', { key: 'MOV', name: 'Move target' }, t.adminToken);
    const movStates = (await t.get('/api/workflow-states?teamId=MOV', member.token)).body.workflowStates;
    const i = (await create({ title: 'Traveller', stateId: states['In Review'].id })).body.issue;
    const res = await t.patch(`/api/issues/${i.identifier}`, { teamId: 'MOV' }, member.token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const m = res.body.issue;
    assert.equal(m.identifier, 'MOV-1');
    assert.equal(m.number, 1);
    const firstStarted = movStates.find((s: any) => s.type === 'started');
    assert.equal(m.stateId, firstStarted.id);
    for (const key of [i.identifier, i.identifier.toLowerCase(), 'MOV-1', 'mov-1', i.id]) {
      const got = await t.get(`/api/issues/${key}`, member.token);
      assert.equal(got.status, 200, key);
      assert.equal(got.body.issue.identifier, 'MOV-1');
    }
    // With an explicit state, and back again: a third identifier, all three resolve.
    const back = await t.patch(
      `/api/issues/MOV-1`,
      { teamId: eng.id, stateId: states['Todo'].id },
      member.token,
    );
    assert.equal(back.status, 200);
    assert.equal(back.body.issue.stateId, states['Todo'].id);
    assert.notEqual(back.body.issue.identifier, i.identifier);
    assert.equal((await t.get(`/api/issues/${i.identifier}`, member.token)).body.issue.id, i.id);
    assert.equal((await t.get('/api/issues/MOV-1', member.token)).body.issue.id, i.id);
  });

  test('parent: set, clear, and no cycles', async () => {
    const a = (await create({ title: 'Parent' })).body.issue;
    const b = (await create({ title: 'Child', parentId: a.id })).body.issue;
    assert.equal(b.parentId, a.id);
    const c = (await create({ title: 'Grandchild', parentId: b.identifier })).body.issue;
    assert.equal(c.parentId, b.id);
    const self = await t.patch(`/api/issues/${a.id}`, { parentId: a.id }, member.token);
    assert.equal(self.status, 400);
    assert.equal(self.body.error.details[0].field, '/parentId');
    const loop = await t.patch(`/api/issues/${a.id}`, { parentId: c.id }, member.token);
    assert.equal(loop.status, 400);
    const cleared = await t.patch(`/api/issues/${b.id}`, { parentId: null }, member.token);
    assert.equal(cleared.body.issue.parentId, null);
  });

  test('errors: 404 unknown, 400 bad input, 403 guest, empty body', async () => {
    const i = (await create({ title: 'Guarded' })).body.issue;
    assert.equal((await t.patch(`/api/issues/${NO_ID}`, { title: 'x' }, member.token)).status, 404);
    assert.equal((await t.patch('/api/issues/ENG-999999', { title: 'x' }, member.token)).status, 404);
    const cases: [unknown, string][] = [
      [{ title: '' }, '/title'],
      [{ priority: -1 }, '/priority'],
      [{ stateId: NO_ID }, '/stateId'],
      [{ assigneeId: NO_ID }, '/assigneeId'],
      [{ labelIds: [labels['Bug'].id, NO_ID] }, '/labelIds/1'],
      [{ teamId: 'NOPE' }, '/teamId'],
      [{ title: null }, '/title'],
    ];
    for (const [body, field] of cases) {
      const res = await t.patch(`/api/issues/${i.id}`, body, member.token);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.ok(
        res.body.error.details.some((d: any) => d.field === field),
        JSON.stringify(res.body),
      );
    }
    assert.equal((await t.patch(`/api/issues/${i.id}`, {}, member.token)).status, 400);
    const g = await t.patch(`/api/issues/${i.id}`, { title: 'guest edit' }, guest.token);
    assert.equal(g.status, 403);
    assert.equal((await t.get(`/api/issues/${i.id}`, member.token)).body.issue.title, 'Guarded');
  });
});

describe('projects and cycles', () => {
  let projectId: string;
  let cycleId: string;
  before(async () => {
    const p = await t.ctx.db
      .insertInto('projects')
      .values({ name: 'Launch', slug_id: 'launch-1' })
      .returning('id')
      .executeTakeFirstOrThrow();
    projectId = p.id;
    const c = await t.ctx.db
      .insertInto('cycles')
      .values({
        team_id: eng.id,
        number: 1,
        starts_at: '2030-01-01T00:00:00Z',
        ends_at: '2030-01-15T00:00:00Z',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    cycleId = c.id;
  });

  test('sets a project and a cycle when the features are on', async () => {
    const res = await create({ title: 'Planned', projectId, cycleId });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.issue.projectId, projectId);
    assert.equal(res.body.issue.cycleId, cycleId);
    const cleared = await t.patch(
      `/api/issues/${res.body.issue.id}`,
      { projectId: null, cycleId: null },
      member.token,
    );
    assert.equal(cleared.body.issue.projectId, null);
    assert.equal(cleared.body.issue.cycleId, null);
  });

  test('403 FEATURE_DISABLED when projects or cycles are off', async () => {
    const i = (await create({ title: 'Unplanned' })).body.issue;
    assert.equal((await t.patch('/api/admin/flags/projects', { enabled: false }, t.adminToken)).status, 200);
    try {
      const c = await create({ title: 'x', projectId });
      assert.equal(c.status, 403);
      assert.equal(c.body.error.code, 'FEATURE_DISABLED');
      const p = await t.patch(`/api/issues/${i.id}`, { projectId }, member.token);
      assert.equal(p.status, 403);
      assert.equal(p.body.error.code, 'FEATURE_DISABLED');
    } finally {
      await t.patch('/api/admin/flags/projects', { enabled: true }, t.adminToken);
    }
    await t.patch('/api/admin/flags/cycles', { enabled: false }, t.adminToken);
    try {
      const c = await create({ title: 'x', cycleId });
      assert.equal(c.status, 403);
      assert.equal(c.body.error.code, 'FEATURE_DISABLED');
      const p = await t.patch(`/api/issues/${i.id}`, { cycleId }, member.token);
      assert.equal(p.body.error.code, 'FEATURE_DISABLED');
    } finally {
      await t.patch('/api/admin/flags/cycles', { enabled: true }, t.adminToken);
    }
  });
});

describe('DELETE /api/issues/:id', () => {
  test('deletes with comments; records issue.remove with the last data', async () => {
    const i = (await create({ title: 'Doomed' })).body.issue;
    const c = await t.post(`/api/issues/${i.id}/comments`, { body: 'bye' }, member.token);
    assert.equal(c.status, 201);
    assert.equal((await t.del(`/api/issues/${i.id}`, guest.token)).status, 403);
    const res = await t.del(`/api/issues/${i.identifier}`, member.token);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { ok: true });
    assert.equal((await t.get(`/api/issues/${i.id}`, member.token)).status, 404);
    assert.equal((await t.get(`/api/comments/${c.body.comment.id}`, member.token)).status, 404);
    const ev = (await events('issue', 'remove')).find((e) => e.data.id === i.id);
    assert.equal(ev.data.title, 'Doomed');
    assert.equal((await t.del(`/api/issues/${i.id}`, member.token)).status, 404);
  });
});

describe('archive', () => {
  test('archived issues leave lists unless includeArchived; unarchive brings them back', async () => {
    const i = (await create({ title: 'Archivable zebra' })).body.issue;
    const arch = await t.post(`/api/issues/${i.id}/archive`, undefined, member.token);
    assert.equal(arch.status, 200, JSON.stringify(arch.body));
    assert.ok(arch.body.issue.archivedAt);
    const hidden = await t.get('/api/issues?q=zebra', member.token);
    assert.equal(hidden.body.pageInfo.total, 0);
    const shown = await t.get('/api/issues?q=zebra&includeArchived=true', member.token);
    assert.equal(shown.body.pageInfo.total, 1);
    assert.equal((await t.get(`/api/issues/${i.id}`, member.token)).status, 200);
    const ev = (await events('issue', 'update')).filter((e) => e.data.id === i.id).at(-1);
    assert.equal(ev.updatedFrom.archivedAt, null);
    assert.equal((await t.post(`/api/issues/${i.id}/unarchive`, undefined, guest.token)).status, 403);
    const un = await t.post(`/api/issues/${i.id}/unarchive`, undefined, member.token);
    assert.equal(un.body.issue.archivedAt, null);
    assert.equal((await t.get('/api/issues?q=zebra', member.token)).body.pageInfo.total, 1);
  });
});
