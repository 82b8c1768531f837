// The two-step upload: declare the file (POST /api/uploads, twin of GraphQL
// fileUpload), then PUT the bytes to the signed uploadUrl.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { setFlag } from './projects.fixtures.js';
import { type TestStorage, testStorage } from './support/file-storage.js';
import { startTestApp, type TestApp } from './support/harness.js';

const MAX = 26_214_400;
let t: TestApp;
let storage: TestStorage;
let member: { token: string; user: any };
let other: { token: string; user: any };
let guest: { token: string; user: any };

before(async () => {
  // TEST_FILE_STORAGE picks the store (local by default): test/support/file-storage.ts.
  storage = await testStorage();
  t = await startTestApp(storage.config);
  member = await t.register('Two Step');
  other = await t.register('Someone Else');
  guest = await t.userWithRole('guest', { teams: ['ENG'] });
});
after(async () => {
  await t.close();
  await storage.close();
});

async function grant(body: Record<string, unknown> = {}, token = member.token) {
  return t.post(
    '/api/uploads',
    { contentType: 'text/plain', filename: 'notes.txt', size: 5, ...body },
    token,
  );
}

/** The path and query of an absolute uploadUrl, for app.inject. */
const local = (url: string) => url.replace('http://trackway.test', '');

function put(url: string, payload: string | Buffer, headers: Record<string, string>, token = member.token) {
  return t.request('PUT', local(url), { payload, headers, token });
}

const storedFiles = () => storage.keys(t.ctx);

