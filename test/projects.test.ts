import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTeam, engTeam, insertIssue, setFlag, UNKNOWN_ID } from './projects.fixtures.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let member: { token: string; user: any };
let guest: { token: string; user: any };
before(async () => {
  t = await startTestApp();
  member = await t.register('Project Member');
  guest = await t.userWithRole('guest', { teams: ['ENG'] });
});
after(() => t.close());

const create = (body: unknown, token = member.token) => t.post('/api/projects', body, token);

describe('POST /api/projects', () => {
  test('creates with defaults: planned, first team, slug and url', async () => {
    const res = await create({ name: '  Launch  ' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const p = res.body.project;
    assert.equal(p.name, 'Launch');
    assert.equal(p.status, 'planned');
    assert.equal(p.health, null);
    assert.equal(p.description, '');
    assert.deepEqual(p.teamIds, [(await engTeam(t)).id]);
    assert.deepEqual(p.memberIds, []);
    assert.match(p.slugId, /^[0-9a-f]{12}$/);
    assert.equal(p.url, `http://trackway.test/project/launch-${p.slugId}`);
    assert.equal(p.creatorId, member.user.id);
    assert.deepEqual(p.progress, {
      issueCount: 0,
      completedIssueCount: 0,
      startedIssueCount: 0,
      progress: 0,
    });
    assert.equal(p.startedAt, null);
    assert.equal(p.archivedAt, null);
  });

  test('takes every field; team keys are accepted; started status stamps startedAt', async () => {
    const res = await create({
      name: 'Full',
      description: 'short',
      content: '# Plan\n\n- one',
      status: 'started',
      health: 'atRisk',
      leadId: member.user.id,
      memberIds: [member.user.id, guest.user.id, member.user.id],
      teamIds: ['ENG'],
      startDate: '2026-01-01',
      targetDate: '2026-01-01',
      color: '#AABBCC',
      icon: 'Rocket',
      sortOrder: 3.5,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const p = res.body.project;
    assert.equal(p.content, '# Plan\n\n- one');
    assert.equal(p.status, 'started');
    assert.equal(p.health, 'atRisk');
    assert.equal(p.leadId, member.user.id);
    assert.deepEqual([...p.memberIds].sort(), [member.user.id, guest.user.id].sort());
    assert.deepEqual(p.teamIds, [(await engTeam(t)).id]);
    assert.equal(p.startDate, '2026-01-01');
    assert.equal(p.targetDate, '2026-01-01');
    assert.equal(p.color, '#aabbcc');
    assert.equal(p.icon, 'Rocket');
    assert.equal(p.sortOrder, 3.5);
    assert.ok(p.startedAt);
    assert.equal(p.completedAt, null);
  });

  const bad: [string, unknown, string][] = [
    ['missing name', { description: 'x' }, '/name'],
    ['blank name', { name: '   ' }, '/name'],
    ['bad status', { name: 'x', status: 'done' }, '/status'],
    ['bad health', { name: 'x', health: 'fine' }, '/health'],
    ['bad color', { name: 'x', color: 'red' }, '/color'],
    ['bad date format', { name: 'x', startDate: '01/02/2026' }, '/startDate'],
    ['impossible date', { name: 'x', startDate: '2026-02-30' }, '/startDate'],
    ['target before start', { name: 'x', startDate: '2026-03-02', targetDate: '2026-03-01' }, '/targetDate'],
    ['unknown lead', { name: 'x', leadId: UNKNOWN_ID }, '/leadId'],
    ['malformed lead', { name: 'x', leadId: 'nope' }, '/leadId'],
    ['unknown member', { name: 'x', memberIds: [UNKNOWN_ID] }, '/memberIds'],
    ['unknown team', { name: 'x', teamIds: ['NOPE'] }, '/teamIds'],
    ['unknown field', { name: 'x', owner: 'me' }, '/owner'],
    ['name as number', { name: 5 }, '/name'],
  ];
  for (const [what, body, field] of bad) {
    test(`400 for ${what}, naming ${field}`, async () => {
      const before = await t.get('/api/projects?limit=1', member.token);
      const res = await create(body);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'VALIDATION_FAILED');
      assert.ok(
        res.body.error.details.some((d: { field: string }) => d.field === field),
        JSON.stringify(res.body.error),
      );
      const afterList = await t.get('/api/projects?limit=1', member.token);
      assert.equal(afterList.body.pageInfo.total, before.body.pageInfo.total);
    });
  }

  test('401 without a token', async () => {
    assert.equal((await t.post('/api/projects', { name: 'x' })).status, 401);
  });
});

describe('GET /api/projects', () => {
  test('newest first, paginated, with total', async () => {
    const a = (await create({ name: 'Page A' })).body.project;
    const b = (await create({ name: 'Page B' })).body.project;
    const res = await t.get('/api/projects?limit=2&offset=0', member.token);
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.projects.map((p: any) => p.id),
      [b.id, a.id],
    );
    assert.equal(res.body.pageInfo.limit, 2);
    assert.equal(res.body.pageInfo.offset, 0);
    assert.ok(res.body.pageInfo.total >= 2);
    const next = await t.get('/api/projects?limit=2&offset=1', member.token);
    assert.equal(next.body.projects[0].id, a.id);
  });

  test('filters by status and leadId', async () => {
    const lead = await t.register('Lead');
    const p = (await create({ name: 'Led', leadId: lead.user.id, status: 'paused' })).body.project;
    const byLead = await t.get(`/api/projects?leadId=${lead.user.id}`, member.token);
    assert.deepEqual(
      byLead.body.projects.map((x: any) => x.id),
      [p.id],
    );
    assert.equal(byLead.body.pageInfo.total, 1);
    const byStatus = await t.get('/api/projects?status=paused', member.token);
    assert.ok(byStatus.body.projects.every((x: any) => x.status === 'paused'));
    assert.ok(byStatus.body.projects.some((x: any) => x.id === p.id));
    assert.equal((await t.get('/api/projects?status=nope', member.token)).status, 400);
    assert.equal((await t.get('/api/projects?limit=251', member.token)).status, 400);
  });

  test('progress per project from its issues; canceled are out of scope', async () => {
    const p = (await create({ name: 'Progress' })).body.project;
    const q = (await create({ name: 'Other' })).body.project;
    for (const type of ['backlog', 'started', 'completed', 'completed', 'canceled'] as const) {
      await insertIssue(t, { type, projectId: p.id });
    }
    await insertIssue(t, { type: 'completed', projectId: q.id });
    const list = await t.get('/api/projects?limit=250', member.token);
    const got = list.body.projects.find((x: any) => x.id === p.id);
    assert.deepEqual(got.progress, {
      issueCount: 4,
      completedIssueCount: 2,
      startedIssueCount: 1,
      progress: 0.5,
    });
    const other = list.body.projects.find((x: any) => x.id === q.id);
    assert.equal(other.progress.progress, 1);
    const one = await t.get(`/api/projects/${p.id}`, member.token);
    assert.deepEqual(one.body.project.progress, got.progress);
  });

  test('archived projects are hidden unless includeArchived=true', async () => {
    const p = (await create({ name: 'To archive' })).body.project;
    const arch = await t.post(`/api/projects/${p.id}/archive`, undefined, member.token);
    assert.equal(arch.status, 200, JSON.stringify(arch.body));
    assert.ok(arch.body.project.archivedAt);
    const hidden = await t.get('/api/projects?limit=250', member.token);
    assert.ok(!hidden.body.projects.some((x: any) => x.id === p.id));
    const shown = await t.get('/api/projects?limit=250&includeArchived=true', member.token);
    assert.ok(shown.body.projects.some((x: any) => x.id === p.id));
    const un = await t.post(`/api/projects/${p.id}/unarchive`, undefined, member.token);
    assert.equal(un.body.project.archivedAt, null);
  });
});

describe('GET/PATCH/DELETE /api/projects/:id', () => {
  test('404 for unknown and malformed ids', async () => {
    for (const id of [UNKNOWN_ID, 'not-a-uuid']) {
      assert.equal((await t.get(`/api/projects/${id}`, member.token)).status, 404);
      assert.equal((await t.patch(`/api/projects/${id}`, { name: 'x' }, member.token)).status, 404);
      assert.equal((await t.del(`/api/projects/${id}`, member.token)).status, 404);
    }
  });

  test('patch changes fields and stamps status timestamps', async () => {
    const p = (await create({ name: 'Patchable', startDate: '2026-05-01' })).body.project;
    const started = await t.patch(
      `/api/projects/${p.id}`,
      { status: 'started', health: 'onTrack' },
      member.token,
    );
    assert.equal(started.status, 200, JSON.stringify(started.body));
    assert.ok(started.body.project.startedAt);
    assert.equal(started.body.project.health, 'onTrack');
    const done = await t.patch(`/api/projects/${p.id}`, { status: 'completed' }, member.token);
    assert.ok(done.body.project.completedAt);
    assert.equal(done.body.project.startedAt, started.body.project.startedAt);
    const canceled = await t.patch(`/api/projects/${p.id}`, { status: 'canceled' }, member.token);
    assert.ok(canceled.body.project.canceledAt);
    assert.equal(canceled.body.project.completedAt, null);
    const cleared = await t.patch(
      `/api/projects/${p.id}`,
      {
        health: null,
        leadId: null,
        content: 'body',
        name: 'Renamed',
        teamIds: [],
        memberIds: [member.user.id],
      },
      member.token,
    );
    assert.equal(cleared.status, 200);
    assert.equal(cleared.body.project.health, null);
    assert.equal(cleared.body.project.name, 'Renamed');
    assert.deepEqual(cleared.body.project.teamIds, []);
    assert.deepEqual(cleared.body.project.memberIds, [member.user.id]);
    assert.ok(cleared.body.project.url.includes('/project/renamed-'));
  });

  test('patch refuses a target date before the stored start date, and bad input', async () => {
    const p = (await create({ name: 'Dates', startDate: '2026-05-10' })).body.project;
    const res = await t.patch(`/api/projects/${p.id}`, { targetDate: '2026-05-01' }, member.token);
    assert.equal(res.status, 400);
    assert.equal(res.body.error.details[0].field, '/targetDate');
    assert.equal((await t.patch(`/api/projects/${p.id}`, {}, member.token)).status, 400);
    assert.equal((await t.patch(`/api/projects/${p.id}`, { leadId: UNKNOWN_ID }, member.token)).status, 400);
    assert.equal(
      (await t.patch(`/api/projects/${p.id}`, { teamIds: [UNKNOWN_ID] }, member.token)).status,
      400,
    );
    const again = await t.get(`/api/projects/${p.id}`, member.token);
    assert.equal(again.body.project.targetDate, null);
  });

  test('delete keeps the issues and clears their project', async () => {
    const p = (await create({ name: 'Doomed' })).body.project;
    const issue = await insertIssue(t, { projectId: p.id });
    const res = await t.del(`/api/projects/${p.id}`, member.token);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { ok: true, id: p.id });
    assert.equal((await t.get(`/api/projects/${p.id}`, member.token)).status, 404);
    const row = await t.ctx.db
      .selectFrom('issues')
      .select('project_id')
      .where('id', '=', issue.id)
      .executeTakeFirst();
    assert.ok(row);
    assert.equal(row.project_id, null);
  });

  test('records project.create/update/remove events', async () => {
    const p = (await create({ name: 'Evented' })).body.project;
    await t.patch(`/api/projects/${p.id}`, { name: 'Evented 2' }, member.token);
    await t.del(`/api/projects/${p.id}`, member.token);
    const events = await t.ctx.db
      .selectFrom('webhook_events')
      .selectAll()
      .where('type', '=', 'project')
      .orderBy('id')
      .execute();
    const mine = events.filter((e) => (e.payload as any).data.id === p.id);
    assert.deepEqual(
      mine.map((e) => e.action),
      ['create', 'update', 'remove'],
    );
    assert.deepEqual((mine[1]!.payload as any).updatedFrom, { name: 'Evented', url: p.url });
  });
});

describe('roles and the projects flag', () => {
  test('guests read but every write is 403 FORBIDDEN', async () => {
    const p = (await create({ name: 'Guest visible' })).body.project;
    assert.equal((await t.get('/api/projects', guest.token)).status, 200);
    assert.equal((await t.get(`/api/projects/${p.id}`, guest.token)).status, 200);
    for (const res of [
      await t.post('/api/projects', { name: 'x' }, guest.token),
      await t.patch(`/api/projects/${p.id}`, { name: 'x' }, guest.token),
      await t.del(`/api/projects/${p.id}`, guest.token),
      await t.post(`/api/projects/${p.id}/archive`, undefined, guest.token),
    ]) {
      assert.equal(res.status, 403);
      assert.equal(res.body.error.code, 'FORBIDDEN');
    }
  });

  test('with the flag off every endpoint is 403 FEATURE_DISABLED; enabling restores them', async () => {
    const p = (await create({ name: 'Flagged' })).body.project;
    await setFlag(t, 'projects', false);
    try {
      for (const res of [
        await t.get('/api/projects', member.token),
        await t.get(`/api/projects/${p.id}`, member.token),
        await t.post('/api/projects', { name: 'x' }, member.token),
        await t.patch(`/api/projects/${p.id}`, { name: 'x' }, member.token),
        await t.del(`/api/projects/${p.id}`, member.token),
        await t.post(`/api/projects/${p.id}/archive`, undefined, t.adminToken),
      ]) {
        assert.equal(res.status, 403);
        assert.equal(res.body.error.code, 'FEATURE_DISABLED');
      }
    } finally {
      await setFlag(t, 'projects', true);
    }
    assert.equal((await t.get(`/api/projects/${p.id}`, member.token)).status, 200);
    assert.equal((await t.patch(`/api/projects/${p.id}`, { name: 'Back' }, member.token)).status, 200);
  });

  test('teams created with SQL are accepted by id', async () => {
    const ops = await createTeam(t, 'OPS');
    const res = await create({ name: 'Two teams', teamIds: [ops.id, 'eng'] });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.project.teamIds.length, 2);
  });
});
