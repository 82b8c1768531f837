// REST: milestones of a project. Listed under their project, in the
// project's order (sortOrder, then oldest first); changed by their own id.
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { sendJsonText } from '../../platform/http/json-text.js';
import { errors, IdParams, OneLineText } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { WRITE_PROJECTS } from '../projects/policy.js';
import { MilestoneSchema } from './present.js';
import {
  createMilestone,
  deleteMilestone,
  listMilestonesJson,
  milestoneJson,
  updateMilestone,
} from './service.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const DateInput = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });
const Name = OneLineText(255);

const fields = {
  description: Type.Optional(Nullable(Type.String({ maxLength: 10_000, description: 'Markdown' }))),
  targetDate: Type.Optional(Nullable(DateInput)),
  sortOrder: Type.Optional(
    Type.Number({ minimum: -1e15, maximum: 1e15, description: 'Place in the project; lower first' }),
  ),
};

const CreateBody = Type.Object({ name: Name, ...fields }, { additionalProperties: false });
const PatchBody = Type.Object(
  { name: Type.Optional(Name), ...fields },
  { additionalProperties: false, minProperties: 1 },
);
const Envelope = Type.Object({ milestone: MilestoneSchema });

export function milestonesRoutes(app: Http, ctx: AppContext): void {
  app.get(
    '/api/projects/:id/milestones',
    {
      schema: {
        tags: ['projects'],
        summary: "A project's milestones in order (sortOrder, then oldest first), with progress and status",
        params: IdParams,
        response: {
          200: Type.Object({ milestones: Type.Array(MilestoneSchema) }),
          ...errors(401, 403, 404),
        },
      },
    },
    async (req, reply) => sendJsonText(reply, await listMilestonesJson(ctx, actorOf(req), req.params.id)),
  );

  app.post(
    '/api/projects/:id/milestones',
    {
      config: { auth: WRITE_PROJECTS },
      schema: {
        tags: ['projects'],
        summary: 'Add a milestone to a project (without sortOrder: after the others)',
        params: IdParams,
        body: CreateBody,
        response: { 201: Envelope, ...errors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const input = { ...req.body, projectId: req.params.id };
      const actor = actorOf(req);
      const milestone = await createMilestone(ctx, actor, input, 'path');
      return sendJsonText(reply.status(201), await milestoneJson(ctx, actor, milestone.id));
    },
  );

  app.get(
    '/api/milestones/:id',
    {
      schema: {
        tags: ['projects'],
        summary: 'One milestone with its progress and status',
        params: IdParams,
        response: { 200: Envelope, ...errors(401, 403, 404) },
      },
    },
    async (req, reply) => sendJsonText(reply, await milestoneJson(ctx, actorOf(req), req.params.id)),
  );

  app.patch(
    '/api/milestones/:id',
    {
      config: { auth: WRITE_PROJECTS },
      schema: {
        tags: ['projects'],
        summary: 'Change a milestone; sortOrder moves it within its project',
        params: IdParams,
        body: PatchBody,
        response: { 200: Envelope, ...errors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const milestone = await updateMilestone(ctx, actor, req.params.id, req.body);
      return sendJsonText(reply, await milestoneJson(ctx, actor, milestone.id));
    },
  );

  app.delete(
    '/api/milestones/:id',
    {
      config: { auth: WRITE_PROJECTS },
      schema: {
        tags: ['projects'],
        summary: 'Delete a milestone; its issues stay in the project, without a milestone',
        params: IdParams,
        response: {
          200: Type.Object({ ok: Type.Literal(true), id: Type.String() }),
          ...errors(401, 403, 404),
        },
      },
    },
    async (req) => {
      const removed = await deleteMilestone(ctx, actorOf(req), req.params.id);
      return { ok: true as const, id: removed.id };
    },
  );
}
