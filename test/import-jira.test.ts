// The Jira importer (modules/import/jira.ts) against a local server that
// answers as Jira does, with bodies recorded in test/fixtures/jira/: Jira Cloud
// (REST v3, nextPageToken pages, ADF, a 429 with Retry-After first) and Data
// Center (REST v2, startAt pages, wiki markup, the sprint field as text, an
// Epic Link to an epic the query left out). Checked: a dry run writes nothing;
// the import carries teams, states by category, priorities, labels and
// components, the epic as a project, the sprint as a cycle, the sub-task as a
// child, links as relations, comments (paged) with authors and dates, the
// original keys (searchable) and dates; a re-run creates nothing; a run that
// fails part-way is completed by the next; POST /api/admin/imports runs it too.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { jiraDate, jiraSource, sprintOf } from '../src/modules/import/jira.js';
import { adfToMarkdown } from '../src/modules/import/jira-adf.js';
import { runImport } from '../src/modules/import/runner.js';
import type { Actor } from '../src/platform/context.js';
import { type FakeJira, startFakeJira } from './support/fake-jira.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let admin: Actor;
let fake: FakeJira;
let site: string;

before(async () => {
  t = await startTestApp();
  const me = await t.get('/api/auth/me', t.adminToken);
  admin = {
    id: me.body.user.id,
    role: 'admin',
    name: me.body.user.name,
    email: me.body.user.email,
    via: 'session',
  };
  fake = await startFakeJira();
  site = fake.url;
});
after(async () => {
  await fake?.close();
  await t?.close();
});

const cloud = () =>
  jiraSource({
    url: site,
    jql: 'project = WEB',
    auth: { email: 'admin@acme.example', apiToken: 'cloud-token' },
    pageSize: 2,
  });
const dc = () =>
  jiraSource({
    url: `${site}/jira/`,
    jql: 'project = OPS',
    auth: { pat: 'dc-pat' },
    team: 'DCX',
    pageSize: 2,
  });

const issuesOf = async (team: string) => {
  const res = await t.get(`/api/issues?teamId=${team}&limit=100`, t.adminToken);
  return res.status === 200 ? (res.body.issues as any[]) : [];
};
const byTitle = (list: any[], title: string) => {
  const found = list.find((i) => i.title === title);
  assert.ok(found, `${title} in ${JSON.stringify(list.map((i) => i.title))}`);
  return found;
};
const userByEmail = async (email: string) =>
  ((await t.get('/api/admin/users?limit=250', t.adminToken)).body.users as any[]).find(
    (u) => u.email === email,
  );

