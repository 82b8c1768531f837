import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { setFlag } from './projects.fixtures.js';
import { type TestStorage, testStorage } from './support/file-storage.js';
import { startTestApp, type TestApp } from './support/harness.js';

const MAX = 26_214_400;
let t: TestApp;
let storage: TestStorage;
let member: { token: string; user: any };
let guest: { token: string; user: any };

before(async () => {
  // TEST_FILE_STORAGE picks the store (local by default): test/support/file-storage.ts.
  storage = await testStorage();
  t = await startTestApp(storage.config);
  member = await t.register('Uploader');
  guest = await t.userWithRole('guest', { teams: ['ENG'] });
});
after(async () => {
  await t.close();
  await storage.close();
});

const upload = (payload: string | Buffer, headers: Record<string, string> = {}, token = member.token) =>
  t.request('POST', '/api/files', { payload, headers, token });

const storedFiles = () => storage.keys(t.ctx);

const fileRows = async () =>
  Number(
    (
      await t.ctx.db
        .selectFrom('files')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Sends a body over a real socket with chunked encoding (no Content-Length). */
function chunkedPost(base: string, urlPath: string, token: string, bytes: number, method = 'POST') {
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = http.request(
      `${base}${urlPath}`,
      {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
      },
    );
    req.on('error', reject);
    const chunk = Buffer.alloc(64 * 1024, 7);
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        const n = Math.min(chunk.length, bytes - sent);
        sent += n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    // The server may answer (413) and close before everything is written.
    req.on('error', () => {});
    pump();
  });
}

