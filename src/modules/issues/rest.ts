// REST: issues. Paths take the issue's uuid or any identifier it ever had.
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { sendJsonText } from '../../platform/http/json-text.js';
import { PageInfo, pageQuery } from '../../platform/http/pagination.js';
import { errors, IdParams, Ok } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { issueEntity } from '../../platform/list/entities.js';
import { parseFilterParam } from '../../platform/list/query-param.js';
import { MAX_COUNTED_LISTS } from './count-limit.js';
import { IssueCreateBody, IssuePatchBody } from './inputs.js';
import { countIssueLists, listIssuesJson } from './list.js';
import { EDIT_ISSUES } from './policy.js';
import { IssueSchema } from './present.js';
import {
  archiveIssue,
  createIssue,
  deleteIssue,
  getIssueJson,
  issueHistory,
  issueJson,
  unarchiveIssue,
  updateIssue,
} from './service.js';

const IssueEnvelope = Type.Object({ issue: IssueSchema });
const Id = Type.String({ format: 'uuid' });
const IdOrNull = Type.Union([Id, Type.Literal('null')], { description: 'An id, or "null" for not set' });

const ListQuery = Type.Object(
  {
    teamId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Team id or key' })),
    stateId: Type.Optional(Id),
    assigneeId: Type.Optional(IdOrNull),
    projectId: Type.Optional(IdOrNull),
    projectMilestoneId: Type.Optional(IdOrNull),
    cycleId: Type.Optional(IdOrNull),
    parentId: Type.Optional(IdOrNull),
    priority: Type.Optional(Type.Integer({ minimum: 0, maximum: 4 })),
    labelId: Type.Optional(Id),
    filter: Type.Optional(
      Type.String({
        maxLength: 8192,
        description: 'JSON filter in the GraphQL IssueFilter grammar (docs/graphql.md)',
      }),
    ),
    q: Type.Optional(
      Type.String({ maxLength: 500, description: 'Full-text search (prefix match per word)' }),
    ),
    sort: Type.Optional(
      Type.Union([
        Type.Literal('createdAt'),
        Type.Literal('updatedAt'),
        Type.Literal('priority'),
        Type.Literal('dueDate'),
      ]),
    ),
    order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
    includeArchived: Type.Optional(Type.Boolean()),
    ...pageQuery(50),
    after: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'pageInfo.nextCursor of the previous page: keyset paging, fast at any depth',
      }),
    ),
  },
  { additionalProperties: false },
);

const IssuePageInfo = Type.Object({
  ...PageInfo.properties,
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description:
      'Cursor of the next page (pass as after), or null on the last page and for orders without keyset paging',
  }),
});

const nullable = (v: string | undefined) => (v === 'null' ? null : v);

