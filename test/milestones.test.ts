// Project milestones over REST: order, validation, progress and status, the
// issue rules (a milestone of the issue's own project), deletion, visibility
// through the project, and the change events.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engTeam, setFlag, stateOf, UNKNOWN_ID } from './projects.fixtures.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let member: { token: string; user: any };
let guest: { token: string; user: any };
before(async () => {
  t = await startTestApp();
  member = await t.register('Milestone Member');
  guest = await t.userWithRole('guest', { teams: ['ENG'] });
});
after(() => t.close());

async function newProject(name: string, body: Record<string, unknown> = {}, token = member.token) {
  const res = await t.post('/api/projects', { name, ...body }, token);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.project as { id: string };
}

async function newMilestone(projectId: string, body: Record<string, unknown>, token = member.token) {
  const res = await t.post(`/api/projects/${projectId}/milestones`, body, token);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.milestone;
}

async function newIssue(body: Record<string, unknown>) {
  const res = await t.post('/api/issues', { title: 'Work', ...body }, member.token);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.issue;
}

const milestoneCount = async () =>
  Number(
    (
      await t.ctx.db
        .selectFrom('project_milestones')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('milestones of a project', () => {
  test('created without sortOrder they go last; listed by sortOrder, then oldest first', async () => {
    const p = await newProject('Ordered');
    const a = await newMilestone(p.id, { name: '  Alpha ', description: 'first', targetDate: '2099-01-01' });
    const b = await newMilestone(p.id, { name: 'Beta' });
    const c = await newMilestone(p.id, { name: 'Gamma' });
    assert.equal(a.name, 'Alpha');
    assert.equal(a.description, 'first');
    assert.equal(a.targetDate, '2099-01-01');
    assert.equal(a.projectId, p.id);
    assert.equal(a.creatorId, member.user.id);
    assert.deepEqual([a.sortOrder, b.sortOrder, c.sortOrder], [0, 1, 2]);
    // Same sortOrder as Beta: the older one comes first.
    const d = await newMilestone(p.id, { name: 'Delta', sortOrder: 1 });
    const list = await t.get(`/api/projects/${p.id}/milestones`, member.token);
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.milestones.map((m: { name: string }) => m.name),
      ['Alpha', 'Beta', 'Delta', 'Gamma'],
    );
    // Reorder: Gamma first.
    const moved = await t.patch(`/api/milestones/${c.id}`, { sortOrder: -1 }, member.token);
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    const again = await t.get(`/api/projects/${p.id}/milestones`, member.token);
    assert.deepEqual(
      again.body.milestones.map((m: { id: string }) => m.id),
      [c.id, a.id, b.id, d.id],
    );
    const one = await t.get(`/api/milestones/${a.id}`, guest.token);
    assert.equal(one.status, 200);
    assert.equal(one.body.milestone.name, 'Alpha');
  });

  test('update changes fields, null clears the date and description', async () => {
    const p = await newProject('Edits');
    const m = await newMilestone(p.id, { name: 'M', description: 'd', targetDate: '2099-02-02' });
    const res = await t.patch(
      `/api/milestones/${m.id}`,
      { name: 'Renamed', description: null, targetDate: null },
      member.token,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.milestone.name, 'Renamed');
    assert.equal(res.body.milestone.description, null);
    assert.equal(res.body.milestone.targetDate, null);
    assert.ok(res.body.milestone.updatedAt >= m.updatedAt);
  });

  test('bad input is a 400 naming the field and creates nothing', async () => {
    const p = await newProject('Strict');
    const before = await milestoneCount();
    const cases: [Record<string, unknown>, string][] = [
      [{}, '/name'],
      [{ name: '   ' }, '/name'],
      [{ name: 'x', targetDate: '2026-02-30' }, '/targetDate'],
      [{ name: 'x', targetDate: 'soon' }, '/targetDate'],
      [{ name: 'x', sortOrder: 'first' }, '/sortOrder'],
      [{ name: 'x', extra: true }, ''],
      [{ name: 'x'.repeat(256) }, '/name'],
    ];
    for (const [body, field] of cases) {
      const res = await t.post(`/api/projects/${p.id}/milestones`, body, member.token);
      assert.equal(res.status, 400, `${JSON.stringify(body)} -> ${res.status}`);
      assert.equal(res.body.error.code, 'VALIDATION_FAILED');
      if (field) {
        const fields = (res.body.error.details ?? []).map((d: { field: string }) => d.field);
        assert.ok(
          fields.includes(field) || res.body.error.message.startsWith(field.slice(1)),
          JSON.stringify(res.body),
        );
      }
    }
    const m = await newMilestone(p.id, { name: 'ok' });
    const patch = await t.patch(`/api/milestones/${m.id}`, {}, member.token);
    assert.equal(patch.status, 400);
    assert.equal(await milestoneCount(), before + 1);
  });

  test('unknown ids are 404s', async () => {
    for (const path of [`/api/projects/${UNKNOWN_ID}/milestones`, '/api/projects/nope/milestones']) {
      assert.equal((await t.get(path, member.token)).status, 404);
      assert.equal((await t.post(path, { name: 'x' }, member.token)).status, 404);
    }
    assert.equal((await t.get(`/api/milestones/${UNKNOWN_ID}`, member.token)).status, 404);
    assert.equal((await t.patch('/api/milestones/nope', { name: 'x' }, member.token)).status, 404);
    assert.equal((await t.del(`/api/milestones/${UNKNOWN_ID}`, member.token)).status, 404);
  });

  test('guests read but do not write, refused before the body is looked at', async () => {
    const p = await newProject('Guarded');
    const m = await newMilestone(p.id, { name: 'G' });
    const before = await milestoneCount();
    const post = await t.post(`/api/projects/${p.id}/milestones`, { bogus: 1 }, guest.token);
    assert.equal(post.status, 403);
    assert.equal((await t.patch(`/api/milestones/${m.id}`, { bogus: 1 }, guest.token)).status, 403);
    assert.equal((await t.del(`/api/milestones/${m.id}`, guest.token)).status, 403);
    assert.equal((await t.get(`/api/projects/${p.id}/milestones`, guest.token)).status, 200);
    assert.equal(await milestoneCount(), before);
  });

  test('the projects feature switched off turns milestones off', async () => {
    const p = await newProject('Flagged');
    await setFlag(t, 'projects', false);
    try {
      const res = await t.get(`/api/projects/${p.id}/milestones`, member.token);
      assert.equal(res.status, 403);
      assert.equal(res.body.error.code, 'FEATURE_DISABLED');
      assert.equal(
        (await t.post(`/api/projects/${p.id}/milestones`, { name: 'x' }, member.token)).status,
        403,
      );
    } finally {
      await setFlag(t, 'projects', true);
    }
  });
});

describe('progress and status', () => {
  test('progress counts its issues; status is done, overdue, next or unstarted', async () => {
    const team = await engTeam(t);
    const [done, started, canceled] = await Promise.all([
      stateOf(t, team.id, 'completed'),
      stateOf(t, team.id, 'started'),
      stateOf(t, team.id, 'canceled'),
    ]);
    const p = await newProject('Tracked');
    const finished = await newMilestone(p.id, { name: 'Finished' });
    const late = await newMilestone(p.id, { name: 'Late', targetDate: '2000-01-01' });
    const soon = await newMilestone(p.id, { name: 'Soon', targetDate: '2999-01-01' });
    const later = await newMilestone(p.id, { name: 'Later' });
    await newIssue({ projectMilestoneId: finished.id, stateId: done.id });
    await newIssue({ projectMilestoneId: finished.id, stateId: canceled.id });
    await newIssue({ projectMilestoneId: late.id, stateId: started.id });
    await newIssue({ projectMilestoneId: soon.id, stateId: done.id });
    await newIssue({ projectMilestoneId: soon.id });
    const list = (await t.get(`/api/projects/${p.id}/milestones`, member.token)).body.milestones;
    const by = (name: string) => list.find((m: { name: string }) => m.name === name);
    assert.equal(by('Finished').status, 'done');
    assert.deepEqual(by('Finished').progress, {
      issueCount: 1,
      completedIssueCount: 1,
      startedIssueCount: 0,
      progress: 1,
    });
    assert.equal(by('Late').status, 'overdue');
    assert.equal(by('Late').progress.startedIssueCount, 1);
    assert.equal(by('Soon').status, 'next');
    assert.equal(by('Soon').progress.progress, 0.5);
    assert.equal(by('Later').status, 'unstarted');
    assert.equal(by('Later').progress.issueCount, 0);
    // The project counts the same issues.
    const project = (await t.get(`/api/projects/${p.id}`, member.token)).body.project;
    assert.equal(project.progress.issueCount, 4);
    void later;
  });
});

describe('issues and milestones', () => {
  test('a milestone without projectId sets the project; both must agree', async () => {
    const p = await newProject('Home');
    const other = await newProject('Elsewhere');
    const m = await newMilestone(p.id, { name: 'M1' });
    const issue = await newIssue({ projectMilestoneId: m.id });
    assert.equal(issue.projectId, p.id);
    assert.equal(issue.projectMilestoneId, m.id);
    const read = await t.get(`/api/issues/${issue.identifier}`, member.token);
    assert.equal(read.body.issue.projectMilestoneId, m.id);

    const count = async () =>
      Number(
        (
          await t.ctx.db
            .selectFrom('issues')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const clash = await t.post(
      '/api/issues',
      { title: 'x', projectId: other.id, projectMilestoneId: m.id },
      member.token,
    );
    assert.equal(clash.status, 400);
    assert.equal(clash.body.error.details[0].field, '/projectMilestoneId');
    const unknown = await t.post('/api/issues', { title: 'x', projectMilestoneId: UNKNOWN_ID }, member.token);
    assert.equal(unknown.status, 400);
    const malformed = await t.post('/api/issues', { title: 'x', projectMilestoneId: 'nope' }, member.token);
    assert.equal(malformed.status, 400);
    assert.equal(await count(), before);
  });

  test('moving an issue to another project clears its milestone; setting one moves it', async () => {
    const p = await newProject('From');
    const q = await newProject('To');
    const m = await newMilestone(p.id, { name: 'Mp' });
    const n = await newMilestone(q.id, { name: 'Mq' });
    const issue = await newIssue({ projectMilestoneId: m.id });
    const moved = await t.patch(`/api/issues/${issue.id}`, { projectId: q.id }, member.token);
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal(moved.body.issue.projectId, q.id);
    assert.equal(moved.body.issue.projectMilestoneId, null);

    const back = await t.patch(`/api/issues/${issue.id}`, { projectMilestoneId: m.id }, member.token);
    assert.equal(back.body.issue.projectId, p.id);
    assert.equal(back.body.issue.projectMilestoneId, m.id);

    const clash = await t.patch(
      `/api/issues/${issue.id}`,
      { projectId: p.id, projectMilestoneId: n.id },
      member.token,
    );
    assert.equal(clash.status, 400);
    const noProject = await t.patch(
      `/api/issues/${issue.id}`,
      { projectId: null, projectMilestoneId: m.id },
      member.token,
    );
    assert.equal(noProject.status, 400);
    const unchanged = await t.get(`/api/issues/${issue.id}`, member.token);
    assert.equal(unchanged.body.issue.projectMilestoneId, m.id);

    const cleared = await t.patch(`/api/issues/${issue.id}`, { projectMilestoneId: null }, member.token);
    assert.equal(cleared.body.issue.projectId, p.id);
    assert.equal(cleared.body.issue.projectMilestoneId, null);

    const dropped = await t.patch(`/api/issues/${issue.id}`, { projectMilestoneId: m.id }, member.token);
    assert.equal(dropped.body.issue.projectMilestoneId, m.id);
    const none = await t.patch(`/api/issues/${issue.id}`, { projectId: null }, member.token);
    assert.equal(none.body.issue.projectMilestoneId, null);
  });

  test("GET /issues?projectMilestoneId= lists a milestone's issues; =null those without one", async () => {
    const p = await newProject('Listed');
    const m = await newMilestone(p.id, { name: 'L1' });
    const inside = await newIssue({ projectMilestoneId: m.id });
    const outside = await newIssue({ projectId: p.id });
    const of = await t.get(`/api/issues?projectMilestoneId=${m.id}`, member.token);
    assert.equal(of.status, 200);
    assert.deepEqual(
      of.body.issues.map((i: { id: string }) => i.id),
      [inside.id],
    );
    const none = await t.get(`/api/issues?projectId=${p.id}&projectMilestoneId=null`, member.token);
    assert.deepEqual(
      none.body.issues.map((i: { id: string }) => i.id),
      [outside.id],
    );
    assert.equal((await t.get('/api/issues?projectMilestoneId=nope', member.token)).status, 400);
  });

  test('deleting a milestone clears it from its issues, which stay in the project', async () => {
    const p = await newProject('Doomed');
    const m = await newMilestone(p.id, { name: 'Gone' });
    const issue = await newIssue({ projectMilestoneId: m.id });
    const res = await t.del(`/api/milestones/${m.id}`, member.token);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { ok: true, id: m.id });
    const after = await t.get(`/api/issues/${issue.id}`, member.token);
    assert.equal(after.body.issue.projectId, p.id);
    assert.equal(after.body.issue.projectMilestoneId, null);
    assert.equal((await t.get(`/api/milestones/${m.id}`, member.token)).status, 404);
  });

  test('linking issues while the milestone is deleted: each answer is a 200 or a 400, never a 5xx', async () => {
    // On PostgreSQL the requests really overlap (the link share-locks the
    // milestone); on PGlite they take turns. Either way no issue is left
    // pointing at a deleted milestone.
    const p = await newProject('Racing');
    const m = await newMilestone(p.id, { name: 'Short-lived' });
    const issues = await Promise.all([1, 2, 3, 4, 5, 6].map(() => newIssue({ projectId: p.id })));
    const answers = await Promise.all([
      ...issues.map((i) => t.patch(`/api/issues/${i.id}`, { projectMilestoneId: m.id }, member.token)),
      t.del(`/api/milestones/${m.id}`, member.token),
    ]);
    for (const a of answers)
      assert.ok(a.status === 200 || a.status === 400, `${a.status} ${JSON.stringify(a.body)}`);
    const left = await t.ctx.db
      .selectFrom('issues')
      .select('id')
      .where('project_milestone_id', '=', m.id)
      .execute();
    assert.deepEqual(left, []);
  });

  test('deleting the project takes its milestones', async () => {
    const p = await newProject('Whole');
    const m = await newMilestone(p.id, { name: 'Part' });
    const issue = await newIssue({ projectMilestoneId: m.id });
    assert.equal((await t.del(`/api/projects/${p.id}`, member.token)).status, 200);
    assert.equal((await t.get(`/api/milestones/${m.id}`, member.token)).status, 404);
    const after = await t.get(`/api/issues/${issue.id}`, member.token);
    assert.equal(after.body.issue.projectId, null);
    assert.equal(after.body.issue.projectMilestoneId, null);
  });
});

describe('visibility', () => {
  test('a member who cannot see the project cannot see or change its milestones', async () => {
    const hidden = await t.post('/api/teams', { name: 'Vault', key: 'VLT', private: true }, t.adminToken);
    assert.equal(hidden.status, 201, JSON.stringify(hidden.body));
    const p = await newProject('Secret', { teamIds: ['VLT'] }, t.adminToken);
    const m = await newMilestone(p.id, { name: 'Classified' }, t.adminToken);
    assert.equal((await t.get(`/api/projects/${p.id}/milestones`, member.token)).status, 404);
    assert.equal((await t.post(`/api/projects/${p.id}/milestones`, { name: 'x' }, member.token)).status, 404);
    assert.equal((await t.get(`/api/milestones/${m.id}`, member.token)).status, 404);
    assert.equal((await t.patch(`/api/milestones/${m.id}`, { name: 'x' }, member.token)).status, 404);
    assert.equal((await t.del(`/api/milestones/${m.id}`, member.token)).status, 404);
    // Not usable on an issue either: the same 400 as an unknown id.
    const res = await t.post('/api/issues', { title: 'x', projectMilestoneId: m.id }, member.token);
    assert.equal(res.status, 400);
    assert.equal(res.body.error.details[0].field, '/projectMilestoneId');
    // The admin sees it.
    assert.equal((await t.get(`/api/milestones/${m.id}`, t.adminToken)).status, 200);
  });
});

describe('events', () => {
  test('create, update and remove are recorded as projectMilestone events', async () => {
    const p = await newProject('Evented');
    const m = await newMilestone(p.id, { name: 'E1' });
    await t.patch(`/api/milestones/${m.id}`, { name: 'E2' }, member.token);
    await t.del(`/api/milestones/${m.id}`, member.token);
    const events = await t.ctx.db
      .selectFrom('webhook_events')
      .select(['type', 'action', 'payload'])
      .where('type', '=', 'projectMilestone')
      .orderBy('id')
      .execute();
    const mine = events
      .map((e) => ({ ...e, payload: typeof e.payload === 'string' ? JSON.parse(e.payload) : e.payload }))
      .filter((e) => e.payload.data.id === m.id);
    assert.deepEqual(
      mine.map((e) => e.action),
      ['create', 'update', 'remove'],
    );
    assert.equal(mine[1]!.payload.data.name, 'E2');
    assert.deepEqual(mine[1]!.payload.updatedFrom.name, 'E1');
    assert.equal(mine[0]!.payload.data.projectId, p.id);
  });

  test('webhooks accept projectMilestone as a resource type', async () => {
    const res = await t.post(
      '/api/admin/webhooks',
      { url: 'https://hooks.example.com/x', resourceTypes: ['projectMilestone'] },
      t.adminToken,
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(res.body.webhook.resourceTypes, ['projectMilestone']);
  });
});
