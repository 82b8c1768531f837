// REST: saved views. Every signed-in caller may list, read and keep personal
// views (guests included); sharing is the members' (service and policy.ts).
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { sendJsonText } from '../../platform/http/json-text.js';
import { PageInfo, pageOf, pageQuery } from '../../platform/http/pagination.js';
import { errors, IdParams, OneLineText } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { DisplaySchema } from './display.js';
import { ViewSchema } from './present.js';
import { createView, deleteView, listViewsJson, savedViewJson, updateView, viewJson } from './service.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Name = OneLineText(255);

const fields = {
  description: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
  icon: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  color: Type.Optional(Nullable(Type.String({ maxLength: 7, description: 'Hex colour, e.g. #5e6ad2' }))),
  filterData: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), {
      description: 'An IssueFilter, checked by the same compiler as GET /api/issues?filter=',
    }),
  ),
  display: Type.Optional(DisplaySchema),
  shared: Type.Optional(
    Type.Boolean({ description: 'Shared with its team (or, without one, the workspace); members only' }),
  ),
  teamId: Type.Optional(Nullable(Type.String({ maxLength: 200, description: 'Team id or key' }))),
  ownerId: Type.Optional(
    Type.String({ maxLength: 200, description: 'Another owner: admins, for shared views only' }),
  ),
};

const CreateBody = Type.Object({ name: Name, ...fields }, { additionalProperties: false });
const PatchBody = Type.Object(
  { name: Type.Optional(Name), ...fields },
  { additionalProperties: false, minProperties: 1 },
);
const ListQuery = Type.Object({
  teamId: Type.Optional(Type.String({ maxLength: 200, description: "Only this team's views" })),
  shared: Type.Optional(Type.Boolean({ description: 'true: shared views; false: your personal ones' })),
  includeArchived: Type.Optional(Type.Boolean()),
  ...pageQuery(50),
});
const Envelope = Type.Object({ view: ViewSchema });

export function viewsRoutes(app: Http, ctx: AppContext): void {
  app.get(
    '/api/views',
    {
      schema: {
        tags: ['views'],
        summary:
          'Saved views the caller sees (their own and the shared ones of teams they see), newest first',
        querystring: ListQuery,
        response: {
          200: Type.Object({ views: Type.Array(ViewSchema), pageInfo: PageInfo }),
          ...errors(400, 401),
        },
      },
    },
    async (req, reply) => {
      const page = pageOf(req.query);
      return sendJsonText(reply, await listViewsJson(ctx, actorOf(req), { ...req.query, ...page }));
    },
  );

  app.post(
    '/api/views',
    {
      schema: {
        tags: ['views'],
        summary: 'Save a view: personal unless shared (members only)',
        body: CreateBody,
        response: { 201: Envelope, ...errors(400, 401, 403, 409) },
      },
    },
    async (req, reply) => {
      const view = await createView(ctx, actorOf(req), req.body);
      return sendJsonText(reply.status(201), await savedViewJson(ctx, view));
    },
  );

  app.get(
    '/api/views/:id',
    {
      schema: {
        tags: ['views'],
        summary: 'One saved view; its issues are GET /api/issues?filter=<filterData>',
        params: IdParams,
        response: { 200: Envelope, ...errors(401, 404) },
      },
    },
    async (req, reply) => sendJsonText(reply, await viewJson(ctx, actorOf(req), req.params.id)),
  );

  app.patch(
    '/api/views/:id',
    {
      schema: {
        tags: ['views'],
        summary: 'Change a view: its owner, or an admin for a shared one',
        params: IdParams,
        body: PatchBody,
        response: { 200: Envelope, ...errors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const view = await updateView(ctx, actorOf(req), req.params.id, req.body);
      return sendJsonText(reply, await savedViewJson(ctx, view));
    },
  );

  app.delete(
    '/api/views/:id',
    {
      schema: {
        tags: ['views'],
        summary: 'Delete a view: its owner, or an admin for a shared one',
        params: IdParams,
        response: {
          200: Type.Object({ ok: Type.Literal(true), id: Type.String() }),
          ...errors(401, 403, 404),
        },
      },
    },
    async (req) => {
      const removed = await deleteView(ctx, actorOf(req), req.params.id);
      return { ok: true as const, id: removed.id };
    },
  );
}
