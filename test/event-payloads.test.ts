// A change event's data is the record as a REST GET shows it to an admin,
// read in the writer's transaction (platform/read/rest.ts eventData): after
// a create or an update, the latest event of the kind carries exactly the
// admin's GET answer (values; the event log stores jsonb, without key order),
// and a removal carries the record as it was just before.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

async function latestEvent(type: string) {
  const row = await t.ctx.db
    .selectFrom('webhook_events')
    .select(['action', 'payload'])
    .where('type', '=', type)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const payload = typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload;
  return { action: row.action, data: payload.data as Record<string, unknown> };
}

/** Each kind: its event type, where its GET is, and the key of its answer. */
async function expectEventIsGet(type: string, url: string, key: string, action: string) {
  const got = await t.get(url, t.adminToken);
  assert.equal(got.status, 200, JSON.stringify(got.body));
  const event = await latestEvent(type);
  assert.equal(event.action, action, `${type} ${action}`);
  assert.deepEqual(event.data, got.body[key], `${type} ${action}`);
  return got.body[key];
}

test('create and update events carry the admin GET of every converted kind; a removal the record before it', async () => {
  const admin = t.adminToken;
  const team = (await t.get('/api/teams', admin)).body.teams[0];

  const project = (await t.post('/api/projects', { name: 'Payload project', teamIds: [team.id] }, admin)).body
    .project;
  await expectEventIsGet('project', `/api/projects/${project.id}`, 'project', 'create');
  await t.patch(`/api/projects/${project.id}`, { name: 'Payload project 2' }, admin);
  await expectEventIsGet('project', `/api/projects/${project.id}`, 'project', 'update');

  const milestone = (await t.post(`/api/projects/${project.id}/milestones`, { name: 'M1' }, admin)).body
    .milestone;
  await expectEventIsGet('projectMilestone', `/api/milestones/${milestone.id}`, 'milestone', 'create');

  const cycle = (
    await t.post(
      '/api/cycles',
      {
        teamId: team.id,
        startsAt: new Date(Date.now() - 86_400_000).toISOString(),
        endsAt: new Date(Date.now() + 86_400_000).toISOString(),
      },
      admin,
    )
  ).body.cycle;
  await expectEventIsGet('cycle', `/api/cycles/${cycle.id}`, 'cycle', 'create');

  const label = (await t.post('/api/labels', { name: 'payload-label', teamId: team.id }, admin)).body.label;
  await expectEventIsGet('label', `/api/labels/${label.id}`, 'label', 'create');

  const issue = (
    await t.post(
      '/api/issues',
      {
        teamId: team.id,
        title: 'Payload issue',
        projectId: project.id,
        projectMilestoneId: milestone.id,
        cycleId: cycle.id,
        labelIds: [label.id],
      },
      admin,
    )
  ).body.issue;
  await expectEventIsGet('issue', `/api/issues/${issue.id}`, 'issue', 'create');
  // The milestone's progress now counts the issue; its update event says so.
  await t.patch(`/api/milestones/${milestone.id}`, { name: 'M1 renamed' }, admin);
  const shown = await expectEventIsGet(
    'projectMilestone',
    `/api/milestones/${milestone.id}`,
    'milestone',
    'update',
  );
  assert.equal(shown.progress.issueCount, 1);

  const comment = (await t.post(`/api/issues/${issue.id}/comments`, { body: 'payload comment' }, admin)).body
    .comment;
  await expectEventIsGet('comment', `/api/comments/${comment.id}`, 'comment', 'create');
  await t.patch(`/api/comments/${comment.id}`, { body: 'edited' }, admin);
  const edited = await expectEventIsGet('comment', `/api/comments/${comment.id}`, 'comment', 'update');
  assert.equal((await t.del(`/api/comments/${comment.id}`, admin)).status, 200);
  const removed = await latestEvent('comment');
  assert.equal(removed.action, 'remove');
  assert.deepEqual(removed.data, edited);

  const attachment = (
    await t.post(
      `/api/issues/${issue.id}/attachments`,
      { title: 'Spec', url: 'https://example.org/spec' },
      admin,
    )
  ).body.attachment;
  await expectEventIsGet('attachment', `/api/attachments/${attachment.id}`, 'attachment', 'create');
  await t.patch(`/api/attachments/${attachment.id}`, { title: 'Spec 2', metadata: { k: 1 } }, admin);
  const attached = await expectEventIsGet(
    'attachment',
    `/api/attachments/${attachment.id}`,
    'attachment',
    'update',
  );
  assert.equal((await t.del(`/api/attachments/${attachment.id}`, admin)).status, 200);
  const detached = await latestEvent('attachment');
  assert.equal(detached.action, 'remove');
  assert.deepEqual(detached.data, attached);

  const blocker = (await t.post('/api/issues', { teamId: team.id, title: 'Blocker' }, admin)).body.issue;
  const relation = (
    await t.post(
      `/api/issues/${issue.id}/relations`,
      { type: 'blocked_by', relatedIssueId: blocker.id },
      admin,
    )
  ).body.relation;
  const related = await expectEventIsGet('relation', `/api/relations/${relation.id}`, 'relation', 'create');
  assert.equal(related.issueId, blocker.id);
  assert.equal((await t.del(`/api/relations/${relation.id}`, admin)).status, 200);
  const unrelated = await latestEvent('relation');
  assert.equal(unrelated.action, 'remove');
  assert.deepEqual(unrelated.data, related);

  const before = (await t.get(`/api/labels/${label.id}`, admin)).body.label;
  assert.equal((await t.del(`/api/labels/${label.id}`, admin)).status, 200);
  const gone = await latestEvent('label');
  assert.equal(gone.action, 'remove');
  assert.deepEqual(gone.data, before);
});
