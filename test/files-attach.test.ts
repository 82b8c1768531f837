// The file rule (issue 24, finding 2): a file is attachable only by someone
// who can read it, and only through its real URL (PUBLIC_URL/api/files/<id>).
// Any other URL is a plain link that carries no file, and a file the caller
// cannot read is answered exactly like one that does not exist.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { insertIssue } from './projects.fixtures.js';
import { type TestStorage, testStorage } from './support/file-storage.js';
import { startTestApp, type TestApp } from './support/harness.js';

let storage: TestStorage;
let t: TestApp;
let insider: { token: string; user: any };
let outsider: { token: string; user: any };
let guest: { token: string; user: any };
let secTeamId: string;
let engTeamId: string;

before(async () => {
  storage = await testStorage();
  t = await startTestApp(storage.config);
  const sec = await t.post('/api/teams', { key: 'SEC', name: 'Security', private: true }, t.adminToken);
  assert.equal(sec.status, 201, JSON.stringify(sec.body));
  secTeamId = sec.body.team.id;
  engTeamId = (await t.get('/api/teams/ENG', t.adminToken)).body.team.id;
  insider = await t.userWithRole('member', { teams: ['SEC'] });
  outsider = await t.userWithRole('member');
  // A guest of the public team ENG only.
  guest = await t.userWithRole('guest', { teams: ['ENG'] });
});
after(async () => {
  await t.close();
  await storage.close();
});

/** A file the insider uploads and attaches to an issue of the private team SEC. */
async function privateFile(): Promise<{ id: string; url: string }> {
  const up = await t.request('POST', '/api/files', {
    payload: 'the secret plan',
    headers: { 'content-type': 'text/plain', 'x-filename': 'plan.txt' },
    token: insider.token,
  });
  assert.equal(up.status, 201, JSON.stringify(up.body));
  const issue = await insertIssue(t, { teamId: secTeamId });
  const at = await attach(issue.id, up.body.file.url, insider.token);
  assert.equal(at.status, 201, JSON.stringify(at.body));
  return up.body.file;
}

const attach = (issueId: string, url: string, token: string) =>
  t.post(`/api/issues/${issueId}/attachments`, { title: 'Plan', url }, token);

const download = async (id: string, token: string) => (await t.get(`/api/files/${id}`, token)).status;

/** The answer without what differs between any two attachments. */
const shape = (body: any) => {
  const { id, url, createdAt, updatedAt, issueId, ...rest } = body.attachment ?? {};
  return { keys: Object.keys(body.attachment ?? body).sort(), rest };
};

