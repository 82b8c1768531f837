// Imports over REST (modules/import/rest.ts, docs/migrate.md): admins only and
// refused before the body is looked at; a CSV import answered 202 and run in
// the background to its report; a bad mapping and an unsafe server address
// refused with nothing written; a second run of a source that is going on
// refused (409); a stopped run resumed by the next POST; every step audited;
// a run's progress against the file's size; the admin's users map (a missing
// person imported as the chosen account, an unknown account refused); and a
// property: any body an admin sends is a 202 or a 4xx that writes nothing.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { stopImports } from '../src/modules/import/service.js';
import { changedTables, digest, tablesToWatch } from './support/fuzz/digest.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let member: string;
/** A server that takes requests and never answers: a run reading it stays running. */
let silent: http.Server;
let silentUrl: string;

const FILE = ['Key,Summary,Status', 'R-1,"First, with a comma",Todo', 'R-2,Second,Done', 'R-3,,Todo'].join(
  '\n',
);
const MAPPING = {
  team: 'RST',
  teamName: 'Rest import',
  columns: { key: 'Key', title: 'Summary', state: 'Status' },
};

before(async () => {
  t = await startTestApp();
  member = (await t.userWithRole('member')).token;
  silent = http.createServer(() => {});
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});
after(async () => {
  silent?.closeAllConnections();
  silent?.close();
  await t?.close();
});

/** The run once it has ended (polled: the import goes on after the answer). */
async function ended(id: string) {
  for (let i = 0; i < 600; i++) {
    const res = await t.get(`/api/admin/imports/${id}`, t.adminToken);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    if (res.body.importRun.status !== 'running') return res.body.importRun;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`run ${id} did not end`);
}

const auditOf = (type: string, runId: string) =>
  t.ctx.db
    .selectFrom('audit_entries')
    .selectAll()
    .where('type', '=', type)
    .where('entity_id', '=', runId)
    .orderBy('created_at')
    .execute();

