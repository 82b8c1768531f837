// Two-step uploads straight to S3 (FILE_STORAGE=s3, S3_PRESIGNED_UPLOADS=true):
// the grant's uploadUrl is a presigned PUT into the bucket with the declared
// type and length signed; the file becomes downloadable once its bytes are
// confirmed there (by a download, POST /api/uploads/:id/complete, or the sweep).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { STAGING_PREFIX } from '../src/modules/files/service.js';
import { apiKeyFor, sdk } from './graphql-helpers.js';
import { type TestStorage, testStorage } from './support/file-storage.js';
import { startTestApp, type TestApp } from './support/harness.js';

let storage: TestStorage;
let t: TestApp;
let member: { token: string };
let other: { token: string };

before(async () => {
  storage = await testStorage('s3');
  const s3 = storage.config.s3;
  assert.ok(s3);
  t = await startTestApp({ ...storage.config, s3: { ...s3, presignedUploads: true } });
  member = await t.register('Direct');
  other = await t.register('Other');
});
after(async () => {
  await t.close();
  await storage.close();
});

const local = (url: string) => url.replace('http://trackway.test', '');

async function grant(size = 5, contentType = 'text/plain') {
  const res = await t.post('/api/uploads', { contentType, filename: 'n.txt', size }, member.token);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const g = res.body.uploadFile;
  return { ...g, id: g.assetUrl.split('/').pop() as string };
}

/** A PUT as a third-party client sends it: the grant's headers, no Authorization. */
function putToBucket(
  g: { uploadUrl: string; headers: { key: string; value: string }[] },
  body: string,
  type?: string,
) {
  const headers = new Headers();
  for (const h of g.headers) headers.set(h.key, h.value);
  if (type) headers.set('content-type', type);
  return fetch(g.uploadUrl, { method: 'PUT', headers, body });
}

const complete = (id: string, token = member.token) =>
  t.post(`/api/uploads/${id}/complete`, undefined, token);

