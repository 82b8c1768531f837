// A page request checked once for every list, REST or GraphQL: the one page
// size limit, the offset, and the cursor decoded against the list's sort key.
// Errors name the parameter or argument (limit, first, after, ...).
import { type RawBuilder, sql } from 'kysely';
import { invalidField } from '../errors.js';
import { decodeCursor, type Position, type SortKey, type TimeKey, timeKey } from './order.js';

export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 250;

/**
 * A page's size (a LIMIT, a row-number bound) written into the statement rather than sent as a
 * parameter. PostgreSQL prices an unknown LIMIT as a tenth of the rows, so a prepared statement's
 * generic plan looked dearer than each custom one and every run was planned again: a board
 * column's page took 2.2 ms of PostgreSQL's CPU, 1.4 ms with its plan kept (docs/benchmarks.md,
 * "Issue 25, fourth stop"). Page sizes take few values, so the statements stay few; offsets,
 * which take many, stay parameters (and a zero offset is left out).
 */
export function pageBound(n: number): RawBuilder<number> {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a page bound: ${n}`);
  return sql.lit(n);
}

/** What a caller may ask: keyset (first/last/after/before) or offset (limit/offset, REST's `after`). */
export interface PageRequest {
  first?: number | null | undefined;
  last?: number | null | undefined;
  after?: string | null | undefined;
  before?: string | null | undefined;
  limit?: number | null | undefined;
  offset?: number | null | undefined;
}

/** A GraphQL connection's arguments. */
export interface PageArgs extends Pick<PageRequest, 'first' | 'last' | 'after' | 'before'> {
  orderBy?: TimeKey | null | undefined;
  includeArchived?: boolean | null | undefined;
}

export interface Window<K extends string = string> {
  key: K;
  /** Rows in the page. */
  limit: number;
  offset: number;
  /** Read from a `before` cursor or `last`: the page ends where the cursor is. */
  backward: boolean;
  cursor: Position | undefined;
  /** A cursor was given (so rows exist on the side it came from). */
  fromCursor: boolean;
}

function count(v: number | null | undefined, name: string, min: number): number | undefined {
  if (v == null) return undefined;
  if (!Number.isInteger(v) || v < min || v > MAX_PAGE) {
    throw invalidField(name, `must be an integer from ${min} to ${MAX_PAGE}`);
  }
  return v;
}

/**
 * The window of a page request in `sort` (which a backward page reads
 * reversed). `limit` counts from 1, as REST lists promise; `first`/`last`
 * from 0, as connections allow. Cursors and offsets do not combine.
 */
export function windowOf<K extends string>(
  req: PageRequest,
  sort: SortKey<K> | undefined,
  defaultLimit = DEFAULT_PAGE,
): Window<K | ''> {
  const first = count(req.first, 'first', 0);
  const last = count(req.last, 'last', 0);
  const limit = count(req.limit, 'limit', 1);
  const offset = req.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0) throw invalidField('offset', 'must be an integer >= 0');
  const backward = first === undefined && limit === undefined && (last !== undefined || Boolean(req.before));
  const raw = backward ? req.before : req.after;
  const field = backward ? 'before' : 'after';
  if (raw && offset > 0) throw invalidField('offset', `cannot be combined with ${field}`);
  if (raw && !sort) throw invalidField(field, 'does not work with this order: page by offset');
  return {
    key: sort?.name ?? '',
    limit: (backward ? last : (first ?? limit)) ?? defaultLimit,
    offset,
    backward,
    cursor: raw && sort ? decodeCursor(raw, sort, field) : undefined,
    fromCursor: Boolean(raw),
  };
}

/** A connection's window: newest first by createdAt (or updatedAt). */
export function pageWindow(args: PageArgs): Window<TimeKey> {
  const key = args.orderBy === 'updatedAt' ? 'updatedAt' : 'createdAt';
  return windowOf(args, timeKey(key, 'desc')) as Window<TimeKey>;
}

/** Every row at once, for the short lists that promise all of theirs (labels, states, teams). */
export const everyRow = <K extends string>(sort: SortKey<K>): Window<K> => ({
  key: sort.name,
  limit: Number.POSITIVE_INFINITY,
  offset: 0,
  backward: false,
  cursor: undefined,
  fromCursor: false,
});
