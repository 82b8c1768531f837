// REST: labels. Everyone signed in reads; members and admins change them.
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { sendJsonText } from '../../platform/http/json-text.js';
import { errors, IdParams, Ok, OneLineText } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { MANAGE_LABELS } from './policy.js';
import { LabelSchema } from './present.js';
import { createLabel, deleteLabel, labelJson, listLabelsJson, updateLabel } from './service.js';

const LabelEnvelope = Type.Object({ label: LabelSchema });
const Name = OneLineText(100);
const Color = Type.String({ format: 'hexcolor', description: '#rrggbb' });
const Description = Type.Union([Type.String({ maxLength: 2000 }), Type.Null()]);
const TeamRef = Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()], {
  description: 'Team id or key; null for a workspace-wide label',
});
const ParentRef = Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
  description: 'Id of the label group this label belongs to',
});

export function labelsRoutes(app: Http, ctx: AppContext): void {
  app.get(
    '/api/labels',
    {
      schema: {
        tags: ['reference'],
        summary: "List labels by name; with teamId, that team's labels plus workspace-wide ones",
        querystring: Type.Object(
          {
            teamId: Type.Optional(
              Type.String({ minLength: 1, maxLength: 100, description: 'Team id or key' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ labels: Type.Array(LabelSchema) }), ...errors(400, 401, 404) },
      },
    },
    async (req, reply) => {
      const opts = req.query.teamId === undefined ? {} : { teamId: req.query.teamId };
      return sendJsonText(reply, await listLabelsJson(ctx, actorOf(req), opts));
    },
  );

  app.get(
    '/api/labels/:id',
    {
      schema: {
        tags: ['labels'],
        summary: 'One label',
        params: IdParams,
        response: { 200: LabelEnvelope, ...errors(401, 404) },
      },
    },
    async (req, reply) => sendJsonText(reply, await labelJson(ctx, actorOf(req), req.params.id)),
  );

  app.post(
    '/api/labels',
    {
      config: { auth: MANAGE_LABELS },
      schema: {
        tags: ['labels'],
        summary: 'Create a label (members and admins)',
        body: Type.Object(
          {
            name: Name,
            color: Type.Optional({ ...Color, description: '#rrggbb; absent: a colour picked from the name' }),
            description: Type.Optional(Description),
            teamId: Type.Optional(TeamRef),
            parentId: Type.Optional(ParentRef),
            isGroup: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
        response: { 201: LabelEnvelope, ...errors(400, 401, 403, 409) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const label = await createLabel(ctx, actor, req.body);
      return sendJsonText(reply.status(201), await labelJson(ctx, actor, label.id));
    },
  );

  app.patch(
    '/api/labels/:id',
    {
      config: { auth: MANAGE_LABELS },
      schema: {
        tags: ['labels'],
        summary: 'Change a label (members and admins)',
        params: IdParams,
        body: Type.Object(
          {
            name: Type.Optional(Name),
            color: Type.Optional(Color),
            description: Type.Optional(Description),
            teamId: Type.Optional(TeamRef),
            parentId: Type.Optional(ParentRef),
            isGroup: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false, minProperties: 1 },
        ),
        response: { 200: LabelEnvelope, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const label = await updateLabel(ctx, actor, req.params.id, req.body);
      return sendJsonText(reply, await labelJson(ctx, actor, label.id));
    },
  );

  app.delete(
    '/api/labels/:id',
    {
      config: { auth: MANAGE_LABELS },
      schema: {
        tags: ['labels'],
        summary: 'Delete a label; it is removed from every issue (members and admins)',
        params: IdParams,
        response: { 200: Ok, ...errors(401, 403, 404) },
      },
    },
    async (req) => {
      await deleteLabel(ctx, actorOf(req), req.params.id);
      return { ok: true as const };
    },
  );
}
