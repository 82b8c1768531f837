// @tacticlaunch/mcp-linear (an MCP server for AI agents, built on @linear/sdk 88)
// run unmodified against the test server and driven through its tools by the
// official MCP client: list, search, get by identifier, create, update state,
// assignee and priority, comment, and a "blocks" relation; then the planning
// tools an agent uses around issues (projects and cycles with their issues,
// milestones, sub-issues, comments and history, notifications, favorites).
// Every result is read back through our own @linear/sdk client or REST; a
// document the server refuses fails the step that sent it (support/real-clients.ts
// explains the mechanics). A step that needs a concept this service does not
// hold yet is todo, naming the unheld fields, until it lands.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LinearClient } from '@linear/sdk';
import { graphqlSchema } from '../src/graphql/routes.js';
import { startGraphqlApp } from './graphql-helpers.js';
import type { TestApp } from './support/harness.js';
import { Capture, keepDocuments, startMcp, todoUnless, toolStep } from './support/real-clients.js';

const CLIENT = 'tacticlaunch-mcp-linear';
const SERVER = 'node_modules/@tacticlaunch/mcp-linear/dist/index.js';
const schema = graphqlSchema();

let t: TestApp;
let sdk: LinearClient;
let capture: Capture;
let mcp: Awaited<ReturnType<typeof startMcp>>;
let teamId: string;
let viewerId: string;

before(async () => {
  const started = await startGraphqlApp();
  ({ t, client: sdk, teamId } = started);
  viewerId = (await sdk.viewer).id;
  // Something to list and search before the client creates anything.
  for (const title of ['Seeded: login page times out', 'Seeded: export drops the zebrafish column']) {
    const res = await t.post('/api/issues', { title, teamId: 'ENG', priority: 3 }, t.adminToken);
    assert.equal(res.status, 201);
  }
  await t.post('/api/issues/ENG-1/comments', { body: 'First thoughts' }, t.adminToken);
  capture = new Capture(CLIENT);
  // The server reads its personal API key from LINEAR_API_TOKEN (or LINEAR_API_KEY).
  mcp = await startMcp(capture, started.base, SERVER, { LINEAR_API_TOKEN: started.key });
});

after(async () => {
  await mcp?.close();
  if (capture) {
    keepDocuments(CLIENT, capture.all);
    capture.close();
  }
  await t?.close();
});

const step = (name: string, tool: string, args: Record<string, unknown>) =>
  toolStep(mcp, capture, name, tool, args);

