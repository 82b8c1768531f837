// Deleting a comment keeps the replies to it, which may be other people's: the
// comment stays as an empty placeholder (deletedAt, body "", no author) until
// its last reply goes. REST and GraphQL, same rules.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { gql } from './graphql-helpers.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let base: string;
let member: { token: string; user: any };
let guest: { token: string; user: any };
before(async () => {
  t = await startTestApp();
  base = await t.listen();
  member = await t.userWithRole('member');
  guest = await t.userWithRole('guest', { teams: ['ENG'] });
});
after(() => t.close());

const newIssue = async () => (await t.post('/api/issues', { title: 'Thread' }, member.token)).body.issue;
async function comment(issueId: string, token: string, body: string, parentId?: string) {
  const res = await t.post(
    `/api/issues/${issueId}/comments`,
    { body, ...(parentId ? { parentId } : {}) },
    token,
  );
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.comment;
}
const listed = async (issueId: string) => (await t.get(`/api/issues/${issueId}/comments`, member.token)).body;
const removeEvents = async (id: string) =>
  (
    await t.ctx.db
      .selectFrom('webhook_events')
      .selectAll()
      .where('type', '=', 'comment')
      .where('action', '=', 'remove')
      .execute()
  )
    .map((r) => r.payload as any)
    .filter((p) => p.data.id === id);

describe('REST: deleting a comment that has replies', () => {
  test('a guest deletes their own parent: the member’s reply stays, the parent shows as deleted', async () => {
    const issue = await newIssue();
    const parent = await comment(issue.id, guest.token, 'Guest question');
    const reply = await comment(issue.id, member.token, 'Member answer', parent.id);

    assert.equal((await t.del(`/api/comments/${parent.id}`, guest.token)).status, 200);

    const kept = await t.get(`/api/comments/${reply.id}`, guest.token);
    assert.equal(kept.status, 200);
    assert.equal(kept.body.comment.body, 'Member answer');
    assert.equal(kept.body.comment.parentId, parent.id);
    assert.equal(kept.body.comment.userId, member.user.id);

    const gone = (await t.get(`/api/comments/${parent.id}`, member.token)).body.comment;
    assert.ok(gone.deletedAt);
    assert.equal(gone.body, '');
    assert.equal(gone.userId, null);
    assert.equal(gone.user, null);

    const list = await listed(issue.id);
    assert.equal(list.pageInfo.total, 2);
    assert.deepEqual(
      list.comments.map((c: any) => [c.id, c.body, c.deletedAt !== null]),
      [
        [parent.id, '', true],
        [reply.id, 'Member answer', false],
      ],
    );
    // One remove event, with the comment as it was.
    const events = await removeEvents(parent.id);
    assert.equal(events.length, 1);
    assert.equal(events[0].data.body, 'Guest question');
  });

  test('the placeholder cannot be edited, deleted again or replied to', async () => {
    const issue = await newIssue();
    const parent = await comment(issue.id, guest.token, 'Soon gone');
    await comment(issue.id, member.token, 'Reply', parent.id);
    assert.equal((await t.del(`/api/comments/${parent.id}`, guest.token)).status, 200);
    for (const token of [guest.token, t.adminToken]) {
      assert.equal((await t.patch(`/api/comments/${parent.id}`, { body: 'back' }, token)).status, 404);
      assert.equal((await t.del(`/api/comments/${parent.id}`, token)).status, 404);
    }
    const reply = await t.post(
      `/api/issues/${issue.id}/comments`,
      { body: 'x', parentId: parent.id },
      member.token,
    );
    assert.equal(reply.status, 400);
    assert.equal(reply.body.error.details[0].field, '/parentId');
    assert.equal((await t.get(`/api/comments/${parent.id}`, member.token)).body.comment.body, '');
    assert.equal((await removeEvents(parent.id)).length, 1);
  });

  test('a comment without replies is removed as before', async () => {
    const issue = await newIssue();
    const c = await comment(issue.id, guest.token, 'Alone');
    assert.equal((await t.del(`/api/comments/${c.id}`, guest.token)).status, 200);
    assert.equal((await t.get(`/api/comments/${c.id}`, member.token)).status, 404);
    assert.equal((await listed(issue.id)).pageInfo.total, 0);
  });

  test('the placeholder goes with its last reply, up a thread of placeholders', async () => {
    const issue = await newIssue();
    const top = await comment(issue.id, guest.token, 'Top');
    const middle = await comment(issue.id, member.token, 'Middle', top.id);
    const sibling = await comment(issue.id, t.adminToken, 'Sibling', top.id);
    const bottom = await comment(issue.id, guest.token, 'Bottom', middle.id);
    assert.equal((await t.del(`/api/comments/${top.id}`, guest.token)).status, 200);
    assert.equal((await t.del(`/api/comments/${middle.id}`, member.token)).status, 200);
    assert.equal((await listed(issue.id)).pageInfo.total, 4);
    assert.equal((await t.del(`/api/comments/${bottom.id}`, guest.token)).status, 200);
    // middle went with bottom; top still holds sibling.
    assert.deepEqual(
      (await listed(issue.id)).comments.map((c: any) => c.id),
      [top.id, sibling.id],
    );
    assert.equal((await t.del(`/api/comments/${sibling.id}`, t.adminToken)).status, 200);
    assert.equal((await listed(issue.id)).pageInfo.total, 0);
    assert.equal((await removeEvents(middle.id)).length, 1);
  });

  test('two last replies deleted at the same moment still take the placeholder with them', async () => {
    const issue = await newIssue();
    const parent = await comment(issue.id, guest.token, 'Parent');
    const a = await comment(issue.id, member.token, 'A', parent.id);
    const b = await comment(issue.id, t.adminToken, 'B', parent.id);
    assert.equal((await t.del(`/api/comments/${parent.id}`, guest.token)).status, 200);
    const [ra, rb] = await Promise.all([
      t.del(`/api/comments/${a.id}`, member.token),
      t.del(`/api/comments/${b.id}`, t.adminToken),
    ]);
    assert.deepEqual([ra.status, rb.status], [200, 200]);
    assert.equal((await listed(issue.id)).pageInfo.total, 0);
  });

  test('a reply racing its parent’s deletion: either the reply lands and the parent stays, or it is refused', async () => {
    const issue = await newIssue();
    for (let round = 0; round < 8; round++) {
      const parent = await comment(issue.id, guest.token, `Parent ${round}`);
      const [del, reply] = await Promise.all([
        t.del(`/api/comments/${parent.id}`, guest.token),
        t.post(
          `/api/issues/${issue.id}/comments`,
          { body: 'Quick reply', parentId: parent.id },
          member.token,
        ),
      ]);
      assert.equal(del.status, 200, JSON.stringify(del.body));
      const after = await t.get(`/api/comments/${parent.id}`, member.token);
      if (reply.status === 201) {
        assert.ok(after.body.comment.deletedAt, 'the parent stays as a placeholder');
        assert.equal((await t.get(`/api/comments/${reply.body.comment.id}`, member.token)).status, 200);
      } else {
        assert.equal(reply.status, 400, JSON.stringify(reply.body));
        assert.equal(reply.body.error.details[0].field, '/parentId');
        assert.equal(after.status, 404);
      }
    }
  });

  test('deleting the issue still removes every comment, placeholders included', async () => {
    const issue = await newIssue();
    const parent = await comment(issue.id, guest.token, 'P');
    await comment(issue.id, member.token, 'R', parent.id);
    await t.del(`/api/comments/${parent.id}`, guest.token);
    assert.equal((await t.del(`/api/issues/${issue.id}`, t.adminToken)).status, 200);
    const rows = await t.ctx.db
      .selectFrom('comments')
      .select('id')
      .where('issue_id', '=', issue.id)
      .execute();
    assert.equal(rows.length, 0);
  });
});