describe('Jira Cloud through REST v3', () => {
  test('a dry run reports what would be created and who is missing, and writes nothing', async () => {
    const report = await runImport(t.ctx, admin, cloud(), { dryRun: true });
    assert.equal(report.status, 'completed', JSON.stringify(report.errors));
    // The epic is a project, not an issue.
    assert.equal(report.counts['issue.created'], 3);
    assert.equal(report.counts['project.created'], 1, JSON.stringify(report.counts));
    assert.equal(report.counts['team.created'], 1);
    assert.equal(report.counts['comment.created'], 3);
    assert.deepEqual(report.missingUsers, [
      '557058-f58131cb-b67d-43c7-b30d-6b58d40bd077@jira.invalid',
      'mia@acme.example',
      'raj@acme.example',
    ]);
    assert.equal((await t.get('/api/teams/WEB', t.adminToken)).status, 404);
    // The first search was answered 429 with Retry-After and asked again.
    assert.equal(fake.rateLimitOnce, false);
  });

  test('the import carries the issues and everything around them', async () => {
    const report = await runImport(t.ctx, admin, cloud());
    assert.equal(report.status, 'completed', JSON.stringify(report.errors));
    assert.deepEqual(report.errors, []);
    assert.equal(report.counts['issue.created'], 3);
    assert.equal(report.counts['relation.created'], 2);

    const team = (await t.get('/api/teams/WEB', t.adminToken)).body.team;
    assert.equal(team.name, 'Web Platform');
    const issues = await issuesOf('WEB');
    assert.equal(issues.length, 3);
    const story = byTitle(issues, 'Import issues from Jira Cloud');
    const task = byTitle(issues, 'Map statuses to states');
    const sub = byTitle(issues, 'Handle ADF tables');

    // ADF as Markdown, and the original key as a link at the end.
    assert.match(
      story.description,
      /^## Goal\n\nRead \*\*every\*\* issue through `search\/jql`, see \[the docs\]\(https:/,
    );
    assert.ok(story.description.includes('- Ünïcödé ✓ @Raj Patel'), story.description);
    assert.ok(story.description.includes('```ts\nconst page = await search(jql);\n```'), story.description);
    assert.ok(
      story.description.endsWith(`*Imported from Jira: [WEB-2](${site}/browse/WEB-2)*`),
      story.description,
    );
    assert.ok(
      sub.description.startsWith('| Jira | Here |\n| --- | --- |\n| Epic | Project |'),
      sub.description,
    );

    // States by category, priorities, dates.
    const states = (await t.get('/api/workflow-states?teamId=WEB', t.adminToken)).body
      .workflowStates as any[];
    const stateOf = (i: any) => states.find((s) => s.id === i.stateId);
    assert.deepEqual([stateOf(story).name, stateOf(story).type], ['Done', 'completed']);
    assert.equal(stateOf(task).type, 'unstarted');
    assert.deepEqual([stateOf(sub).name, stateOf(sub).type], ['In Progress', 'started']);
    assert.deepEqual([story.priority, task.priority, sub.priority], [2, 4, 3]);
    assert.equal(story.createdAt, '2024-03-01T10:15:30.000Z');
    assert.equal(story.completedAt, '2024-03-14T17:45:00.000Z');
    assert.equal(story.dueDate, '2024-03-29');

    // People: Raj by email, Ana (email hidden) as a placeholder named by her account.
    const raj = await userByEmail('raj@acme.example');
    assert.equal(raj.status, 'suspended');
    assert.equal(story.assigneeId, raj.id);
    const ana = await userByEmail('557058-f58131cb-b67d-43c7-b30d-6b58d40bd077@jira.invalid');
    assert.equal(ana.name, 'Ana Lima');

    // Labels and the component, the epic as the project, the active sprint as the cycle.
    const full = (await t.get(`/api/issues/${story.id}`, t.adminToken)).body.issue;
    const labels = (await t.get('/api/labels?teamId=WEB', t.adminToken)).body.labels as any[];
    const names = full.labelIds.map((id: string) => labels.find((l) => l.id === id)?.name).sort();
    assert.deepEqual(names, ['API', 'backend', 'importer']);
    const project = (await t.get(`/api/projects/${full.projectId}`, t.adminToken)).body.project;
    assert.equal(project.name, 'Jira importer');
    const cycle = (await t.get(`/api/cycles/${full.cycleId}`, t.adminToken)).body.cycle;
    assert.equal(cycle.name, 'WEB Sprint 2');
    assert.equal(cycle.startsAt, '2024-03-18T09:00:00.000Z');

    // The sub-task is a child; the links are relations, each once.
    assert.equal(sub.parentId, story.id);
    const relations = (await t.get(`/api/issues/${task.id}/relations`, t.adminToken)).body.relations as any[];
    const seen = relations.map((r) => `${r.kind} ${r.issue.identifier}`).sort();
    assert.deepEqual(seen, [`blocked_by ${story.identifier}`, `related ${sub.identifier}`]);

    // Comments: three (the third read from the comment endpoint), with authors and dates.
    const comments = (await t.get(`/api/issues/${story.id}/comments`, t.adminToken)).body.comments as any[];
    assert.deepEqual(
      comments.map((c) => c.body),
      ['First pass is up.', 'Looks good, _ship it_', 'Third comment, read from the comment endpoint.'],
    );
    assert.equal(comments[1].createdAt, '2024-03-06T10:30:00.000Z');
    assert.equal(comments[1].userId ?? comments[1].user?.id, ana.id);

    // The attachment as a link, and the key found by search.
    const attachments = (await t.get(`/api/issues/${story.id}/attachments`, t.adminToken)).body.attachments;
    assert.ok(
      attachments.some((a: any) => a.title === 'screenshot.png'),
      JSON.stringify(attachments),
    );
    const found = await t.get(`/api/issues?q=${encodeURIComponent('WEB-4')}`, t.adminToken);
    assert.ok(found.body.issues.some((i: any) => i.id === sub.id));
  });

  test('running again creates nothing', async () => {
    const report = await runImport(t.ctx, admin, cloud());
    assert.equal(report.counts['issue.created'] ?? 0, 0);
    assert.equal(report.counts['issue.existing'], 3);
    assert.equal(report.counts['comment.created'] ?? 0, 0);
    assert.equal(report.counts['relation.created'] ?? 0, 0);
    assert.equal(report.counts['cycle.created'] ?? 0, 0);
    assert.equal((await issuesOf('WEB')).length, 3);
  });
});

