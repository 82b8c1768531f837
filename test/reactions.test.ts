// Reactions on issues and comments (issue 26): REST and GraphQL through the
// real @linear/sdk client, one reaction per person, emoji and target, who may
// remove one, their events, the private-team rule, and bad emoji refused with
// nothing changed (a property over hostile text).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LinearClient } from '@linear/sdk';
import fc from 'fast-check';
import { runGraphql } from '../src/graphql/execute.js';
import { graphqlSchema } from '../src/graphql/routes.js';
import { isReactionEmoji } from '../src/modules/reactions/emoji.js';
import { apiKeyFor, sdk } from './graphql-helpers.js';
import { hostileString } from './support/fuzz/values.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let base: string;
let member: { token: string; user: any };
let other: { token: string; user: any };
let guest: { token: string; user: any };
let outsider: { token: string; user: any };
let issue: any;
let comment: any;
let secretIssue: any;
let secretComment: any;
let client: LinearClient;
let memberKey: string;

const reactionEvents = async () =>
  (
    await t.ctx.db
      .selectFrom('webhook_events')
      .select(['action', 'payload'])
      .where('type', '=', 'reaction')
      .orderBy('id')
      .execute()
  ).map((r) => ({ action: r.action, data: (r.payload as any).data }));
const reactionCount = async () =>
  Number(
    (
      await t.ctx.db
        .selectFrom('reactions')
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

before(async () => {
  t = await startTestApp();
  base = await t.listen();
  member = await t.register('Mia Member');
  other = await t.register('Oskar Other');
  guest = await t.userWithRole('guest', { teams: ['ENG'] });
  await t.post('/api/teams', { key: 'SEC', name: 'Secret', private: true }, t.adminToken);
  outsider = await t.userWithRole('guest', { teams: ['SEC'] });
  issue = (await t.post('/api/issues', { title: 'React to me' }, member.token)).body.issue;
  comment = (await t.post(`/api/issues/${issue.id}/comments`, { body: 'Nice' }, member.token)).body.comment;
  secretIssue = (await t.post('/api/issues', { title: 'Hidden', teamId: 'SEC' }, t.adminToken)).body.issue;
  secretComment = (await t.post(`/api/issues/${secretIssue.id}/comments`, { body: 'psst' }, t.adminToken))
    .body.comment;
  memberKey = await apiKeyFor(t, member.token);
  client = sdk(base, memberKey);
});
after(() => t.close());

describe('REST', () => {
  test('react to a comment: counted once per person and emoji, listed with who, taken back', async () => {
    const first = await t.post(`/api/comments/${comment.id}/reactions`, { emoji: '👍' }, member.token);
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const r = first.body.reaction;
    assert.equal(r.emoji, '👍');
    assert.equal(r.commentId, comment.id);
    assert.equal(r.issueId, issue.id);
    assert.deepEqual(r.user, { id: member.user.id, name: 'Mia Member' });

    // The same emoji again: the same reaction, nothing new written or recorded.
    const before = (await reactionEvents()).length;
    const again = await t.post(`/api/comments/${comment.id}/reactions`, { emoji: '👍' }, member.token);
    assert.equal(again.status, 200);
    assert.equal(again.body.reaction.id, r.id);
    assert.equal((await reactionEvents()).length, before);

    await t.post(`/api/comments/${comment.id}/reactions`, { emoji: '👍' }, other.token);
    await t.post(`/api/comments/${comment.id}/reactions`, { emoji: '🎉' }, guest.token);

    const list = await t.get(`/api/comments/${comment.id}/reactions`, member.token);
    assert.deepEqual(
      list.body.reactions.map((x: any) => [x.emoji, x.userId]),
      [
        ['👍', member.user.id],
        ['👍', other.user.id],
        ['🎉', guest.user.id],
      ],
    );
    const shown = (await t.get(`/api/issues/${issue.id}/comments`, member.token)).body.comments.find(
      (c: any) => c.id === comment.id,
    );
    assert.deepEqual(shown.reactionData, [
      { emoji: '👍', count: 2, userIds: [member.user.id, other.user.id] },
      { emoji: '🎉', count: 1, userIds: [guest.user.id] },
    ]);

    const off = await t.del(`/api/comments/${comment.id}/reactions/${encodeURIComponent('🎉')}`, guest.token);
    assert.equal(off.status, 200);
    const none = await t.del(
      `/api/comments/${comment.id}/reactions/${encodeURIComponent('🎉')}`,
      guest.token,
    );
    assert.equal(none.status, 404);

    const events = await reactionEvents();
    assert.ok(
      events.some((e) => e.action === 'create' && e.data.id === r.id && e.data.commentId === comment.id),
    );
    assert.ok(
      events.some((e) => e.action === 'remove' && e.data.emoji === '🎉' && e.data.userId === guest.user.id),
    );
  });

  test("the issue's own reactions are not its comments'; by identifier too", async () => {
    const res = await t.post(`/api/issues/${issue.identifier}/reactions`, { emoji: 'rocket' }, other.token);
    assert.equal(res.status, 201);
    assert.equal(res.body.reaction.commentId, null);
    const list = (await t.get(`/api/issues/${issue.id}/reactions`, member.token)).body.reactions;
    assert.deepEqual(
      list.map((x: any) => x.emoji),
      ['rocket'],
    );
  });

  test('only the person who reacted or an admin removes a reaction', async () => {
    const r = (await t.post(`/api/issues/${issue.id}/reactions`, { emoji: '👀' }, member.token)).body
      .reaction;
    const refused = await t.del(`/api/reactions/${r.id}`, other.token);
    assert.equal(refused.status, 403);
    assert.equal((await t.get(`/api/reactions/${r.id}`, member.token)).status, 200);
    assert.equal((await t.del(`/api/reactions/${r.id}`, t.adminToken)).status, 200);
    assert.equal((await t.get(`/api/reactions/${r.id}`, member.token)).status, 404);
  });

  test('a guest who does not see the team neither sees nor reacts: 404, whatever the emoji', async () => {
    const r = (await t.post(`/api/comments/${secretComment.id}/reactions`, { emoji: '👍' }, t.adminToken))
      .body.reaction;
    const count = await reactionCount();
    for (const [url, body] of [
      [`/api/comments/${secretComment.id}/reactions`, { emoji: '👍' }],
      [`/api/comments/${secretComment.id}/reactions`, { emoji: 'not an emoji' }],
      [`/api/issues/${secretIssue.id}/reactions`, { emoji: '👍' }],
    ] as const) {
      assert.equal((await t.post(url, body, guest.token)).status, 404);
    }
    assert.equal((await t.get(`/api/comments/${secretComment.id}/reactions`, guest.token)).status, 404);
    assert.equal((await t.get(`/api/reactions/${r.id}`, guest.token)).status, 404);
    assert.equal((await t.del(`/api/reactions/${r.id}`, guest.token)).status, 404);
    assert.equal(await reactionCount(), count);
    // Its team's guest sees it.
    assert.equal((await t.get(`/api/reactions/${r.id}`, outsider.token)).status, 200);
  });

  test('property: text that is no emoji is a 400 naming emoji, and nothing changes', async () => {
    const count = await reactionCount();
    const events = (await reactionEvents()).length;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          hostileString,
          fc.string({ minLength: 1, maxLength: 80 }),
          fc.constantFrom(' ', '👍 ', 'A', 'a b', '<b>', '👍'.repeat(17)),
        ),
        async (emoji) => {
          fc.pre(!isReactionEmoji(emoji));
          const res = await t.post(`/api/comments/${comment.id}/reactions`, { emoji }, member.token);
          assert.equal(res.status, 400, `${JSON.stringify(emoji)} -> ${res.status}`);
          assert.ok(
            res.body.error.details.some((d: any) => /emoji/.test(d.field)),
            JSON.stringify(res.body),
          );
        },
      ),
      { numRuns: 40 },
    );
    assert.equal(await reactionCount(), count);
    assert.equal((await reactionEvents()).length, events);
  });

  test('property: any emoji or shortcode the rule accepts is stored as given', async () => {
    const target = (await t.post('/api/issues', { title: 'Emoji zoo' }, member.token)).body.issue;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom('👍', '❤️', '👍🏽', '👨‍👩‍👧', '🇫🇷', '1️⃣', '+1', 'tada', 'thumbs_up'),
          fc.stringMatching(/^[a-z0-9_+-]{1,32}$/),
        ),
        async (emoji) => {
          const res = await t.post(`/api/issues/${target.id}/reactions`, { emoji }, member.token);
          assert.ok(res.status === 201 || res.status === 200, `${emoji}: ${res.status}`);
          assert.equal(res.body.reaction.emoji, emoji);
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe('GraphQL (@linear/sdk)', () => {
  test('reactionCreate, Comment.reactions and reactionData, reactionDelete', async () => {
    const c = (await t.post(`/api/issues/${issue.id}/comments`, { body: 'GraphQL me' }, other.token)).body
      .comment;
    const payload = await client.createReaction({ commentId: c.id, emoji: '🚀' });
    assert.equal(payload.success, true);
    const reaction = (await payload.reaction)!;
    assert.equal(reaction.emoji, '🚀');
    assert.equal((await reaction.comment)!.id, c.id);
    assert.equal(await reaction.issue, undefined);
    assert.equal((await reaction.user)!.id, member.user.id);

    const read = await client.comment({ id: c.id });
    assert.deepEqual(
      read.reactions.map((r) => r.emoji),
      ['🚀'],
    );
    assert.deepEqual(read.reactionData, [{ emoji: '🚀', count: 1, userIds: [member.user.id] }]);

    const onIssue = await client.createReaction({ issueId: issue.identifier, emoji: '❤️' });
    const issueRead = await client.issue(issue.id);
    assert.ok(issueRead.reactions.some((r) => r.emoji === '❤️'));
    assert.equal((await (await onIssue.reaction)!.issue)!.id, issue.id);

    const removed = await client.deleteReaction(reaction.id);
    assert.equal(removed.success, true);
    assert.equal((await client.comment({ id: c.id })).reactions.length, 0);
  });

  test('the compiled read and the resolver fallback answer the same, for a member and a guest', async () => {
    const query = `query($id: String!) { issue(id: $id) {
      id reactionData reactions { id emoji user { id name } issue { id } comment { id } }
      comments { nodes { id reactionData reactions { id emoji user { name } issue { id } comment { id } } } } } }`;
    for (const who of [member, guest]) {
      const row = await t.ctx.db
        .selectFrom('users')
        .select(['id', 'role', 'name', 'email'])
        .where('id', '=', who.user.id)
        .executeTakeFirstOrThrow();
      const actor = { ...row, role: row.role as 'member', via: 'apiKey' as const };
      const answer = async (compiled: boolean) => {
        const app = { ...t.ctx, config: { ...t.ctx.config, graphqlCompiledReads: compiled } };
        const res = await runGraphql(
          graphqlSchema(),
          app,
          { ...actor },
          { query, variables: { id: issue.id } },
        );
        return JSON.parse(res.json ?? JSON.stringify(res.body));
      };
      const compiled = await answer(true);
      const resolved = await answer(false);
      assert.equal(resolved.errors, undefined, JSON.stringify(resolved.errors));
      assert.deepEqual(resolved, compiled);
      assert.ok(
        compiled.data.issue.comments.nodes.some((c: any) => c.reactions.length > 0),
        'some reactions',
      );
    }
  });

  test('property: reactionCreate with text that is no emoji is a user error naming emoji, nothing changed', async () => {
    const count = await reactionCount();
    await fc.assert(
      fc.asyncProperty(fc.oneof(hostileString, fc.string({ minLength: 1, maxLength: 40 })), async (emoji) => {
        fc.pre(!isReactionEmoji(emoji));
        await assert.rejects(client.createReaction({ issueId: issue.id, emoji }), /emoji/);
      }),
      { numRuns: 25 },
    );
    assert.equal(await reactionCount(), count);
  });

  test('bad input is a user error with nothing changed; a hidden target is not found', async () => {
    const count = await reactionCount();
    const guestClient = sdk(base, await apiKeyFor(t, guest.token));
    await assert.rejects(client.createReaction({ commentId: comment.id, emoji: 'no way' }), /emoji/);
    await assert.rejects(client.createReaction({ emoji: '👍' }), /issueId/);
    await assert.rejects(
      client.createReaction({ emoji: '👍', projectUpdateId: issue.id }),
      /projectUpdateId/,
    );
    await assert.rejects(
      guestClient.createReaction({ commentId: secretComment.id, emoji: '👍' }),
      /not found/i,
    );
    assert.equal(await reactionCount(), count);
  });
});
