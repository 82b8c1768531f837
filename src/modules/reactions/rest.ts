// REST: reactions on an issue (id or identifier) and on a comment, and single
// reactions. Guests react as they comment; the person who reacted (or an
// admin) removes a reaction.
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { sendJsonText } from '../../platform/http/json-text.js';
import { errors, IdParams, Ok } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { ReactionSchema } from './present.js';
import {
  createReaction,
  deleteOwnReaction,
  deleteReaction,
  listReactionsJson,
  type ReactionTargetRef,
  reactionJson,
} from './service.js';

const Emoji = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'A Unicode emoji (👍) or a shortcode name (+1, tada)',
});
const ReactionEnvelope = Type.Object({ reaction: ReactionSchema });
const ReactionList = Type.Object({ reactions: Type.Array(ReactionSchema) });
const CreateBody = Type.Object({ emoji: Emoji }, { additionalProperties: false });
const OwnParams = Type.Object({ id: IdParams.properties.id, emoji: Emoji });

/** The routes of one kind of target: /api/issues/:id/reactions or /api/comments/:id/reactions. */
function targetRoutes(app: Http, ctx: AppContext, kind: 'issues' | 'comments') {
  const ref = (id: string): ReactionTargetRef => (kind === 'issues' ? { issueId: id } : { commentId: id });
  const what = kind === 'issues' ? 'an issue (id or identifier)' : 'a comment';
  const tags = ['reactions'];

  app.get(
    `/api/${kind}/:id/reactions`,
    {
      schema: {
        tags,
        summary: `Reactions to ${what}, first given first`,
        params: IdParams,
        response: { 200: ReactionList, ...errors(401, 404) },
      },
    },
    async (req, reply) => sendJsonText(reply, await listReactionsJson(ctx, actorOf(req), ref(req.params.id))),
  );

  app.post(
    `/api/${kind}/:id/reactions`,
    {
      schema: {
        tags,
        summary: `React to ${what}; giving an emoji you already gave answers that reaction (200)`,
        params: IdParams,
        body: CreateBody,
        response: { 200: ReactionEnvelope, 201: ReactionEnvelope, ...errors(400, 401, 404) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const target = kind === 'issues' ? { issueId: req.params.id } : { commentId: req.params.id };
      const { row, created } = await createReaction(ctx, actor, { ...target, emoji: req.body.emoji });
      return sendJsonText(reply.status(created ? 201 : 200), await reactionJson(ctx, actor, row.id));
    },
  );

  app.delete(
    `/api/${kind}/:id/reactions/:emoji`,
    {
      schema: {
        tags,
        summary: `Take back your own reaction with this emoji to ${what}`,
        params: OwnParams,
        response: { 200: Ok, ...errors(401, 404) },
      },
    },
    async (req) => {
      await deleteOwnReaction(ctx, actorOf(req), ref(req.params.id), req.params.emoji);
      return { ok: true as const };
    },
  );
}

export function reactionsRoutes(app: Http, ctx: AppContext): void {
  targetRoutes(app, ctx, 'issues');
  targetRoutes(app, ctx, 'comments');

  app.get(
    '/api/reactions/:id',
    {
      schema: {
        tags: ['reactions'],
        summary: 'One reaction',
        params: IdParams,
        response: { 200: ReactionEnvelope, ...errors(401, 404) },
      },
    },
    async (req, reply) => sendJsonText(reply, await reactionJson(ctx, actorOf(req), req.params.id)),
  );

  app.delete(
    '/api/reactions/:id',
    {
      schema: {
        tags: ['reactions'],
        summary: 'Remove a reaction (the person who reacted, or an admin)',
        params: IdParams,
        response: { 200: Ok, ...errors(401, 403, 404) },
      },
    },
    async (req) => {
      await deleteReaction(ctx, actorOf(req), req.params.id);
      return { ok: true as const };
    },
  );
}
