// Compression of what we send: API answers and the UI's assets in brotli or
// gzip as the client accepts, small answers and stored files as they are.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import zlib from 'node:zlib';
import { WEB_DIST } from '../src/modules/ui/serve.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
  // A list long enough to be worth compressing.
  for (let i = 0; i < 30; i++)
    await t.post('/api/issues', { teamId: 'ENG', title: `Compress me ${i}` }, t.adminToken);
});
after(() => t?.close());

const raw = (url: string, encoding?: string, token = t.adminToken) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: { authorization: `Bearer ${token}`, ...(encoding ? { 'accept-encoding': encoding } : {}) },
  });

describe('compression', () => {
  test('a JSON list goes out in brotli or gzip as accepted, and decodes to the same answer', async () => {
    const plain = await raw('/api/issues?limit=30');
    assert.equal(plain.headers['content-encoding'], undefined);
    const br = await raw('/api/issues?limit=30', 'br, gzip');
    assert.equal(br.headers['content-encoding'], 'br');
    assert.match(String(br.headers['vary']), /accept-encoding/i);
    assert.ok(br.rawPayload.length < plain.rawPayload.length / 2, 'brotli at least halves the list');
    assert.deepEqual(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString()), plain.json());
    const gz = await raw('/api/issues?limit=30', 'gzip');
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.deepEqual(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString()), plain.json());
  });

  test('GraphQL answers are compressed too', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { authorization: `Bearer ${t.adminToken}`, 'accept-encoding': 'gzip' },
      payload: { query: '{ issues(first: 30) { nodes { id identifier title createdAt } } }' },
    });
    assert.equal(res.headers['content-encoding'], 'gzip');
    const body = JSON.parse(zlib.gunzipSync(res.rawPayload).toString());
    assert.equal(body.data.issues.nodes.length, 30);
  });

  test('an answer under 1 KB is sent as it is', async () => {
    const res = await raw('/api/config', 'br, gzip');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-encoding'], undefined);
  });

  test('the UI script is compressed and cached immutably', async () => {
    const script = fs.readdirSync(path.join(WEB_DIST, 'assets')).find((f) => /^app-.*\.js$/.test(f));
    assert.ok(script, 'a built app script');
    const res = await raw(`/assets/${script}`, 'br');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-encoding'], 'br');
    assert.match(String(res.headers['cache-control']), /immutable/);
    const original = fs.readFileSync(path.join(WEB_DIST, 'assets', script));
    assert.ok(zlib.brotliDecompressSync(res.rawPayload).equals(original));
    // The build's compressed copy goes out as it is, not compressed again per request.
    assert.ok(res.rawPayload.equals(fs.readFileSync(path.join(WEB_DIST, 'assets', `${script}.br`))));
    const gz = await raw(`/assets/${script}`, 'gzip');
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.ok(zlib.gunzipSync(gz.rawPayload).equals(original));
    const plain = await raw(`/assets/${script}`, 'identity');
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.ok(plain.rawPayload.equals(original));
  });

  test('a stored file goes out byte for byte, with its length', async () => {
    const text = 'same line again\n'.repeat(500);
    const up = await t.request('POST', '/api/files', {
      payload: text,
      headers: { 'content-type': 'text/plain', 'x-filename': 'notes.txt' },
      token: t.adminToken,
    });
    assert.equal(up.status, 201);
    const dl = await raw(`/api/files/${up.body.file.id}`, 'br, gzip');
    assert.equal(dl.statusCode, 200);
    assert.equal(dl.headers['content-encoding'], undefined);
    assert.equal(dl.body, text);
  });
});