describe('POST /api/files and GET /api/files/:id', () => {
  test('round trip keeps bytes, type and name; download is inline for images, nosniff, sandboxed', async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 255]);
    const res = await upload(bytes, { 'content-type': 'image/png', 'x-filename': 'logo%20v2.png' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const f = res.body.file;
    assert.deepEqual(Object.keys(f).sort(), ['contentType', 'filename', 'id', 'size', 'url']);
    assert.equal(f.filename, 'logo v2.png');
    assert.equal(f.contentType, 'image/png');
    assert.equal(f.size, bytes.length);
    assert.equal(f.url, `http://trackway.test/api/files/${f.id}`);

    const download = (token: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/files/${f.id}`,
        headers: { authorization: `Bearer ${token}` },
      });
    // A file is its uploader's until an attachment on an issue others see carries it.
    assert.equal((await download(guest.token)).statusCode, 404);
    const issue = await t.post('/api/issues', { title: 'With a logo' }, t.adminToken);
    const attached = await t.post(
      `/api/issues/${issue.body.issue.id}/attachments`,
      { title: 'logo', url: f.url },
      t.adminToken,
    );
    assert.equal(attached.status, 201, JSON.stringify(attached.body));
    const dl = await download(guest.token);
    assert.equal(dl.statusCode, 200);
    assert.deepEqual(dl.rawPayload, bytes);
    assert.equal(dl.headers['content-type'], 'image/png');
    assert.equal(dl.headers['content-length'], String(bytes.length));
    assert.equal(
      dl.headers['content-disposition'],
      `inline; filename="logo v2.png"; filename*=UTF-8''logo%20v2.png`,
    );
    assert.equal(dl.headers['x-content-type-options'], 'nosniff');
    assert.match(String(dl.headers['content-security-policy']), /sandbox/);
    assert.match(String(dl.headers['content-security-policy']), /default-src 'none'/);
  });

  test('HTML is served as an attachment; non-ASCII names use filename*', async () => {
    const res = await upload('<script>alert(1)</script>', {
      'content-type': 'text/html; charset=utf-8',
      'x-filename': encodeURIComponent('résumé "final".html'),
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.file.filename, 'résumé "final".html');
    const dl = await t.get(`/api/files/${res.body.file.id}`, member.token);
    assert.equal(dl.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(
      dl.headers['content-disposition'],
      `attachment; filename="r_sum_ _final_.html"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.html`,
    );
    assert.equal(dl.headers['x-content-type-options'], 'nosniff');
  });

  // The shared allow-list (src/modules/files/inline-types.ts): raster images
  // are shown, everything else (script carriers, PDF, text) only downloads.
  const dispositions: [string, 'inline' | 'attachment'][] = [
    ['image/png', 'inline'],
    ['image/jpeg', 'inline'],
    ['image/gif', 'inline'],
    ['image/webp', 'inline'],
    ['image/avif', 'inline'],
    ['IMAGE/PNG', 'inline'],
    ['text/html', 'attachment'],
    ['image/svg+xml', 'attachment'],
    ['image/svg+xml; charset=utf-8', 'attachment'],
    ['application/xhtml+xml', 'attachment'],
    ['text/xml', 'attachment'],
    ['application/xml', 'attachment'],
    ['text/javascript', 'attachment'],
    ['application/pdf', 'attachment'],
    ['text/plain', 'attachment'],
    ['image/bmp', 'attachment'],
    ['application/octet-stream', 'attachment'],
  ];
  for (const [type, kind] of dispositions) {
    test(`a ${type} download is ${kind}, nosniff and sandboxed`, async () => {
      const f = (
        await upload('<script>parent.pwned = 1</script>', { 'content-type': type, 'x-filename': 'f' })
      ).body.file;
      const dl = await t.get(`/api/files/${f.id}`, member.token);
      assert.equal(dl.status, 200);
      assert.equal(dl.headers['content-type'], f.contentType);
      assert.equal(dl.headers['content-disposition'], `${kind}; filename="f"; filename*=UTF-8''f`);
      assert.equal(dl.headers['x-content-type-options'], 'nosniff');
      assert.equal(
        dl.headers['content-security-policy'],
        "default-src 'none'; frame-ancestors 'none'; sandbox",
      );
    });
  }

  test('a JSON file is stored as bytes, not parsed', async () => {
    const res = await upload('{"not": "parsed"', {
      'content-type': 'application/json',
      'x-filename': 'a.json',
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const dl = await t.app.inject({
      method: 'GET',
      url: `/api/files/${res.body.file.id}`,
      headers: { authorization: `Bearer ${member.token}` },
    });
    assert.equal(dl.payload, '{"not": "parsed"');
    assert.match(String(dl.headers['content-disposition']), /^attachment;/);
  });

  const names: [string | undefined, string][] = [
    [undefined, 'upload'],
    ['', 'upload'],
    ['..%2F..%2Fetc%2Fpasswd', 'passwd'],
    ['C:%5CUsers%5Cx%5Creport.pdf', 'report.pdf'],
    ['a%00b%0Ac%1Fd.txt', 'abcd.txt'],
    ['..', 'upload'],
    ['%2F', 'upload'],
    ['100%25 done.txt', '100% done.txt'],
    ['bad%ZZencoding.txt', 'bad%ZZencoding.txt'],
    [`${'x'.repeat(300)}.txt`, `${'x'.repeat(196)}.txt`],
  ];
  for (const [raw, expected] of names) {
    test(`x-filename ${JSON.stringify(raw)?.slice(0, 40)} is stored as ${JSON.stringify(expected).slice(0, 40)}`, async () => {
      const res = await upload('data', raw === undefined ? {} : { 'x-filename': raw });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.file.filename, expected);
    });
  }

  test('missing Content-Type is application/octet-stream; a malformed one is a 4xx', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/files',
      payload: Buffer.from('abc'),
      headers: { authorization: `Bearer ${member.token}` },
    });
    assert.equal(res.statusCode, 201, res.payload);
    assert.equal(res.json().file.contentType, 'application/octet-stream');
    // Fastify itself refuses a value that is not a media type at all.
    const bad = await upload('abc', { 'content-type': 'not a type' });
    assert.equal(bad.status, 415);
    assert.equal(bad.body.error.code, 'UNSUPPORTED_MEDIA_TYPE');
    const odd = await upload('abc', { 'content-type': 'text/plain; charset' });
    assert.ok(odd.status === 400 || odd.status === 415, JSON.stringify(odd.body));
  });

  test('413 when Content-Length says more than 25 MB: nothing stored, no row', async () => {
    const filesBefore = await storedFiles();
    const rowsBefore = await fileRows();
    const res = await upload(Buffer.alloc(MAX + 1), { 'content-type': 'application/octet-stream' });
    assert.equal(res.status, 413);
    assert.equal(res.body.error.code, 'PAYLOAD_TOO_LARGE');
    assert.deepEqual(await storedFiles(), filesBefore);
    assert.equal(await fileRows(), rowsBefore);
  });

  test('exactly 25 MB is accepted', async () => {
    const res = await upload(Buffer.alloc(MAX, 1), { 'content-type': 'application/octet-stream' });
    assert.equal(res.status, 201);
    assert.equal(res.body.file.size, MAX);
  });

  test('a chunked upload over 25 MB is cut off with 413, leaving no partial file nor row', async () => {
    const base = await t.listen();
    const filesBefore = await storedFiles();
    const rowsBefore = await fileRows();
    const res = await chunkedPost(base, '/api/files', member.token, MAX + 300_000);
    assert.equal(res.status, 413);
    assert.equal(res.body.error.code, 'PAYLOAD_TOO_LARGE');
    assert.deepEqual(await storedFiles(), filesBefore);
    assert.equal(await fileRows(), rowsBefore);
    const ok = await chunkedPost(base, '/api/files', member.token, 100_000);
    assert.equal(ok.status, 201);
    assert.equal(ok.body.file.size, 100_000);
  });

  test('downloads: 404 for unknown ids, 401 without a token', async () => {
    assert.equal((await t.get('/api/files/00000000-0000-4000-8000-000000000000', member.token)).status, 404);
    assert.equal((await t.get('/api/files/nope', member.token)).status, 404);
    const f = (await upload('x')).body.file;
    assert.equal((await t.get(`/api/files/${f.id}`)).status, 401);
    assert.equal((await upload('x', {}, '')).status, 401);
  });

  test('JSON routes elsewhere still parse JSON', async () => {
    const res = await t.post('/api/projects', { name: 'Still JSON' }, member.token);
    assert.equal(res.status, 201);
  });

  test('guests download but cannot upload', async () => {
    const res = await upload('x', {}, guest.token);
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'FORBIDDEN');
  });

  test('attachments flag off: upload and download are 403 FEATURE_DISABLED; on again works', async () => {
    const f = (await upload('kept')).body.file;
    await setFlag(t, 'attachments', false);
    try {
      for (const res of [await upload('x'), await t.get(`/api/files/${f.id}`, member.token)]) {
        assert.equal(res.status, 403);
        assert.equal(res.body.error.code, 'FEATURE_DISABLED');
      }
    } finally {
      await setFlag(t, 'attachments', true);
    }
    assert.equal((await t.get(`/api/files/${f.id}`, member.token)).body, 'kept');
    assert.equal((await upload('x')).status, 201);
  });
});
