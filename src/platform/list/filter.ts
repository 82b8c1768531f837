// One filter grammar for every list (GraphQL connections and REST lists):
// a filter object has a comparator object per field, fields combine with AND,
// `and`/`or` take lists of filters, relations nest (state.type, assignee.email),
// collections take some/every/length, optional values take `null`.
// compileFilter turns it into one SQL boolean expression over a table alias;
// relations become EXISTS subqueries, so no join multiplies rows.
import { type RawBuilder, sql } from 'kysely';
import type { TeamAccess, Visibility } from '../access.js';
import { invalidField } from '../errors.js';
import { isUuid } from '../ids.js';
import { resolveDate, resolveDateTime } from './relative-time.js';

export type ScalarType = 'string' | 'number' | 'date' | 'timelessDate' | 'boolean' | 'id';
type Sql = RawBuilder<unknown>;

export type FieldSpec =
  /** A value of the row: `expr(alias)` is its SQL. */
  | {
      kind: 'scalar';
      type: ScalarType;
      expr: (a: string, ctx: FilterContext) => Sql;
      /**
       * A long text column (comment bodies, descriptions) with a trigram GIN
       * index: compared only through that index (compileLongText).
       */
      longText?: { table: string; column: string };
      /** A text of any length, read whole to be compared: list/price.ts prices it higher. */
      long?: boolean;
    }
  /** A concept we do not hold: compared as this constant (null = absent). */
  | { kind: 'constant'; type: ScalarType; value: string | number | boolean | null }
  /** At most one related row. `join` gives the FROM and the correlation to the outer row. */
  | {
      kind: 'relation';
      entity: () => EntitySpec;
      join: (outer: string, inner: string) => { from: Sql; on: Sql };
      /** SQL true when the relation is empty (e.g. the foreign key is null). */
      isNull: (outer: string) => Sql;
      /** The outer row's foreign key: `{ id: ... }` alone is compared on it, no subquery. */
      fk?: (outer: string) => Sql;
      /** The related row is in the outer row's team, so whoever sees one sees the other. */
      sameTeam?: boolean;
    }
  /** Any number of related rows. */
  | {
      kind: 'collection';
      entity: () => EntitySpec;
      join: (outer: string, inner: string) => { from: Sql; on: Sql };
    }
  /**
   * Whether some related row exists (the schema's RelationExistsComparator:
   * `eq`/`neq` with true or false). `exists` is the SQL test for the outer row,
   * with `inner` free for its subquery alias; it applies visibility itself.
   */
  | { kind: 'exists'; exists: (outer: string, inner: string, ctx: FilterContext) => Sql }
  /** The same row seen as another entity (e.g. a project's status). */
  | { kind: 'self'; entity: () => EntitySpec }
  /**
   * Full-text search: `contains` matches the words of its text (list/search.ts),
   * `notContains` the rest; a text without words matches everything.
   */
  | { kind: 'search'; match: (a: string, term: string) => Sql | null };

export interface EntitySpec {
  name: string;
  fields: Record<string, FieldSpec>;
  /** Which rows the caller may see (platform/access.ts); absent: every row. */
  visible?: Visibility;
  /** The rule binds admins too (personal saved views), so lists apply it even with full access. */
  bindsAdmins?: boolean;
}

export interface FilterContext {
  now: Date;
  /** The caller, for `isMe`. */
  actorId?: string;
  /**
   * The caller's team access: related rows they may not see are left out of
   * relation and collection conditions, so a filter cannot probe them.
   */
  access?: TeamAccess;
}

/** The join condition of a related row, narrowed to the rows the caller may see. */
function visibleOn(target: EntitySpec, inner: string, on: Sql, ctx: FilterContext): Sql {
  if (!ctx.access || !target.visible || ctx.access.all) return on;
  return sql`${on} and ${target.visible(inner, ctx.access)}`;
}

const TRUE = sql<boolean>`true`;
const FALSE = sql<boolean>`false`;
// Subquery aliases are numbered per compiled filter. The underscore keeps them
// clear of SQL keywords: a bare `f` + counter once produced `for` and `from`.
const aliasCounts = new WeakMap<FilterContext, number>();
function nextAlias(ctx: FilterContext): string {
  const n = (aliasCounts.get(ctx) ?? 0) + 1;
  aliasCounts.set(ctx, n);
  return `f_${n}`;
}

const and = (parts: Sql[]): Sql =>
  parts.length === 0 ? TRUE : parts.length === 1 ? parts[0]! : sql`(${sql.join(parts, sql` and `)})`;
