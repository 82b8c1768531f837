// Export, restore, export again (issue 30): a workspace seeded through the
// real APIs goes out through GET /api/admin/export, into an empty database of
// the same kind through restoreArchive (what `npm run restore` runs), and out
// again: every NDJSON entry, every file and the manifest (but its time) are
// the same. After the restore an API key, a password, issue identifiers and
// numbering, sync ids and a webhook's secret work as before. A changed byte
// and a non-empty target are refused, leaving the target as it was.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { extract as tarExtract } from 'tar-stream';
import { buildApp } from '../src/app.js';
import type { Config } from '../src/config.js';
import { MANIFEST_NAME, type Manifest } from '../src/modules/portability/archive.js';
import { exportArchive } from '../src/modules/portability/export.js';
import { RestoreRefused, restoreArchive } from '../src/modules/portability/restore.js';
import type { Database } from '../src/platform/db/database.js';
import { fileStoreFor } from '../src/platform/storage/index.js';
import { emptyDatabase } from './support/empty-database.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, testConfig } from './support/env.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { type Receiver, signatureValid, startReceiver } from './webhooks-support.js';

/** Every entry of an archive: name -> bytes (the test's archives are small). */
async function entriesOf(file: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const extract = tarExtract();
  Readable.from(await fs.readFile(file)).pipe(extract as unknown as NodeJS.WritableStream);
  for await (const entry of extract) {
    const parts: Buffer[] = [];
    for await (const c of entry) parts.push(c as Buffer);
    out.set(entry.header.name, Buffer.concat(parts));
  }
  return out;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let t: TestApp;
let dir: string;
let archive: string;
let target: Database;
let targetConfig: Config;
let rx: Receiver;
const seeded: Record<string, any> = {};
const WEBHOOK_SECRET = 'a-webhook-secret-of-enough-length';

async function exportTo(db: Database['db'], config: Config, file: string) {
  const parts: Buffer[] = [];
  for await (const c of exportArchive(db, { storeFor: (d) => fileStoreFor({ config, db: d }) }))
    parts.push(c);
  await fs.writeFile(file, Buffer.concat(parts));
}

async function ok(res: Promise<{ status: number; body: any }>, what: string) {
  const r = await res;
  assert.ok(r.status < 300, `${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

before(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trackway-portability-'));
  rx = await startReceiver();
  t = await startTestApp();
  const admin = t.adminToken;
  const member = await t.userWithRole('member', { teams: ['ENG'] });
  seeded['member'] = member;
  const team = (await t.get('/api/teams', admin)).body.teams.find((x: any) => x.key === 'ENG');
  seeded['team'] = team;
  const label = await ok(t.post('/api/labels', { name: 'Export', teamId: team.id }, admin), 'label');
  const project = await ok(
    t.post('/api/projects', { name: 'Move out', teamIds: [team.id], memberIds: [member.user.id] }, admin),
    'project',
  );
  const projectId = project.project?.id ?? project.id;
  const milestone = await ok(
    t.post(`/api/projects/${projectId}/milestones`, { name: 'M1' }, admin),
    'milestone',
  );
  const cycle = await ok(
    t.post(
      '/api/cycles',
      {
        teamId: team.id,
        startsAt: '2026-11-01T00:00:00.000Z',
        endsAt: '2026-11-15T00:00:00.000Z',
        name: 'C1',
      },
      admin,
    ),
    'cycle',
  );
  const parent = await ok(
    t.post(
      '/api/issues',
      {
        title: 'Parent — ünïcode ✓',
        description: 'line one\nline "two"',
        teamId: team.id,
        labelIds: [label.label?.id ?? label.id],
        projectId,
        projectMilestoneId: milestone.milestone?.id ?? milestone.projectMilestone?.id ?? milestone.id,
        cycleId: cycle.cycle?.id ?? cycle.id,
        assigneeId: member.user.id,
        estimate: 2.5,
        dueDate: '2026-12-24',
      },
      admin,
    ),
    'issue',
  );
  const issue = parent.issue ?? parent;
  seeded['issue'] = issue;
  const child = await ok(
    t.post('/api/issues', { title: 'Child', teamId: team.id, parentId: issue.id }, member.token),
    'child',
  );
  const childIssue = child.issue ?? child;
  await ok(
    t.post(`/api/issues/${issue.id}/relations`, { type: 'blocks', relatedIssueId: childIssue.id }, admin),
    'relation',
  );
  const comment = await ok(
    t.post(`/api/issues/${issue.id}/comments`, { body: 'A comment' }, member.token),
    'comment',
  );
  const commentId = comment.comment?.id ?? comment.id;
  await ok(
    t.post(`/api/issues/${issue.id}/comments`, { body: 'A reply', parentId: commentId }, admin),
    'reply',
  );
  await ok(t.post(`/api/comments/${commentId}/reactions`, { emoji: '👍' }, admin), 'comment reaction');
  await ok(t.post(`/api/issues/${issue.id}/reactions`, { emoji: '🎉' }, member.token), 'issue reaction');
  await ok(t.request('PUT', `/api/issues/${issue.id}/subscription`, { token: admin }), 'subscription');
  await ok(t.patch(`/api/issues/${issue.id}`, { priority: 1, title: 'Parent renamed' }, admin), 'update');
  await ok(
    t.post(`/api/projects/${projectId}/updates`, { body: 'On track', health: 'onTrack' }, admin),
    'project update',
  );
  await ok(
    t.post(
      '/api/views',
      { name: 'Mine', filterData: { priority: { eq: 1 } }, shared: true, teamId: team.id },
      admin,
    ),
    'view',
  );
  const flags = (await t.get('/api/admin/flags', admin)).body.flags;
  const flag = flags.find((f: any) => f.key !== 'attachments');
  await ok(t.patch(`/api/admin/flags/${flag.key}`, { enabled: !flag.enabled }, admin), 'flag');
  await ok(t.patch('/api/admin/flags/attachments', { enabled: true }, admin), 'attachments on');
  const key = await ok(t.post('/api/api-keys', { label: 'CI' }, member.token), 'api key');
  seeded['apiKey'] = key.key ?? key.secret ?? key.apiKey?.key;
  const hook = await ok(
    t.post('/api/admin/webhooks', { url: rx.url, secret: WEBHOOK_SECRET }, admin),
    'webhook',
  );
  seeded['webhook'] = hook.webhook ?? hook;
  const bytes = Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n'), randomBytes(70_000)]);
  seeded['fileBytes'] = bytes;
  const file = await ok(
    t.request('POST', '/api/files', {
      payload: bytes,
      headers: { 'content-type': 'image/png', 'x-filename': 'shot.png' },
      token: member.token,
    }),
    'file',
  );
  seeded['file'] = file.file ?? file;
  await ok(
    t.post(
      `/api/issues/${issue.id}/attachments`,
      { title: 'Shot', url: (file.file ?? file).url },
      member.token,
    ),
    'attachment',
  );
  // Deliveries of the seed's events: the outbox, its deliveries and attempts are exported too.
  await rx.waitFor((all) => all.length > 0, 'a webhook delivery');
  // One delivery held by a worker, as a worker mid-attempt holds it while the export runs: the
  // archive must let it go, or the restored endpoint's queue waits for a lease nobody will end.
  // A finished one is put back as held: the app's own worker, which may be mid-attempt on a
  // pending one, would finish that one and overwrite the hold.
  let latest: { id: string } | undefined;
  for (let i = 0; i < 200 && !latest; i++) {
    latest = await t.ctx.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', 'succeeded')
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!latest) await new Promise((r) => setTimeout(r, 50));
  }
  assert.ok(latest, 'a delivery succeeded');
  await t.ctx.db
    .updateTable('webhook_deliveries')
    .set({ status: 'delivering', lease_until: new Date(Date.now() + 3_600_000) })
    .where('id', '=', latest.id)
    .execute();

  // One line longer than a restore's batch (1 MiB) and than the export's pieces, multi-byte all
  // along: it must cross the archive's chunks and come back byte for byte.
  await t.ctx.db
    .updateTable('issues')
    .set({ description: 'ünïcode ✓ — '.repeat(100_000) })
    .where('id', '=', childIssue.id)
    .execute();

  const res = await t.app.inject({
    method: 'GET',
    url: '/api/admin/export',
    headers: { authorization: `Bearer ${admin}` },
  });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['content-type'], 'application/x-tar');
  archive = path.join(dir, 'one.tar');
  await fs.writeFile(archive, res.rawPayload);

  target = await emptyDatabase();
  targetConfig = testConfig({ dataDir: path.join(dir, 'target-data') });
  await restoreArchive(target.db, archive, { storeFor: (db) => fileStoreFor({ config: targetConfig, db }) });
});

after(async () => {
  await t?.close();
  await target?.close();
  await rx?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('export, restore, export again', () => {
  test('the archive holds every workspace table, the file and a manifest with checksums', async () => {
    const entries = await entriesOf(archive);
    const manifest = JSON.parse((entries.get(MANIFEST_NAME) as Buffer).toString()) as Manifest;
    assert.equal(manifest.formatVersion, 1);
    assert.equal(manifest.files.count, 1);
    assert.deepEqual(entries.get(`files/${seeded['file'].id}`), seeded['fileBytes']);
    for (const e of manifest.entries) {
      const data = entries.get(e.name) as Buffer;
      assert.equal(sha(data), e.sha256, e.name);
      assert.equal(data.length, e.bytes, e.name);
    }
    const rows = new Map(manifest.entries.map((e) => [e.table, e.rows]));
    for (const table of [
      'users',
      'teams',
      'team_memberships',
      'workflow_states',
      'labels',
      'issues',
      'issue_labels',
      'issue_identifiers',
      'comments',
      'reactions',
      'issue_relations',
      'projects',
      'project_milestones',
      'cycles',
      'project_updates',
      'issue_history',
      'notifications',
      'issue_subscribers',
      'settings',
      'feature_flags',
      'api_keys',
      'webhooks',
      'webhook_events',
      'webhook_deliveries',
      'custom_views',
      'audit_entries',
      'files',
      'attachments',
      'sessions',
      'workspace',
    ])
      assert.ok((rows.get(table) ?? 0) > 0, `${table} has rows in the archive`);
    for (const excluded of ['schema_migrations', 'graphql_budget', 'auth_throttle', 'file_chunks'])
      assert.equal(rows.has(excluded), false, `${excluded} is left out`);
    // Parents come before the tables that point at them.
    const order = manifest.entries.map((e) => e.table);
    assert.ok(order.indexOf('users') < order.indexOf('issues'));
    assert.ok(order.indexOf('teams') < order.indexOf('issues'));
    assert.ok(order.indexOf('issues') < order.indexOf('comments'));
    // The held delivery goes out released: no lease in the archive outlives the export.
    const deliveries = (entries.get('tables/webhook_deliveries.ndjson') as Buffer)
      .toString()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { status: string; lease_until: string | null });
    assert.ok(
      deliveries.some((d) => d.status === 'delivering'),
      'the held delivery is in the archive',
    );
    for (const d of deliveries)
      if (d.lease_until) assert.ok(Date.parse(d.lease_until) <= Date.parse(manifest.createdAt) + 1_000);
  });

  test('exporting the restored database gives the same content', async () => {
    const again = path.join(dir, 'two.tar');
    await exportTo(target.db, targetConfig, again);
    const one = await entriesOf(archive);
    const two = await entriesOf(again);
    assert.deepEqual([...two.keys()], [...one.keys()]);
    for (const [name, data] of one) {
      if (name === MANIFEST_NAME) continue;
      assert.ok(data.equals(two.get(name) as Buffer), `${name} differs`);
    }
    const m1 = JSON.parse((one.get(MANIFEST_NAME) as Buffer).toString());
    const m2 = JSON.parse((two.get(MANIFEST_NAME) as Buffer).toString());
    delete m1.createdAt;
    delete m2.createdAt;
    assert.deepEqual(m2, m1);
  });

  describe('the restored installation', () => {
    let app: Awaited<ReturnType<typeof buildApp>>['app'];
    const call = async (
      method: string,
      url: string,
      headers: Record<string, string> = {},
      body?: unknown,
    ) => {
      const res = await app.inject({
        method: method as 'GET',
        url,
        headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { payload: JSON.stringify(body) } : {}),
      });
      const json = String(res.headers['content-type'] ?? '').includes('json');
      return { status: res.statusCode, body: json ? res.json() : undefined, raw: res.rawPayload };
    };
    before(async () => {
      app = (await buildApp({ config: targetConfig, database: target, logger: false })).app;
      await app.ready();
    });
    after(async () => {
      await app?.close();
    });

    test('a password and an API key work; a login token of the source still works', async () => {
      const login = await call(
        'POST',
        '/api/auth/login',
        {},
        { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      );
      assert.equal(login.status, 200);
      const me = await call('GET', '/api/auth/me', { authorization: `Bearer ${seeded['apiKey']}` });
      assert.equal(me.status, 200);
      assert.equal(me.body.user?.id ?? me.body.id, seeded['member'].user.id);
      const token = await call('GET', '/api/auth/me', { authorization: `Bearer ${t.adminToken}` });
      assert.equal(token.status, 200, 'the signing secret and the session came along');
    });

    test('issues keep their ids and identifiers, numbering and sync ids continue', async () => {
      const auth = { authorization: `Bearer ${t.adminToken}` };
      const source = await t.get(`/api/issues/${seeded['issue'].id}`, t.adminToken);
      const restored = await call('GET', `/api/issues/${seeded['issue'].id}`, auth);
      assert.equal(restored.status, 200);
      assert.deepEqual(restored.body, source.body);
      const maxEvent = await t.ctx.db
        .selectFrom('webhook_events')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirstOrThrow();
      const created = await call('POST', '/api/issues', auth, {
        title: 'After the move',
        teamId: seeded['team'].id,
      });
      assert.equal(created.status, 201);
      const issue = created.body.issue ?? created.body;
      const highest = await t.ctx.db
        .selectFrom('issues')
        .select((eb) => eb.fn.max('number').as('n'))
        .where('team_id', '=', seeded['team'].id)
        .executeTakeFirstOrThrow();
      assert.equal(issue.identifier, `ENG-${Number(highest.n) + 1}`);
      const event = await target.db
        .selectFrom('webhook_events')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirstOrThrow();
      assert.ok(Number(event.id) > Number(maxEvent.id), 'new sync ids follow the old ones');
    });

    test("the file's bytes are served, and the webhook's secret still signs", async () => {
      const auth = { authorization: `Bearer ${t.adminToken}` };
      const file = await call('GET', `/api/files/${seeded['file'].id}`, auth);
      assert.equal(file.status, 200);
      assert.ok(Buffer.from(file.raw).equals(seeded['fileBytes']));
      const before = rx.received.length;
      await call('PATCH', `/api/issues/${seeded['issue'].id}`, auth, { title: 'Signed after the move' });
      await rx.waitFor(
        (all) => all.slice(before).some((r) => r.body?.data?.title === 'Signed after the move'),
        'a delivery from the restored installation',
      );
      const delivery = rx.received.slice(before).find((r) => r.body?.data?.title === 'Signed after the move');
      assert.ok(delivery && signatureValid(WEBHOOK_SECRET, delivery));
    });
  });
});

describe('restore refuses', () => {
  test('a changed byte, before writing anything', async () => {
    const bytes = await fs.readFile(archive);
    const at = bytes.indexOf(Buffer.from('Parent renamed'));
    assert.ok(at > 0);
    bytes[at] = 'X'.charCodeAt(0);
    const tampered = path.join(dir, 'tampered.tar');
    await fs.writeFile(tampered, bytes);
    const empty = await emptyDatabase();
    try {
      await assert.rejects(
        restoreArchive(empty.db, tampered, {
          storeFor: (db) =>
            fileStoreFor({ config: testConfig({ dataDir: path.join(dir, 'tampered-data') }), db }),
        }),
        (err: Error) => err instanceof RestoreRefused && /checksum mismatch in tables\//.test(err.message),
      );
      const users = await empty.db.selectFrom('users').select('id').execute();
      assert.equal(users.length, 0);
    } finally {
      await empty.close();
    }
  });

  test('an archive cut short (no manifest)', async () => {
    const bytes = await fs.readFile(archive);
    const cut = path.join(dir, 'cut.tar');
    await fs.writeFile(cut, bytes.subarray(0, bytes.indexOf(Buffer.from('sequences.ndjson'))));
    await assert.rejects(
      restoreArchive(target.db, cut, { storeFor: (db) => fileStoreFor({ config: targetConfig, db }) }),
      (err: Error) => err instanceof RestoreRefused,
    );
  });

  test('a target that is not empty', async () => {
    await assert.rejects(
      restoreArchive(t.ctx.db, archive, { storeFor: (db) => fileStoreFor({ config: t.config, db }) }),
      (err: Error) => err instanceof RestoreRefused && /not empty \(table \w+ has rows\)/.test(err.message),
    );
  });
});
