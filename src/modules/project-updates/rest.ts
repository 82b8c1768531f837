// REST: a project's updates (newest first) and single updates. Members post
// them; the author or an admin edits, archives or deletes one.
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { sendJsonText } from '../../platform/http/json-text.js';
import { PageInfo, pageQuery } from '../../platform/http/pagination.js';
import { errors, IdParams, Ok } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { WRITE_PROJECTS } from '../projects/policy.js';
import { ProjectHealthSchema } from '../projects/present.js';
import { ProjectUpdateSchema } from './present.js';
import {
  archiveProjectUpdate,
  createProjectUpdate,
  deleteProjectUpdate,
  listProjectUpdatesJson,
  MAX_UPDATE_BODY,
  projectUpdateJson,
  updateProjectUpdate,
} from './service.js';

const Body = Type.String({ maxLength: MAX_UPDATE_BODY, description: 'Markdown' });
const CreateBody = Type.Object(
  {
    body: Body,
    health: Type.Optional(ProjectHealthSchema),
  },
  { additionalProperties: false },
);
const PatchBody = Type.Object(
  { body: Type.Optional(Body), health: Type.Optional(ProjectHealthSchema) },
  { additionalProperties: false, minProperties: 1 },
);
const Envelope = Type.Object({ projectUpdate: ProjectUpdateSchema });
const tags = ['projects'];

export function projectUpdatesRoutes(app: Http, ctx: AppContext): void {
  app.get(
    '/api/projects/:id/updates',
    {
      schema: {
        tags,
        summary: "A project's updates, newest first (archived ones with includeArchived)",
        params: IdParams,
        querystring: Type.Object(
          { ...pageQuery(50), includeArchived: Type.Optional(Type.Boolean()) },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ projectUpdates: Type.Array(ProjectUpdateSchema), pageInfo: PageInfo }),
          ...errors(400, 401, 403, 404),
        },
      },
    },
    async (req, reply) =>
      sendJsonText(reply, await listProjectUpdatesJson(ctx, actorOf(req), req.params.id, req.query)),
  );

  app.post(
    '/api/projects/:id/updates',
    {
      config: { auth: WRITE_PROJECTS },
      schema: {
        tags,
        summary: "Post an update on a project; its health (default: the project's) becomes the project's",
        params: IdParams,
        body: CreateBody,
        response: { 201: Envelope, ...errors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const row = await createProjectUpdate(ctx, actor, { ...req.body, projectId: req.params.id }, 'path');
      return sendJsonText(reply.status(201), await projectUpdateJson(ctx, actor, row.id));
    },
  );

  app.get(
    '/api/project-updates/:id',
    {
      schema: {
        tags,
        summary: 'One project update',
        params: IdParams,
        response: { 200: Envelope, ...errors(401, 403, 404) },
      },
    },
    async (req, reply) => sendJsonText(reply, await projectUpdateJson(ctx, actorOf(req), req.params.id)),
  );

  app.patch(
    '/api/project-updates/:id',
    {
      config: { auth: WRITE_PROJECTS },
      schema: {
        tags,
        summary: 'Edit a project update (its author or an admin)',
        params: IdParams,
        body: PatchBody,
        response: { 200: Envelope, ...errors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const row = await updateProjectUpdate(ctx, actor, req.params.id, req.body);
      return sendJsonText(reply, await projectUpdateJson(ctx, actor, row.id));
    },
  );

  for (const [path, archived] of [
    ['archive', true],
    ['unarchive', false],
  ] as const) {
    app.post(
      `/api/project-updates/:id/${path}`,
      {
        config: { auth: WRITE_PROJECTS },
        schema: {
          tags,
          summary: `${archived ? 'Archive' : 'Unarchive'} a project update (its author or an admin)`,
          params: IdParams,
          response: { 200: Envelope, ...errors(401, 403, 404) },
        },
      },
      async (req, reply) => {
        const actor = actorOf(req);
        const row = await archiveProjectUpdate(ctx, actor, req.params.id, archived);
        return sendJsonText(reply, await projectUpdateJson(ctx, actor, row.id));
      },
    );
  }

  app.delete(
    '/api/project-updates/:id',
    {
      config: { auth: WRITE_PROJECTS },
      schema: {
        tags,
        summary: 'Delete a project update (its author or an admin)',
        params: IdParams,
        response: { 200: Ok, ...errors(401, 403, 404) },
      },
    },
    async (req) => {
      await deleteProjectUpdate(ctx, actorOf(req), req.params.id);
      return { ok: true as const };
    },
  );
}
