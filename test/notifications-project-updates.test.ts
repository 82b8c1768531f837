// A new project update in the inbox (issue 26): the project's lead and
// members who see the project get one projectUpdateCreated each, never its
// author, nor a guest outside the project's teams. Shown over REST (issue
// null, project and update named) and over GraphQL as a ProjectNotification
// through the real @linear/sdk client, the compiled read agreeing with the
// resolvers; read, archive and snooze act on the project's group; a project
// the reader stops seeing hides its notifications; deleting the update or
// the project deletes them; the stream's event names the project.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type LinearClient, ProjectNotification } from '@linear/sdk';
import { runGraphql } from '../src/graphql/execute.js';
import { graphqlSchema } from '../src/graphql/routes.js';
import type { Actor } from '../src/platform/context.js';
import { apiKeyFor, sdk, startGraphqlApp } from './graphql-helpers.js';
import type { TestApp } from './support/harness.js';

interface Person {
  id: string;
  token: string;
  client: LinearClient;
  actor: Actor;
}

let t: TestApp;
let base: string;
let author: Person; // member of ENG, a member of the project: writes the updates
let lead: Person; // member of ENG and the private VLT: the project's lead
let member: Person; // member of ENG: a member of the project
let guest: Person; // guest of no team: a member of the project who does not see it
let bystander: Person; // member of ENG, not in the project

async function person(role: 'member' | 'guest', teams: string[]): Promise<Person> {
  const p = await t.userWithRole(role, { teams });
  const client = sdk(base, await apiKeyFor(t, p.token));
  const actor: Actor = { id: p.user.id, role, name: p.user.name, email: p.user.email, via: 'apiKey' };
  return { id: p.user.id, token: p.token, client, actor };
}

before(async () => {
  ({ t, base } = await startGraphqlApp());
  const vault = await t.post('/api/teams', { name: 'Vault', key: 'VLT', private: true }, t.adminToken);
  assert.equal(vault.status, 201, JSON.stringify(vault.body));
  author = await person('member', ['ENG']);
  lead = await person('member', ['ENG', 'VLT']);
  member = await person('member', ['ENG']);
  guest = await person('guest', []);
  bystander = await person('member', ['ENG']);
});
after(() => t.close());

async function project(name: string) {
  const res = await t.post(
    '/api/projects',
    { name, teamIds: ['ENG'], leadId: lead.id, memberIds: [author.id, member.id, guest.id] },
    t.adminToken,
  );
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.project as { id: string; name: string };
}
async function postUpdate(projectId: string, body: string, health = 'atRisk', by = author) {
  const res = await t.post(`/api/projects/${projectId}/updates`, { body, health }, by.token);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.projectUpdate as { id: string };
}
const inbox = async (p: Person, query = '?limit=250') => {
  const res = await t.get(`/api/notifications${query}`, p.token);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.notifications as any[];
};
const aboutProject = async (p: Person, projectId: string, query?: string) =>
  (await inbox(p, query)).filter((n) => n.projectId === projectId);
const stored = async (projectId: string) =>
  (
    await t.ctx.db
      .selectFrom('notifications')
      .select(['user_id', 'type', 'project_update_id', 'issue_id'])
      .where('project_id', '=', projectId)
      .execute()
  ).map((r) => ({ ...r }));
const raw = async (c: LinearClient, query: string, variables: Record<string, unknown> = {}) =>
  (await c.client.rawRequest<any, Record<string, unknown>>(query, variables)).data;

