import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let author: { token: string; user: any };
let other: { token: string; user: any };
let guest: { token: string; user: any };
let issue: any;
const NO_ID = '00000000-0000-0000-0000-000000000000';

const events = async (action: string) =>
  (
    await t.ctx.db
      .selectFrom('webhook_events')
      .selectAll()
      .where('type', '=', 'comment')
      .where('action', '=', action)
      .orderBy('id')
      .execute()
  ).map((r) => r.payload as any);

before(async () => {
  t = await startTestApp();
  author = await t.register('Alan Author');
  other = await t.register('Olga Other');
  guest = await t.userWithRole('guest', { teams: ['ENG'] });
  issue = (await t.post('/api/issues', { title: 'Discuss me' }, author.token)).body.issue;
});
after(() => t.close());

describe('POST /api/issues/:id/comments', () => {
  test('creates a comment with its author; by id or identifier', async () => {
    const res = await t.post(`/api/issues/${issue.id}/comments`, { body: 'First!' }, author.token);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const c = res.body.comment;
    assert.equal(c.issueId, issue.id);
    assert.equal(c.userId, author.user.id);
    assert.deepEqual(c.user, { id: author.user.id, name: 'Alan Author', app: false });
    assert.equal(c.body, 'First!');
    assert.equal(c.parentId, null);
    assert.equal(c.editedAt, null);
    assert.ok(c.createdAt && c.updatedAt);
    const byIdent = await t.post(
      `/api/issues/${issue.identifier.toLowerCase()}/comments`,
      { body: 'Second' },
      other.token,
    );
    assert.equal(byIdent.status, 201);
    const ev = (await events('create')).find((e) => e.data.id === c.id);
    assert.equal(ev.data.body, 'First!');
    assert.equal(ev.data.issueId, issue.id);
  });

  test('guests may comment', async () => {
    const res = await t.post(`/api/issues/${issue.id}/comments`, { body: 'Guest here' }, guest.token);
    assert.equal(res.status, 201);
  });

  test('replies: parentId must be a comment of the same issue', async () => {
    const parent = (await t.post(`/api/issues/${issue.id}/comments`, { body: 'Parent' }, author.token)).body
      .comment;
    const reply = await t.post(
      `/api/issues/${issue.id}/comments`,
      { body: 'Reply', parentId: parent.id },
      other.token,
    );
    assert.equal(reply.status, 201);
    assert.equal(reply.body.comment.parentId, parent.id);
    const elsewhere = (await t.post('/api/issues', { title: 'Elsewhere' }, author.token)).body.issue;
    const cross = await t.post(
      `/api/issues/${elsewhere.id}/comments`,
      { body: 'Cross', parentId: parent.id },
      other.token,
    );
    assert.equal(cross.status, 400);
    assert.equal(cross.body.error.details[0].field, '/parentId');
    const unknown = await t.post(
      `/api/issues/${issue.id}/comments`,
      { body: 'x', parentId: NO_ID },
      other.token,
    );
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.details[0].field, '/parentId');
  });

  const bad: [string, unknown][] = [
    ['missing body', {}],
    ['empty body', { body: '' }],
    ['blank body', { body: '  \n ' }],
    ['numeric body', { body: 5 }],
    ['too long', { body: 'x'.repeat(100_001) }],
    ['malformed parentId', { body: 'x', parentId: 'nope' }],
    ['unknown field', { body: 'x', issueId: 'y' }],
  ];
  for (const [what, body] of bad) {
    test(`400 for ${what}`, async () => {
      const res = await t.post(`/api/issues/${issue.id}/comments`, body, author.token);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'VALIDATION_FAILED');
    });
  }

  test('a body of exactly 100000 characters is accepted', async () => {
    const res = await t.post(`/api/issues/${issue.id}/comments`, { body: 'y'.repeat(100_000) }, author.token);
    assert.equal(res.status, 201);
    await t.del(`/api/comments/${res.body.comment.id}`, author.token);
  });

  test('404 for an unknown issue', async () => {
    assert.equal((await t.post(`/api/issues/${NO_ID}/comments`, { body: 'x' }, author.token)).status, 404);
    assert.equal((await t.post('/api/issues/ENG-99999/comments', { body: 'x' }, author.token)).status, 404);
  });
});

