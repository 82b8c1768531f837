// The one list runner. Every list (REST offset lists, GraphQL connections,
// nested connections, the REST issue list's pieces) is rows under alias `t`,
// conditions (query.ts listWhere: visibility, scope, filter tree), a sort key
// (order.ts) and a window (window.ts, limits checked there once). One
// statement reads a page, one past it to know whether more follow, and its
// total when the list promises one: a count under the same conditions, or
// the kept count the caller names. Many parents' pages (issue.comments for a
// page of issues) are one statement too, by a window function.
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../db/database.js';
import { encodeCursor, orderSql, partText, pastSql, reversed, type SortKey } from './order.js';
import { pageBound, type Window } from './window.js';

type Sql = RawBuilder<unknown>;

export interface ListSource {
  /** FROM clause; the listed rows are under alias `t`. */
  from: Sql;
  /** Conditions on the rows (visibility, scope, filter: listWhere). */
  where?: Sql[];
  /** Whether t has archived_at: archived rows are left out unless includeArchived. */
  archivable: boolean;
  includeArchived?: boolean | null | undefined;
  /** The columns to read (default `t.*`). */
  columns?: Sql;
}

export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

export interface Page<R> {
  rows: R[];
  /** The cursor of rows[i]; made on demand, since most readers ask for nodes, not edges. */
  cursor(i: number): string;
  pageInfo: PageInfo;
}

export interface PageOptions {
  /** The list's total: `true` counts the conditions; SQL gives a kept count instead. */
  total?: boolean | Sql | undefined;
  /** Read each row's position for its cursor (default true; offset lists hand out none). */
  cursors?: boolean | undefined;
}

type Raw = Record<string, unknown>;

const whereSql = (parts: Sql[]) => (parts.length ? sql`where ${sql.join(parts, sql` and `)}` : sql``);

/** The list's own conditions, without the window's position. */
export function conditions(source: ListSource): Sql[] {
  const parts = [...(source.where ?? [])];
  if (source.archivable && !source.includeArchived) parts.push(sql`t.archived_at is null`);
  return parts;
}

/** The sort as read (reversed for a backward page) and the conditions with the cursor's. */
function windowed(source: ListSource, sort: SortKey, w: Window) {
  const read = w.backward ? reversed(sort) : sort;
  const parts = conditions(source);
  if (w.cursor) parts.push(pastSql(read, w.cursor));
  return { read, parts };
}

/** Each part's position as text (`__c0`, ...), from which a row's cursor is made. */
const positions = (sort: SortKey) => sort.parts.map((p, i) => sql`${partText(p)} as ${sql.ref(`__c${i}`)}`);

const cursorOf = (sort: SortKey, row: Raw) =>
  encodeCursor(
    sort,
    sort.parts.map((_, i) => row[`__c${i}`] as string | null),
  );

// Rows keep their helper columns (__c0, __parent, ...): deleting properties
// would turn every row into a slow dictionary-mode object.
function toPage<R>(rows: Raw[], sort: SortKey, w: Window): Page<R> {
  const more = rows.length > w.limit;
  const kept = more ? rows.slice(0, w.limit) : rows;
  if (w.backward) kept.reverse();
  const cursor = (i: number) => cursorOf(sort, kept[i]!);
  return {
    rows: kept as unknown as R[],
    cursor,
    pageInfo: {
      hasNextPage: w.backward ? w.fromCursor : more,
      hasPreviousPage: w.backward ? more : w.fromCursor || w.offset > 0,
      startCursor: kept.length ? cursor(0) : null,
      endCursor: kept.length ? cursor(kept.length - 1) : null,
    },
  };
}

const countOf = (source: ListSource) =>
  sql`(select count(*) from ${source.from} ${whereSql(conditions(source))})`;

/** How many rows a list holds, under the same conditions as its pages. */
export async function listTotal(db: Db, source: ListSource): Promise<number> {
  const { rows } = await sql<{ n: string }>`select ${countOf(source)} as n`.execute(db);
  return Number(rows[0]!.n);
}

/**
 * One page of one list, and its total when asked, in one statement. A page
 * past the end (empty, after a cursor or an offset) counts its total apart,
 * since it has no row to carry it.
 */
export async function listPage<R>(
  db: Db,
  source: ListSource,
  sort: SortKey,
  w: Window,
  opts: PageOptions = {},
): Promise<Page<R> & { total?: number }> {
  const total = opts.total === true ? countOf(source) : opts.total || undefined;
  const totalApart = async () =>
    total ? Number((await sql<{ n: string }>`select ${total} as n`.execute(db)).rows[0]!.n) : undefined;
  if (w.limit === 0) return withTotal(toPage([], sort, w), await totalApart());
  const { read, parts } = windowed(source, sort, w);
  const cursors = opts.cursors !== false;
  const { rows } = await sql<Raw>`
    select ${sql.join([
      source.columns ?? sql`t.*`,
      ...(cursors ? positions(sort) : []),
      ...(total ? [sql`${total} as __total`] : []),
    ])}
    from ${source.from}
    ${whereSql(parts)}
    order by ${orderSql(read)}
    ${Number.isFinite(w.limit) ? sql`limit ${pageBound(w.limit + 1)}` : sql``}${w.offset ? sql` offset ${w.offset}` : sql``}`.execute(
    db,
  );
  if (!total) return toPage<R>(rows, sort, w);
  const counted = rows.length ? Number(rows[0]!.__total) : w.cursor || w.offset ? await totalApart() : 0;
  return withTotal(toPage<R>(rows, sort, w), counted);
}

const withTotal = <R>(page: Page<R>, total: number | undefined): Page<R> & { total?: number } =>
  total === undefined ? page : { ...page, total };

/**
 * One page per parent in a single statement. `parentKey` is the SQL of the
 * parent id for each row (e.g. t.issue_id, or a link table's column).
 */
export async function listPages<R>(
  db: Db,
  source: ListSource & { parentKey: Sql },
  parentIds: readonly string[],
  sort: SortKey,
  w: Window,
): Promise<Map<string, Page<R>>> {
  const byParent = new Map<string, Raw[]>();
  if (w.limit > 0 && parentIds.length > 0) {
    const { read, parts } = windowed(source, sort, w);
    parts.unshift(sql`${source.parentKey} in (${sql.join(parentIds.map((id) => sql`${id}::uuid`))})`);
    const { rows } = await sql<Raw & { __parent: string }>`
      select * from (
        select ${sql.join([source.columns ?? sql`t.*`, ...positions(sort)])}, ${source.parentKey}::text as __parent,
          row_number() over (partition by ${source.parentKey} order by ${orderSql(read)}) as __rn
        from ${source.from}
        ${whereSql(parts)}
      ) x where x.__rn <= ${pageBound(w.limit + 1)}
      order by x.__parent, x.__rn`.execute(db);
    for (const r of rows) {
      const list = byParent.get(r.__parent) ?? [];
      list.push(r);
      byParent.set(r.__parent, list);
    }
  }
  const out = new Map<string, Page<R>>();
  for (const id of parentIds) out.set(id, toPage<R>(byParent.get(id) ?? [], sort, w));
  return out;
}

/**
 * A REST offset page: the rows (without the total's column, which presenters
 * spreading a row would pass on) and the total.
 */
export async function offsetPage<R>(
  db: Db,
  source: ListSource,
  sort: SortKey,
  w: Window,
): Promise<{ rows: R[]; total: number }> {
  const page = await listPage<Raw>(db, source, sort, w, { total: true, cursors: false });
  for (const r of page.rows) delete r.__total;
  return { rows: page.rows as R[], total: page.total ?? 0 };
}
