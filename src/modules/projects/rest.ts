// REST: projects. Lists are newest first; single records come as { project }.
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { sendJsonText } from '../../platform/http/json-text.js';
import { PageInfo, pageOf, pageQuery } from '../../platform/http/pagination.js';
import { errors, IdParams, OneLineText } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { WRITE_PROJECTS } from './policy.js';
import { ProjectHealthSchema, ProjectSchema, ProjectStatusSchema } from './present.js';
import {
  archiveProject,
  createProject,
  deleteProject,
  listProjectsJson,
  projectJson,
  unarchiveProject,
  updateProject,
} from './service.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Id = Type.String({ minLength: 1, maxLength: 200 });
const DateInput = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });

const fields = {
  description: Type.String({ maxLength: 10_000 }),
  content: Nullable(Type.String({ maxLength: 500_000, description: 'Markdown' })),
  status: ProjectStatusSchema,
  health: Nullable(ProjectHealthSchema),
  leadId: Nullable(Id),
  memberIds: Type.Array(Id, { maxItems: 500 }),
  teamIds: Type.Array(Id, { maxItems: 100, description: 'Team ids or keys' }),
  startDate: Nullable(DateInput),
  targetDate: Nullable(DateInput),
  color: Type.String({ format: 'hexcolor' }),
  icon: Nullable(Type.String({ maxLength: 100 })),
  sortOrder: Type.Number(),
};
const Name = OneLineText(255);
const optional = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Type.Optional(v)])) as {
  [K in keyof typeof fields]: ReturnType<typeof Type.Optional<(typeof fields)[K]>>;
};

const CreateBody = Type.Object({ name: Name, ...optional }, { additionalProperties: false });
const PatchBody = Type.Object(
  { name: Type.Optional(Name), ...optional },
  { additionalProperties: false, minProperties: 1 },
);
const ListQuery = Type.Object(
  {
    ...pageQuery(50),
    includeArchived: Type.Optional(Type.Boolean({ default: false })),
    status: Type.Optional(ProjectStatusSchema),
    leadId: Type.Optional(Id),
  },
  { additionalProperties: false },
);
const ProjectList = Type.Object({ projects: Type.Array(ProjectSchema), pageInfo: PageInfo });
const ProjectEnvelope = Type.Object({ project: ProjectSchema });

export function projectsRoutes(app: Http, ctx: AppContext): void {
  app.get(
    '/api/projects',
    {
      schema: {
        tags: ['projects'],
        summary: 'List projects, newest first (archived ones only with includeArchived=true)',
        querystring: ListQuery,
        response: { 200: ProjectList, ...errors(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const page = pageOf(req.query, 50);
      return sendJsonText(reply, await listProjectsJson(ctx, actorOf(req), { ...req.query, ...page }));
    },
  );

  app.post(
    '/api/projects',
    {
      config: { auth: WRITE_PROJECTS },
      schema: {
        tags: ['projects'],
        summary: 'Create a project (teams default to the first team)',
        body: CreateBody,
        response: { 201: ProjectEnvelope, ...errors(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const project = await createProject(ctx, actor, req.body);
      return sendJsonText(reply.status(201), await projectJson(ctx, actor, project.id));
    },
  );

  app.get(
    '/api/projects/:id',
    {
      schema: {
        tags: ['projects'],
        summary: 'One project with its progress',
        params: IdParams,
        response: { 200: ProjectEnvelope, ...errors(401, 403, 404) },
      },
    },
    async (req, reply) => sendJsonText(reply, await projectJson(ctx, actorOf(req), req.params.id)),
  );

  app.patch(
    '/api/projects/:id',
    {
      config: { auth: WRITE_PROJECTS },
      schema: {
        tags: ['projects'],
        summary: 'Change a project; memberIds and teamIds replace the whole list',
        params: IdParams,
        body: PatchBody,
        response: { 200: ProjectEnvelope, ...errors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const project = await updateProject(ctx, actor, req.params.id, req.body);
      return sendJsonText(reply, await projectJson(ctx, actor, project.id));
    },
  );

  app.delete(
    '/api/projects/:id',
    {
      config: { auth: WRITE_PROJECTS },
      schema: {
        tags: ['projects'],
        summary: 'Delete a project; its issues stay, without a project',
        params: IdParams,
        response: {
          200: Type.Object({ ok: Type.Literal(true), id: Type.String() }),
          ...errors(401, 403, 404),
        },
      },
    },
    async (req) => {
      const removed = await deleteProject(ctx, actorOf(req), req.params.id);
      return { ok: true as const, id: removed.id };
    },
  );

  app.post(
    '/api/projects/:id/archive',
    {
      config: { auth: WRITE_PROJECTS },
      schema: {
        tags: ['projects'],
        summary: 'Archive a project (hidden from lists unless includeArchived=true)',
        params: IdParams,
        response: { 200: ProjectEnvelope, ...errors(401, 403, 404) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const project = await archiveProject(ctx, actor, req.params.id);
      return sendJsonText(reply, await projectJson(ctx, actor, project.id));
    },
  );

  app.post(
    '/api/projects/:id/unarchive',
    {
      config: { auth: WRITE_PROJECTS },
      schema: {
        tags: ['projects'],
        summary: 'Restore an archived project',
        params: IdParams,
        response: { 200: ProjectEnvelope, ...errors(401, 403, 404) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const project = await unarchiveProject(ctx, actor, req.params.id);
      return sendJsonText(reply, await projectJson(ctx, actor, project.id));
    },
  );
}