describe('Jira Data Center through REST v2', () => {
  test('a run that fails part-way leaves whole issues; the next completes it with no duplicates', async () => {
    fake.failDcStartAt = 2;
    await assert.rejects(runImport(t.ctx, admin, dc()), /Jira answered 500 to \/jira\/rest\/api\/2\/search/);
    assert.equal((await issuesOf('DCX')).length, 2);
    const report = await runImport(t.ctx, admin, dc());
    assert.equal(report.status, 'completed', JSON.stringify(report.errors));
    assert.equal(report.counts['issue.created'], 1);
    // Resumed from its cursor: the first page was not read again for issues.
    const pages = fake.requests.filter(
      (u) => u.pathname.endsWith('/api/2/search') && u.searchParams.get('fields')?.includes('comment'),
    );
    assert.deepEqual(
      pages.map((u) => u.searchParams.get('startAt')),
      ['0', '2', '2'],
    );
    assert.equal((await issuesOf('DCX')).length, 3);
  });

  test('wiki markup, the sprint text, the Epic Link, sub-tasks, links and one team for all', async () => {
    const issues = await issuesOf('DCX');
    const story = byTitle(issues, 'Move the build farm');
    const dup = byTitle(issues, 'Old build farm ticket');
    const sub = byTitle(issues, 'Drain the old agents');
    assert.ok(
      story.description.startsWith('## Plan\n**Bold step**, then *careful* step.'),
      story.description,
    );
    assert.ok(story.description.includes('[the runbook](https://wiki.corp.example/runbook) and ask @ben.'));
    assert.ok(story.description.includes('make deploy'));
    assert.equal(story.priority, 1);
    assert.equal(dup.priority, 4);
    assert.equal(story.createdAt, '2024-05-02T12:03:11.000Z');

    const states = (await t.get('/api/workflow-states?teamId=DCX', t.adminToken)).body
      .workflowStates as any[];
    const stateOf = (i: any) => states.find((s) => s.id === i.stateId);
    assert.deepEqual([stateOf(story).name, stateOf(story).type], ['In Review', 'started']);
    // Marked a duplicate, it is in the team's duplicate state, as any duplicate here is.
    assert.deepEqual([stateOf(dup).name, stateOf(dup).type], ['Duplicate', 'canceled']);
    assert.ok(states.some((s) => s.name === "Won't Do" && s.type === 'canceled'));
    assert.equal(dup.canceledAt, '2024-05-04T06:00:00.000Z');

    const full = (await t.get(`/api/issues/${story.id}`, t.adminToken)).body.issue;
    const project = (await t.get(`/api/projects/${full.projectId}`, t.adminToken)).body.project;
    assert.equal(project.name, 'Build farm migration');
    const cycle = (await t.get(`/api/cycles/${full.cycleId}`, t.adminToken)).body.cycle;
    assert.equal(cycle.name, 'OPS Sprint 7, the long one');
    assert.equal(cycle.startsAt, '2024-05-06T07:00:00.000Z');
    assert.equal(sub.parentId, story.id);
    const relations = (await t.get(`/api/issues/${story.id}/relations`, t.adminToken)).body
      .relations as any[];
    assert.deepEqual(
      relations.map((r) => `${r.kind} ${r.issue.identifier}`),
      [`duplicated_by ${dup.identifier}`],
    );

    const ben = await userByEmail('ben.okafor@corp.example');
    assert.equal(story.assigneeId, ben.id);
    const comments = (await t.get(`/api/issues/${story.id}/comments`, t.adminToken)).body.comments as any[];
    assert.equal(comments[0].body, 'Started on **Monday**.');
    assert.equal(comments[0].userId ?? comments[0].user?.id, ben.id);
    assert.equal((await t.get('/api/teams/OPS', t.adminToken)).status, 404);
  });

  test('POST /api/admin/imports runs it; credentials must be one kind; a re-run creates nothing', async () => {
    const both = await t.post(
      '/api/admin/imports',
      {
        source: 'jira',
        url: `${site}/jira`,
        jql: 'project = OPS',
        pat: 'dc-pat',
        email: 'a@b.c',
        apiToken: 'x',
      },
      t.adminToken,
    );
    assert.equal(both.status, 400, JSON.stringify(both.body));
    const none = await t.post(
      '/api/admin/imports',
      { source: 'jira', url: `${site}/jira`, jql: 'x' },
      t.adminToken,
    );
    assert.equal(none.status, 400);
    const badTeam = await t.post(
      '/api/admin/imports',
      { source: 'jira', url: `${site}/jira`, jql: 'x', pat: 'p', team: 'lower' },
      t.adminToken,
    );
    assert.equal(badTeam.status, 400);

    const res = await t.post(
      '/api/admin/imports',
      { source: 'jira', url: `${site}/jira`, jql: 'project = OPS', pat: 'dc-pat', team: 'DCX' },
      t.adminToken,
    );
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.importRun.kind, 'jira');
    assert.equal(res.body.importRun.source, `jira:${site}/jira`);
    let run = res.body.importRun;
    for (let i = 0; i < 400 && run.status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      run = (await t.get(`/api/admin/imports/${run.id}`, t.adminToken)).body.importRun;
    }
    assert.equal(run.status, 'completed', JSON.stringify(run.errors));
    assert.equal(run.counts['issue.existing'], 3);
    assert.equal(run.counts['issue.created'] ?? 0, 0);
    assert.equal((await issuesOf('DCX')).length, 3);
  });

  test('a wrong token is reported with what Jira said', async () => {
    const source = jiraSource({ url: `${site}/jira`, jql: 'project = OPS', auth: { pat: 'wrong' } });
    await assert.rejects(runImport(t.ctx, admin, source, { dryRun: true }), /401.*You are not authenticated/);
  });
});

