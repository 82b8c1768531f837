// Keyset pagination over (sort timestamp, id), newest first. One statement
// fetches a page for one list, or a page per parent for many lists at once
// (issue.comments for a whole page of issues) using a window function, so
// nested connections cost one query whatever the number of parents.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../db/database.js';
import { invalidField } from '../errors.js';
import { type CursorValue, decodeCursor, encodeCursor, type SortKey } from './cursor.js';

type Sql = RawBuilder<unknown>;

export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 250;

export interface PageArgs {
  first?: number | null | undefined;
  last?: number | null | undefined;
  after?: string | null | undefined;
  before?: string | null | undefined;
  orderBy?: SortKey | null | undefined;
  includeArchived?: boolean | null | undefined;
}

export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

export interface Page<R> {
  rows: R[];
  /** The cursor of rows[i]; made on demand, since most queries ask for nodes, not edges. */
  cursor(i: number): string;
  pageInfo: PageInfo;
}

export interface ListSource {
  /** FROM clause; the listed rows must be under alias `t`. */
  from: Sql;
  /** Conditions on the rows (scope and filter). */
  where?: Sql[];
  /** Whether t has archived_at: archived rows are hidden unless includeArchived. */
  archivable: boolean;
  /** The columns to read (default `t.*`). */
  columns?: Sql;
}

interface Window {
  limit: number;
  backward: boolean;
  cursor: CursorValue | undefined;
  key: SortKey;
}

function count(v: number | null | undefined, name: string): number | undefined {
  if (v == null) return undefined;
  if (!Number.isInteger(v) || v < 0 || v > MAX_PAGE) {
    throw invalidField(name, `must be an integer from 0 to ${MAX_PAGE}`);
  }
  return v;
}

/** Validates paging arguments: default 50, at most 250, cursors that match the sort key. */
export function pageWindow(args: PageArgs): Window {
  const first = count(args.first, 'first');
  const last = count(args.last, 'last');
  const key: SortKey = args.orderBy === 'updatedAt' ? 'updatedAt' : 'createdAt';
  const backward = first === undefined && (last !== undefined || Boolean(args.before));
  const limit = (backward ? last : first) ?? DEFAULT_PAGE;
  const raw = backward ? args.before : args.after;
  const cursor = raw ? decodeCursor(raw, backward ? 'before' : 'after') : undefined;
  if (cursor && cursor.key !== key) {
    throw invalidField(backward ? 'before' : 'after', `was made for orderBy: ${cursor.key}`);
  }
  return { limit, backward, cursor, key };
}

const COLUMN: Record<SortKey, string> = { createdAt: 't.created_at', updatedAt: 't.updated_at' };

function conditions(source: ListSource, args: PageArgs, w: Window): Sql[] {
  const parts: Sql[] = [...(source.where ?? [])];
  if (source.archivable && !args.includeArchived) parts.push(sql`t.archived_at is null`);
  if (w.cursor) {
    parts.push(pastPosition(sql.raw(COLUMN[w.key]), sql`t.id`, w.cursor, w.backward ? 'asc' : 'desc'));
  }
  return parts;
}

/** A row's position as a cursor holds it: the timestamp in UTC to the microsecond. */
export const positionText = (column: Sql) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Rows strictly past a cursor's position in a (timestamp, id) order; `desc` is newest first. */
export const pastPosition = (column: Sql, id: Sql, cursor: CursorValue, dir: 'asc' | 'desc') =>
  sql<SqlBool>`(${column}, ${id}) ${sql.raw(dir === 'desc' ? '<' : '>')} (${cursor.value}::timestamptz, ${cursor.id}::uuid)`;

const SORT_TEXT = (key: SortKey) => positionText(sql.raw(COLUMN[key]));

type Raw = Record<string, unknown> & { __sort: string; id: string };

// Rows keep their __sort (and __parent, __rn) columns: deleting properties
// would turn every row into a slow dictionary-mode object.
function toPage<R>(rows: Raw[], args: PageArgs, w: Window): Page<R> {
  const more = rows.length > w.limit;
  const kept = rows.length > w.limit ? rows.slice(0, w.limit) : rows;
  if (w.backward) kept.reverse();
  const cursor = (i: number) => encodeCursor({ key: w.key, value: kept[i]!.__sort, id: kept[i]!.id });
  return {
    rows: kept as unknown as R[],
    cursor,
    pageInfo: {
      hasNextPage: w.backward ? Boolean(args.before) : more,
      hasPreviousPage: w.backward ? more : Boolean(args.after),
      startCursor: kept.length ? cursor(0) : null,
      endCursor: kept.length ? cursor(kept.length - 1) : null,
    },
  };
}

const where = (parts: Sql[]) => (parts.length ? sql`where ${sql.join(parts, sql` and `)}` : sql``);

