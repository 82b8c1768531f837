// Jira's XML export as a source (modules/import/jira-xml.ts) on the realistic
// fixture test/fixtures/jira/export.xml: HTML descriptions with quotes, code and
// mentions, unicode, people known only by username or account id (one mapped
// to an email, a deleted author), a status without a category (unknown, named
// in the report), a duplicate key (refused, the first kept), an epic (a
// project), a sub-task (a sub-issue), a link (a relation), a won't-do (canceled).
// Checked: a dry run writes nothing; the import; a re-run creates nothing;
// POST /api/admin/imports takes the file's text and refuses one that is not an export.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { htmlToMarkdown } from '../src/modules/import/jira-html.js';
import { jiraXmlSource } from '../src/modules/import/jira-xml.js';
import { ImportInputError } from '../src/modules/import/model.js';
import { runImport } from '../src/modules/import/runner.js';
import type { Actor } from '../src/platform/context.js';
import { startTestApp, type TestApp } from './support/harness.js';

const xml = readFileSync(new URL('./fixtures/jira/export.xml', import.meta.url), 'utf8');
let t: TestApp;
let admin: Actor;

before(async () => {
  t = await startTestApp();
  const me = (await t.get('/api/auth/me', t.adminToken)).body.user;
  admin = { id: me.id, role: 'admin', name: me.name, email: me.email, via: 'session' };
});
after(() => t?.close());

const source = () => jiraXmlSource({ xml, users: { mmueller: 'maria.mueller@example.com' } });
const issuesOf = async (team: string) =>
  ((await t.get(`/api/issues?teamId=${team}&limit=100`, t.adminToken)).body.issues ?? []) as any[];

