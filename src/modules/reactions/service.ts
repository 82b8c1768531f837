// Reaction rules. Whoever sees an issue (guests too, as they comment) may
// react to it or to one of its comments; one reaction per person, emoji and
// target; a reaction is removed by whoever gave it or by an admin.
//
//   createReaction(ctx, actor, { emoji, issueId? | commentId? }) -> { row, created }  event reaction.create
//   deleteReaction(ctx, actor, id)                               -> ReactionRow       event reaction.remove
//   deleteOwnReaction(ctx, actor, target, emoji)                 -> ReactionRow       event reaction.remove
//   listReactionsJson(ctx, actor, target)                        -> the REST list as JSON text
//
// Giving the same emoji twice is no error: the reaction already given is the
// answer (created: false) and nothing is recorded, so a double click or a
// retried request leaves one reaction. REST's answers and each event's data
// are REACTION_VIEW (present.ts).
import type { TeamAccess } from '../../platform/access.js';
import type { Actor, AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { badRequest, invalidField, notFound } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';
import { recordEvent } from '../../platform/outbox.js';
import { eventData, readContextOf, viewAnswer, viewListAnswer } from '../../platform/read/rest.js';
import { findComment } from '../comments/queries.js';
import { resolveIssueId } from '../issues/queries.js';
import { teamAccess } from '../teams/access.js';
import { isReactionEmoji, MAX_EMOJI_CODE_POINTS } from './emoji.js';
import { assertCanRemoveReaction } from './policy.js';
import { REACTION_VIEW } from './present.js';
import * as q from './queries.js';

export type { ReactionRow } from './queries.js';

/** What is reacted to, as the caller names it: an issue (id or identifier) or a comment, by id. */
export type ReactionTargetRef = { issueId: string } | { commentId: string };

export interface ReactionCreateInput {
  emoji: unknown;
  id?: string | null | undefined;
  issueId?: string | null | undefined;
  commentId?: string | null | undefined;
  /** Targets of the schema this service does not hold (project updates, posts...): refused. */
  other?: string[];
}

/** The target's issue and comment, as stored; 404 when the caller may not see it. */
async function resolveTarget(
  db: Db,
  ref: ReactionTargetRef,
  access: TeamAccess,
): Promise<{ issueId: string; commentId: string | null }> {
  if ('commentId' in ref) {
    const comment = await findComment(db, ref.commentId, access);
    if (!comment) throw notFound('Comment');
    if (comment.deleted_at) throw invalidField('commentId', 'the comment was deleted');
    return { issueId: comment.issue_id, commentId: comment.id };
  }
  const issueId = await resolveIssueId(db, ref.issueId, access);
  if (!issueId) throw notFound('Issue');
  return { issueId, commentId: null };
}

function checkEmoji(emoji: unknown): string {
  if (!isReactionEmoji(emoji))
    throw invalidField(
      'emoji',
      `must be one emoji (at most ${MAX_EMOJI_CODE_POINTS} code points) or a shortcode of a-z, 0-9, _, + and -`,
    );
  return emoji;
}

/** Exactly one target: an issue or a comment. */
function targetOf(input: ReactionCreateInput): ReactionTargetRef {
  if (input.other?.length)
    throw invalidField(input.other[0]!, 'reactions here are on issues and comments only');
  const { issueId, commentId } = input;
  if (issueId != null && commentId != null) throw badRequest('Give issueId or commentId, not both');
  if (typeof commentId === 'string') return { commentId };
  if (typeof issueId === 'string') return { issueId };
  throw invalidField('issueId', 'give the issue or the comment reacted to (issueId or commentId)');
}

export async function createReaction(ctx: AppContext, actor: Actor, input: ReactionCreateInput) {
  const ref = targetOf(input);
  if (input.id != null && !isUuid(input.id)) throw invalidField('id', 'must be a uuid');
  const access = await teamAccess(ctx.db, actor);
  return ctx.db.transaction().execute(async (trx) => {
    // Who may see the target first: an unseen one is a 404 whatever the emoji.
    const target = await resolveTarget(trx, ref, access);
    const emoji = checkEmoji(input.emoji);
    const id = await q.insertReaction(trx, {
      ...(input.id != null ? { id: input.id } : {}),
      user_id: actor.id,
      issue_id: target.issueId,
      comment_id: target.commentId,
      emoji,
    });
    if (!id) return { row: (await q.findOwnReaction(trx, target, actor.id, emoji))!, created: false };
    const data = await eventData(ctx, trx, REACTION_VIEW, id, actor);
    await recordEvent(ctx, trx, { type: 'reaction', action: 'create', data, actor });
    return { row: (await q.findReaction(trx, id, access))!, created: true };
  });
}

async function remove(ctx: AppContext, trx: Db, actor: Actor, row: q.ReactionRow) {
  assertCanRemoveReaction(actor, row);
  const data = await eventData(ctx, trx, REACTION_VIEW, row.id, actor);
  await q.deleteReaction(trx, row.id);
  await recordEvent(ctx, trx, { type: 'reaction', action: 'remove', data, actor });
  return row;
}

export async function deleteReaction(ctx: AppContext, actor: Actor, id: string) {
  const access = await teamAccess(ctx.db, actor);
  return ctx.db.transaction().execute(async (trx) => {
    const row = await q.findReaction(trx, id, access);
    if (!row) throw notFound('Reaction');
    return remove(ctx, trx, actor, row);
  });
}

/** Takes back the caller's own reaction with this emoji (the UI's toggle); 404 when they gave none. */
export async function deleteOwnReaction(
  ctx: AppContext,
  actor: Actor,
  ref: ReactionTargetRef,
  emoji: string,
) {
  const access = await teamAccess(ctx.db, actor);
  return ctx.db.transaction().execute(async (trx) => {
    const target = await resolveTarget(trx, ref, access);
    const row = await q.findOwnReaction(trx, target, actor.id, emoji);
    if (!row) throw notFound('Reaction');
    return remove(ctx, trx, actor, row);
  });
}

/** A target's reactions as REST lists them, first given first (a target holds few: no pages). */
export async function listReactionsJson(ctx: AppContext, actor: Actor, ref: ReactionTargetRef) {
  const access = await teamAccess(ctx.db, actor);
  const target = await resolveTarget(ctx.db, ref, access);
  const rows = target.commentId
    ? await q.reactionsOf(ctx.db, 'comment', [target.commentId])
    : await q.reactionsOf(ctx.db, 'issue', [target.issueId]);
  const ids = rows.map((r) => r.id);
  return viewListAnswer(ctx.db, REACTION_VIEW, 'reactions', ids, readContextOf(ctx, actor, access));
}

/** One reaction as REST answers it. */
export async function reactionJson(ctx: AppContext, actor: Actor, id: string): Promise<string> {
  const access = await teamAccess(ctx.db, actor);
  return viewAnswer(ctx.db, REACTION_VIEW, 'reaction', id, readContextOf(ctx, actor, access), 'Reaction');
}