describe('what a Jira answer holds, read defensively', () => {
  test('ADF: nested lists, tasks, marks inside links, unknown nodes keep their text', () => {
    const doc = {
      type: 'doc',
      version: 1,
      content: [
        {
          type: 'orderedList',
          attrs: { order: 3 },
          content: [
            {
              type: 'listItem',
              content: [
                { type: 'paragraph', content: [{ type: 'text', text: 'three' }] },
                {
                  type: 'bulletList',
                  content: [
                    {
                      type: 'listItem',
                      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'inner' }] }],
                    },
                  ],
                },
              ],
            },
          ],
        },
        {
          type: 'taskList',
          content: [
            { type: 'taskItem', attrs: { state: 'DONE' }, content: [{ type: 'text', text: 'done' }] },
          ],
        },
        { type: 'someFutureNode', content: [{ type: 'text', text: 'kept' }] },
        { type: 'rule' },
      ],
    };
    assert.equal(adfToMarkdown(doc), '3. three\n\n   - inner\n\n- [x] done\n\nkept\n\n---');
  });

  test('sprints as objects and as the older servers’ text', () => {
    assert.deepEqual(
      sprintOf(
        'com.atlassian.greenhopper.service.sprint.Sprint@a29f07[rapidViewId=<null>,state=CLOSED,name=NORD - Sprint 42,startDate=2013-07-29T06:47:00.000+02:00,endDate=2013-08-11T20:47:00.000+02:00,completeDate=<null>,id=107]',
      ),
      {
        id: '107',
        name: 'NORD - Sprint 42',
        state: 'CLOSED',
        startDate: '2013-07-29T04:47:00.000Z',
        endDate: '2013-08-11T18:47:00.000Z',
      },
    );
    assert.equal(sprintOf({ id: 1 }), null);
    assert.equal(sprintOf('not a sprint'), null);
  });

  test('property: any JSON as ADF, a sprint or a date gives text or nothing, never a throw', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.string(), (json, s) => {
        assert.equal(typeof adfToMarkdown(json), 'string');
        assert.equal(typeof adfToMarkdown({ type: 'doc', content: [json] }), 'string');
        sprintOf(json);
        sprintOf(`x.Sprint@1[${s}]`);
        const d = jiraDate(s);
        assert.ok(d === undefined || !Number.isNaN(Date.parse(d)));
      }),
      { numRuns: 500 },
    );
  });
});
