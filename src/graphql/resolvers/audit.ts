// The audit log as the third-party schema names it: auditEntryTypes and
// auditEntries (admins only; modules/audit/read.ts decides and presents).
// Paged by offset cursors; AuditEntryFilter's type, actor id, entity id,
// createdAt and ip are taken, each on an indexed column (migrations 0041, 0045,
// 0047), and our `q`, the search REST also takes (trigram index, 0047).
import type { AuditFilter } from '../../modules/audit/queries.js';
import {
  auditEntryTypes,
  auditIpSpellings,
  checkedSearch,
  listAuditEntries,
  type presentAuditEntry,
} from '../../modules/audit/read.js';
import { assertAdmin } from '../../modules/users/policy.js';
import { invalidField } from '../../platform/errors.js';
import { DEFAULT_PAGE, MAX_PAGE } from '../../platform/list/window.js';
import type { ResolverMap } from '../build-schema.js';
import type { GqlContext } from '../context.js';

/** The fields of AuditEntry this service fills (schema/held.ts). */
export const AUDIT_ENTRY_FIELDS = [
  'id',
  'createdAt',
  'updatedAt',
  'type',
  'actorId',
  'ip',
  'countryCode',
  'metadata',
  'requestInformation',
] as const;

interface Comparator {
  eq?: string;
  in?: string[];
  gt?: string;
  gte?: string;
  lt?: string;
  lte?: string;
}
interface AuditEntryFilterInput {
  type?: Comparator;
  actor?: { id?: Comparator };
  entityId?: Comparator;
  createdAt?: Comparator;
  ip?: Comparator;
  /** Ours (schema/extensions.ts): REST's `q`. */
  q?: string | null;
}

/** Longest `ip.in`: a handful of addresses, not a scan. */
const IP_IN_MAX = 50;

/** `ip`'s `eq` or `in`, every spelling of each address; another comparison is refused, not ignored. */
function ipsOf(c: Comparator | undefined): string[] | undefined {
  if (!c) return undefined;
  const { eq, in: any, ...other } = c;
  if (Object.keys(other).length > 0) throw invalidField('filter.ip', 'only eq and in are supported');
  if (any && any.length > IP_IN_MAX) throw invalidField('filter.ip.in', `at most ${IP_IN_MAX} addresses`);
  const wanted = [...(eq != null ? [eq] : []), ...(any ?? [])];
  if (wanted.length === 0) return undefined;
  return wanted.flatMap((ip) => auditIpSpellings(ip, 'filter.ip'));
}

const date = (s: string | undefined, field: string) => {
  if (s === undefined) return undefined;
  const d = new Date(s);
  if (Number.isNaN(d.getTime())) throw invalidField(field, 'not a date');
  return d;
};

function filterOf(f: AuditEntryFilterInput | null | undefined): AuditFilter {
  if (!f) return {};
  const types = f.type?.in ?? (f.type?.eq !== undefined ? [f.type.eq] : undefined);
  const createdAt = f.createdAt ?? {};
  return {
    types,
    actorId: f.actor?.id?.eq,
    entityId: f.entityId?.eq,
    from: date(createdAt.gte ?? createdAt.gt, 'filter.createdAt'),
    to: date(createdAt.lt ?? createdAt.lte, 'filter.createdAt'),
    ips: ipsOf(f.ip),
    search: checkedSearch(f.q ?? undefined, 'filter.q'),
  };
}

const cursorOf = (offset: number) => Buffer.from(`audit:${offset}`).toString('base64url');
function offsetOf(cursor: string | null | undefined): number {
  if (!cursor) return 0;
  const m = /^audit:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!m) throw invalidField('after', 'not a cursor of this list');
  return Number(m[1]) + 1;
}

function node(e: ReturnType<typeof presentAuditEntry>) {
  return {
    id: e.id,
    createdAt: new Date(e.createdAt),
    updatedAt: new Date(e.createdAt),
    type: e.type,
    actorId: e.actor.id,
    ip: e.ip,
    countryCode: null,
    metadata: { ...e.metadata, actor: e.actor, entity: e.entity, before: e.before, after: e.after },
    requestInformation: { userAgent: e.userAgent },
  };
}

export const auditResolvers: ResolverMap = {
  Query: {
    auditEntryTypes: (_: unknown, _args: unknown, g: GqlContext) => {
      assertAdmin(g.actor);
      return auditEntryTypes();
    },
    auditEntries: async (
      _: unknown,
      args: { first?: number | null; after?: string | null; filter?: AuditEntryFilterInput | null },
      g: GqlContext,
    ) => {
      assertAdmin(g.actor);
      const limit = args.first ?? DEFAULT_PAGE;
      if (limit < 1 || limit > MAX_PAGE) throw invalidField('first', `between 1 and ${MAX_PAGE}`);
      const offset = offsetOf(args.after);
      const { entries, total } = await listAuditEntries(g.app, g.actor, filterOf(args.filter), {
        limit,
        offset,
      });
      const edges = entries.map((e, i) => ({ node: node(e), cursor: cursorOf(offset + i) }));
      return {
        nodes: edges.map((e) => e.node),
        edges,
        pageInfo: {
          hasNextPage: offset + entries.length < total,
          hasPreviousPage: offset > 0,
          startCursor: edges[0]?.cursor ?? null,
          endCursor: edges.at(-1)?.cursor ?? null,
        },
      };
    },
  },
};