describe('GraphQL: commentDelete on a comment that has replies', () => {
  test('the reply stays; the parent is archived at its deletion, with body "" and no user', async () => {
    const issue = await newIssue();
    const call = (token: string, query: string, variables = {}) =>
      gql(base, `Bearer ${token}`, query, variables);
    const create = `mutation($input: CommentCreateInput!) { commentCreate(input: $input) { comment { id } } }`;
    const parent = (await call(guest.token, create, { input: { issueId: issue.id, body: 'Guest question' } }))
      .body.data.commentCreate.comment;
    const reply = (
      await call(member.token, create, {
        input: { issueId: issue.id, body: 'Member answer', parentId: parent.id },
      })
    ).body.data.commentCreate.comment;

    const del = await call(guest.token, 'mutation($id: String!) { commentDelete(id: $id) { success } }', {
      id: parent.id,
    });
    assert.equal(del.body.data?.commentDelete?.success, true, JSON.stringify(del.body));

    const read = await call(
      member.token,
      `query($id: String!, $issue: String!) {
        comment(id: $id) { body user { id } parent { id body archivedAt user { id } } }
        issue(id: $issue) { comments { nodes { id body archivedAt } } }
      }`,
      { id: reply.id, issue: issue.id },
    );
    assert.equal(read.body.errors, undefined, JSON.stringify(read.body.errors));
    const { comment: c, issue: i } = read.body.data;
    assert.equal(c.body, 'Member answer');
    assert.equal(c.user.id, member.user.id);
    assert.equal(c.parent.id, parent.id);
    assert.equal(c.parent.body, '');
    assert.equal(c.parent.user, null);
    assert.ok(c.parent.archivedAt);
    const archived = new Map(i.comments.nodes.map((n: any) => [n.id, n.archivedAt !== null]));
    assert.deepEqual(
      archived,
      new Map([
        [parent.id, true],
        [reply.id, false],
      ]),
    );
    const again = await call(t.adminToken, 'mutation($id: String!) { commentDelete(id: $id) { success } }', {
      id: parent.id,
    });
    assert.equal(again.body.errors?.[0]?.extensions?.type, 'invalid input', JSON.stringify(again.body));
  });
});
