// Imports over REST (modules/import/rest.ts, docs/migrate.md): admins only and
// refused before the body is looked at; a CSV import answered 202 and run in
// the background to its report; a bad mapping and an unsafe server address
// refused with nothing written; a second run of a source that is going on
// refused (409); a stopped run resumed by the next POST; every step audited;
// and a property: any body an admin sends is a 202 or a 4xx that writes nothing.
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
