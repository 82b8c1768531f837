// What every list applies, REST or GraphQL: the caller's visibility (the
// entity's rule, platform/access.ts), the list's own scope, and a filter tree
// in the one grammar (filter.ts), over rows under alias `t`. GraphQL pages the
// result by keyset (paginate.ts); REST lists that promise an offset and a
// total page it with offsetList below. Both build their WHERE here.
import { type RawBuilder, sql } from 'kysely';
import type { TeamAccess } from '../access.js';
import type { Db } from '../db/database.js';
import { compileFilter, type EntitySpec } from './filter.js';

type Sql = RawBuilder<unknown>;

export interface ListScope {
  entity: EntitySpec;
  access: TeamAccess;
  /** A filter tree in the IssueFilter-style grammar; REST list parameters are folded into one. */
  filter?: Record<string, unknown> | null | undefined;
  /** Conditions of the list itself (e.g. no deleted users). */
  scope?: Sql[];
  now: Date;
  actorId: string;
  /** Where errors in `filter` point (the name of the parameter or argument). */
  filterPath?: string;
}

/** The WHERE conditions of a list over alias `t`. */
export function listWhere(q: ListScope): Sql[] {
  const applies = q.entity.visible && (!q.access.all || q.entity.bindsAdmins);
  const visible = applies ? [q.entity.visible!('t', q.access)] : [];
  const ctx = { now: q.now, actorId: q.actorId, access: q.access };
  const filter = q.filter ? [compileFilter(q.entity, 't', q.filter, ctx, q.filterPath)] : [];
  return [...visible, ...(q.scope ?? []), ...filter];
}

export interface OffsetList extends ListScope {
  /** FROM clause with the listed rows as `t`. */
  from: Sql;
  /** Columns to read (default `t.*`). */
  columns?: Sql;
  /** Whether t has archived_at; archived rows are left out unless includeArchived. */
  archivable: boolean;
  includeArchived?: boolean | undefined;
  /** ORDER BY, ending in a unique column so pages never overlap. */
  order: Sql;
  /** Omitted: every row (short lists such as labels and states). */
  limit?: number;
  offset?: number;
}

/** What a domain's list query takes from its service: who asks, the filter tree and the page. */
export type OffsetPage = Pick<OffsetList, 'access' | 'now' | 'actorId'> &
  Partial<Pick<OffsetList, 'filter' | 'includeArchived' | 'limit' | 'offset'>>;

/**
 * One page by offset and the number of all matches, in one statement (the
 * total rides along as a window count); a page past the end counts apart.
 */
export async function offsetList<R>(db: Db, q: OffsetList): Promise<{ rows: R[]; total: number }> {
  const where = [
    ...listWhere(q),
    ...(q.archivable && !q.includeArchived ? [sql`t.archived_at is null`] : []),
  ];
  const whereSql = where.length ? sql`where ${sql.join(where, sql` and `)}` : sql``;
  const { rows } = await sql<R & { __total: string }>`
    select ${q.columns ?? sql`t.*`}, count(*) over () as __total from ${q.from} ${whereSql}
    order by ${q.order}
    ${q.limit !== undefined ? sql`limit ${q.limit}` : sql``} offset ${q.offset ?? 0}`.execute(db);
  const total = rows.length ? Number(rows[0]!.__total) : (q.offset ?? 0) > 0 ? await countList(db, q) : 0;
  for (const r of rows) delete (r as { __total?: string }).__total;
  return { rows, total };
}

/** How many rows a list holds for the caller, with the same WHERE as its pages. */
export async function countList(
  db: Db,
  q: ListScope & { from: Sql; archivable: boolean; includeArchived?: boolean | null | undefined },
): Promise<number> {
  const where = [
    ...listWhere(q),
    ...(q.archivable && !q.includeArchived ? [sql`t.archived_at is null`] : []),
  ];
  const whereSql = where.length ? sql`where ${sql.join(where, sql` and `)}` : sql``;
  const { rows } = await sql<{ n: string }>`select count(*) as n from ${q.from} ${whereSql}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}