const or = (parts: Sql[]): Sql =>
  parts.length === 0 ? FALSE : parts.length === 1 ? parts[0]! : sql`(${sql.join(parts, sql` or `)})`;
const not = (e: Sql): Sql => sql`(not coalesce(${e}, false))`;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What one filter may hold. Each nested object can add a subquery, and
 * PostgreSQL runs out of stack (PGlite at about 150 levels) or memory
 * (PostgreSQL at about 1,000) long before any real filter gets there; the
 * deepest real ones (a relation of a relation inside and/or) use about 8.
 */
export const FILTER_LIMITS = {
  /** Objects nested inside one another, the filter itself being 1. */
  depth: 16,
  /** Objects, lists and values in all. */
  nodes: 1_000,
  /** Characters of one string value. */
  stringLength: 1_000,
} as const;

/** Refuses a filter over the limits, naming where, before anything is compiled. */
function checkSize(filter: unknown, path: string): void {
  let nodes = 0;
  const visit = (v: unknown, at: string, depth: number) => {
    if (++nodes > FILTER_LIMITS.nodes) {
      throw invalidField(path, `has more than ${FILTER_LIMITS.nodes} conditions and values`);
    }
    if (typeof v === 'string' && v.length > FILTER_LIMITS.stringLength) {
      throw invalidField(at, `must be at most ${FILTER_LIMITS.stringLength} characters`);
    }
    if (Array.isArray(v)) {
      for (const [i, x] of v.entries()) visit(x, `${at}[${i}]`, depth);
    } else if (isObject(v)) {
      if (depth > FILTER_LIMITS.depth) {
        throw invalidField(at, `nests deeper than ${FILTER_LIMITS.depth} levels`);
      }
      for (const [k, x] of Object.entries(v)) visit(x, `${at}.${k}`, depth + 1);
    }
  };
  visit(filter, path, 1);
}

/** Compiles `filter` for rows of `entity` under `alias`; `path` names the input for errors. */
export function compileFilter(
  entity: EntitySpec,
  alias: string,
  filter: Record<string, unknown> | null | undefined,
  ctx: FilterContext,
  path = 'filter',
): RawBuilder<boolean> {
  checkSize(filter, path);
  return compileEntity(entity, alias, filter, ctx, path) as RawBuilder<boolean>;
}

function compileEntity(
  entity: EntitySpec,
  alias: string,
  filter: Record<string, unknown> | null | undefined,
  ctx: FilterContext,
  path: string,
): Sql {
  if (filter == null) return TRUE;
  if (!isObject(filter)) throw invalidField(path, 'must be an object');
  const parts: Sql[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (value == null) continue;
    const at = `${path}.${key}`;
    if (key === 'and' || key === 'or') {
      if (!Array.isArray(value)) throw invalidField(at, 'must be a list of filters');
      const subs = value.map((f, i) => compileEntity(entity, alias, f as never, ctx, `${at}[${i}]`));
      parts.push(key === 'and' ? and(subs) : or(subs));
      continue;
    }
    const field = entity.fields[key];
    if (!field) throw invalidField(at, `is not held by this service, so it cannot be filtered on`);
    parts.push(compileField(field, alias, value, ctx, at));
  }
  return and(parts);
}

function compileField(
  field: FieldSpec,
  alias: string,
  value: unknown,
  ctx: FilterContext,
  path: string,
): Sql {
  if (!isObject(value)) throw invalidField(path, 'must be an object');
  switch (field.kind) {
    case 'scalar':
      if (field.longText) return compileLongText(field.longText, alias, value, ctx, path);
      return compileComparator(field.expr(alias, ctx), field.type, value, ctx, path);
    case 'constant':
      return compileConstant(field, value, path);
    case 'self':
      return compileEntity(field.entity(), alias, value, ctx, path);
    case 'search':
      return compileSearch(field, alias, value, path);
    case 'relation': {
      const { null: wantNull, ...rest } = value;
      const parts: Sql[] = [];
      const target = field.entity();
      const related = (cond: (inner: string) => Sql) => {
        const inner = nextAlias(ctx);
        const j = field.join(alias, inner);
        return sql`exists (select 1 from ${j.from} where ${visibleOn(target, inner, j.on, ctx)} and ${cond(inner)})`;
      };
      // A related row the caller may not see counts as no related row.
      const isNull = () =>
        ctx.access && target.visible && !ctx.access.all ? not(related(() => TRUE)) : field.isNull(alias);
      if (wantNull === true) parts.push(isNull());
      if (wantNull === false) parts.push(not(isNull()));
      const byKey = field.fk && onlyIdComparison(rest);
      const seen = !ctx.access || ctx.access.all || field.sameTeam || !target.visible;
      if (byKey && seen) {
        // `state: { id: { eq: X } }` is `state_id = X`: the index on the key serves it.
        parts.push(compileComparator(field.fk!(alias), 'id', rest.id as never, ctx, `${path}.id`));
      } else if (Object.values(rest).some((v) => v != null)) {
        parts.push(related((inner) => compileEntity(target, inner, rest, ctx, path)));
      }
      return and(parts);
    }
    case 'collection':
      return compileCollection(field, alias, value, ctx, path);
    case 'exists': {
      for (const [op, v] of Object.entries(value)) {
        if (v != null && op !== 'eq' && op !== 'neq')
          throw invalidField(`${path}.${op}`, 'is not a comparator here');
      }
      return compileComparator(field.exists(alias, nextAlias(ctx), ctx), 'boolean', value, ctx, path);
    }
  }
}

