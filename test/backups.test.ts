// Scheduled backups (issue 30): settings through the admin REST routes, runs
// made by the real backup worker into a temporary directory and into a local
// S3 server (s3rver), retention, a restore of a backup into a fresh database
// giving the same content, failing targets recorded as failed runs, a run cut
// short by a crash claimed again, two workers racing for one scheduled slot,
// and the routes fuzzed and refused to non-admins.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { extract as tarExtract } from 'tar-stream';
import { startBackupWorker } from '../src/modules/backups/worker.js';
import { MANIFEST_NAME } from '../src/modules/portability/archive.js';
import { exportArchive } from '../src/modules/portability/export.js';
import { restoreArchive } from '../src/modules/portability/restore.js';
import type { Database } from '../src/platform/db/database.js';
import { fileStoreFor } from '../src/platform/storage/index.js';
import { emptyDatabase } from './support/empty-database.js';
import { testConfig } from './support/env.js';
import { startS3 } from './support/file-storage.js';
import { hostileJson } from './support/fuzz/values.js';
import { startTestApp, type TestApp } from './support/harness.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function entriesOf(bytes: Buffer): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const extract = tarExtract();
  Readable.from(bytes).pipe(extract as unknown as NodeJS.WritableStream);
  for await (const entry of extract) {
    const parts: Buffer[] = [];
    for await (const c of entry) parts.push(c as Buffer);
    out.set(entry.header.name, Buffer.concat(parts));
  }
  return out;
}

let t: TestApp;
let dir: string;
let s3: Awaited<ReturnType<typeof startS3>>;
let member: { token: string };
let guest: { token: string };

const settings = (target: unknown, extra: Record<string, unknown> = {}) => ({
  enabled: false,
  intervalHours: 24,
  retention: 5,
  target,
  ...extra,
});

async function put(body: unknown) {
  const res = await t.request('PUT', '/api/admin/backups/settings', { body, token: t.adminToken });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

async function waitForRun(id: string): Promise<any> {
  for (let i = 0; i < 600; i++) {
    const res = await t.get(`/api/admin/backups/${id}`, t.adminToken);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    if (res.body.backupRun.status === 'succeeded' || res.body.backupRun.status === 'failed')
      return res.body.backupRun;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`backup run ${id} did not end`);
}

async function backUpNow(): Promise<any> {
  const res = await t.post('/api/admin/backups/run', undefined, t.adminToken);
  assert.equal(res.status, 202, JSON.stringify(res.body));
  assert.equal(res.body.backupRun.status, 'pending');
  return waitForRun(res.body.backupRun.id);
}

before(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trackway-backups-'));
  s3 = await startS3();
  t = await startTestApp({}, { backupWorker: { pollMs: 100, leaseMs: 3000 } });
  member = await t.userWithRole('member', { teams: ['ENG'] });
  guest = await t.userWithRole('guest', { teams: ['ENG'] });
  const team = (await t.get('/api/teams', t.adminToken)).body.teams.find((x: any) => x.key === 'ENG');
  for (const title of ['Back me up', 'Ünïcode — title', 'Third']) {
    const res = await t.post('/api/issues', { title, teamId: team.id }, member.token);
    assert.ok(res.status < 300, JSON.stringify(res.body));
  }
});