/**
 * One page of one list. `extra` adds columns computed per row of the page
 * (correlated subqueries over the page's row, named `page`): GraphQL reads a
 * page's relations in the page's own statement that way (graphql/plan/).
 * `countAll` also counts every row of the list (past the cursor or not) in
 * the same statement, so a page and its total hold one connection, once.
 */
export async function loadPage<R>(
  db: Db,
  source: ListSource,
  args: PageArgs,
  extra?: Sql[],
  countAll = false,
): Promise<Page<R> & { total?: number }> {
  const w = pageWindow(args);
  const total = countAll
    ? sql`(select count(*) from ${source.from} ${where(conditions(source, args, { ...w, cursor: undefined }))})`
    : undefined;
  const countApart = async () =>
    total ? Number((await sql<{ n: string }>`select ${total} as n`.execute(db)).rows[0]!.n) : undefined;
  if (w.limit === 0) return withTotal(toPage([], args, w), await countApart());
  const dir = sql.raw(w.backward ? 'asc' : 'desc');
  const page = sql`
    select ${source.columns ?? sql`t.*`}, ${SORT_TEXT(w.key)} as __sort${total ? sql`, ${total} as __total` : sql``}
    from ${source.from}
    ${where(conditions(source, args, w))}
    order by ${sql.raw(COLUMN[w.key])} ${dir}, t.id ${dir}
    limit ${w.limit + 1}`;
  // __sort orders as its timestamp does (fixed-width UTC text), so the outer order is the page's.
  const { rows } = await (extra?.length
    ? sql<Raw>`select page.*, ${sql.join(extra)} from (${page}) as page order by page.__sort ${dir}, page.id ${dir}`
    : sql<Raw>`${page}`
  ).execute(db);
  if (!total) return toPage<R>(rows, args, w);
  // An empty page past a cursor says nothing of the rows before it: counted apart.
  const counted = rows.length ? Number(rows[0]!['__total']) : w.cursor ? await countApart() : 0;
  return withTotal(toPage<R>(rows, args, w), counted);
}

const withTotal = <R>(page: Page<R>, total: number | undefined): Page<R> & { total?: number } =>
  total === undefined ? page : { ...page, total };

/**
 * One parent's page of a list as a JSON array, for a column of the parent's
 * statement: `source.where` ties the rows to the parent. Read it back with
 * `pageOfRows`. The same window, conditions and order as `loadPages`.
 */
export function pageJson(source: ListSource, args: PageArgs): Sql {
  const w = pageWindow(args);
  if (w.limit === 0) return sql`'[]'::json`;
  const dir = sql.raw(w.backward ? 'asc' : 'desc');
  return sql`(select coalesce(json_agg(x), '[]') from (
    select ${source.columns ?? sql`t.*`}, ${SORT_TEXT(w.key)} as __sort from ${source.from}
    ${where(conditions(source, args, w))}
    order by ${sql.raw(COLUMN[w.key])} ${dir}, t.id ${dir}
    limit ${w.limit + 1}) x)`;
}

/** A page from the rows `pageJson` read (with __sort, one past the page when there are more). */
export function pageOfRows<R>(rows: Record<string, unknown>[], args: PageArgs): Page<R> {
  return toPage<R>(rows as Raw[], args, pageWindow(args));
}

/**
 * One page per parent in a single statement. `parentKey` is the SQL of the
 * parent id for each row (e.g. t.issue_id, or a link table's column).
 */
export async function loadPages<R>(
  db: Db,
  source: ListSource & { parentKey: Sql },
  parentIds: readonly string[],
  args: PageArgs,
): Promise<Map<string, Page<R>>> {
  const w = pageWindow(args);
  const out = new Map<string, Page<R>>();
  const byParent = new Map<string, Raw[]>();
  if (w.limit > 0 && parentIds.length > 0) {
    const dir = sql.raw(w.backward ? 'asc' : 'desc');
    const parts = [
      sql`${source.parentKey} in (${sql.join(parentIds.map((id) => sql`${id}::uuid`))})`,
      ...conditions(source, args, w),
    ];
    const { rows } = await sql<Raw & { __parent: string }>`
      select * from (
        select ${source.columns ?? sql`t.*`}, ${source.parentKey}::text as __parent, ${SORT_TEXT(w.key)} as __sort,
          row_number() over (partition by ${source.parentKey}
            order by ${sql.raw(COLUMN[w.key])} ${dir}, t.id ${dir}) as __rn
        from ${source.from}
        ${where(parts)}
      ) x where x.__rn <= ${w.limit + 1}
      order by x.__parent, x.__rn`.execute(db);
    for (const r of rows) {
      const list = byParent.get(r.__parent) ?? [];
      list.push(r);
      byParent.set(r.__parent, list);
    }
  }
  for (const id of parentIds) out.set(id, toPage<R>(byParent.get(id) ?? [], args, w));
  return out;
}