describe('POST /api/uploads (grant)', () => {
  test('returns uploadUrl on our server, assetUrl and the headers to send', async () => {
    const res = await grant({ filename: 'dir/notes.txt' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const g = res.body.uploadFile;
    assert.match(
      g.uploadUrl,
      /^http:\/\/trackway\.test\/api\/uploads\/[0-9a-f-]{36}\?expires=\d+&signature=[\w-]+$/,
    );
    assert.match(g.assetUrl, /^http:\/\/trackway\.test\/api\/files\/[0-9a-f-]{36}$/);
    assert.equal(g.uploadUrl.split('/')[5].split('?')[0], g.assetUrl.split('/').pop());
    assert.deepEqual(
      g.headers.find((h: any) => h.key === 'Content-Type'),
      { key: 'Content-Type', value: 'text/plain' },
    );
    assert.equal(g.filename, 'notes.txt');
    const expires = Number(new URL(g.uploadUrl).searchParams.get('expires'));
    assert.ok(expires * 1000 > Date.now() && expires * 1000 <= Date.now() + 11 * 60_000);
    // Not downloadable until the bytes arrive.
    assert.equal((await t.get(local(g.assetUrl), member.token)).status, 404);
  });

  const bad: [string, Record<string, unknown>, number][] = [
    ['size 0', { size: 0 }, 400],
    ['size over 25 MB', { size: MAX + 1 }, 400],
    ['fractional size', { size: 1.5 }, 400],
    ['size as string', { size: '5' }, 400],
    ['bad content type', { contentType: 'nope' }, 400],
    ['unknown field', { extra: 1 }, 400],
  ];
  for (const [what, body, status] of bad) {
    test(`${status} for ${what}`, async () => {
      const res = await grant(body);
      assert.equal(res.status, status, JSON.stringify(res.body));
    });
  }

  test('25 MB exactly is allowed', async () => {
    assert.equal((await grant({ size: MAX })).status, 201);
  });

  test('guests 403, flag off 403 FEATURE_DISABLED, 401 without token', async () => {
    const g = await grant({}, guest.token);
    assert.equal(g.status, 403);
    assert.equal(g.body.error.code, 'FORBIDDEN');
    assert.equal(
      (await t.post('/api/uploads', { contentType: 'text/plain', filename: 'a', size: 1 })).status,
      401,
    );
    await setFlag(t, 'attachments', false);
    try {
      const off = await grant();
      assert.equal(off.status, 403);
      assert.equal(off.body.error.code, 'FEATURE_DISABLED');
    } finally {
      await setFlag(t, 'attachments', true);
    }
    assert.equal((await grant()).status, 201);
  });
});

describe('PUT to uploadUrl', () => {
  test('stores the bytes; assetUrl then downloads them; a second PUT is 409', async () => {
    const g = (await grant()).body.uploadFile;
    const res = await put(g.uploadUrl, 'hello', { 'content-type': 'text/plain' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.file.url, g.assetUrl);
    assert.equal(res.body.file.size, 5);
    const dl = await t.get(local(g.assetUrl), member.token);
    assert.equal(dl.status, 200);
    assert.equal(dl.body, 'hello');
    assert.equal(dl.headers['content-type'], 'text/plain');
    // Plain text is not on the inline allow-list (browsers have sniffed it into HTML).
    assert.match(String(dl.headers['content-disposition']), /^attachment; filename="notes.txt"/);
    const again = await put(g.uploadUrl, 'HELLO', { 'content-type': 'text/plain' });
    assert.equal(again.status, 409);
    assert.equal((await t.get(local(g.assetUrl), member.token)).body, 'hello');
  });

  test('works over a real socket with the returned headers', async () => {
    const g = (await grant({ contentType: 'application/pdf', filename: 'r.pdf', size: 4 })).body.uploadFile;
    const base = await t.listen();
    const status = await new Promise<number>((resolve, reject) => {
      const headers: Record<string, string> = { authorization: `Bearer ${member.token}` };
      for (const h of g.headers) headers[h.key] = h.value;
      const req = http.request(`${base}${local(g.uploadUrl)}`, { method: 'PUT', headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end('%PDF');
    });
    assert.equal(status, 200);
  });

  const refusals: [string, (url: string) => string, Record<string, string>, string, number, string][] = [
    [
      'a tampered signature',
      // Flip the first character to a different one: a fixed replacement equals it one time in 64.
      (u) => u.replace(/signature=(.)/, (_m, c: string) => `signature=${c === 'A' ? 'B' : 'A'}`),
      {},
      'hello',
      403,
      'FORBIDDEN',
    ],
    ['a changed expiry', (u) => u.replace(/expires=\d+/, (m) => `${m}9`), {}, 'hello', 403, 'FORBIDDEN'],
    [
      'a different content type',
      (u) => u,
      { 'content-type': 'text/html' },
      'hello',
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    ['a shorter body', (u) => u, {}, 'hell', 400, 'BAD_REQUEST'],
    ['a longer body', (u) => u, {}, 'hello!', 400, 'BAD_REQUEST'],
    ['a body over 25 MB', (u) => u, {}, 'x'.repeat(MAX + 1), 413, 'PAYLOAD_TOO_LARGE'],
    ['an empty body', (u) => u, {}, '', 400, 'BAD_REQUEST'],
  ];
  for (const [what, change, headers, body, status, code] of refusals) {
    test(`refuses ${what} with ${status}, storing nothing`, async () => {
      const g = (await grant()).body.uploadFile;
      const before = await storedFiles();
      const res = await put(change(g.uploadUrl), body, { 'content-type': 'text/plain', ...headers });
      assert.equal(res.status, status, JSON.stringify(res.body));
      assert.equal(res.body.error.code, code);
      assert.deepEqual(await storedFiles(), before);
      assert.equal((await t.get(local(g.assetUrl), member.token)).status, 404);
      // The grant stays usable after a refused attempt.
      assert.equal((await put(g.uploadUrl, 'hello', { 'content-type': 'text/plain' })).status, 200);
    });
  }

  test('refuses an expired URL even when correctly signed', async () => {
    const g = (await grant()).body.uploadFile;
    const id = g.assetUrl.split('/').pop();
    const expires = Math.floor(Date.now() / 1000) - 5;
    const signature = createHmac('sha256', t.ctx.deriveKey('upload-url'))
      .update(`${id}\n5\ntext/plain\n${expires}`)
      .digest('base64url');
    const res = await put(`/api/uploads/${id}?expires=${expires}&signature=${signature}`, 'hello', {
      'content-type': 'text/plain',
    });
    assert.equal(res.status, 403);
    assert.match(res.body.error.message, /expired/);
  });

  test('refuses a chunked body longer than declared, leaving nothing', async () => {
    const g = (await grant({ contentType: 'application/octet-stream', size: 1000 })).body.uploadFile;
    const base = await t.listen().catch(() => `http://127.0.0.1:${(t.app.server.address() as any).port}`);
    const before = await storedFiles();
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${base}${local(g.uploadUrl)}`,
        {
          method: 'PUT',
          headers: { authorization: `Bearer ${member.token}`, 'content-type': 'application/octet-stream' },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.write(Buffer.alloc(800));
      req.end(Buffer.alloc(800));
    });
    assert.equal(status, 400);
    assert.deepEqual(await storedFiles(), before);
  });

  test('grants left pending for over a day are swept when new grants are made', async () => {
    const stale = (await grant()).body.uploadFile;
    const staleId = stale.assetUrl.split('/').pop();
    await t.ctx.db
      .updateTable('files')
      .set({ created_at: new Date(Date.now() - 2 * 86_400_000) })
      .where('id', '=', staleId)
      .execute();
    const fresh = (await grant()).body.uploadFile;
    const ids = (await t.ctx.db.selectFrom('files').select('id').execute()).map((r) => r.id);
    assert.ok(!ids.includes(staleId));
    assert.ok(ids.includes(fresh.assetUrl.split('/').pop()));
    assert.equal((await put(stale.uploadUrl, 'hello', { 'content-type': 'text/plain' })).status, 404);
  });

  test('only the requester can complete; 401 without token; 404 unknown id; 400 missing signature', async () => {
    const g = (await grant()).body.uploadFile;
    const res = await put(g.uploadUrl, 'hello', { 'content-type': 'text/plain' }, other.token);
    assert.equal(res.status, 403);
    assert.equal((await put(g.uploadUrl, 'hello', { 'content-type': 'text/plain' }, '')).status, 401);
    const unknown = g.uploadUrl.replace(
      /uploads\/[0-9a-f-]{36}/,
      'uploads/00000000-0000-4000-8000-000000000000',
    );
    assert.equal((await put(unknown, 'hello', { 'content-type': 'text/plain' })).status, 404);
    const noSig = g.uploadUrl.split('?')[0];
    assert.equal((await put(noSig, 'hello', { 'content-type': 'text/plain' })).status, 400);
  });
});