describe('who hears of a new project update', () => {
  test('the lead and the members who see the project, once each; not the author, not a guest outside its team', async () => {
    const p = await project('Launch plan');
    const update = await postUpdate(p.id, '## Week 3\n\nThe  **launch**\nslips a week.');
    const rows = await stored(p.id);
    assert.deepEqual(rows.map((r) => r.user_id).sort(), [lead.id, member.id].sort());
    for (const r of rows) {
      assert.equal(r.type, 'projectUpdateCreated');
      assert.equal(r.project_update_id, update.id);
      assert.equal(r.issue_id, null);
    }
    assert.equal((await aboutProject(author, p.id)).length, 0, 'never the author');
    assert.equal((await aboutProject(guest, p.id)).length, 0, 'never someone who does not see the project');
    assert.equal((await aboutProject(bystander, p.id)).length, 0, 'nobody outside the project');

    // REST: the project and the update named, no issue.
    const [n] = await aboutProject(member, p.id);
    assert.equal(n.type, 'projectUpdateCreated');
    assert.equal(n.issueId, null);
    assert.equal(n.issue, null);
    assert.equal(n.commentId, null);
    assert.deepEqual(n.project, { id: p.id, name: 'Launch plan' });
    assert.equal(n.projectUpdateId, update.id);
    assert.deepEqual(n.projectUpdate, {
      id: update.id,
      health: 'atRisk',
      bodyPreview: '## Week 3 The **launch** slips a week.',
    });
    assert.equal(n.actor.id, author.id);
    assert.equal(n.readAt, null);
    const one = await t.get(`/api/notifications/${n.id}`, member.token);
    assert.equal(one.status, 200);
    assert.deepEqual(one.body.notification, n);
    assert.equal((await t.get('/api/notifications/unread-count', member.token)).body.count, 1);

    // The change stream's event names the project, not an issue.
    const events = await t.ctx.db
      .selectFrom('webhook_events')
      .select(['payload', 'scope', 'user_id'])
      .where('type', '=', 'notification')
      .orderBy('id', 'desc')
      .limit(2)
      .execute();
    for (const e of events) {
      const data = (e.payload as { data: Record<string, unknown> }).data;
      assert.equal(data['projectId'], p.id);
      assert.equal(data['projectUpdateId'], update.id);
      assert.equal('issueId' in data, false);
      assert.equal(e.scope, 'user');
    }
  });

  test('editing, archiving or deleting an update tells nobody; deleting it takes its notifications', async () => {
    const p = await project('Quiet plan');
    const update = await postUpdate(p.id, 'First word');
    assert.equal((await stored(p.id)).length, 2);
    const edited = await t.patch(`/api/project-updates/${update.id}`, { body: 'Second word' }, author.token);
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    assert.equal((await stored(p.id)).length, 2, 'an edit notifies nobody');
    // The preview follows the update as it is now.
    const [n] = await aboutProject(lead, p.id);
    assert.equal(n.projectUpdate.bodyPreview, 'Second word');
    const gone = await t.del(`/api/project-updates/${update.id}`, author.token);
    assert.equal(gone.status, 200, JSON.stringify(gone.body));
    assert.equal((await stored(p.id)).length, 0, 'deleting the update deletes its notifications');
  });

  test('the lead writing an update notifies the members, not the lead', async () => {
    const p = await project('Lead writes');
    await postUpdate(p.id, 'From the lead', 'onTrack', lead);
    assert.deepEqual((await stored(p.id)).map((r) => r.user_id).sort(), [author.id, member.id].sort());
  });
});