const KEY_COMPARATORS = new Set(['eq', 'neq', 'in', 'nin']);

/** `{ id: { eq | neq | in | nin } }` and nothing else. */
function onlyIdComparison(value: Record<string, unknown>): boolean {
  const keys = Object.keys(value).filter((k) => value[k] != null);
  if (keys.length !== 1 || keys[0] !== 'id' || !isObject(value.id)) return false;
  const ops = Object.keys(value.id).filter((k) => (value.id as Record<string, unknown>)[k] != null);
  return ops.length > 0 && ops.every((op) => KEY_COMPARATORS.has(op));
}

function compileSearch(
  field: Extract<FieldSpec, { kind: 'search' }>,
  alias: string,
  value: Record<string, unknown>,
  path: string,
): Sql {
  const parts: Sql[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (v == null) continue;
    if (key !== 'contains' && key !== 'notContains')
      throw invalidField(`${path}.${key}`, 'is not a comparator here');
    if (typeof v !== 'string') throw invalidField(`${path}.${key}`, 'must be a string');
    const match = field.match(alias, v);
    if (match) parts.push(key === 'contains' ? match : not(match));
  }
  return and(parts);
}

function compileCollection(
  field: Extract<FieldSpec, { kind: 'collection' }>,
  alias: string,
  value: Record<string, unknown>,
  ctx: FilterContext,
  path: string,
): Sql {
  const target = field.entity();
  const parts: Sql[] = [];
  const exists = (cond: (inner: string) => Sql) => {
    const inner = nextAlias(ctx);
    const j = field.join(alias, inner);
    return sql`exists (select 1 from ${j.from} where ${visibleOn(target, inner, j.on, ctx)} and ${cond(inner)})`;
  };
  const direct: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v == null) continue;
    const at = `${path}.${key}`;
    if (key === 'some') {
      parts.push(exists((i) => compileEntity(target, i, v as never, ctx, at)));
    } else if (key === 'every') {
      parts.push(not(exists((i) => not(compileEntity(target, i, v as never, ctx, at)))));
    } else if (key === 'none') {
      parts.push(not(exists((i) => compileEntity(target, i, v as never, ctx, at))));
    } else if (key === 'null') {
      const any = exists(() => TRUE);
      parts.push(v === true ? not(any) : any);
    } else if (key === 'length') {
      if (!isObject(v)) throw invalidField(at, 'must be an object');
      const inner = nextAlias(ctx);
      const j = field.join(alias, inner);
      const count = sql`(select count(*) from ${j.from} where ${visibleOn(target, inner, j.on, ctx)})`;
      parts.push(compileComparator(count, 'number', v, ctx, at));
    } else if (key === 'and' || key === 'or') {
      if (!Array.isArray(v)) throw invalidField(at, 'must be a list of filters');
      const subs = v.map((f, i) => compileCollection(field, alias, f as never, ctx, `${at}[${i}]`));
      parts.push(key === 'and' ? and(subs) : or(subs));
    } else {
      direct[key] = v;
    }
  }
  // Member conditions given directly on the collection mean "some member matches".
  if (Object.keys(direct).length > 0) {
    parts.push(exists((i) => compileEntity(target, i, direct, ctx, path)));
  }
  return and(parts);
}