describe(`${CLIENT} through MCP`, () => {
  let created: { id: string; identifier: string };
  let other: { id: string; identifier: string };

  test('lists its tools, among them the ones this test drives', async () => {
    const { tools } = await mcp.client.listTools();
    const names = tools.map((x) => x.name);
    for (const needed of [
      'linear_getIssues',
      'linear_searchIssues',
      'linear_getIssueById',
      'linear_createIssue',
      'linear_updateIssue',
      'linear_assignIssue',
      'linear_setIssuePriority',
      'linear_createComment',
      'linear_createIssueRelation',
    ])
      assert.ok(names.includes(needed), `${needed} in ${names.length} tools`);
  });

  test('viewer and teams', async () => {
    const viewer = await step('viewer', 'linear_getViewer', {});
    assert.equal(viewer.id, viewerId);
    const teams = await step('teams', 'linear_getTeams', {});
    assert.ok(teams.some((x: any) => x.id === teamId && x.key === 'ENG'));
  });

  test('list issues', async () => {
    const issues = await step('list issues', 'linear_getIssues', { limit: 10 });
    assert.deepEqual(issues.map((i: any) => i.title).sort(), [
      'Seeded: export drops the zebrafish column',
      'Seeded: login page times out',
    ]);
  });

  test('search issues', async () => {
    const found = await step('search', 'linear_searchIssues', { query: 'zebrafish', limit: 5 });
    assert.deepEqual(
      found.map((i: any) => i.title),
      ['Seeded: export drops the zebrafish column'],
    );
  });

  test('get an issue by identifier', async () => {
    const issue = await step('get by identifier', 'linear_getIssueById', { id: 'ENG-1' });
    assert.equal(issue.title, 'Seeded: login page times out');
    assert.equal(issue.priority, 3);
    assert.equal(issue.state.name, 'Backlog');
  });

  test('create an issue', async () => {
    const answer = await step('create', 'linear_createIssue', {
      title: 'Created by the MCP server',
      description: 'Through **linear_createIssue**',
      teamId,
      priority: 2,
    });
    const issue = await sdk.issue(answer.id);
    assert.equal(issue.title, 'Created by the MCP server');
    assert.equal(issue.description, 'Through **linear_createIssue**');
    assert.equal(issue.priority, 2);
    created = { id: issue.id, identifier: issue.identifier };
    assert.equal(created.identifier, 'ENG-3');
    other = { id: (await sdk.issue('ENG-2')).id, identifier: 'ENG-2' };
  });

  test('update state, assignee and priority at once', async () => {
    const states = await (await sdk.team(teamId)).states();
    const inProgress = states.nodes.find((s) => s.name === 'In Progress')!;
    await step('update state+assignee+priority', 'linear_updateIssue', {
      id: created.identifier,
      stateId: inProgress.id,
      assigneeId: viewerId,
      priority: 1,
    });
    const issue = await sdk.issue(created.id);
    assert.equal((await issue.state)?.name, 'In Progress');
    assert.equal((await issue.assignee)?.id, viewerId);
    assert.equal(issue.priority, 1);
  });

  test('assign and set priority with their own tools', async () => {
    const member = await t.userWithRole('member');
    await step('assign', 'linear_assignIssue', { issueId: created.identifier, assigneeId: member.user.id });
    await step('set priority', 'linear_setIssuePriority', { issueId: created.identifier, priority: 4 });
    const issue = await sdk.issue(created.id);
    assert.equal((await issue.assignee)?.id, member.user.id);
    assert.equal(issue.priority, 4);
  });

  test('comment', async () => {
    await step('comment', 'linear_createComment', {
      issueId: created.identifier,
      body: 'From the MCP server',
    });
    const comments = await (await sdk.issue(created.id)).comments();
    assert.deepEqual(
      comments.nodes.map((c) => c.body),
      ['From the MCP server'],
    );
  });

  test('create a "blocks" relation', {
    todo: todoUnless(schema, 'issue relations', ['IssueRelation', 'Mutation.issueRelationCreate']),
  }, async () => {
    await step('relation blocks', 'linear_createIssueRelation', {
      issueId: created.identifier,
      relatedIssueId: other.identifier,
      type: 'blocks',
    });
    const relations = await (await sdk.issue(created.id)).relations();
    assert.deepEqual(
      relations.nodes.map((r) => r.type),
      ['blocks'],
    );
    assert.equal((await relations.nodes[0]!.relatedIssue)?.id, other.id);
  });
});