describe('finding 2: a file is attachable only by a reader, only through its real URL', () => {
  test('an outsider attaching a private file by https://anything/api/files/<id> on a public issue reads nothing', async () => {
    const file = await privateFile();
    assert.equal(await download(file.id, outsider.token), 404);
    const issue = await insertIssue(t, { teamId: engTeamId });
    const res = await attach(issue.id, `https://anything/api/files/${file.id}`, outsider.token);
    // A plain link: the attachment exists, the file stays where it was.
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(await download(file.id, outsider.token), 404);
    assert.equal(await download(file.id, guest.token), 404);
    assert.equal(await download(file.id, insider.token), 200);
  });

  test('the real URL of a file the attacher cannot read answers exactly as a missing file: REST, PATCH and GraphQL', async () => {
    const file = await privateFile();
    const missing = `${t.config.publicUrl}/api/files/${randomUUID()}`;
    const real = `${t.config.publicUrl}/api/files/${file.id}`;
    const issue = await insertIssue(t, { teamId: engTeamId });

    const created = await attach(issue.id, real, outsider.token);
    const createdMissing = await attach(issue.id, missing, outsider.token);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(createdMissing.status, created.status);
    assert.deepEqual(shape(created.body), shape(createdMissing.body));
    assert.equal(await download(file.id, guest.token), 404);
    assert.equal(await download(file.id, outsider.token), 404);

    const plain = (await attach(issue.id, 'https://example.com/x', outsider.token)).body.attachment;
    const patched = await t.patch(`/api/attachments/${plain.id}`, { url: real }, outsider.token);
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(await download(file.id, guest.token), 404);

    const mutation = `mutation($input: AttachmentCreateInput!) {
      attachmentCreate(input: $input) { success attachment { title url } } }`;
    const viaGraphql = async (url: string) =>
      t.post(
        '/graphql',
        { query: mutation, variables: { input: { issueId: issue.id, title: 'G', url } } },
        outsider.token,
      );
    const g = await viaGraphql(real);
    const gMissing = await viaGraphql(missing);
    assert.equal(g.status, 200);
    assert.equal(g.body.errors, undefined, JSON.stringify(g.body));
    assert.deepEqual(g.body.data.attachmentCreate.success, gMissing.body.data.attachmentCreate.success);
    assert.equal(await download(file.id, guest.token), 404);
    assert.equal(await download(file.id, outsider.token), 404);
  });

  test('a reader shares a file through its real URL, and only that URL', async () => {
    const file = await privateFile();
    const issue = await insertIssue(t, { teamId: engTeamId });
    for (const url of [
      `https://anything/api/files/${file.id}`,
      `${t.config.publicUrl}/api/files/${file.id}?download=1`,
      `${t.config.publicUrl}/api/files/${file.id}#x`,
      `${t.config.publicUrl}/api/files/${file.id}/`,
      `${t.config.publicUrl.replace('http:', 'https:')}/api/files/${file.id}`,
      `${t.config.publicUrl}/other/api/files/${file.id}`,
    ]) {
      const res = await attach(issue.id, url, insider.token);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(await download(file.id, guest.token), 404, url);
    }
    // A relative path is not an attachment url at all (absolute http(s) only).
    assert.equal((await attach(issue.id, `/api/files/${file.id}`, insider.token)).status, 400);
    const real = await attach(
      issue.id,
      `${t.config.publicUrl}/api/files/${file.id.toUpperCase()}`,
      insider.token,
    );
    assert.equal(real.status, 201);
    assert.equal(await download(file.id, guest.token), 200);
    // Pointing the attachment elsewhere takes the file back out of sight.
    const moved = await t.patch(
      `/api/attachments/${real.body.attachment.id}`,
      { url: 'https://example.com/elsewhere' },
      insider.token,
    );
    assert.equal(moved.status, 200);
    assert.equal(await download(file.id, guest.token), 404);
  });

  test('re-attaching the same url: a reader makes it carry the file, a non-reader cannot undo that', async () => {
    const file = await privateFile();
    const issue = await insertIssue(t, { teamId: engTeamId });
    const real = `${t.config.publicUrl}/api/files/${file.id}`;
    const first = await attach(issue.id, real, outsider.token);
    assert.equal(await download(file.id, guest.token), 404);
    const again = await attach(issue.id, real, insider.token);
    assert.equal(again.body.attachment.id, first.body.attachment.id);
    assert.equal(await download(file.id, guest.token), 200);
    const retitled = await attach(issue.id, real, outsider.token);
    assert.equal(retitled.status, 201);
    assert.equal(await download(file.id, guest.token), 200);
    // A title-only PATCH by anyone keeps what the url carries.
    await t.patch(`/api/attachments/${first.body.attachment.id}`, { title: 'Renamed' }, outsider.token);
    assert.equal(await download(file.id, guest.token), 200);
  });

  test('uploaders and admins attach what they can read; a pending grant of one own is attachable', async () => {
    const issue = await insertIssue(t, { teamId: engTeamId });
    const up = await t.request('POST', '/api/files', {
      payload: 'mine',
      headers: { 'content-type': 'text/plain' },
      token: outsider.token,
    });
    assert.equal((await attach(issue.id, up.body.file.url, outsider.token)).status, 201);
    assert.equal(await download(up.body.file.id, guest.token), 200);

    const file = await privateFile();
    assert.equal((await attach(issue.id, file.url, t.adminToken)).status, 201);
    assert.equal(await download(file.id, guest.token), 200);

    const grant = await t.post(
      '/api/uploads',
      { contentType: 'text/plain', filename: 'g.txt', size: 4 },
      outsider.token,
    );
    assert.equal(grant.status, 201);
    const pending = grant.body.uploadFile.assetUrl as string;
    assert.equal((await attach(issue.id, pending, outsider.token)).status, 201);
    const row = await t.ctx.db
      .selectFrom('attachments')
      .select('file_id')
      .where('url', '=', pending)
      .executeTakeFirstOrThrow();
    assert.equal(row.file_id, pending.split('/').pop());
  });
});