function compileConstant(
  field: Extract<FieldSpec, { kind: 'constant' }>,
  value: Record<string, unknown>,
  path: string,
): Sql {
  // Absent relations and collections: only "is null" / "is empty" can hold.
  if (field.value === null) {
    if (value.null === true) return TRUE;
    if (isObject(value.length))
      return compileComparator(sql`0`, 'number', value.length as never, { now: new Date() }, path);
    if ('every' in value && Object.keys(value).length === 1) return TRUE;
    return FALSE;
  }
  const literal = field.type === 'boolean' ? sql`${field.value}::boolean` : sql`${field.value}::float8`;
  return compileComparator(literal, field.type, value, { now: new Date() }, path);
}

/** Escapes LIKE wildcards so user text matches literally. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function param(type: ScalarType, v: unknown, ctx: FilterContext, path: string): Sql | null {
  switch (type) {
    case 'id':
      if (typeof v !== 'string') throw invalidField(path, 'must be a string');
      return isUuid(v) ? sql`${v}::uuid` : null; // no row has a malformed id
    case 'string':
      if (typeof v !== 'string') throw invalidField(path, 'must be a string');
      return sql`${v}::text`;
    case 'number':
      if (typeof v !== 'number' || !Number.isFinite(v)) throw invalidField(path, 'must be a number');
      return sql`${v}::float8`;
    case 'boolean':
      if (typeof v !== 'boolean') throw invalidField(path, 'must be true or false');
      return sql`${v}::boolean`;
    case 'date':
      return sql`${resolveDateTime(v, ctx.now, path).toISOString()}::timestamptz`;
    case 'timelessDate':
      return sql`${resolveDate(v, ctx.now, path)}::date`;
  }
}

function list(type: ScalarType, v: unknown, ctx: FilterContext, path: string): Sql[] {
  if (!Array.isArray(v)) throw invalidField(path, 'must be a list');
  return v.map((x, i) => param(type, x, ctx, `${path}[${i}]`)).filter((x): x is Sql => x !== null);
}

const LIKE: Record<
  string,
  { pattern: (s: string) => string; ci?: boolean; accent?: boolean; negate?: boolean }
> = {
  contains: { pattern: (s) => `%${s}%` },
  notContains: { pattern: (s) => `%${s}%`, negate: true },
  containsIgnoreCase: { pattern: (s) => `%${s}%`, ci: true },
  notContainsIgnoreCase: { pattern: (s) => `%${s}%`, ci: true, negate: true },
  containsIgnoreCaseAndAccent: { pattern: (s) => `%${s}%`, ci: true, accent: true },
  startsWith: { pattern: (s) => `${s}%` },
  notStartsWith: { pattern: (s) => `${s}%`, negate: true },
  startsWithIgnoreCase: { pattern: (s) => `${s}%`, ci: true },
  endsWith: { pattern: (s) => `%${s}` },
  notEndsWith: { pattern: (s) => `%${s}`, negate: true },
  eqIgnoreCase: { pattern: (s) => s, ci: true },
  neqIgnoreCase: { pattern: (s) => s, ci: true, negate: true },
};

/**
 * Text a trigram index can look up: pg_trgm takes its trigrams from runs of
 * letters and digits, and a pattern with none of 3 would read the whole index.
 */
export const LONG_TEXT_MIN_RUN = 3;
const INDEXABLE = new RegExp(`[\\p{L}\\p{N}]{${LONG_TEXT_MIN_RUN}}`, 'u');

/**
 * Comparators on a long text column. Each test reads the column's trigram
 * index once for the statement, as an uncorrelated `id in (select ...)` the
 * planner hashes, so no comparator reads (and de-TOASTs) the text of every
 * row it is asked about: 80 conditions over 200 comments of 77 KB were 1.2 GB
 * of text per issue. Negations test the same set and negate outside it. What
 * no index serves (accent folding, lists, order) is refused, as is text
 * without LONG_TEXT_MIN_RUN letters or digits in a row.
 */