describe('GET /api/issues/:id/comments', () => {
  test('oldest first, paginated', async () => {
    const fresh = (await t.post('/api/issues', { title: 'Thread' }, author.token)).body.issue;
    for (const n of [1, 2, 3, 4, 5]) {
      await t.post(`/api/issues/${fresh.id}/comments`, { body: `c${n}` }, author.token);
    }
    const all = await t.get(`/api/issues/${fresh.identifier}/comments`, guest.token);
    assert.equal(all.status, 200);
    assert.deepEqual(
      all.body.comments.map((c: any) => c.body),
      ['c1', 'c2', 'c3', 'c4', 'c5'],
    );
    assert.deepEqual(all.body.pageInfo, { total: 5, limit: 50, offset: 0 });
    const page = await t.get(`/api/issues/${fresh.id}/comments?limit=2&offset=2`, author.token);
    assert.deepEqual(
      page.body.comments.map((c: any) => c.body),
      ['c3', 'c4'],
    );
    assert.deepEqual(page.body.pageInfo, { total: 5, limit: 2, offset: 2 });
  });

  test('400 for bad paging, 404 for an unknown issue', async () => {
    assert.equal((await t.get(`/api/issues/${issue.id}/comments?limit=0`, author.token)).status, 400);
    assert.equal((await t.get(`/api/issues/${issue.id}/comments?limit=251`, author.token)).status, 400);
    assert.equal((await t.get(`/api/issues/${issue.id}/comments?offset=-2`, author.token)).status, 400);
    assert.equal((await t.get(`/api/issues/${NO_ID}/comments`, author.token)).status, 404);
  });

  test('a deleted author still shows their name', async () => {
    const gone = await t.register('Gone Person');
    const c = await t.post(`/api/issues/${issue.id}/comments`, { body: 'soon orphaned' }, gone.token);
    assert.equal((await t.del(`/api/admin/users/${gone.user.id}`, t.adminToken)).status, 200);
    const got = await t.get(`/api/comments/${c.body.comment.id}`, author.token);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body.comment.user, { id: gone.user.id, name: 'Gone Person', app: false });
  });
});

describe('PATCH and DELETE /api/comments/:id', () => {
  test('the author edits: editedAt set, event with updatedFrom', async () => {
    const c = (await t.post(`/api/issues/${issue.id}/comments`, { body: 'tpyo' }, author.token)).body.comment;
    const res = await t.patch(`/api/comments/${c.id}`, { body: 'typo' }, author.token);
    assert.equal(res.status, 200);
    assert.equal(res.body.comment.body, 'typo');
    assert.ok(res.body.comment.editedAt);
    const ev = (await events('update')).find((e) => e.data.id === c.id);
    assert.equal(ev.data.body, 'typo');
    assert.equal(ev.updatedFrom.body, 'tpyo');
  });

  test('others get 403; admins may edit and delete', async () => {
    const c = (await t.post(`/api/issues/${issue.id}/comments`, { body: 'mine' }, author.token)).body.comment;
    const denied = await t.patch(`/api/comments/${c.id}`, { body: 'theirs' }, other.token);
    assert.equal(denied.status, 403);
    assert.equal(denied.body.error.code, 'FORBIDDEN');
    assert.equal((await t.del(`/api/comments/${c.id}`, other.token)).status, 403);
    assert.equal((await t.del(`/api/comments/${c.id}`, guest.token)).status, 403);
    assert.equal((await t.patch(`/api/comments/${c.id}`, { body: 'moderated' }, t.adminToken)).status, 200);
    assert.equal((await t.get(`/api/comments/${c.id}`, other.token)).body.comment.body, 'moderated');
    assert.equal((await t.del(`/api/comments/${c.id}`, t.adminToken)).status, 200);
    assert.equal((await t.get(`/api/comments/${c.id}`, other.token)).status, 404);
  });

  test('guests edit and delete their own comments', async () => {
    const c = (await t.post(`/api/issues/${issue.id}/comments`, { body: 'g1' }, guest.token)).body.comment;
    assert.equal((await t.patch(`/api/comments/${c.id}`, { body: 'g2' }, guest.token)).status, 200);
    assert.equal((await t.del(`/api/comments/${c.id}`, guest.token)).status, 200);
    const ev = (await events('remove')).find((e) => e.data.id === c.id);
    assert.equal(ev.data.body, 'g2');
  });

  test('404 unknown, 400 bad body', async () => {
    assert.equal((await t.patch(`/api/comments/${NO_ID}`, { body: 'x' }, author.token)).status, 404);
    assert.equal((await t.patch('/api/comments/not-a-uuid', { body: 'x' }, author.token)).status, 404);
    assert.equal((await t.del(`/api/comments/${NO_ID}`, author.token)).status, 404);
    const c = (await t.post(`/api/issues/${issue.id}/comments`, { body: 'ok' }, author.token)).body.comment;
    assert.equal((await t.patch(`/api/comments/${c.id}`, { body: '' }, author.token)).status, 400);
    assert.equal((await t.patch(`/api/comments/${c.id}`, {}, author.token)).status, 400);
    assert.equal((await t.patch(`/api/comments/${c.id}`, { body: ['x'] }, author.token)).status, 400);
  });
});