export function issuesRoutes(app: Http, ctx: AppContext): void {
  app.get(
    '/api/issues',
    {
      // Its filter and q are priced as GraphQL prices them (platform/http/request-budget.ts).
      config: { lists: issueEntity },
      schema: {
        tags: ['issues'],
        summary: 'List issues: newest first, or best match first with q; exact-match filters',
        querystring: ListQuery,
        response: {
          200: Type.Object({ issues: Type.Array(IssueSchema), pageInfo: IssuePageInfo }),
          ...errors(400, 401),
        },
      },
    },
    async (req, reply) => {
      const qs = req.query;
      const filters = Object.fromEntries(
        Object.entries({
          teamId: qs.teamId,
          stateId: qs.stateId,
          assigneeId: nullable(qs.assigneeId),
          projectId: nullable(qs.projectId),
          projectMilestoneId: nullable(qs.projectMilestoneId),
          cycleId: nullable(qs.cycleId),
          parentId: nullable(qs.parentId),
          priority: qs.priority,
          labelId: qs.labelId,
        }).filter(([, v]) => v !== undefined),
      );
      const actor = actorOf(req);
      const filter = parseFilterParam(qs.filter);
      const page = await listIssuesJson(ctx, actor, {
        filters,
        ...(filter ? { filter } : {}),
        ...(qs.q !== undefined ? { q: qs.q } : {}),
        ...(qs.sort !== undefined ? { sort: qs.sort } : {}),
        ...(qs.order !== undefined ? { order: qs.order } : {}),
        ...(qs.limit !== undefined ? { limit: qs.limit } : {}),
        ...(qs.offset !== undefined ? { offset: qs.offset } : {}),
        ...(qs.after !== undefined ? { after: qs.after } : {}),
        includeArchived: qs.includeArchived ?? false,
      });
      // JSON text built by PostgreSQL from the read model: sent as it is, the schema stays its contract.
      return sendJsonText(reply, page);
    },
  );

  app.post(
    '/api/issues/counts',
    {
      // Each filter is priced as the list's `filter` parameter is, and each count as one record.
      config: { lists: issueEntity },
      schema: {
        tags: ['issues'],
        summary:
          "Count the issues under several filters at once (a list's groups, a board's columns): each count is that list's pageInfo.total",
        body: Type.Object(
          {
            filters: Type.Array(Type.Record(Type.String(), Type.Unknown()), {
              minItems: 1,
              maxItems: MAX_COUNTED_LISTS,
              description: "Filter trees, as the list's filter parameter takes them",
            }),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            counts: Type.Array(Type.Integer({ minimum: 0 }), {
              description: 'One count per filter, in order',
            }),
          }),
          ...errors(400, 401),
        },
      },
    },
    async (req) => ({ counts: await countIssueLists(ctx, actorOf(req), req.body.filters) }),
  );

  app.post(
    '/api/issues',
    {
      config: { auth: EDIT_ISSUES },
      schema: {
        tags: ['issues'],
        summary:
          'Create an issue; its identifier is assigned automatically, a chosen id makes it safe to send again',
        body: IssueCreateBody,
        response: { 201: IssueEnvelope, ...errors(400, 401, 403, 409) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const issue = await createIssue(ctx, actor, req.body);
      return sendJsonText(reply.status(201), await issueJson(ctx, actor, issue));
    },
  );

  app.get(
    '/api/issues/:id',
    {
      schema: {
        tags: ['issues'],
        summary: 'One issue, by id or identifier (e.g. ENG-12)',
        params: IdParams,
        response: { 200: IssueEnvelope, ...errors(401, 404) },
      },
    },
    async (req, reply) => sendJsonText(reply, await getIssueJson(ctx, actorOf(req), req.params.id)),
  );

  app.patch(
    '/api/issues/:id',
    {
      config: { auth: EDIT_ISSUES },
      schema: {
        tags: ['issues'],
        summary: 'Change an issue: absent fields stay, null clears, labelIds replaces the set',
        params: IdParams,
        body: IssuePatchBody,
        response: { 200: IssueEnvelope, ...errors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      return sendJsonText(
        reply,
        await issueJson(ctx, actor, await updateIssue(ctx, actor, req.params.id, req.body)),
      );
    },
  );

  app.delete(
    '/api/issues/:id',
    {
      config: { auth: EDIT_ISSUES },
      schema: {
        tags: ['issues'],
        summary: 'Delete an issue with its comments and attachments',
        params: IdParams,
        response: { 200: Ok, ...errors(401, 403, 404) },
      },
    },
    async (req) => {
      await deleteIssue(ctx, actorOf(req), req.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    '/api/issues/:id/archive',
    {
      config: { auth: EDIT_ISSUES },
      schema: {
        tags: ['issues'],
        summary: 'Archive an issue: hidden from lists unless includeArchived=true',
        params: IdParams,
        response: { 200: IssueEnvelope, ...errors(401, 403, 404) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      return sendJsonText(reply, await issueJson(ctx, actor, await archiveIssue(ctx, actor, req.params.id)));
    },
  );

  app.post(
    '/api/issues/:id/unarchive',
    {
      config: { auth: EDIT_ISSUES },
      schema: {
        tags: ['issues'],
        summary: 'Bring an archived issue back into lists',
        params: IdParams,
        response: { 200: IssueEnvelope, ...errors(401, 403, 404) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      return sendJsonText(
        reply,
        await issueJson(ctx, actor, await unarchiveIssue(ctx, actor, req.params.id)),
      );
    },
  );

  app.get(
    '/api/issues/:id/history',
    {
      schema: {
        tags: ['issues'],
        summary: 'Change history of an issue, oldest first',
        params: IdParams,
        response: {
          200: Type.Object({
            history: Type.Array(
              Type.Object({
                id: Type.String(),
                actorId: Type.Union([Type.String(), Type.Null()]),
                changes: Type.Record(
                  Type.String(),
                  Type.Object({ from: Type.Unknown(), to: Type.Unknown() }),
                ),
                createdAt: Type.String({ format: 'date-time' }),
              }),
            ),
          }),
          ...errors(401, 404),
        },
      },
    },
    async (req) => {
      const rows = await issueHistory(ctx, actorOf(req), req.params.id);
      return {
        history: rows.map((h) => ({
          id: h.id,
          actorId: h.actor_id,
          changes: h.changes as Record<string, { from: unknown; to: unknown }>,
          createdAt: h.created_at.toISOString(),
        })),
      };
    },
  );
}