describe('imports over REST', () => {
  test('members get 403 and nobody 401, before the body is read', async () => {
    for (const [token, status] of [
      [member, 403],
      [undefined, 401],
    ] as const) {
      const bad = await t.request('POST', '/api/admin/imports', { token, payload: '{not json' });
      assert.equal(bad.status, status);
      const ok = await t.request('POST', '/api/admin/imports', {
        token,
        body: { source: 'csv', csv: FILE, mapping: MAPPING },
      });
      assert.equal(ok.status, status);
      assert.equal((await t.request('GET', '/api/admin/imports', { token })).status, status);
    }
    assert.equal((await t.get('/api/admin/imports', t.adminToken)).body.pageInfo.total, 0);
  });

  test('a CSV import answers 202 and runs to its report; a re-post creates nothing', async () => {
    const res = await t.post(
      '/api/admin/imports',
      { source: 'csv', csv: FILE, mapping: MAPPING },
      t.adminToken,
    );
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.importRun.kind, 'csv');
    const run = await ended(res.body.importRun.id);
    assert.equal(run.status, 'completed', JSON.stringify(run));
    assert.equal(run.counts['issue.created'], 2);
    assert.deepEqual(run.errors, ['R-3 (line 4): no title']);
    assert.equal(run.report.counts['issue.created'], 2);
    // Two issues and one refused row: the whole file of three.
    assert.deepEqual(run.progress, { done: 3, total: 3, unit: 'issue', percent: 100 });
    const issues = (await t.get('/api/issues?teamId=RST', t.adminToken)).body.issues;
    assert.deepEqual(issues.map((i: any) => i.title).sort(), ['First, with a comma', 'Second']);
    assert.equal((await auditOf('import.started', run.id)).length, 1);
    assert.equal((await auditOf('import.completed', run.id)).length, 1);

    const again = await t.post(
      '/api/admin/imports',
      { source: 'csv', csv: FILE, mapping: MAPPING },
      t.adminToken,
    );
    assert.equal(again.status, 202);
    assert.equal(again.body.importRun.source, run.source, 'the same file is the same source');
    const second = await ended(again.body.importRun.id);
    assert.equal(second.counts['issue.created'] ?? 0, 0);
    assert.equal(second.counts['issue.existing'], 2);

    const list = await t.get('/api/admin/imports?limit=1', t.adminToken);
    assert.equal(list.status, 200);
    assert.equal(list.body.pageInfo.total, 2);
    assert.deepEqual(
      list.body.importRuns.map((r: any) => r.id),
      [second.id],
    );
  });

  test('a bad mapping, a file without the mapped columns and a body too large are 4xx and write nothing', async () => {
    const tables = await tablesToWatch(t.ctx.db);
    const before = await digest(t.ctx.db, tables);
    const refused = [
      { source: 'csv', csv: FILE, mapping: { team: 'RST', columns: { key: 'Key' } } },
      { source: 'csv', csv: FILE, mapping: { team: 'RST', columns: { title: 'Nope' } } },
      { source: 'csv', csv: 'a,b\n"unclosed', mapping: { team: 'RST', columns: { title: 'a' } } },
      { source: 'linear', url: 'ftp://example.com', apiKey: 'k' },
      { source: 'linear', url: 'not a url', apiKey: 'k' },
    ];
    for (const body of refused) {
      const res = await t.post('/api/admin/imports', body, t.adminToken);
      assert.equal(res.status, 400, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
    }
    const huge = await t.request('POST', '/api/admin/imports', {
      token: t.adminToken,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ source: 'csv', csv: 'x'.repeat(21 * 1024 * 1024), mapping: MAPPING }),
    });
    assert.equal(huge.status, 413);
    assert.deepEqual(changedTables(before, await digest(t.ctx.db, tables)), []);
  });

  test('the server address goes through the outbound guard: private addresses are refused unless allowed', async () => {
    const strict = await startTestApp({ webhookAllowPrivate: false });
    try {
      const res = await strict.post(
        '/api/admin/imports',
        { source: 'linear', url: silentUrl, apiKey: 'k' },
        strict.adminToken,
      );
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.details[0].field, '/url');
      assert.equal((await strict.get('/api/admin/imports', strict.adminToken)).body.pageInfo.total, 0);
    } finally {
      await strict.close();
    }
  });

  test('a run going on refuses a second of its source (409); a stopped run is resumed by the next POST', async () => {
    const body = { source: 'linear', url: `${silentUrl}/graphql`, apiKey: 'key-1' };
    const first = await t.post('/api/admin/imports', body, t.adminToken);
    assert.equal(first.status, 202, JSON.stringify(first.body));
    const id = first.body.importRun.id;
    assert.equal(first.body.importRun.source, `linear:${silentUrl}`);
    assert.equal(first.body.importRun.status, 'running');

    const second = await t.post('/api/admin/imports', { ...body, apiKey: 'key-2' }, t.adminToken);
    assert.equal(second.status, 409, JSON.stringify(second.body));

    // The server stopping ends the run where it was; it is left failed and resumable.
    await stopImports(t.ctx);
    const stopped = (await t.get(`/api/admin/imports/${id}`, t.adminToken)).body.importRun;
    assert.equal(stopped.status, 'failed');
    assert.ok(
      stopped.errors.some((e: string) => e.includes('stopping')),
      JSON.stringify(stopped.errors),
    );
    assert.equal((await auditOf('import.failed', id)).length, 1);

    const resumed = await t.post('/api/admin/imports', body, t.adminToken);
    assert.equal(resumed.status, 202);
    assert.equal(resumed.body.importRun.id, id, 'the same run goes on');
    const started = await auditOf('import.started', id);
    assert.deepEqual(
      started.map((e) => (e.metadata as any).resumed),
      [false, true],
    );
    assert.ok(!JSON.stringify(started).includes('key-1'), 'the API key is not recorded');
    await stopImports(t.ctx);
  });

  test('progress while a run goes on: done of the total, short of 100% until it completes', async () => {
    // 250 rows are three pages of 100: the run records each page as it goes.
    const rows = Array.from({ length: 250 }, (_, i) => `P-${i + 1},Issue ${i + 1},Todo`);
    const res = await t.post(
      '/api/admin/imports',
      {
        source: 'csv',
        csv: ['Key,Summary,Status', ...rows].join('\n'),
        mapping: { ...MAPPING, team: 'PRG' },
        dryRun: true,
      },
      t.adminToken,
    );
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.importRun.progress.done, 0);
    const seen: { done: number; total: number | null; percent: number | null }[] = [];
    for (let i = 0; i < 600; i++) {
      const run = (await t.get(`/api/admin/imports/${res.body.importRun.id}`, t.adminToken)).body.importRun;
      seen.push(run.progress);
      if (run.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const last = seen.at(-1)!;
    assert.deepEqual(last, { done: 250, total: 250, unit: 'issue', percent: 100 });
    for (const p of seen.slice(0, -1)) {
      assert.ok(p.total === null || p.total === 250, JSON.stringify(p));
      assert.ok(
        p.percent === null ||
          (p.percent <= 99 && p.percent === Math.min(99, Math.floor((p.done * 100) / 250))),
      );
      // The last page (50 rows) may be recorded before the run is marked complete: 250 at 99%.
      assert.ok([0, 100, 200, 250].includes(p.done), `progress moves a page at a time: ${JSON.stringify(p)}`);
    }
  });

  test('a users map: the chosen account stands for a missing person; an unknown account is a 400', async () => {
    const other = await t.userWithRole('member');
    const otherId = (await t.get('/api/auth/me', other.token)).body.user.id;
    const file = [
      'Key,Summary,Assignee',
      'U-1,Mapped,Someone.Else@Elsewhere.example',
      'U-2,Unmapped,nobody@elsewhere.example',
    ].join('\n');
    const mapping = { team: 'UMAP', columns: { key: 'Key', title: 'Summary', assignee: 'Assignee' } };
    const dry = await ended(
      (await t.post('/api/admin/imports', { source: 'csv', csv: file, mapping, dryRun: true }, t.adminToken))
        .body.importRun.id,
    );
    assert.deepEqual(dry.report.missingUsers, ['nobody@elsewhere.example', 'someone.else@elsewhere.example']);

    const tables = await tablesToWatch(t.ctx.db);
    const before = await digest(t.ctx.db, tables);
    const unknown = await t.post(
      '/api/admin/imports',
      {
        source: 'csv',
        csv: file,
        mapping,
        userMap: { 'someone.else@elsewhere.example': crypto.randomUUID() },
      },
      t.adminToken,
    );
    assert.equal(unknown.status, 400, JSON.stringify(unknown.body));
    assert.equal(unknown.body.error.details[0].field, '/userMap');
    assert.deepEqual(changedTables(before, await digest(t.ctx.db, tables)), []);

    const mappedDry = await ended(
      (
        await t.post(
          '/api/admin/imports',
          {
            source: 'csv',
            csv: file,
            mapping,
            dryRun: true,
            userMap: { 'someone.else@elsewhere.example': otherId },
          },
          t.adminToken,
        )
      ).body.importRun.id,
    );
    assert.deepEqual(
      mappedDry.report.missingUsers,
      ['nobody@elsewhere.example'],
      'a mapped person is not missing',
    );
    assert.equal(mappedDry.counts['user.mapped'], 1);

    // Keys are matched whatever their case, as the source's emails are.
    const run = await ended(
      (
        await t.post(
          '/api/admin/imports',
          { source: 'csv', csv: file, mapping, userMap: { 'SOMEONE.else@elsewhere.example': otherId } },
          t.adminToken,
        )
      ).body.importRun.id,
    );
    assert.equal(run.status, 'completed', JSON.stringify(run.errors));
    const issues = (await t.get('/api/issues?teamId=UMAP', t.adminToken)).body.issues as any[];
    const byTitle = new Map(issues.map((i) => [i.title, i]));
    assert.equal(byTitle.get('Mapped').assigneeId, otherId);
    const placeholder = byTitle.get('Unmapped').assigneeId;
    assert.ok(placeholder && placeholder !== otherId);
    const users = await t.ctx.db
      .selectFrom('users')
      .select(['email', 'status'])
      .where('email', 'ilike', '%elsewhere.example')
      .execute();
    assert.deepEqual(
      users,
      [{ email: 'nobody@elsewhere.example', status: 'suspended' }],
      'no placeholder for the mapped one',
    );
  });

  test('property: any body an admin posts is a 202 or a 4xx that writes nothing', async () => {
    const tables = await tablesToWatch(t.ctx.db);
    const cell = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('"', '\n', ',', 'Summary', 'Todo'));
    const body = fc.oneof(
      fc.record({
        source: fc.constant('csv'),
        csv: fc
          .array(fc.array(cell, { maxLength: 3 }), { maxLength: 4 })
          .map((rows) => ['Summary,Status', ...rows.map((r) => r.join(','))].join('\n')),
        mapping: fc.record(
          {
            team: fc.oneof(fc.constantFrom('PROP', 'P2'), fc.string({ maxLength: 12 })),
            columns: fc.record(
              { title: fc.constantFrom('Summary', 'Status', 'Other'), state: fc.constantFrom('Status', 'x') },
              { requiredKeys: [] },
            ),
            states: fc.dictionary(
              fc.string({ maxLength: 5 }),
              fc.oneof(fc.string({ maxLength: 5 }), fc.constant('started')),
            ),
          },
          { requiredKeys: ['team'] },
        ),
        dryRun: fc.boolean(),
      }),
      fc.record({
        source: fc.constantFrom('linear', 'jira'),
        url: fc.string({ maxLength: 30 }),
        apiKey: fc.string(),
      }),
      // The users map: any keys, ids that are no account, not uuids, or not strings.
      fc.record({
        source: fc.constant('csv'),
        csv: fc.constant(FILE),
        mapping: fc.constant({ ...MAPPING, team: 'PMAP' }),
        dryRun: fc.constant(true),
        userMap: fc.dictionary(
          fc.oneof(fc.string({ maxLength: 12 }), fc.emailAddress()),
          fc.oneof(fc.uuid(), fc.string({ maxLength: 8 }), fc.integer()) as fc.Arbitrary<unknown>,
          { maxKeys: 3 },
        ),
      }),
      fc.anything(),
    );
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const before = await digest(t.ctx.db, tables);
        const res = await t.post('/api/admin/imports', b, t.adminToken);
        assert.ok(
          res.status === 202 || (res.status >= 400 && res.status < 500),
          `${res.status} ${JSON.stringify(res.body)}`,
        );
        if (res.status === 202) {
          const run = await ended(res.body.importRun.id);
          assert.notEqual(run.status, 'running');
        } else {
          assert.ok(res.body.error?.code);
          assert.deepEqual(changedTables(before, await digest(t.ctx.db, tables)), []);
        }
      }),
      { numRuns: 25 },
    );
  });
});
