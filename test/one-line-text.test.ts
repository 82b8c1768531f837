// Issue 24, finding 8: titles and names are one line. A title with a line
// break wrote a forged signature separator and a phishing line into a digest
// mailed from the workspace's address. One schema (`format: 'one-line'`,
// platform/one-line.ts) refuses line breaks and control characters over REST
// and GraphQL alike; digests flatten rows stored before (test/mail.test.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ONE_LINE_MESSAGE } from '../src/platform/one-line.js';
import { gql } from './graphql-helpers.js';
import { setFlag } from './projects.fixtures.js';
import { changedTables, digest, tablesToWatch } from './support/fuzz/digest.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let base: string;
let bearer: string;
let tables: string[];

before(async () => {
  t = await startTestApp();
  base = await t.listen();
  // A login token: an API key's lastUsedAt would count as a change.
  bearer = `Bearer ${t.adminToken}`;
  for (const flag of ['projects', 'cycles'] as const) await setFlag(t, flag, true);
  tables = await tablesToWatch(t.ctx.db);
});
after(() => t.close());

/** The exact text of the finding, and every other kind of break or control character. */
const FORGED = 'Quarterly report\n-- \nIT desk: your session expired, sign in at https://evil.example/login';
const BAD = [
  FORGED,
  'carriage\rreturn',
  'line\u2028separator',
  'paragraph\u2029separator',
  'next\u0085line',
  'tab\there',
  'nul\u0000byte',
  'trailing newline\n',
];

function assertOneLineRefusal(res: { status: number; body: any }, field: string, what: string) {
  assert.equal(res.status, 400, `${what}: ${JSON.stringify(res.body)}`);
  assert.equal(res.body.error.code, 'VALIDATION_FAILED', what);
  assert.deepEqual(res.body.error.details, [{ field, message: ONE_LINE_MESSAGE }], what);
}

describe('REST refuses a title or name that is not one line, and changes nothing', () => {
  test('issue title: create and update', async () => {
    const issue = (await t.post('/api/issues', { teamId: 'ENG', title: 'Fine' }, t.adminToken)).body.issue;
    const before = await digest(t.ctx.db, tables);
    for (const title of BAD) {
      assertOneLineRefusal(
        await t.post('/api/issues', { teamId: 'ENG', title }, t.adminToken),
        '/title',
        JSON.stringify(title),
      );
      assertOneLineRefusal(
        await t.patch(`/api/issues/${issue.id}`, { title }, t.adminToken),
        '/title',
        JSON.stringify(title),
      );
    }
    assert.deepEqual(changedTables(before, await digest(t.ctx.db, tables)), []);
  });

  test('names of projects, milestones, cycles, labels, teams, states, views, people, API keys and the workspace', async () => {
    const team = (await t.get('/api/teams/ENG', t.adminToken)).body.team;
    const project = (await t.post('/api/projects', { name: 'Named', teamIds: [team.id] }, t.adminToken)).body
      .project;
    const before = await digest(t.ctx.db, tables);
    const name = FORGED;
    const cases: [string, string, unknown, string][] = [
      ['POST', '/api/projects', { name }, '/name'],
      ['PATCH', `/api/projects/${project.id}`, { name }, '/name'],
      ['POST', `/api/projects/${project.id}/milestones`, { name }, '/name'],
      [
        'POST',
        '/api/cycles',
        { teamId: 'ENG', name, startsAt: '2030-01-01T00:00:00Z', endsAt: '2030-01-14T00:00:00Z' },
        '/name',
      ],
      ['POST', '/api/labels', { name }, '/name'],
      ['POST', '/api/teams', { key: 'NL', name }, '/name'],
      ['PATCH', `/api/teams/${team.id}`, { name }, '/name'],
      ['POST', '/api/workflow-states', { teamId: 'ENG', name, color: '#aabbcc', type: 'started' }, '/name'],
      ['POST', '/api/views', { name }, '/name'],
      ['PATCH', '/api/auth/me', { name }, '/name'],
      ['POST', '/api/api-keys', { label: name }, '/label'],
      ['PATCH', '/api/admin/workspace', { name }, '/name'],
    ];
    for (const [method, url, body, field] of cases) {
      const res = await t.request(method, url, { body, token: t.adminToken });
      assertOneLineRefusal(res, field, `${method} ${url}`);
    }
    assert.deepEqual(changedTables(before, await digest(t.ctx.db, tables)), []);
  });

  test('an ordinary title keeps its inner spaces, punctuation, emoji and other scripts', async () => {
    const title = 'Fix — “sign-in” 🚀 für Ärzte  (two spaces) -- not a separator';
    const res = await t.post('/api/issues', { teamId: 'ENG', title }, t.adminToken);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.issue.title, title);
  });
});

describe('GraphQL refuses the same, through the same schema', () => {
  const refused = (body: any, what: string) => {
    assert.equal(body.data?.[Object.keys(body.data ?? {})[0] ?? ''] ?? null, null, what);
    assert.ok(body.errors?.length, `${what}: ${JSON.stringify(body)}`);
    assert.match(JSON.stringify(body.errors), /one line/, what);
  };

  test('issueCreate and issueUpdate with the finding’s title', async () => {
    const team = (await t.get('/api/teams/ENG', t.adminToken)).body.team;
    const issue = (await t.post('/api/issues', { teamId: 'ENG', title: 'Fine' }, t.adminToken)).body.issue;
    const before = await digest(t.ctx.db, tables);
    for (const title of BAD) {
      const created = await gql(
        base,
        bearer,
        'mutation($i: IssueCreateInput!) { issueCreate(input: $i) { success issue { id } } }',
        { i: { teamId: team.id, title } },
      );
      refused(created.body, `issueCreate ${JSON.stringify(title)}`);
      const updated = await gql(
        base,
        bearer,
        'mutation($id: String!, $i: IssueUpdateInput!) { issueUpdate(id: $id, input: $i) { success } }',
        { id: issue.id, i: { title } },
      );
      refused(updated.body, `issueUpdate ${JSON.stringify(title)}`);
    }
    assert.deepEqual(changedTables(before, await digest(t.ctx.db, tables)), []);
  });

  test('projectCreate, issueLabelCreate, cycleCreate, teamCreate, customViewCreate with a two-line name', async () => {
    const team = (await t.get('/api/teams/ENG', t.adminToken)).body.team;
    const before = await digest(t.ctx.db, tables);
    const mutations: [string, string, Record<string, unknown>][] = [
      ['projectCreate', 'ProjectCreateInput', { name: FORGED, teamIds: [team.id] }],
      ['issueLabelCreate', 'IssueLabelCreateInput', { name: FORGED }],
      [
        'cycleCreate',
        'CycleCreateInput',
        { teamId: team.id, name: FORGED, startsAt: '2031-01-01T00:00:00Z', endsAt: '2031-01-14T00:00:00Z' },
      ],
      ['teamCreate', 'TeamCreateInput', { name: FORGED, key: 'NLG' }],
      ['customViewCreate', 'CustomViewCreateInput', { name: FORGED }],
    ];
    for (const [field, type, input] of mutations) {
      const res = await gql(base, bearer, `mutation($i: ${type}!) { ${field}(input: $i) { success } }`, {
        i: input,
      });
      refused(res.body, field);
    }
    assert.deepEqual(changedTables(before, await digest(t.ctx.db, tables)), []);
  });
});
