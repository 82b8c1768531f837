// linear-mcp (an MCP server for Cline, built on @linear/sdk 38 with its own
// GraphQL documents) run unmodified against the test server and driven through
// its tools by the official MCP client: list, search, get by identifier,
// create, update state/assignee/priority, comment, and a project created with
// its issues (issueBatchCreate). It has no tool for issue relations. Results
// are read back through our own @linear/sdk client; a document the server
// refuses fails the step that sent it (support/real-clients.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LinearClient } from '@linear/sdk';
import { graphqlSchema } from '../src/graphql/routes.js';
import { startGraphqlApp } from './graphql-helpers.js';
import type { TestApp } from './support/harness.js';
import {
  Capture,
  callTool,
  keepDocuments,
  refusalOf,
  startMcp,
  todoUnless,
  toolStep,
} from './support/real-clients.js';

const CLIENT = 'linear-mcp';
const SERVER = 'node_modules/linear-mcp/build/index.js';
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
  for (const title of ['Seeded: login page times out', 'Seeded: export drops the zebrafish column']) {
    const res = await t.post('/api/issues', { title, teamId: 'ENG', priority: 3 }, t.adminToken);
    assert.equal(res.status, 201);
  }
  capture = new Capture(CLIENT);
  // This server reads its token from LINEAR_ACCESS_TOKEN and sends it as
  // "Bearer <token>" (the SDK's accessToken option): our API keys work either way.
  mcp = await startMcp(capture, started.base, SERVER, { LINEAR_ACCESS_TOKEN: started.key });
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

  test('lists its tools, among them the ones this test drives', async () => {
    const { tools } = await mcp.client.listTools();
    const names = tools.map((x) => x.name);
    for (const needed of [
      'linear_get_user',
      'linear_get_teams',
      'linear_search_issues',
      'linear_search_issues_by_identifier',
      'linear_create_issue',
      'linear_bulk_update_issues',
      'linear_create_comment',
      'linear_create_project_with_issues',
    ])
      assert.ok(names.includes(needed), `${needed} in ${names.join(', ')}`);
  });

  test('viewer and teams with their states and labels', async () => {
    const user = await step('viewer', 'linear_get_user', {});
    assert.equal(user.viewer.id, viewerId);
    const teams = await step('teams', 'linear_get_teams', {});
    const eng = teams.teams.nodes.find((x: any) => x.key === 'ENG');
    assert.equal(eng.id, teamId);
    assert.ok(eng.states.nodes.some((s: any) => s.name === 'In Progress'));
    assert.deepEqual(eng.labels.nodes.map((l: any) => l.name).sort(), ['Bug', 'Feature', 'Improvement']);
  });

  test('list issues (search without a query)', async () => {
    const res = await step('list issues', 'linear_search_issues', { first: 10 });
    assert.deepEqual(res.issues.nodes.map((i: any) => i.title).sort(), [
      'Seeded: export drops the zebrafish column',
      'Seeded: login page times out',
    ]);
  });

  test('search by state and priority', async () => {
    const res = await step('search by state+priority', 'linear_search_issues', {
      states: ['Backlog'],
      priority: 3,
      teamIds: [teamId],
    });
    assert.equal(res.issues.nodes.length, 2);
  });

  // The tool sends free text as IssueFilter.search, a field the third-party
  // schema does not have either (its IssueFilter has searchableContent): the
  // document is invalid everywhere, and the right answer is a validation error.
  test('search by free text is refused, as the third-party API refuses it', async () => {
    await assert.rejects(callTool(mcp.client, 'linear_search_issues', { query: 'zebrafish' }));
    const sent = capture.take('search by text (client bug)');
    assert.equal(sent.length, 1);
    assert.match(refusalOf(sent[0]!), /Field "search" is not defined by type "IssueFilter"/);
  });

  test('get issues by identifier', async () => {
    const text = await step('get by identifier', 'linear_search_issues_by_identifier', {
      identifiers: ['ENG-1'],
    });
    // The tool filters on the number alone, so ENG-1 means issue number 1 of any team.
    assert.match(text, /^ENG-1: Seeded: login page times out\nStatus: Backlog\n/);
  });

  test('create an issue', async () => {
    const text = await step('create', 'linear_create_issue', {
      title: 'Created by linear-mcp',
      description: 'Through linear_create_issue',
      teamId,
      priority: 2,
    });
    assert.match(text, /Issue: ENG-3\n/);
    const issue = await sdk.issue('ENG-3');
    assert.equal(issue.title, 'Created by linear-mcp');
    assert.equal(issue.description, 'Through linear_create_issue');
    assert.equal(issue.priority, 2);
    created = { id: issue.id, identifier: issue.identifier };
  });

  test('update state, assignee and priority', async () => {
    const states = await (await sdk.team(teamId)).states();
    const inProgress = states.nodes.find((s) => s.name === 'In Progress')!;
    await step('update state+assignee+priority', 'linear_bulk_update_issues', {
      issueIds: [created.id],
      update: { stateId: inProgress.id, assigneeId: viewerId, priority: 1 },
    });
    const issue = await sdk.issue(created.id);
    assert.equal((await issue.state)?.name, 'In Progress');
    assert.equal((await issue.assignee)?.id, viewerId);
    assert.equal(issue.priority, 1);
  });

  test('comment', async () => {
    const res = await step('comment', 'linear_create_comment', {
      issueId: created.id,
      body: 'From linear-mcp',
    });
    assert.equal(res.success, true);
    const comments = await (await sdk.issue(created.id)).comments();
    assert.deepEqual(
      comments.nodes.map((c) => c.body),
      ['From linear-mcp'],
    );
  });

  test('create a project with its issues', {
    todo: todoUnless(schema, 'issueBatchCreate', ['IssueBatchCreateInput', 'Mutation.issueBatchCreate']),
  }, async () => {
    const res = await step('project with issues', 'linear_create_project_with_issues', {
      project: { name: 'Imported by linear-mcp', teamIds: [teamId] },
      issues: [
        { title: 'Batch one', description: 'first', teamId },
        { title: 'Batch two', description: 'second', teamId },
      ],
    });
    // The tool answers in prose: the project, then one line per issue created.
    assert.match(res, /^Successfully created project with issues\nProject: Imported by linear-mcp\n/);
    assert.match(res, /Issues created: 2\n- ENG-4: Batch one \(.+\)\n- ENG-5: Batch two \(.+\)$/);
    const projects = await sdk.projects({ filter: { name: { eq: 'Imported by linear-mcp' } } });
    const issues = await projects.nodes[0]!.issues();
    assert.deepEqual(issues.nodes.map((i) => [i.identifier, i.title, i.description]).sort(), [
      ['ENG-4', 'Batch one', 'first'],
      ['ENG-5', 'Batch two', 'second'],
    ]);
  });
});
