// Comment rules. The stable service API (REST and GraphQL both call these):
//
//   listCommentsJson(ctx, actor, issueIdOrIdentifier, { limit?, offset? }) -> the REST page as JSON text
//   commentJson(ctx, actor, id)                                        -> `{"comment":...}` as REST answers
//   createComment(ctx, actor, { issueId, body, parentId?, id? })       -> CommentRecord  event comment.create
//     (with a client-chosen `id` sent again by its creator: the comment it made, no event; client-ids/claim.ts)
//   updateComment(ctx, actor, id, { body })                            -> CommentRecord  event comment.update
//   deleteComment(ctx, actor, id)                                      -> CommentRecord  event comment.remove
//
// A deleted comment that has replies stays as a placeholder (deletedAt set,
// body "" and no author): listed and readable, but not editable, deletable or
// replied to.
//
// issueId takes the issue's uuid or identifier. REST's answers and each
// event's data are COMMENT_VIEW (present.ts), read from the read model.
// Guests may comment; editing and deleting is for the author or an admin.
import { type Actor, type AppContext, authorOf } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { invalidField, notFound } from '../../platform/errors.js';
import { DEFAULT_PAGE } from '../../platform/list/window.js';
import { recordEvent } from '../../platform/outbox.js';
import { eventData, readContextOf, viewAnswer, viewListAnswer } from '../../platform/read/rest.js';
import { checkClientId, claimClientId, clientIdTaken } from '../client-ids/claim.js';
import { resolveIssueId } from '../issues/queries.js';
import { teamAccess } from '../teams/access.js';
import { assertCanChangeComment } from './policy.js';
import { COMMENT_VIEW } from './present.js';
import * as q from './queries.js';

export type { CommentRecord } from './queries.js';

export interface CommentCreateInput {
  issueId: string;
  body: string;
  parentId?: string | null;
  /** The id the client chose for the comment (client-ids/claim.ts); null or absent: the server chooses. */
  id?: string | null;
}

export const MAX_BODY = 100_000;

function checkBody(body: unknown): string {
  if (typeof body !== 'string' || body.trim() === '' || body.length > MAX_BODY) {
    throw invalidField('body', `must be 1-${MAX_BODY} characters, not blank`);
  }
  return body;
}

/** listComments as REST answers it: the page's comments read as COMMENT_VIEW in one more statement. */
export async function listCommentsJson(
  ctx: AppContext,
  actor: Actor,
  issueIdOrIdentifier: string,
  page: { limit?: number; offset?: number } = {},
): Promise<string> {
  const access = await teamAccess(ctx.db, actor);
  const issueId = await resolveIssueId(ctx.db, issueIdOrIdentifier, access);
  if (!issueId) throw notFound('Issue');
  const { rows, total } = await q.listComments(ctx.db, issueId, access, page);
  const ids = rows.map((r) => r.id);
  return viewListAnswer(ctx.db, COMMENT_VIEW, 'comments', ids, readContextOf(ctx, actor, access), {
    pageInfo: { total, limit: page.limit ?? DEFAULT_PAGE, offset: page.offset ?? 0 },
  });
}

/** One comment as REST answers it (its GET, and a write's answer read back as the GET would). */
export async function commentJson(ctx: AppContext, actor: Actor, id: string): Promise<string> {
  const access = await teamAccess(ctx.db, actor);
  return viewAnswer(ctx.db, COMMENT_VIEW, 'comment', id, readContextOf(ctx, actor, access), 'Comment');
}

/** `within`: the caller's transaction (an importer writes an issue and its comments as one). */
export async function createComment(ctx: AppContext, actor: Actor, input: CommentCreateInput, within?: Db) {
  const body = checkBody(input.body);
  // The GraphQL input makes issueId optional (other products comment on more than issues).
  if (typeof input.issueId !== 'string')
    throw invalidField('issueId', 'is required: comments belong to an issue');
  const clientId = checkClientId(input.id);
  const access = await teamAccess(within ?? ctx.db, actor);
  const write = async (trx: Db) => {
    const issueId = await resolveIssueId(trx, input.issueId, access);
    if (!issueId) throw notFound('Issue');
    // Sent again by its author (its answer was lost): the comment as it is now, made once.
    if (clientId && (await claimClientId(trx, 'comment', clientId, actor)) === 'replay') {
      const made = await q.findComment(trx, clientId, access);
      if (!made || made.deleted_at) throw clientIdTaken();
      return made;
    }
    let parentId: string | null = null;
    if (input.parentId !== undefined && input.parentId !== null) {
      await q.lockComment(trx, input.parentId, 'share');
      const parent = await q.findComment(trx, input.parentId, access);
      if (!parent) throw invalidField('parentId', 'no comment with this id');
      if (parent.issue_id !== issueId) throw invalidField('parentId', 'the comment belongs to another issue');
      if (parent.deleted_at) throw invalidField('parentId', 'the comment was deleted');
      parentId = parent.id;
    }
    const id = await q.insertComment(trx, {
      ...(clientId ? { id: clientId } : {}),
      issue_id: issueId,
      user_id: authorOf(actor).id,
      parent_id: parentId,
      body,
    });
    const data = await eventData(ctx, trx, COMMENT_VIEW, id, actor);
    await recordEvent(ctx, trx, { type: 'comment', action: 'create', data, actor });
    return (await q.findComment(trx, id, access))!;
  };
  return within ? write(within) : ctx.db.transaction().execute(write);
}

export async function updateComment(ctx: AppContext, actor: Actor, id: string, input: { body: string }) {
  const body = checkBody(input.body);
  const access = await teamAccess(ctx.db, actor);
  return ctx.db.transaction().execute(async (trx) => {
    const before = await q.findComment(trx, id, access);
    if (!before || before.deleted_at) throw notFound('Comment');
    assertCanChangeComment(actor, before);
    if (before.body === body) return before;
    await q.updateCommentBody(trx, id, body);
    await recordEvent(ctx, trx, {
      type: 'comment',
      action: 'update',
      data: await eventData(ctx, trx, COMMENT_VIEW, id, actor),
      // As the view prints them (ISO with milliseconds, as toISOString does).
      updatedFrom: {
        body: before.body,
        editedAt: before.edited_at?.toISOString() ?? null,
        updatedAt: before.updated_at.toISOString(),
      },
      actor,
    });
    return (await q.findComment(trx, id, access))!;
  });
}

/**
 * Deletes a comment. One with replies (which may be other people's) stays as
 * a placeholder, its body and author cleared, so the replies keep their
 * thread; the placeholder goes when its last reply does. The parent is locked
 * first, so two replies deleted at once cannot both miss that they were last.
 */
export async function deleteComment(ctx: AppContext, actor: Actor, id: string) {
  const access = await teamAccess(ctx.db, actor);
  return ctx.db.transaction().execute(async (trx) => {
    const seen = await q.findComment(trx, id, access);
    if (seen?.parent_id) await q.lockComment(trx, seen.parent_id);
    await q.lockComment(trx, id);
    const comment = await q.findComment(trx, id, access);
    if (!comment || comment.deleted_at) throw notFound('Comment');
    assertCanChangeComment(actor, comment);
    const data = await eventData(ctx, trx, COMMENT_VIEW, id, actor);
    if (await q.hasReplies(trx, id)) {
      await q.softDeleteComment(trx, id);
    } else {
      await q.deleteComment(trx, id);
      await q.removeEmptyPlaceholders(trx, comment.parent_id);
    }
    await recordEvent(ctx, trx, { type: 'comment', action: 'remove', data, actor });
    return comment;
  });
}
