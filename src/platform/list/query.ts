// What every list applies, REST or GraphQL: the caller's visibility (the
// entity's rule, platform/access.ts), the list's own scope, and a filter tree
// in the one grammar (filter.ts), over rows under alias `t`. GraphQL pages the
// result with the one runner (runner.ts), by keyset or by offset (offsetList
// below, for REST lists that promise an offset and a total).
import type { RawBuilder } from 'kysely';
import type { TeamAccess } from '../access.js';
import type { Db } from '../db/database.js';
import { compileFilter, type EntitySpec } from './filter.js';
import type { SortKey } from './order.js';
import { type ListSource, offsetPage } from './runner.js';
import { everyRow, windowOf } from './window.js';

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
  const ctx = {
    // Read only by relative dates (read/flat.ts keeps statements that never read the clock).
    get now() {
      return q.now;
    },
    actorId: q.actorId,
    access: q.access,
  };
  const filter = q.filter ? [compileFilter(q.entity, 't', q.filter, ctx, q.filterPath)] : [];
  return [...visible, ...(q.scope ?? []), ...filter];
}

/** What a domain's list query takes from its service: who asks, the filter tree and the page. */
export type ListRequest = Pick<ListScope, 'access' | 'now' | 'actorId'> & {
  filter?: ListScope['filter'];
  includeArchived?: boolean | undefined;
  /** Omitted: every row (short lists such as labels and states). */
  limit?: number | undefined;
  offset?: number | undefined;
};

export interface RestList extends ListScope {
  /** FROM clause with the listed rows as `t`. */
  from: Sql;
  /** Columns to read (default `t.*`). */
  columns?: Sql;
  /** Whether t has archived_at; archived rows are left out unless includeArchived. */
  archivable: boolean;
  includeArchived?: boolean | undefined;
  /** The list's order, ending in a unique column so pages never overlap. */
  sort: SortKey;
  /** Omitted: every row (short lists such as labels and states). */
  limit?: number | undefined;
  offset?: number | undefined;
}

/** A REST list by offset, with its total: the runner over listWhere's conditions. */
export function restList<R>(db: Db, q: RestList): Promise<{ rows: R[]; total: number }> {
  const w = q.limit === undefined ? everyRow(q.sort) : windowOf({ limit: q.limit, offset: q.offset }, q.sort);
  return offsetPage<R>(db, listSource(q), q.sort, w);
}

/** A list's rows and conditions as the runner takes them. */
export const listSource = (
  q: ListScope & {
    from: Sql;
    columns?: Sql;
    archivable: boolean;
    includeArchived?: boolean | null | undefined;
  },
): ListSource => ({
  from: q.from,
  where: listWhere(q),
  archivable: q.archivable,
  includeArchived: q.includeArchived,
  ...(q.columns ? { columns: q.columns } : {}),
});