describe('presigned direct uploads', () => {
  test('the grant points into the bucket with type and length signed; nothing is served before the PUT', async () => {
    const g = await grant();
    const url = new URL(g.uploadUrl);
    assert.equal(url.origin, storage.config.s3?.endpoint);
    assert.deepEqual(url.searchParams.get('X-Amz-SignedHeaders')?.split(';').sort(), [
      'content-length',
      'content-type',
      'host',
    ]);
    assert.equal(Number(url.searchParams.get('X-Amz-Expires')), 600);
    assert.match(g.assetUrl, /^http:\/\/trackway\.test\/api\/files\/[0-9a-f-]{36}$/);
    assert.equal((await t.get(local(g.assetUrl), member.token)).status, 404);
    const early = await complete(g.id);
    assert.equal(early.status, 400);
    assert.equal(early.body.error.code, 'BAD_REQUEST');
  });

  test('the bucket refuses another type or length; the right PUT then downloads', async () => {
    const g = await grant();
    const keys = await storage.keys(t.ctx);
    assert.equal((await putToBucket(g, 'hello', 'text/html')).status, 403);
    assert.equal((await putToBucket(g, 'hello!')).status, 403);
    assert.deepEqual(await storage.keys(t.ctx), keys);
    assert.equal((await t.get(local(g.assetUrl), member.token)).status, 404);
    const put = await putToBucket(g, 'hello');
    assert.equal(put.status, 200, await put.text());
    // The download confirms the upload (HEAD: size and type as declared).
    const dl = await t.get(local(g.assetUrl), member.token);
    assert.equal(dl.status, 200);
    assert.equal(dl.body, 'hello');
    assert.equal(dl.headers['content-type'], 'text/plain');
    const done = await complete(g.id);
    assert.equal(done.status, 200);
    assert.deepEqual(done.body.file, {
      id: g.id,
      url: g.assetUrl,
      filename: 'n.txt',
      contentType: 'text/plain',
      size: 5,
    });
  });

  // Issue 24, finding 10: the presigned URL is retired at completion.
  test('a second PUT to the presigned URL after /complete changes nothing anyone reads', async () => {
    /** The PUT's status, its body read so the connection is free again. */
    const put = async (g: Parameters<typeof putToBucket>[0], body: string) => {
      const res = await putToBucket(g, body);
      await res.text();
      return res.status;
    };
    // Staging keys only: a completed file's key is `<id>-<8 hex>`, which `<id>-d` also matches one time in 16.
    const staged = async (id: string) =>
      (await storage.keys(t.ctx)).filter((k) => k.startsWith(`${STAGING_PREFIX}${id}-d`));
    const g = await grant();
    assert.equal(await put(g, 'hello'), 200);
    assert.equal((await staged(g.id)).length, 1);
    const done = await complete(g.id);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    // The bytes moved to a key no URL names; the staging object is gone.
    const row = await t.ctx.db
      .selectFrom('files')
      .selectAll()
      .where('id', '=', g.id)
      .executeTakeFirstOrThrow();
    assert.ok(!new URL(g.uploadUrl).pathname.endsWith(`/${row.storage_key}`), row.storage_key);
    assert.deepEqual(await staged(g.id), []);
    // The URL is still signed, so the bucket may take the PUT: it lands where nothing is read.
    assert.ok((await put(g, 'EVIL!')) < 500);
    assert.equal((await t.get(local(g.assetUrl), member.token)).body, 'hello');
    assert.equal((await complete(g.id)).status, 200);
    assert.equal((await t.get(local(g.assetUrl), member.token)).body, 'hello');
    // The same when a download confirmed the upload instead of /complete.
    const h = await grant();
    assert.equal(await put(h, 'howdy'), 200);
    assert.equal((await t.get(local(h.assetUrl), member.token)).body, 'howdy');
    assert.ok((await put(h, 'EVIL!')) < 500);
    assert.equal((await t.get(local(h.assetUrl), member.token)).body, 'howdy');
  });

  test('POST /api/uploads/:id/complete confirms; only the uploader may ask', async () => {
    const g = await grant(3, 'application/pdf');
    assert.equal((await putToBucket(g, '%PD')).status, 200);
    assert.equal((await complete(g.id, other.token)).status, 404);
    assert.equal((await complete('00000000-0000-4000-8000-000000000000')).status, 404);
    const res = await complete(g.id);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.file.size, 3);
    const row = await t.ctx.db
      .selectFrom('files')
      .selectAll()
      .where('id', '=', g.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.status, 'complete');
  });

  test('the sweep of day-old grants keeps those whose bytes arrived and deletes the rest', async () => {
    const uploaded = await grant();
    assert.equal((await putToBucket(uploaded, 'hello')).status, 200);
    const abandoned = await grant();
    await t.ctx.db
      .updateTable('files')
      .set({ created_at: new Date(Date.now() - 2 * 86_400_000) })
      .where('id', 'in', [uploaded.id, abandoned.id])
      .execute();
    await grant();
    const status = async (id: string) =>
      (await t.ctx.db.selectFrom('files').select('status').where('id', '=', id).executeTakeFirst())?.status;
    assert.equal(await status(uploaded.id), 'complete');
    assert.equal(await status(abandoned.id), undefined);
    assert.equal((await t.get(local(uploaded.assetUrl), member.token)).body, 'hello');
  });

  test('@linear/sdk: fileUpload, PUT with only the returned headers, attachmentCreate, download', async () => {
    const base = await t.listen();
    const client = sdk(base, await apiKeyFor(t, member.token));
    const teamId = (await client.teams()).nodes[0]?.id as string;
    const issue = await (await client.createIssue({ teamId, title: 'Direct upload' })).issue;
    const bytes = Buffer.from('straight to the bucket');
    const up = await client.fileUpload('text/plain', 'direct.txt', bytes.length);
    const file = up.uploadFile;
    assert.ok(file && issue);
    assert.ok(file.uploadUrl.startsWith(storage.config.s3?.endpoint as string));
    // What the third-party client documentation does: its headers, no credentials of ours.
    const headers: Record<string, string> = {};
    for (const h of file.headers) headers[h.key] = h.value;
    const put = await fetch(file.uploadUrl, { method: 'PUT', headers, body: bytes });
    assert.equal(put.status, 200, await put.text());
    await client.createAttachment({ issueId: issue.id, title: 'direct.txt', url: file.assetUrl });
    const dl = await fetch(file.assetUrl.replace(t.config.publicUrl, base), {
      headers: { authorization: `Bearer ${t.adminToken}` },
    });
    assert.equal(dl.status, 200);
    assert.equal(await dl.text(), 'straight to the bucket');
  });
});
