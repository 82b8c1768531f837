// Jira's CSV export through the generic CSV importer with the ready mapping
// (src/modules/import/mappings/jira-csv.json): repeated columns (Labels,
// Comment, Sprint), Jira's dates (dd/MMM/yy h:mm a), comments as
// `date;account;body`, people by account id, statuses and priorities; a
// re-run creates nothing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { csvSource } from '../src/modules/import/csv.js';
import { runImport } from '../src/modules/import/runner.js';
import type { Actor } from '../src/platform/context.js';
import { startTestApp, type TestApp } from './support/harness.js';

const file = readFileSync(new URL('./fixtures/jira/export.csv', import.meta.url), 'utf8');
const mapping = {
  ...JSON.parse(
    readFileSync(new URL('../src/modules/import/mappings/jira-csv.json', import.meta.url), 'utf8'),
  ),
  team: 'CSVX',
};

let t: TestApp;
let admin: Actor;
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
});
after(() => t?.close());

test('a Jira CSV export imports with the ready mapping, and again creates nothing', async () => {
  const report = await runImport(t.ctx, admin, csvSource('jira-export.csv', file, mapping));
  assert.equal(report.status, 'completed');
  assert.deepEqual(report.errors, []);
  assert.equal(report.counts['issue.created'], 3);
  assert.equal(report.counts['comment.created'], 2);
  assert.deepEqual(report.unknownStates, []);

  const issues = (await t.get('/api/issues?teamId=CSVX&limit=100', t.adminToken)).body.issues as any[];
  const story = issues.find((i) => i.title === 'Import the CSV export');
  assert.ok(story);
  assert.ok(
    story.description.startsWith('### Why\nJira\'s export **repeats** columns, "quoted" text and Ünïcödé ✓.'),
    story.description,
  );
  assert.ok(story.description.endsWith('*Imported from CSV: CSVX-1*'));
  assert.equal(story.createdAt, '2024-03-04T09:05:00.000Z');
  assert.equal(story.priority, 2);
  const full = (await t.get(`/api/issues/${story.id}`, t.adminToken)).body.issue;
  assert.equal(full.labelIds.length, 2);
  const raj = ((await t.get('/api/admin/users?limit=250', t.adminToken)).body.users as any[]).find(
    (u) => u.email === '712020:9f4c2b1e-3d2a-4e8f-a1b0-6c7d8e9f0a1b@jira.invalid',
  );
  assert.ok(raj, 'a placeholder for the assignee, named by account id');
  assert.equal(story.assigneeId, raj.id);

  const comments = (await t.get(`/api/issues/${story.id}/comments`, t.adminToken)).body.comments as any[];
  assert.deepEqual(
    comments.map((c) => [c.body, c.createdAt]),
    [
      ['First comment; with a semicolon', '2024-03-05T10:00:00.000Z'],
      ['Second comment\non two lines', '2024-03-06T14:30:00.000Z'],
    ],
  );
  assert.equal(comments[1].userId ?? comments[1].user?.id, raj.id);

  const states = (await t.get('/api/workflow-states?teamId=CSVX', t.adminToken)).body.workflowStates as any[];
  const old = issues.find((i) => i.title === 'Old request');
  const state = states.find((s) => s.id === old.stateId);
  assert.deepEqual([state.name, state.type], ["Won't Do", 'canceled']);

  const again = await runImport(t.ctx, admin, csvSource('jira-export.csv', file, mapping));
  assert.equal(again.counts['issue.created'] ?? 0, 0);
  assert.equal(again.counts['issue.existing'], 3);
  assert.equal(again.counts['comment.created'] ?? 0, 0);
});