function compileLongText(
  target: { table: string; column: string },
  alias: string,
  comparator: Record<string, unknown>,
  ctx: FilterContext,
  path: string,
): Sql {
  if (!isObject(comparator)) throw invalidField(path, 'must be an object');
  const parts: Sql[] = [];
  // long_text_matches (migration 0025) runs the lookup with sequential scans
  // off: the planner cannot see TOASTed text and would otherwise scan it.
  const matching = (op: 'like' | 'ilike' | '=', text: string) =>
    sql`(${sql.ref(`${alias}.id`)} in (select m from long_text_matches(${`${target.table}.${target.column}`}, ${op}, ${text}::text) as m))`;
  for (const [op, v] of Object.entries(comparator)) {
    if (v == null) continue;
    const at = `${path}.${op}`;
    if (op === 'null') {
      if (typeof v !== 'boolean') throw invalidField(at, 'must be true or false');
      const e = sql.ref(`${alias}.${target.column}`);
      parts.push(v ? sql`(${e} is null)` : sql`(${e} is not null)`);
    } else if (op === 'and' || op === 'or') {
      if (!Array.isArray(v)) throw invalidField(at, 'must be a list');
      const subs = v.map((c, i) => compileLongText(target, alias, c as never, ctx, `${at}[${i}]`));
      parts.push(op === 'and' ? and(subs) : or(subs));
    } else if ((op === 'eq' || op === 'neq' || op in LIKE) && !LIKE[op]?.accent) {
      if (typeof v !== 'string') throw invalidField(at, 'must be a string');
      if (!INDEXABLE.test(v)) {
        throw invalidField(
          at,
          `must hold at least ${LONG_TEXT_MIN_RUN} letters or digits in a row on long text (what its index can look up)`,
        );
      }
      const like = LIKE[op];
      // LIKE's default escape character is the backslash escapeLike uses.
      const found = like
        ? matching(like.ci ? 'ilike' : 'like', like.pattern(escapeLike(v)))
        : matching('=', v);
      const negate = like ? like.negate : op === 'neq';
      parts.push(negate ? not(found) : found);
    } else if (op === 'in' || op === 'nin' || op in LIKE || ['lt', 'lte', 'gt', 'gte'].includes(op)) {
      throw invalidField(
        at,
        'is not available on long text, which is compared only through its trigram index: use contains, containsIgnoreCase, startsWith, endsWith, eq or their negations',
      );
    } else {
      throw invalidField(at, 'is not a comparator');
    }
  }
  return and(parts);
}

/** Compiles one comparator object ({ eq, in, gt, contains, null, ... }) against `e`. */
export function compileComparator(
  e: Sql,
  type: ScalarType,
  comparator: Record<string, unknown>,
  ctx: FilterContext,
  path: string,
): Sql {
  if (!isObject(comparator)) throw invalidField(path, 'must be an object');
  const parts: Sql[] = [];
  for (const [op, v] of Object.entries(comparator)) {
    if (v == null) continue;
    const at = `${path}.${op}`;
    if (op === 'null') {
      if (typeof v !== 'boolean') throw invalidField(at, 'must be true or false');
      parts.push(v ? sql`(${e} is null)` : sql`(${e} is not null)`);
    } else if (op === 'and' || op === 'or') {
      if (!Array.isArray(v)) throw invalidField(at, 'must be a list');
      const subs = v.map((c, i) => compileComparator(e, type, c as never, ctx, `${at}[${i}]`));
      parts.push(op === 'and' ? and(subs) : or(subs));
    } else if (op === 'eq' || op === 'neq') {
      const p = param(type, v, ctx, at);
      if (op === 'eq') parts.push(p ? sql`(${e} = ${p})` : FALSE);
      else parts.push(p ? sql`(${e} is distinct from ${p})` : TRUE);
    } else if (op === 'in' || op === 'nin') {
      const ps = list(type, v, ctx, at);
      const inList = ps.length ? sql`(${e} in (${sql.join(ps)}))` : FALSE;
      parts.push(op === 'in' ? inList : sql`(${e} is null or not ${inList})`);
    } else if (op === 'lt' || op === 'lte' || op === 'gt' || op === 'gte') {
      if (type !== 'number' && type !== 'date' && type !== 'timelessDate') {
        throw invalidField(at, 'applies to numbers and dates only');
      }
      const symbol = { lt: '<', lte: '<=', gt: '>', gte: '>=' }[op];
      parts.push(sql`(${e} ${sql.raw(symbol)} ${param(type, v, ctx, at)})`);
    } else if (op in LIKE) {
      if (type !== 'string') throw invalidField(at, 'applies to text only');
      if (typeof v !== 'string') throw invalidField(at, 'must be a string');
      const like = LIKE[op]!;
      const pattern = like.pattern(escapeLike(v));
      let test: Sql;
      if (like.accent) test = sql`(unaccent(lower(${e})) like unaccent(lower(${pattern}::text)) escape '\\')`;
      else if (like.ci) test = sql`(${e} ilike ${pattern}::text escape '\\')`;
      else test = sql`(${e} like ${pattern}::text escape '\\')`;
      parts.push(like.negate ? not(test) : test);
    } else {
      throw invalidField(at, 'is not a comparator');
    }
  }
  return and(parts);
}
