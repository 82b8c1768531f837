// REST: comments on issues. Guests may comment; authors and admins edit.
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { sendJsonText } from '../../platform/http/json-text.js';
import { PageInfo, pageQuery } from '../../platform/http/pagination.js';
import { errors, IdParams, Ok } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { CommentSchema } from './present.js';
import {
  commentJson,
  createComment,
  deleteComment,
  listCommentsJson,
  MAX_BODY,
  updateComment,
} from './service.js';

const CommentEnvelope = Type.Object({ comment: CommentSchema });
const Body = Type.String({ minLength: 1, maxLength: MAX_BODY, pattern: '\\S', description: 'Markdown' });

export function commentsRoutes(app: Http, ctx: AppContext): void {
  app.get(
    '/api/issues/:id/comments',
    {
      schema: {
        tags: ['comments'],
        summary: "An issue's comments, oldest first",
        params: IdParams,
        querystring: Type.Object(pageQuery(50), { additionalProperties: false }),
        response: {
          200: Type.Object({ comments: Type.Array(CommentSchema), pageInfo: PageInfo }),
          ...errors(400, 401, 404),
        },
      },
    },
    async (req, reply) =>
      sendJsonText(reply, await listCommentsJson(ctx, actorOf(req), req.params.id, req.query)),
  );

  app.post(
    '/api/issues/:id/comments',
    {
      schema: {
        tags: ['comments'],
        summary:
          'Comment on an issue (guests too); parentId makes it a reply, a chosen id makes it safe to send again',
        params: IdParams,
        body: Type.Object(
          {
            body: Body,
            parentId: Type.Optional(Type.Union([Type.String({ format: 'uuid' }), Type.Null()])),
            id: Type.Optional(
              Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
                description:
                  "The new comment's id (a UUID, chosen by the client); the same create sent again by its author answers the comment it made. Absent or null: the server chooses",
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 201: CommentEnvelope, ...errors(400, 401, 404, 409) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const comment = await createComment(ctx, actor, { issueId: req.params.id, ...req.body });
      return sendJsonText(reply.status(201), await commentJson(ctx, actor, comment.id));
    },
  );

  app.get(
    '/api/comments/:id',
    {
      schema: {
        tags: ['comments'],
        summary: 'One comment',
        params: IdParams,
        response: { 200: CommentEnvelope, ...errors(401, 404) },
      },
    },
    async (req, reply) => sendJsonText(reply, await commentJson(ctx, actorOf(req), req.params.id)),
  );

  app.patch(
    '/api/comments/:id',
    {
      schema: {
        tags: ['comments'],
        summary: 'Edit a comment (its author or an admin)',
        params: IdParams,
        body: Type.Object({ body: Body }, { additionalProperties: false }),
        response: { 200: CommentEnvelope, ...errors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const comment = await updateComment(ctx, actor, req.params.id, req.body);
      return sendJsonText(reply, await commentJson(ctx, actor, comment.id));
    },
  );

  app.delete(
    '/api/comments/:id',
    {
      schema: {
        tags: ['comments'],
        summary:
          'Delete a comment (its author or an admin); one with replies stays as a placeholder (deletedAt, empty body) so the replies keep their thread',
        params: IdParams,
        response: { 200: Ok, ...errors(401, 403, 404) },
      },
    },
    async (req) => {
      await deleteComment(ctx, actorOf(req), req.params.id);
      return { ok: true as const };
    },
  );
}
