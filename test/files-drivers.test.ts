// The HTTP file routes on the PostgreSQL and S3 stores: a representative
// subset of test/files*.test.ts (which run whole on any store with
// TEST_FILE_STORAGE), a second app instance on the same database that
// downloads what the first stored, and S3's presigned direct uploads.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../src/app.js';
import { openDatabase } from '../src/platform/db/database.js';
import { testConfig } from './support/env.js';
import { type TestStorage, testStorage } from './support/file-storage.js';
import { startTestApp, type TestApp } from './support/harness.js';

const MAX = 26_214_400;
const local = (url: string) => url.replace('http://trackway.test', '');

/** A body sent chunked (no Content-Length) over a real socket; the status answered. */
function chunked(base: string, url: string, token: string, bytes: number, method = 'POST') {
  return new Promise<number>((resolve, reject) => {
    const req = http.request(
      `${base}${url}`,
      { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => {}); // the server may answer and close before the end
    const piece = Buffer.alloc(64 * 1024, 7);
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        const n = Math.min(piece.length, bytes - sent);
        sent += n;
        if (!req.write(piece.subarray(0, n))) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
    req.on('close', () => reject(new Error('closed without an answer')));
  });
}

for (const kind of ['postgres', 's3'] as const) {
  describe(`file routes on the ${kind} store`, () => {
    let storage: TestStorage;
    let t: TestApp;
    let second: Awaited<ReturnType<typeof buildApp>>;
    let closeSecondDb = async () => {};
    let otherDir: string;
    let member: { token: string };
    const rows = async () => (await t.ctx.db.selectFrom('files').select('id').execute()).length;

    before(async () => {
      storage = await testStorage(kind);
      t = await startTestApp(storage.config);
      member = await t.register('Uploader');
      // Another instance: its own connections (PostgreSQL) and its own data
      // directory, so whatever it serves cannot come from the first one's disk.
      otherDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trackway-second-'));
      const database = t.database.url ? await openDatabase({ databaseUrl: t.database.url }) : t.database;
      if (database !== t.database) closeSecondDb = () => database.close();
      second = await buildApp({
        config: testConfig({ ...storage.config, dataDir: otherDir }),
        database,
        logger: false,
      });
    });
    after(async () => {
      await second.app.close();
      await closeSecondDb();
      await t.close();
      await storage.close();
      await fs.rm(otherDir, { recursive: true, force: true });
    });

    const downloadFromSecond = (id: string) =>
      second.app.inject({
        method: 'GET',
        url: `/api/files/${id}`,
        headers: { authorization: `Bearer ${member.token}` },
      });

    test('a one-step upload through one instance downloads through the other, byte for byte', async () => {
      const bytes = Buffer.concat([Buffer.from([0, 255, 1, 254]), Buffer.alloc(700_000, 9)]);
      const res = await t.request('POST', '/api/files', {
        payload: bytes,
        headers: { 'content-type': 'image/png', 'x-filename': 'big.png' },
        token: member.token,
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const dl = await downloadFromSecond(res.body.file.id);
      assert.equal(dl.statusCode, 200);
      assert.deepEqual(dl.rawPayload, bytes);
      assert.equal(dl.headers['content-length'], String(bytes.length));
      assert.equal(dl.headers['content-type'], 'image/png');
    });

    test('a chunked upload over 25 MB is cut off with 413, storing nothing', async () => {
      const base = await t.listen();
      const [keys, rowCount] = [await storage.keys(t.ctx), await rows()];
      assert.equal(await chunked(base, '/api/files', member.token, MAX + 300_000), 413);
      assert.deepEqual(await storage.keys(t.ctx), keys);
      assert.equal(await rows(), rowCount);
    });

    test('a two-step upload: a longer body is refused leaving nothing, the right one is served by both', async () => {
      const grant = await t.post(
        '/api/uploads',
        { contentType: 'text/plain', filename: 'n.txt', size: 5 },
        member.token,
      );
      const g = grant.body.uploadFile;
      assert.match(g.uploadUrl, /^http:\/\/trackway\.test\/api\/uploads\//);
      const keys = await storage.keys(t.ctx);
      const put = (payload: string) =>
        t.request('PUT', local(g.uploadUrl), {
          payload,
          headers: { 'content-type': 'text/plain' },
          token: member.token,
        });
      assert.equal((await put('hello!')).status, 400);
      assert.deepEqual(await storage.keys(t.ctx), keys);
      assert.equal((await put('hello')).status, 200);
      assert.equal((await t.get(local(g.assetUrl), member.token)).body, 'hello');
      assert.equal((await downloadFromSecond(g.assetUrl.split('/').pop())).payload, 'hello');
    });
  });
}
