// REST: attachments of an issue (the issue by id or identifier) and single attachments.
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { sendJsonText } from '../../platform/http/json-text.js';
import { PageInfo, pageOf, pageQuery } from '../../platform/http/pagination.js';
import { errors, IdParams } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { assertCanWriteAttachments, WRITE_ATTACHMENTS } from './policy.js';
import { AttachmentSchema } from './present.js';
import {
  attachmentJson,
  createAttachment,
  deleteAttachment,
  issueIdOrNotFound,
  listAttachmentsJson,
  updateAttachment,
} from './service.js';

const Title = Type.String({ minLength: 1, maxLength: 500 });
const Subtitle = Type.Union([Type.String({ maxLength: 1000 }), Type.Null()]);
const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'http(s) URL, e.g. an assetUrl from an upload',
});
const Metadata = Type.Record(Type.String(), Type.Unknown(), { description: 'Free-form JSON object' });

const CreateBody = Type.Object(
  { title: Title, subtitle: Type.Optional(Subtitle), url: Url, metadata: Type.Optional(Metadata) },
  { additionalProperties: false },
);
const PatchBody = Type.Object(
  {
    title: Type.Optional(Title),
    subtitle: Type.Optional(Subtitle),
    url: Type.Optional(Url),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false, minProperties: 1 },
);
const AttachmentList = Type.Object({ attachments: Type.Array(AttachmentSchema), pageInfo: PageInfo });
const AttachmentEnvelope = Type.Object({ attachment: AttachmentSchema });

export function attachmentsRoutes(app: Http, ctx: AppContext): void {
  app.get(
    '/api/issues/:id/attachments',
    {
      schema: {
        tags: ['attachments'],
        summary: 'Attachments of an issue (id or identifier), oldest first',
        params: IdParams,
        querystring: Type.Object(pageQuery(50), { additionalProperties: false }),
        response: { 200: AttachmentList, ...errors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const page = pageOf(req.query, 50);
      const json = await listAttachmentsJson(ctx, actorOf(req), { issueId: req.params.id, ...page });
      return sendJsonText(reply, json);
    },
  );

  app.post(
    '/api/issues/:id/attachments',
    {
      config: { auth: WRITE_ATTACHMENTS },
      schema: {
        tags: ['attachments'],
        summary: 'Attach a link or an uploaded file to an issue; the same url again updates that attachment',
        params: IdParams,
        body: CreateBody,
        response: { 201: AttachmentEnvelope, ...errors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      // The flag (and the role, again) before the issue lookup: a disabled feature is told so before a 404.
      await assertCanWriteAttachments(ctx.db, actor);
      const issueId = await issueIdOrNotFound(ctx, actor, req.params.id);
      const attachment = await createAttachment(ctx, actor, { ...req.body, issueId });
      return sendJsonText(reply.status(201), await attachmentJson(ctx, actor, attachment.id));
    },
  );

  app.get(
    '/api/attachments/:id',
    {
      schema: {
        tags: ['attachments'],
        summary: 'One attachment',
        params: IdParams,
        response: { 200: AttachmentEnvelope, ...errors(401, 403, 404) },
      },
    },
    async (req, reply) => sendJsonText(reply, await attachmentJson(ctx, actorOf(req), req.params.id)),
  );

  app.patch(
    '/api/attachments/:id',
    {
      config: { auth: WRITE_ATTACHMENTS },
      schema: {
        tags: ['attachments'],
        summary: 'Change an attachment',
        params: IdParams,
        body: PatchBody,
        response: { 200: AttachmentEnvelope, ...errors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const attachment = await updateAttachment(ctx, actor, req.params.id, req.body);
      return sendJsonText(reply, await attachmentJson(ctx, actor, attachment.id));
    },
  );

  app.delete(
    '/api/attachments/:id',
    {
      config: { auth: WRITE_ATTACHMENTS },
      schema: {
        tags: ['attachments'],
        summary: 'Delete an attachment (an uploaded file it points to stays)',
        params: IdParams,
        response: {
          200: Type.Object({ ok: Type.Literal(true), id: Type.String() }),
          ...errors(401, 403, 404),
        },
      },
    },
    async (req) => {
      const removed = await deleteAttachment(ctx, actorOf(req), req.params.id);
      return { ok: true as const, id: removed.id };
    },
  );
}
