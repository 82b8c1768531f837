import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { insertIssue, setFlag, UNKNOWN_ID } from './projects.fixtures.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let dataDir: string;
let member: { token: string; user: any };
let guest: { token: string; user: any };
before(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trackway-attachments-'));
  t = await startTestApp({ dataDir });
  member = await t.register('Attacher');
  guest = await t.userWithRole('guest', { teams: ['ENG'] });
});
after(async () => {
  await t.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const attach = (issue: string, body: Record<string, unknown>, token = member.token) =>
  t.post(
    `/api/issues/${issue}/attachments`,
    { title: 'Spec', url: 'https://example.com/spec', ...body },
    token,
  );

describe('POST/GET /api/issues/:id/attachments', () => {
  test('attaches by issue id or identifier and lists oldest first', async () => {
    const issue = await insertIssue(t);
    const a = await attach(issue.id, {
      title: '  Design doc ',
      subtitle: 'v2',
      metadata: { pages: 3, tags: ['a'] },
    });
    assert.equal(a.status, 201, JSON.stringify(a.body));
    const att = a.body.attachment;
    assert.equal(att.issueId, issue.id);
    assert.equal(att.title, 'Design doc');
    assert.equal(att.subtitle, 'v2');
    assert.equal(att.url, 'https://example.com/spec');
    assert.deepEqual(att.metadata, { pages: 3, tags: ['a'] });
    assert.equal(att.creatorId, member.user.id);
    assert.equal(att.archivedAt, null);
    const b = await attach(issue.identifier.toLowerCase(), { url: 'https://example.com/other' });
    assert.equal(b.status, 201, JSON.stringify(b.body));
    assert.deepEqual(b.body.attachment.metadata, {});
    const list = await t.get(`/api/issues/${issue.identifier}/attachments`, guest.token);
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.attachments.map((x: any) => x.id),
      [att.id, b.body.attachment.id],
    );
    assert.deepEqual(list.body.pageInfo, { total: 2, limit: 50, offset: 0 });
  });

  test('the same url on the same issue updates the existing attachment', async () => {
    const issue = await insertIssue(t);
    const first = (await attach(issue.id, { title: 'One' })).body.attachment;
    const second = await attach(issue.id, { title: 'Two' });
    assert.equal(second.status, 201);
    assert.equal(second.body.attachment.id, first.id);
    assert.equal(second.body.attachment.title, 'Two');
    const list = await t.get(`/api/issues/${issue.id}/attachments`, member.token);
    assert.equal(list.body.pageInfo.total, 1);
  });

  test('an uploaded file assetUrl can be attached', async () => {
    const issue = await insertIssue(t);
    const up = await t.request('POST', '/api/files', {
      payload: 'bytes',
      headers: { 'content-type': 'text/plain', 'x-filename': 'log.txt' },
      token: member.token,
    });
    const res = await attach(issue.id, { title: 'log.txt', url: up.body.file.url });
    assert.equal(res.status, 201);
    assert.equal(res.body.attachment.url, up.body.file.url);
  });

  const bad: [string, Record<string, unknown>, string][] = [
    ['missing title', { title: undefined }, '/title'],
    ['blank title', { title: '  ' }, '/title'],
    ['missing url', { url: undefined }, '/url'],
    ['relative url', { url: '/api/files/x' }, '/url'],
    ['javascript url', { url: 'javascript:alert(1)' }, '/url'],
    ['ftp url', { url: 'ftp://example.com/x' }, '/url'],
    ['metadata array', { metadata: [1] }, '/metadata'],
    ['metadata string', { metadata: 'x' }, '/metadata'],
    ['unknown field', { color: 'red' }, '/color'],
  ];
  for (const [what, body, field] of bad) {
    test(`400 for ${what}`, async () => {
      const issue = await insertIssue(t);
      const res = await attach(issue.id, body);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.details[0].field, field);
      const list = await t.get(`/api/issues/${issue.id}/attachments`, member.token);
      assert.equal(list.body.pageInfo.total, 0);
    });
  }

  test('404 for unknown issues (uuid or identifier)', async () => {
    for (const ref of [UNKNOWN_ID, 'ENG-99999', 'nonsense']) {
      assert.equal((await attach(ref, {})).status, 404);
      assert.equal((await t.get(`/api/issues/${ref}/attachments`, member.token)).status, 404);
    }
  });
});