after(async () => {
  await t?.close();
  await s3?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('backups to a directory', () => {
  test('settings are saved, audit-logged, and a backup now writes one complete archive', async () => {
    const target = path.join(dir, 'nightly');
    const view = await put(settings({ kind: 'directory', path: target }));
    assert.deepEqual(view.settings.target, { kind: 'directory', path: target });
    const audit = await t.ctx.db
      .selectFrom('audit_entries')
      .selectAll()
      .where('type', '=', 'backup.settingsChanged')
      .execute();
    assert.equal(audit.length, 1);

    const run = await backUpNow();
    assert.equal(run.status, 'succeeded', run.error);
    assert.equal(run.trigger, 'manual');
    assert.equal(run.target, `directory:${target}`);
    const names = await fs.readdir(target);
    assert.deepEqual(names, [run.archive], 'only the archive, no .partial left');
    const bytes = await fs.readFile(path.join(target, run.archive));
    assert.equal(run.bytes, bytes.length);
    assert.equal(run.sha256, sha(bytes));
    const entries = await entriesOf(bytes);
    const manifest = entries.get(MANIFEST_NAME) as Buffer;
    assert.equal(run.manifestSha256, sha(manifest));
    assert.equal(JSON.parse(manifest.toString()).format, 'trackway-archive');

    const list = await t.get('/api/admin/backups?limit=1', t.adminToken);
    assert.equal(list.status, 200);
    assert.equal(list.body.backupRuns[0].id, run.id);
    assert.ok(list.body.pageInfo.total >= 1);
  });

  test('retention keeps the newest archives and touches nothing else in the directory', async () => {
    const target = path.join(dir, 'kept');
    await fs.mkdir(target, { recursive: true });
    await fs.writeFile(path.join(target, 'notes.txt'), 'mine');
    await fs.writeFile(path.join(target, 'trackway-backup-by-hand.tar'), 'mine too');
    await put(settings({ kind: 'directory', path: target }, { retention: 2 }));
    const runs = [];
    for (let i = 0; i < 3; i++) {
      runs.push(await backUpNow());
      // Names carry the second they were opened: keep them apart.
      await new Promise((r) => setTimeout(r, 1100));
    }
    for (const r of runs) assert.equal(r.status, 'succeeded', r.error);
    assert.equal(runs[2].deletedByRetention, 1);
    const names = (await fs.readdir(target)).sort();
    assert.deepEqual(
      names,
      [runs[1].archive, runs[2].archive, 'notes.txt', 'trackway-backup-by-hand.tar'].sort(),
    );
  });

  test('a backup restores into a fresh installation with identical content', async () => {
    const target = path.join(dir, 'restore');
    await put(settings({ kind: 'directory', path: target }));
    const run = await backUpNow();
    assert.equal(run.status, 'succeeded', run.error);
    const file = path.join(target, run.archive);
    let fresh: Database | undefined;
    const freshDir = path.join(dir, 'fresh-data');
    try {
      fresh = await emptyDatabase();
      const config = testConfig({ dataDir: freshDir });
      await restoreArchive(fresh.db, file, { storeFor: (db) => fileStoreFor({ config, db }) });
      const again: Buffer[] = [];
      const db = fresh.db;
      for await (const c of exportArchive(db, { storeFor: (d) => fileStoreFor({ config, db: d }) }))
        again.push(c);
      const before = await entriesOf(await fs.readFile(file));
      const after = await entriesOf(Buffer.concat(again));
      assert.deepEqual([...after.keys()].sort(), [...before.keys()].sort());
      for (const [name, bytes] of before) {
        if (name === MANIFEST_NAME) continue;
        assert.ok(bytes.equals(after.get(name) as Buffer), `${name} differs after the restore`);
      }
      const titles = await fresh.db.selectFrom('issues').select('title').orderBy('title').execute();
      assert.ok(titles.some((r) => r.title === 'Ünïcode — title'));
    } finally {
      await fresh?.close();
    }
  });

  test('an unwritable directory is a failed run with a readable error, and no 5xx', async () => {
    const blocker = path.join(dir, 'a-file');
    await fs.writeFile(blocker, 'not a directory');
    await put(settings({ kind: 'directory', path: path.join(blocker, 'backups') }));
    const run = await backUpNow();
    assert.equal(run.status, 'failed');
    assert.match(run.error, /ENOTDIR|not a directory/);
    assert.equal(run.sha256, null);
  });

  test('a run whose process died mid-backup is claimed again and leaves no half archive', async () => {
    const target = path.join(dir, 'crash');
    await fs.mkdir(target, { recursive: true });
    await put(settings({ kind: 'directory', path: target }));
    const name = 'trackway-backup-20260101T000000Z-0123abcd.tar';
    // What a crash leaves: a partial file and a running run whose lease has run out.
    await fs.writeFile(path.join(target, `${name}.partial`), 'half an archive');
    const row = await t.ctx.db
      .insertInto('backup_runs')
      .values({
        trigger: 'manual',
        slot: null,
        target: `directory:${target}`,
        archive: name,
        status: 'running',
        attempts: 1,
        lease_until: new Date(Date.now() - 1000),
        started_at: new Date(Date.now() - 5000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const run = await waitForRun(row.id);
    assert.equal(run.status, 'succeeded', run.error);
    assert.equal(run.attempts, 2);
    assert.deepEqual(await fs.readdir(target), [name]);
  });
});

describe('backups to S3', () => {
  const s3Target = (extra: Record<string, unknown> = {}) => ({
    kind: 's3',
    endpoint: s3.settings.endpoint,
    region: 'us-east-1',
    bucket: s3.settings.bucket,
    prefix: 'backups/',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
    ...extra,
  });

  test('an archive goes to the bucket under the prefix; the secret is never shown', async () => {
    const view = await put(settings(s3Target(), { retention: 1 }));
    assert.equal(view.settings.target.secretAccessKeySet, true);
    assert.equal('secretAccessKey' in view.settings.target, false);
    const audit = await t.ctx.db
      .selectFrom('audit_entries')
      .select(['before', 'after'])
      .where('type', '=', 'backup.settingsChanged')
      .execute();
    assert.ok(
      !JSON.stringify(audit).includes('S3RVER"') || !JSON.stringify(audit).includes('secretAccessKey"'),
    );
    const stored = await t.ctx.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', 'backups')
      .executeTakeFirstOrThrow();
    assert.ok(!stored.value.includes('"secretAccessKey"'), 'the secret is stored sealed');

    const first = await backUpNow();
    assert.equal(first.status, 'succeeded', first.error);
    assert.equal(first.target, `s3:${s3.settings.bucket}/backups/`);
    assert.deepEqual(await s3.keys(), [`backups/${first.archive}`]);

    // Saving again without the secret keeps it; retention 1 leaves only the newest.
    await new Promise((r) => setTimeout(r, 1100));
    const { secretAccessKey: _, ...withoutSecret } = s3Target();
    await put(settings(withoutSecret, { retention: 1 }));
    const second = await backUpNow();
    assert.equal(second.status, 'succeeded', second.error);
    assert.equal(second.deletedByRetention, 1);
    assert.deepEqual(await s3.keys(), [`backups/${second.archive}`]);
  });

  test('bad credentials are a failed run with a readable error, and nothing in the bucket', async () => {
    const before = await s3.keys();
    await put(settings(s3Target({ prefix: 'bad/', secretAccessKey: 'wrong-secret' })));
    const run = await backUpNow();
    assert.equal(run.status, 'failed');
    assert.ok(run.error.length > 5, run.error);
    assert.match(run.error, /signature|credential|access/i);
    assert.deepEqual(await s3.keys(), before);
  });

  test('a bucket that does not exist is a failed run naming it', async () => {
    await put(settings(s3Target({ bucket: 'no-such-bucket' })));
    const run = await backUpNow();
    assert.equal(run.status, 'failed');
    assert.match(run.error, /NoSuchBucket|does not exist/i);
  });
});

describe('scheduling', () => {
  test('two workers racing for one due slot make one archive', async () => {
    const target = path.join(dir, 'race');
    const workers = [startBackupWorker(t.ctx, { pollMs: 50 }), startBackupWorker(t.ctx, { pollMs: 50 })];
    try {
      await put(settings({ kind: 'directory', path: target }, { enabled: true, intervalHours: 24 }));
      let runs: any[] = [];
      for (let i = 0; i < 600; i++) {
        runs = await t.ctx.db
          .selectFrom('backup_runs')
          .selectAll()
          .where('trigger', '=', 'schedule')
          .execute();
        if (runs.length > 0 && runs.every((r) => r.status === 'succeeded' || r.status === 'failed')) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      // A few more rounds of every worker: the slot is taken, nothing more is opened.
      await new Promise((r) => setTimeout(r, 500));
      runs = await t.ctx.db.selectFrom('backup_runs').selectAll().where('trigger', '=', 'schedule').execute();
      assert.equal(runs.length, 1, JSON.stringify(runs));
      assert.equal(runs[0].status, 'succeeded', runs[0].error);
      assert.equal(runs[0].attempts, 1);
      assert.deepEqual(await fs.readdir(target), [runs[0].archive]);
      const view = await t.get('/api/admin/backups/settings', t.adminToken);
      assert.ok(Date.parse(view.body.nextSlotAt) > Date.now());
    } finally {
      await put(settings({ kind: 'directory', path: target }));
      await Promise.all(workers.map((w) => w.stop()));
    }
  });
});

describe('who may, and what is refused', () => {
  const routes = [
    ['GET', '/api/admin/backups/settings'],
    ['PUT', '/api/admin/backups/settings'],
    ['POST', '/api/admin/backups/run'],
    ['GET', '/api/admin/backups'],
    ['GET', '/api/admin/backups/00000000-0000-0000-0000-000000000000'],
  ] as const;

  test('members and guests get 403, nobody 401, and nothing is opened', async () => {
    const before = await t.ctx.db.selectFrom('backup_runs').select('id').execute();
    for (const [method, url] of routes) {
      for (const token of [member.token, guest.token]) {
        const res = await t.request(method, url, {
          token,
          body: settings({ kind: 'directory', path: '/tmp/x' }),
        });
        assert.equal(res.status, 403, `${method} ${url}`);
      }
      assert.equal((await t.request(method, url)).status, 401, `${method} ${url}`);
    }
    assert.equal((await t.ctx.db.selectFrom('backup_runs').select('id').execute()).length, before.length);
    assert.equal(
      (await t.get('/api/admin/backups/00000000-0000-0000-0000-000000000000', t.adminToken)).status,
      404,
    );
  });

  test('no target: back up now is a 409 that opens nothing', async () => {
    await put(settings(null));
    const before = (await t.ctx.db.selectFrom('backup_runs').select('id').execute()).length;
    const res = await t.post('/api/admin/backups/run', undefined, t.adminToken);
    assert.equal(res.status, 409);
    assert.equal(res.body.error.code, 'CONFLICT');
    assert.equal((await t.ctx.db.selectFrom('backup_runs').select('id').execute()).length, before);
  });

  test('fuzz: any settings body is a 200 or a 4xx that changes nothing; list paging likewise', async () => {
    const saved = () =>
      t.ctx.db.selectFrom('settings').select('value').where('key', '=', 'backups').executeTakeFirst();
    const target = fc.oneof(
      fc.constant(null),
      fc.record({ kind: fc.constant('directory'), path: fc.oneof(fc.string(), fc.constant('relative/dir')) }),
      fc.record(
        {
          kind: fc.constantFrom('s3', 'ftp'),
          endpoint: fc.oneof(fc.constant(null), fc.webUrl(), fc.string()),
          region: fc.string(),
          bucket: fc.string(),
          prefix: fc.string(),
          accessKeyId: fc.oneof(fc.constant(null), fc.string()),
          secretAccessKey: fc.oneof(fc.constant(null), fc.string()),
          forcePathStyle: fc.oneof(fc.boolean(), hostileJson),
        },
        { requiredKeys: [] },
      ),
      hostileJson,
    );
    const body = fc.oneof(
      fc.record(
        {
          // Never enabled: the app's worker must not write to a generated directory.
          enabled: fc.oneof(fc.constant(false), hostileJson),
          intervalHours: fc.oneof(fc.integer({ min: -5, max: 2000 }), hostileJson),
          retention: fc.oneof(fc.integer({ min: -5, max: 2000 }), hostileJson),
          target,
          extra: hostileJson,
        },
        { requiredKeys: ['enabled', 'intervalHours', 'retention', 'target'] },
      ),
      hostileJson,
    );
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const before = await saved();
        const res = await t.request('PUT', '/api/admin/backups/settings', { body: b, token: t.adminToken });
        assert.ok(res.status < 500, `${res.status} ${JSON.stringify(res.body)}`);
        if (res.status >= 400) {
          assert.ok(res.body?.error?.code, JSON.stringify(res.body));
          assert.deepEqual(await saved(), before);
        } else {
          assert.equal(res.body.settings.enabled, false);
          assert.ok(!JSON.stringify(res.body).includes('"secretAccessKey"'));
        }
      }),
      { numRuns: 150 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string(), fc.integer().map(String)),
        fc.string(),
        async (limit, offset) => {
          const q = `limit=${encodeURIComponent(limit)}&offset=${encodeURIComponent(offset)}`;
          const res = await t.get(`/api/admin/backups?${q}`, t.adminToken);
          assert.ok(res.status === 200 || res.status === 400, `${q}: ${res.status}`);
        },
      ),
      { numRuns: 60 },
    );
  });
});