describe('over GraphQL', () => {
  test('a ProjectNotification with its project and update, through the SDK and by id', async () => {
    const p = await project('Graph plan');
    const update = await postUpdate(p.id, 'Graph body', 'offTrack');
    const nodes = (await member.client.notifications()).nodes.filter(
      (x) => x instanceof ProjectNotification && x.projectId === p.id,
    ) as ProjectNotification[];
    assert.equal(nodes.length, 1);
    const n = nodes[0]!;
    assert.equal(n.type, 'projectUpdateCreated');
    assert.equal(n.projectUpdateId, update.id);
    assert.equal(n.category, 'postsAndUpdates');
    assert.equal((await n.project)?.name, 'Graph plan');
    assert.equal((await n.projectUpdate)?.body, 'Graph body');
    assert.equal((await n.actor)?.id, author.id);

    const d = await raw(
      member.client,
      `query($id: String!) { notification(id: $id) { __typename id type
        ... on ProjectNotification { projectId projectUpdateHealth groupingKey title subtitle url
          project { id name } projectUpdate { id health } }
        ... on IssueNotification { issueId } } }`,
      { id: n.id },
    );
    const { url, ...rest } = d.notification;
    assert.deepEqual(rest, {
      __typename: 'ProjectNotification',
      id: n.id,
      type: 'projectUpdateCreated',
      projectId: p.id,
      projectUpdateHealth: 'offTrack',
      groupingKey: `project/${p.id}`,
      title: 'Graph plan',
      subtitle: 'New project update',
      project: { id: p.id, name: 'Graph plan' },
      projectUpdate: { id: update.id, health: 'offTrack' },
    });
    assert.match(url, /\/project\/graph-plan-[a-z0-9]+#update-[a-z0-9]+$/);
    // The author has none, and someone else's id reads as missing.
    await assert.rejects(
      raw(author.client, 'query($id: String!) { notification(id: $id) { id } }', { id: n.id }),
      /not found/i,
    );
  });

  test('the compiled read and the resolver fallback answer the same, issue and project rows together', async () => {
    const p = await project('Compiled plan');
    await postUpdate(p.id, 'Compiled body');
    const assigned = await t.post(
      '/api/issues',
      { teamId: 'ENG', title: 'Beside it', assigneeId: member.id },
      t.adminToken,
    );
    assert.equal(assigned.status, 201);
    const query = `{ notifications(first: 50) { nodes { __typename id type title subtitle url groupingKey category
        readAt actor { id } user { id }
        ... on ProjectNotification { projectId projectUpdateId projectUpdateHealth project { id name }
          projectUpdate { id body health user { id } } issueStatusType comment { id } }
        ... on IssueNotification { issueId issue { id identifier } team { key } projectUpdateHealth } }
        pageInfo { hasNextPage endCursor } }
      inboxNotifications(first: 50) { edges { cursor node { id ... on ProjectNotification { project { name } } } } } }`;
    const answer = async (compiled: boolean) => {
      const app = { ...t.ctx, config: { ...t.ctx.config, graphqlCompiledReads: compiled } };
      const res = await runGraphql(graphqlSchema(), app, { ...member.actor }, { query });
      return JSON.parse(res.json ?? JSON.stringify(res.body));
    };
    const compiled = await answer(true);
    const resolved = await answer(false);
    assert.equal(resolved.errors, undefined, JSON.stringify(resolved.errors));
    assert.deepEqual(compiled, resolved);
    const kinds = new Set(compiled.data.notifications.nodes.map((x: any) => x.__typename));
    assert.deepEqual([...kinds].sort(), ['IssueNotification', 'ProjectNotification']);
  });
});

describe("the project's group in the inbox", () => {
  test('read, archive, unarchive and snooze act on every notification about the project, REST and GraphQL', async () => {
    const p = await project('Grouped plan');
    await postUpdate(p.id, 'One');
    await postUpdate(p.id, 'Two');
    assert.equal((await aboutProject(member, p.id)).length, 2);
    const count = async () => (await t.get('/api/notifications/unread-count', member.token)).body.count;
    const before = await count();

    // REST: read by the project's slug id or id.
    const read = await t.patch(`/api/projects/${p.id}/notifications`, { read: true }, member.token);
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.equal(read.body.notifications.length, 2);
    assert.ok(read.body.notifications.every((n: any) => n.readAt !== null));
    assert.equal(await count(), before - 2);
    assert.equal(
      (await aboutProject(lead, p.id)).filter((n) => n.readAt).length,
      0,
      'the lead’s stay unread',
    );

    // GraphQL: archive the group of one of them, then unarchive it by the project.
    const [first] = await aboutProject(member, p.id);
    const archived = await raw(
      member.client,
      `mutation($id: String!) { notificationArchiveAll(input: { id: $id }) { success notifications { id archivedAt } } }`,
      { id: first.id },
    );
    assert.equal(archived.notificationArchiveAll.notifications.length, 2);
    assert.equal((await aboutProject(member, p.id)).length, 0, 'out of the inbox');
    assert.equal((await aboutProject(member, p.id, '?archived=true')).length, 2);
    const back = await t.patch(`/api/projects/${p.id}/notifications`, { archived: false }, member.token);
    assert.equal(back.status, 200, JSON.stringify(back.body));
    assert.equal((await aboutProject(member, p.id)).length, 2);

    // Snooze by the update: both hidden until then.
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const update = first.projectUpdateId as string;
    const snoozed = await raw(
      member.client,
      `mutation($u: String!, $at: DateTime!) { notificationSnoozeAll(input: { projectUpdateId: $u }, snoozedUntilAt: $at) { success } }`,
      { u: update, at: until },
    );
    assert.equal(snoozed.notificationSnoozeAll.success, true);
    assert.equal((await aboutProject(member, p.id)).length, 0);
    await raw(
      member.client,
      `mutation($p: String!, $at: DateTime!) { notificationUnsnoozeAll(input: { projectId: $p }, unsnoozedAt: $at) { success } }`,
      { p: p.id, at: new Date().toISOString() },
    );
    assert.equal((await aboutProject(member, p.id)).length, 2);
  });

  test('bad input is a 4xx JSON error and changes nothing', async () => {
    const p = await project('Refusing plan');
    await postUpdate(p.id, 'Hold');
    const bad = await t.patch(`/api/projects/${p.id}/notifications`, { read: 'yes' }, member.token);
    assert.equal(bad.status, 400);
    assert.equal(typeof (bad.body.error?.code ?? bad.body.code), 'string', JSON.stringify(bad.body));
    const snooze = await t.patch(
      `/api/projects/${p.id}/notifications`,
      { snoozedUntilAt: 'soon' },
      member.token,
    );
    assert.equal(snooze.status, 400);
    assert.match(JSON.stringify(snooze.body), /snoozedUntilAt/);
    const missing = await t.patch(
      '/api/projects/00000000-0000-4000-8000-000000000000/notifications',
      { read: true },
      member.token,
    );
    assert.equal(missing.status, 404);
    // A project the caller does not see is no project for them.
    const unseen = await t.patch(`/api/projects/${p.id}/notifications`, { read: true }, guest.token);
    assert.equal(unseen.status, 404);
    assert.ok(
      (await aboutProject(member, p.id)).every((n) => n.readAt === null && n.snoozedUntilAt === null),
    );
  });
});

describe('seen only while the project is', () => {
  test('a project moved to a team the member is not in hides its notifications; deleting it deletes them', async () => {
    const p = await project('Moving plan');
    await postUpdate(p.id, 'Before the move');
    const [n] = await aboutProject(member, p.id);
    assert.ok(n);
    const moved = await t.patch(`/api/projects/${p.id}`, { teamIds: ['VLT'] }, t.adminToken);
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal((await aboutProject(member, p.id)).length, 0, 'out of the list');
    assert.equal((await t.get(`/api/notifications/${n.id}`, member.token)).status, 404);
    const gql = await member.client.notifications();
    assert.ok(!gql.nodes.some((x) => x.id === n.id), 'out of GraphQL’s list');
    assert.equal((await aboutProject(lead, p.id)).length, 1, 'the lead, in VLT, still sees it');

    const deleted = await t.del(`/api/projects/${p.id}`, t.adminToken);
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.equal((await stored(p.id)).length, 0);
    assert.equal((await aboutProject(lead, p.id)).length, 0);
  });
});