describe('GET/PATCH/DELETE /api/attachments/:id', () => {
  test('reads, changes and deletes, with events', async () => {
    const issue = await insertIssue(t);
    const a = (await attach(issue.id, { metadata: { k: 1 } })).body.attachment;
    assert.equal((await t.get(`/api/attachments/${a.id}`, guest.token)).body.attachment.id, a.id);
    const res = await t.patch(
      `/api/attachments/${a.id}`,
      { title: 'New', subtitle: null, url: 'http://example.org/', metadata: { k: 2 } },
      member.token,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.attachment.title, 'New');
    assert.equal(res.body.attachment.url, 'http://example.org/');
    assert.deepEqual(res.body.attachment.metadata, { k: 2 });
    assert.equal((await t.patch(`/api/attachments/${a.id}`, {}, member.token)).status, 400);
    assert.equal(
      (await t.patch(`/api/attachments/${a.id}`, { url: 'mailto:x@y' }, member.token)).status,
      400,
    );
    const del = await t.del(`/api/attachments/${a.id}`, member.token);
    assert.deepEqual(del.body, { ok: true, id: a.id });
    assert.equal((await t.get(`/api/attachments/${a.id}`, member.token)).status, 404);
    const events = await t.ctx.db
      .selectFrom('webhook_events')
      .selectAll()
      .where('type', '=', 'attachment')
      .orderBy('id')
      .execute();
    const mine = events.filter((e) => (e.payload as any).data.id === a.id);
    assert.deepEqual(
      mine.map((e) => e.action),
      ['create', 'update', 'remove'],
    );
    assert.equal((mine[1]!.payload as any).updatedFrom.title, 'Spec');
  });

  test('404 for unknown ids', async () => {
    for (const id of [UNKNOWN_ID, 'nope']) {
      assert.equal((await t.get(`/api/attachments/${id}`, member.token)).status, 404);
      assert.equal((await t.patch(`/api/attachments/${id}`, { title: 'x' }, member.token)).status, 404);
      assert.equal((await t.del(`/api/attachments/${id}`, member.token)).status, 404);
    }
  });

  test('attachments go with their issue', async () => {
    const issue = await insertIssue(t);
    const a = (await attach(issue.id, {})).body.attachment;
    await t.ctx.db.deleteFrom('issues').where('id', '=', issue.id).execute();
    assert.equal((await t.get(`/api/attachments/${a.id}`, member.token)).status, 404);
  });
});

describe('roles and the attachments flag', () => {
  test('guests read; writes are 403 FORBIDDEN', async () => {
    const issue = await insertIssue(t);
    const a = (await attach(issue.id, {})).body.attachment;
    for (const res of [
      await attach(issue.id, { url: 'https://example.com/g' }, guest.token),
      await t.patch(`/api/attachments/${a.id}`, { title: 'x' }, guest.token),
      await t.del(`/api/attachments/${a.id}`, guest.token),
    ]) {
      assert.equal(res.status, 403);
      assert.equal(res.body.error.code, 'FORBIDDEN');
    }
  });

  test('flag off: 403 FEATURE_DISABLED everywhere; on again works', async () => {
    const issue = await insertIssue(t);
    const a = (await attach(issue.id, {})).body.attachment;
    await setFlag(t, 'attachments', false);
    try {
      for (const res of [
        await t.get(`/api/issues/${issue.id}/attachments`, member.token),
        await attach(issue.id, { url: 'https://example.com/f' }),
        await t.get(`/api/attachments/${a.id}`, member.token),
        await t.patch(`/api/attachments/${a.id}`, { title: 'x' }, member.token),
        await t.del(`/api/attachments/${a.id}`, member.token),
      ]) {
        assert.equal(res.status, 403);
        assert.equal(res.body.error.code, 'FEATURE_DISABLED');
      }
    } finally {
      await setFlag(t, 'attachments', true);
    }
    assert.equal((await t.get(`/api/attachments/${a.id}`, member.token)).status, 200);
    assert.equal((await attach(issue.id, { url: 'https://example.com/f' })).status, 201);
  });

  test('401 without a token', async () => {
    assert.equal((await t.get(`/api/attachments/${UNKNOWN_ID}`)).status, 401);
  });
});
