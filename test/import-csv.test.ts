// The generic CSV importer (modules/import/csv.ts) through the import core:
// quoted newlines, unicode, missing users, unknown states, duplicate keys, a
// re-run that creates nothing; and a property: any CSV text is either refused
// as a whole (ImportInputError, nothing written) or imported row by row, never
// a crash and never an issue without its record.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { csvSource } from '../src/modules/import/csv.js';
import { ImportInputError } from '../src/modules/import/model.js';
import { runImport } from '../src/modules/import/runner.js';
import type { Actor } from '../src/platform/context.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let admin: Actor;

const MAPPING = {
  team: 'CSV',
  teamName: 'From CSV',
  columns: {
    key: 'Key',
    title: 'Summary',
    description: 'Description',
    state: 'Status',
    priority: 'Priority',
    assignee: 'Assignee',
    labels: 'Labels',
    created: 'Created',
  },
  states: { Doing: 'started' },
  priorities: { High: 2 },
};

const FILE = [
  'Key,Summary,Description,Status,Priority,Assignee,Labels,Created',
  'T-1,Ünïcödé title ✓,"line one',
  'line two, with a comma",Doing,High,admin@example.com,"bug, ui",2024-03-01T10:00:00Z',
  'T-2,Second,,Mystery state,3,nobody@missing.example,,2024-03-02T10:00:00Z',
  'T-1,Duplicate key,,,,,,',
  'T-3,,no title,,,,,',
  'T-4,Bad date,,,,,,not a date',
].join('\r\n');

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

const issuesOf = async (team: string) => {
  const res = await t.get(`/api/issues?teamId=${team}&limit=100`, t.adminToken);
  return res.status === 200 ? (res.body.issues as any[]) : [];
};

describe('generic CSV import', () => {
  test('a dry run names the missing user and the unknown state, and writes nothing', async () => {
    const report = await runImport(t.ctx, admin, csvSource('fixture', FILE, MAPPING), { dryRun: true });
    assert.deepEqual(report.missingUsers, ['nobody@missing.example']);
    assert.equal(report.unknownStates.length, 1);
    assert.equal(report.unknownStates[0]!.name, 'Mystery state');
    assert.equal(report.counts['issue.created'], 2);
    assert.equal(report.counts['issue.failed'], 3);
    assert.equal((await issuesOf('CSV')).length, 0);
  });

  test('imports rows: quoted newlines, unicode, labels, mapped state and priority, dates; refuses bad rows', async () => {
    const report = await runImport(t.ctx, admin, csvSource('fixture', FILE, MAPPING));
    assert.equal(report.status, 'completed');
    assert.equal(report.counts['issue.created'], 2, JSON.stringify(report));
    assert.equal(report.errors.length, 3, JSON.stringify(report.errors));
    // Lines of the file, counted past the quoted field that spans two of them (CRLF ends).
    assert.deepEqual(report.errors, [
      'T-1 (line 5): duplicate key (first on line 2); skipped',
      'T-3 (line 6): no title',
      'T-4 (line 7): created "not a date" is not a date',
    ]);
    const issues = await issuesOf('CSV');
    const first = issues.find((i) => i.title === 'Ünïcödé title ✓');
    assert.ok(first);
    assert.ok(first.description.startsWith('line one\nline two, with a comma'));
    assert.equal(first.priority, 2);
    assert.equal(first.createdAt, '2024-03-01T10:00:00.000Z');
    assert.equal(first.labelIds.length, 2);
    const state = (await t.get(`/api/workflow-states/${first.stateId}`, t.adminToken)).body.workflowState;
    assert.equal(state.name, 'Doing');
    assert.equal(state.type, 'started');
    const found = await t.get('/api/issues?q=T-1', t.adminToken);
    assert.ok(found.body.issues.some((i: any) => i.id === first.id));
  });

  test('running the same file again creates nothing', async () => {
    const report = await runImport(t.ctx, admin, csvSource('fixture', FILE, MAPPING));
    assert.equal(report.counts['issue.created'] ?? 0, 0);
    assert.equal(report.counts['issue.existing'], 2);
    assert.equal((await issuesOf('CSV')).length, 2);
  });

  test('a bad mapping or an unreadable file is refused as a whole', () => {
    assert.throws(() => csvSource('x', FILE, { team: 'CSV', columns: {} }), ImportInputError);
    assert.throws(() => csvSource('x', FILE, { ...MAPPING, columns: { title: 'Nope' } }), ImportInputError);
    assert.throws(
      () => csvSource('x', 'a,b\n"unclosed', { team: 'CSV', columns: { title: 'a' } }),
      ImportInputError,
    );
  });

  test('property: any CSV text is refused as a whole or imported row by row, every issue with its record', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.array(fc.oneof(fc.string(), fc.constantFrom('"', '\n', ',', '""', 'x')), { maxLength: 4 }),
          {
            maxLength: 5,
          },
        ),
        async (cells) => {
          const text = ['Summary,Status', ...cells.map((row) => row.join(''))].join('\n');
          const team = `P${++n}`;
          let source: ReturnType<typeof csvSource>;
          try {
            source = csvSource(team, text, { team, columns: { title: 'Summary', state: 'Status' } });
          } catch (err) {
            assert.ok(err instanceof ImportInputError, String(err));
            return;
          }
          const report = await runImport(t.ctx, admin, source);
          assert.equal(report.status, 'completed');
          const created = report.counts['issue.created'] ?? 0;
          assert.equal((await issuesOf(team)).length, created);
        },
      ),
      { numRuns: 15 },
    );
  });
});
