// REST: the relations of an issue (the issue by id or identifier) and single
// relations. Creating from an issue's page names the relation as that issue
// sees it (`blocked_by`: the other issue blocks this one), so the caller never
// has to think about which end is stored as the source.
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { sendJsonText } from '../../platform/http/json-text.js';
import { PageInfo, pageOf, pageQuery } from '../../platform/http/pagination.js';
import { errors, IdParams } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { EDIT_ISSUES } from '../issues/policy.js';
import { KindSchema, ListedRelationSchema, RelationSchema, typeOfKind } from './present.js';
import {
  createRelation,
  deleteRelation,
  listIssueRelationsJson,
  pathIssueId,
  relationJson,
} from './service.js';

const IssueRef = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'Issue id or identifier (ENG-12)',
});
const CreateBody = Type.Object(
  {
    type: KindSchema,
    relatedIssueId: IssueRef,
  },
  { additionalProperties: false },
);
const RelationList = Type.Object({ relations: Type.Array(ListedRelationSchema), pageInfo: PageInfo });
const RelationEnvelope = Type.Object({ relation: RelationSchema });

export function relationsRoutes(app: Http, ctx: AppContext): void {
  app.get(
    '/api/issues/:id/relations',
    {
      schema: {
        tags: ['relations'],
        summary:
          'Relations of an issue in both directions, oldest first; `kind` says how this issue sees each',
        params: IdParams,
        querystring: Type.Object(pageQuery(100), { additionalProperties: false }),
        response: { 200: RelationList, ...errors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const page = pageOf(req.query, 100);
      return sendJsonText(reply, await listIssueRelationsJson(ctx, actorOf(req), req.params.id, page));
    },
  );

  app.post(
    '/api/issues/:id/relations',
    {
      config: { auth: EDIT_ISSUES },
      schema: {
        tags: ['relations'],
        summary:
          'Relate this issue to another: `type` as this issue sees it (blocks, blocked_by, duplicate, ...)',
        params: IdParams,
        body: CreateBody,
        response: { 201: RelationEnvelope, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      // The issue of the path first: unseen, it is a 404 like every path; the body's is a 400.
      const here = await pathIssueId(ctx, actor, req.params.id);
      const other = req.body.relatedIssueId;
      const { type, inverse } = typeOfKind(req.body.type);
      const relation = await createRelation(
        ctx,
        actor,
        inverse
          ? {
              issueId: other,
              relatedIssueId: here,
              type,
              fields: { issueId: 'relatedIssueId', relatedIssueId: 'id' },
            }
          : { issueId: here, relatedIssueId: other, type },
      );
      return sendJsonText(reply.status(201), await relationJson(ctx, actor, relation.id));
    },
  );

  app.get(
    '/api/relations/:id',
    {
      schema: {
        tags: ['relations'],
        summary: 'One issue relation',
        params: IdParams,
        response: { 200: RelationEnvelope, ...errors(401, 403, 404) },
      },
    },
    async (req, reply) => sendJsonText(reply, await relationJson(ctx, actorOf(req), req.params.id)),
  );

  app.delete(
    '/api/relations/:id',
    {
      config: { auth: EDIT_ISSUES },
      schema: {
        tags: ['relations'],
        summary: 'Remove an issue relation (the issues stay as they are)',
        params: IdParams,
        response: {
          200: Type.Object({ ok: Type.Literal(true), id: Type.String() }),
          ...errors(401, 403, 404),
        },
      },
    },
    async (req) => {
      const removed = await deleteRelation(ctx, actorOf(req), req.params.id);
      return { ok: true as const, id: removed.id };
    },
  );
}