describe('Jira XML export', () => {
  test('a dry run reports what would be created, who is missing and the unknown status; writes nothing', async () => {
    const report = await runImport(t.ctx, admin, source(), { dryRun: true });
    assert.equal(report.status, 'completed', JSON.stringify(report.errors));
    assert.equal(report.counts['issue.created'], 4, JSON.stringify(report.counts));
    assert.equal(report.counts['issue.failed'], 1);
    assert.deepEqual(report.errors, ['OPS-3: the key appears again in the file; the first one is imported']);
    assert.equal(report.counts['project.created'], 1);
    assert.deepEqual(report.missingUsers, [
      '557058-f1e2d3c4-b5a6-7980-1a2b-3c4d5e6f7a8b@jira.invalid',
      'former.employee@jira.invalid',
      'jsmith@jira.invalid',
      'maria.mueller@example.com',
    ]);
    assert.deepEqual(
      report.unknownStates.map((s) => s.name),
      ['Waiting for QA'],
    );
    assert.equal((await t.get('/api/teams/OPS', t.adminToken)).status, 404);
  });

  test('the import carries issues, text, people, states, hierarchy and links', async () => {
    const report = await runImport(t.ctx, admin, source());
    assert.equal(report.status, 'completed', JSON.stringify(report.errors));
    assert.equal(report.counts['issue.created'], 4);
    assert.equal(report.counts['relation.created'], 1);
    assert.equal(report.counts['comment.created'], 2);
    const list = await issuesOf('OPS');
    assert.equal(list.length, 4);
    const find = (title: RegExp) => list.find((i) => title.test(i.title));
    const story = (await t.get(`/api/issues/${find(/^Rotate the "edge"/).id}`, t.adminToken)).body.issue;
    assert.equal(story.title, 'Rotate the "edge" certificates — naïve café');
    assert.match(story.description, /^Per @Maria Müller, the \*\*edge\*\* certs/);
    assert.match(story.description, /\n> "Renew before Friday", 日本語 included\.\n/);
    assert.match(
      story.description,
      /```bash\ncertbot renew --cert-name edge && systemctl reload nginx\necho "done"\n```/,
    );
    assert.match(
      story.description,
      /\*Imported from Jira: \[OPS-2\]\(https:\/\/jira\.example\.com\/browse\/OPS-2\)\*$/,
    );
    assert.equal(story.priority, 2);
    assert.equal(story.dueDate, '2024-03-20');
    assert.equal(story.createdAt, '2024-03-04T09:15:30.000Z');
    const comments = (await t.get(`/api/issues/${story.id}/comments`, t.adminToken)).body.comments as any[];
    assert.deepEqual(
      comments.map((c) => c.body),
      [
        'On it. Multi-line:\nsecond line',
        'I left the company; see [the runbook](https://wiki.example.com/x?a=1&b=2).',
      ],
    );
    // People named only by username are suspended placeholders; a mapped one has the email given.
    const users = (await t.get('/api/admin/users?limit=250', t.adminToken)).body.users as any[];
    const maria = users.find((u) => u.email === 'maria.mueller@example.com');
    assert.equal(maria?.name, 'Maria Müller');
    assert.equal(users.find((u) => u.email === 'jsmith@jira.invalid')?.name, 'John Smith');
    // Without credentials the attachment is a link to Jira.
    const attachments = (await t.get(`/api/issues/${story.id}/attachments`, t.adminToken)).body
      .attachments as any[];
    assert.ok(
      attachments.some((a) => a.url === 'https://jira.example.com/secure/attachment/30001/cert%20chain.pem'),
      JSON.stringify(attachments),
    );
    const sub = find(/^Renew edge-1$/);
    assert.equal((await t.get(`/api/issues/${sub.id}`, t.adminToken)).body.issue.parentId, story.id);
    const unknown = (await t.get(`/api/issues/${find(/^Nginx reload/).id}`, t.adminToken)).body.issue;
    assert.equal(unknown.title, 'Nginx reload drops connections', 'the first of the duplicate keys');
    const canceled = (await t.get(`/api/issues/${find(/^Move DNS/).id}`, t.adminToken)).body.issue;
    assert.equal(canceled.canceledAt, '2024-03-07T09:00:00.000Z');
    // The key is searchable.
    const found = (await t.get('/api/issues?q=OPS-4', t.adminToken)).body.issues as any[];
    assert.ok(found.some((i) => i.id === sub.id));
  });

  test('running again creates nothing', async () => {
    const report = await runImport(t.ctx, admin, source());
    assert.equal(report.status, 'completed');
    assert.equal(report.counts['issue.created'] ?? 0, 0);
    assert.equal(report.counts['issue.existing'], 4);
    assert.equal((await issuesOf('OPS')).length, 4);
  });

  test('POST /api/admin/imports takes the export; a file that is not one is a 400 and opens no run', async () => {
    const bad = await t.post(
      '/api/admin/imports',
      { source: 'jira-xml', xml: '<html><body>no</body></html>' },
      t.adminToken,
    );
    assert.equal(bad.status, 400, JSON.stringify(bad.body));
    assert.equal(bad.body.error.details[0].field, '/xml');
    const broken = await t.post(
      '/api/admin/imports',
      { source: 'jira-xml', xml: '<rss><channel><item>' },
      t.adminToken,
    );
    assert.equal(broken.status, 400, JSON.stringify(broken.body));
    const res = await t.post(
      '/api/admin/imports',
      { source: 'jira-xml', xml, team: 'XMLT', dryRun: true },
      t.adminToken,
    );
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.importRun.kind, 'jira-xml');
    let run = res.body.importRun;
    for (let i = 0; i < 200 && run.status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      run = (await t.get(`/api/admin/imports/${run.id}`, t.adminToken)).body.importRun;
    }
    assert.equal(run.status, 'completed', JSON.stringify(run));
    // The same site's export: what the import above wrote is found, not planned again.
    assert.equal(run.counts['issue.existing'], 4, JSON.stringify(run.counts));
  });

  test('property: any text as an export is a source or an input error, never a crash', async () => {
    const tags = fc.constantFrom(
      '<rss>',
      '</rss>',
      '<channel>',
      '</channel>',
      '<item>',
      '</item>',
      '<key id="1">',
      '</key>',
      'A-1',
      '<status>',
      '</status>',
      '&amp;',
      '<',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.array(tags).map((p) => p.join('')),
        ),
        async (text) => {
          let src: ReturnType<typeof jiraXmlSource>;
          try {
            src = jiraXmlSource({ xml: text });
          } catch (err) {
            assert.ok(err instanceof ImportInputError, String(err));
            return;
          }
          await src.reference();
          for await (const page of src.issues(null)) assert.ok(Array.isArray(page.issues));
        },
      ),
    );
  });

  test('property: any text as HTML gives a string, never a throw', () => {
    fc.assert(fc.property(fc.string(), (s) => typeof htmlToMarkdown(s) === 'string'));
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom('<p>', '</p>', '<b>', '</b>', '<pre>', '<ul>', '<li>', 'x', '&amp;', '<br>'),
        ),
        (parts) => typeof htmlToMarkdown(parts.join('')) === 'string',
      ),
    );
  });
});
