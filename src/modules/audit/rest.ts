// REST: the audit log for admins (docs/identity.md, "Audit log").
import { Readable } from 'node:stream';
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { PageInfo, pageOf, pageQuery } from '../../platform/http/pagination.js';
import { errors, Uuid } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { AUDIT_TYPES } from './catalog.js';
import type { AuditFilter } from './queries.js';
import {
  auditEntryTypes,
  auditIpSpellings,
  checkedSearch,
  exportAuditEntries,
  IP_MAX,
  listAuditEntries,
  SEARCH_MAX,
} from './read.js';

const Json = Type.Record(Type.String(), Type.Unknown());
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

const AuditEntrySchema = Type.Object({
  id: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  type: Type.String({ description: 'One of GET /api/admin/audit-entry-types' }),
  description: Type.String(),
  actor: Type.Object({
    kind: Type.String({ description: 'user, apiKey, scim, sso, system or anonymous' }),
    id: Nullable(Type.String()),
    label: Type.String({ description: 'Email or label at the time' }),
  }),
  ip: Nullable(Type.String()),
  userAgent: Nullable(Type.String()),
  entity: Nullable(
    Type.Object({ type: Type.String(), id: Nullable(Type.String()), label: Nullable(Type.String()) }),
  ),
  before: Nullable(Json),
  after: Nullable(Json),
  metadata: Json,
});

const TYPES = Object.keys(AUDIT_TYPES);
const Filter = {
  type: Type.Optional(
    Type.Array(Type.Union(TYPES.map((t) => Type.Literal(t))), {
      maxItems: TYPES.length,
      description: 'Any of these types',
    }),
  ),
  actorId: Type.Optional(Uuid),
  entityId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'At or after' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Before' })),
  ip: Type.Optional(
    Type.String({
      minLength: 2,
      maxLength: IP_MAX,
      description: 'The request address, exactly (an IPv4 address also matches its IPv4-mapped IPv6 form)',
    }),
  ),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: SEARCH_MAX,
      description: "Text found, in any case, in the actor's label, the target's label or the type",
    }),
  ),
};

const filterOf = (q: {
  type?: string[];
  actorId?: string;
  entityId?: string;
  from?: string;
  to?: string;
  ip?: string;
  q?: string;
}): AuditFilter => ({
  types: q.type,
  actorId: q.actorId,
  entityId: q.entityId,
  from: q.from ? new Date(q.from) : undefined,
  to: q.to ? new Date(q.to) : undefined,
  ips: q.ip === undefined ? undefined : auditIpSpellings(q.ip, 'ip'),
  search: checkedSearch(q.q, 'q'),
});

export function auditRoutes(app: Http, ctx: AppContext): void {
  app.get(
    '/api/admin/audit-entries',
    {
      schema: {
        tags: ['admin'],
        summary:
          'The audit log, newest first, filtered by type, actor, target, time and address, and searched (admins only)',
        querystring: Type.Object({ ...Filter, ...pageQuery() }, { additionalProperties: false }),
        response: {
          200: Type.Object({ auditEntries: Type.Array(AuditEntrySchema), pageInfo: PageInfo }),
          ...errors(400, 401, 403),
        },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const { entries, total } = await listAuditEntries(ctx, actorOf(req), filterOf(req.query), page);
      return { auditEntries: entries, pageInfo: { total, ...page } };
    },
  );

  app.get(
    '/api/admin/audit-entries/export',
    {
      schema: {
        tags: ['admin'],
        summary: 'Every matching entry as NDJSON (one JSON object a line, newest first; admins only)',
        querystring: Type.Object(Filter, { additionalProperties: false }),
        produces: ['application/x-ndjson'],
        response: { ...errors(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const lines = exportAuditEntries(ctx, actorOf(req), filterOf(req.query));
      // The first batch is read before the answer starts, so a refusal is still a JSON error.
      const first = await lines.next();
      async function* rest() {
        if (!first.done) yield first.value;
        yield* lines;
      }
      return reply
        .type('application/x-ndjson; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit-log.ndjson"')
        .send(Readable.from(rest()));
    },
  );

  app.get(
    '/api/admin/audit-entry-types',
    {
      schema: {
        tags: ['admin'],
        summary: 'Every type of audit entry with its meaning (admins only)',
        response: {
          200: Type.Object({
            auditEntryTypes: Type.Array(Type.Object({ type: Type.String(), description: Type.String() })),
          }),
          ...errors(401, 403),
        },
      },
    },
    async () => ({ auditEntryTypes: auditEntryTypes() }),
  );
}