describe(`${CLIENT} through MCP: planning around issues`, () => {
  let projectId: string;
  let cycleId: string;

  // Its issue lists (of a project, of a cycle) select projectMilestone { name },
  // a field the schema has had since it covers the whole third-party schema.

  test('create a project, add an issue to it, list projects', async () => {
    const project = await step('create project', 'linear_createProject', {
      name: 'Launch',
      description: 'Everything for the launch',
      teamIds: [teamId],
    });
    projectId = project.id;
    assert.equal((await sdk.project(projectId)).name, 'Launch');
    await step('add issue to project', 'linear_addIssueToProject', { issueId: 'ENG-1', projectId });
    assert.equal((await (await sdk.issue('ENG-1')).project)?.id, projectId);
    const projects = await step('list projects', 'linear_getProjects', {});
    assert.deepEqual(
      projects.map((p: any) => p.name),
      ['Launch'],
    );
  });

  test('list the issues of a project', async () => {
    const listed = await step('project issues', 'linear_getProjectIssues', { projectId });
    assert.deepEqual(
      listed.map((i: any) => i.identifier),
      ['ENG-1'],
    );
  });

  test('create a cycle, add an issue to it, list cycles and the active cycle', async () => {
    const day = 24 * 60 * 60_000;
    const cycle = await step('create cycle', 'linear_createCycle', {
      teamId,
      startsAt: new Date(Date.now() - day).toISOString(),
      endsAt: new Date(Date.now() + 13 * day).toISOString(),
      name: 'Sprint 1',
    });
    cycleId = cycle.id;
    await step('add issue to cycle', 'linear_addIssueToCycle', { issueId: 'ENG-2', cycleId });
    assert.equal((await (await sdk.issue('ENG-2')).cycle)?.id, cycleId);
    const cycles = await step('list cycles', 'linear_getCycles', { teamId });
    assert.deepEqual(
      cycles.map((c: any) => c.id),
      [cycleId],
    );
    const active = await step('active cycle', 'linear_getActiveCycle', { teamId });
    assert.equal(active.id, cycleId);
  });

  test('list the issues of a cycle', async () => {
    const listed = await step('cycle issues', 'linear_getCycleIssues', { cycleId });
    assert.deepEqual(
      listed.map((i: any) => i.identifier),
      ['ENG-2'],
    );
  });

  test('create a milestone in the project and list milestones', {
    todo: todoUnless(schema, 'project milestones', [
      'Query.projectMilestones',
      'Mutation.projectMilestoneCreate',
    ]),
  }, async () => {
    // Listed first too, so the list's documents are tried even while creating is refused.
    assert.deepEqual(await step('list milestones (none yet)', 'linear_getMilestones', { projectId }), []);
    assert.deepEqual(await step('list all milestones (none yet)', 'linear_getMilestones', {}), []);
    const milestone = await step('create milestone', 'linear_createMilestone', {
      name: 'Beta',
      projectId,
      targetDate: '2030-01-15',
    });
    assert.equal(milestone.name, 'Beta');
    const listed = await step('list milestones', 'linear_getMilestones', { projectId });
    assert.deepEqual(
      listed.map((m: any) => m.name),
      ['Beta'],
    );
  });

  test('make an issue a sub-issue of another', async () => {
    await step('convert to sub-issue', 'linear_convertIssueToSubtask', {
      issueId: 'ENG-3',
      parentIssueId: 'ENG-1',
    });
    assert.equal((await (await sdk.issue('ENG-3')).parent)?.id, (await sdk.issue('ENG-1')).id);
  });

  test('comments and history of an issue', async () => {
    const comments = await step('list comments', 'linear_getComments', { issueId: 'ENG-1' });
    assert.deepEqual(
      comments.map((c: any) => c.body),
      ['First thoughts'],
    );
    // The tool's output schema says each event's from/to is a string, but it
    // fills them from IssueHistory.from/.to, fields the third-party schema does
    // not have, so they are always null and the MCP client (which checks tool
    // output once it has listed the tools) rejects the answer: a client bug,
    // the same against the third-party API. The documents must still be accepted.
    await assert.rejects(
      step('issue history', 'linear_getIssueHistory', { issueId: 'ENG-1' }),
      /data\/history\/0\/from must be string/,
    );
  });

  // The viewer is assigned an issue by someone else: one notification, read through the tools.
  test('notifications', async () => {
    const member = await t.userWithRole('member', { teams: ['ENG'] });
    const res = await t.post(
      '/api/issues',
      { title: 'Assigned by a teammate', teamId: 'ENG', assigneeId: viewerId },
      member.token,
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const list = await step('notifications', 'linear_getNotifications', {});
    assert.equal(list.length, 1, JSON.stringify(list));
    assert.equal(list[0].type, 'issueAssignedToYou');
    assert.equal(list[0].title, `${res.body.issue.identifier} Assigned by a teammate`);
    assert.equal(list[0].url, res.body.issue.url);
    assert.equal(list[0].actor.id, member.user.id);
    assert.deepEqual(await step('unread notifications', 'linear_getUnreadNotificationCount', {}), {
      count: 1,
    });
    await step('mark read', 'linear_markNotificationAsRead', { id: list[0].id });
    assert.deepEqual(await step('unread notifications', 'linear_getUnreadNotificationCount', {}), {
      count: 0,
    });
  });

  test('favorites', async () => {
    assert.deepEqual(await step('favorites', 'linear_getFavoriteViews', {}), []);
  });
});
