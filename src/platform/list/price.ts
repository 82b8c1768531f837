// What reading a list costs beyond its records: the filter, the search, the
// rows skipped. One pricing for both doors, in the points of the GraphQL cost
// model (1 point is about one row read): GraphQL's cost.ts adds it to a
// connection's price, REST's budget hook (http/request-budget.ts) to a list
// request's. A filter is priced by walking the entity specs that compile it
// (entities.ts), so what is priced here is what filter.ts turns into SQL:
// each condition costs, a relation costs the related row it reads, a
// collection (some/every/none/length) the related rows it reads for every
// row tested, and a text compared on a column of any length (descriptions,
// comment bodies) the whole text it reads.
//
// The walk never throws and stops where compileFilter would refuse (deeper
// than FILTER_LIMITS.depth, more than FILTER_LIMITS.nodes): a filter the
// compiler refuses costs no more than its valid part, and is refused anyway.

import {
  attachmentEntity,
  commentEntity,
  customViewEntity,
  cycleEntity,
  historyEntity,
  issueEntity,
  issueRelationEntity,
  labelEntity,
  membershipEntity,
  notificationEntity,
  projectEntity,
  projectMilestoneEntity,
  projectUpdateEntity,
  teamEntity,
  userEntity,
  webhookEntity,
  workflowStateEntity,
} from './entities.js';
import { type EntitySpec, FILTER_LIMITS, type FieldSpec } from './filter.js';
import { DEFAULT_PAGE } from './window.js';

/** The most one request may cost, on either door (GraphQL's MAX_COMPLEXITY). */
export const MAX_REQUEST_PRICE = 10_000;

/**
 * The most a saved view's filter may cost. It runs whenever the view is read
 * (customView.issues, the view's page), where the request prices only its own
 * arguments, so it is priced when saved and held to a quarter of a request.
 */
export const VIEW_FILTER_MAX_PRICE = 2_500;

/** Points of each part of a read; docs/graphql.md ("What a filter costs") explains them. */
export const PRICES = {
  /** Each comparator (eq, in, lt, null, ...) against a value of the row. */
  comparison: 0.5,
  /** Each value of an in/nin list. */
  listValue: 0.01,
  /** A LIKE-family match (contains, startsWith, ...) on a short text (a title, a name). */
  textMatch: 2,
  /** Any comparison of a text of any length (a description, a comment body): it is read whole. */
  longText: 20,
  /** A match on an indexed full-text vector (searchableContent, searchIssues' term, REST q). */
  search: 10,
  /** A related row read to test a relation (a subquery on its key). */
  relatedRow: 1,
  /**
   * Related rows a collection condition reads for each row it tests: the
   * default page of a nested connection, the same guess the selection
   * pricing makes for a connection read without `first`.
   */
  collectionRows: DEFAULT_PAGE,
  /** An existence probe on an index (a relation flag, a collection's `null`). */
  probe: 2,
  /** Each row an offset skips (REST `offset`): read, then thrown away. */
  skippedRow: 0.01,
} as const;

const CEILING = 1e15;
const sat = (n: number) => Math.min(n, CEILING);

/** Entities by the name their GraphQL filter type carries (`IssueFilter` → Issue). */
const BY_NAME = new Map<string, EntitySpec>(
  [
    attachmentEntity,
    commentEntity,
    customViewEntity,
    cycleEntity,
    historyEntity,
    issueEntity,
    issueRelationEntity,
    labelEntity,
    membershipEntity,
    notificationEntity,
    projectEntity,
    projectMilestoneEntity,
    projectUpdateEntity,
    teamEntity,
    userEntity,
    webhookEntity,
    workflowStateEntity,
  ].map((e) => [e.name, e]),
);

/** Filters of lists we do not hold: each condition costs a comparison, nothing nests. */
const UNHELD: EntitySpec = { name: 'Unheld', fields: {} };

/** The entity a GraphQL filter input type filters (`NullableIssueFilter` → Issue); a plain one when we hold none. */
export function entityOfFilterType(typeName: string): EntitySpec {
  const name = typeName.replace(/^Nullable/, '').replace(/Filter$/, '');
  return BY_NAME.get(name) ?? UNHELD;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Nodes walked so far: the walk stops where compileFilter's size check would refuse. */
interface Walk {
  nodes: number;
}
const within = (w: Walk) => ++w.nodes <= FILTER_LIMITS.nodes;

/** What `filter` costs on a list of `entity`, in points; 0 for no filter. */
export function filterPrice(entity: EntitySpec, filter: unknown): number {
  return round(entityPrice(entity, filter, { nodes: 0 }, 1));
}

const round = (n: number) => Math.round(sat(n) * 100) / 100;

function entityPrice(entity: EntitySpec, filter: unknown, w: Walk, depth: number): number {
  if (!isObject(filter) || depth > FILTER_LIMITS.depth) return 0;
  let total = 0;
  for (const key in filter) {
    const value = filter[key];
    if (value == null) continue;
    if (!within(w)) break;
    if (key === 'and' || key === 'or') {
      if (Array.isArray(value)) for (const f of value) total += entityPrice(entity, f, w, depth + 1);
      continue;
    }
    const field = Object.hasOwn(entity.fields, key) ? entity.fields[key] : undefined;
    total += field ? fieldPrice(field, value, w, depth + 1) : PRICES.comparison;
  }
  return sat(total);
}

function fieldPrice(field: FieldSpec, value: unknown, w: Walk, depth: number): number {
  if (!isObject(value) || depth > FILTER_LIMITS.depth) return PRICES.comparison;
  switch (field.kind) {
    case 'scalar':
      return comparatorPrice(value, field.long === true, w, depth);
    case 'constant':
      return PRICES.comparison;
    case 'self':
      return entityPrice(field.entity(), value, w, depth);
    case 'search': {
      let total = 0;
      // `notContains` cannot use the index: every row's vector is read.
      for (const op in value)
        if (value[op] != null) total += op === 'contains' ? PRICES.search : PRICES.longText;
      return total;
    }
    case 'exists':
      return PRICES.probe;
    case 'relation': {
      const { null: isNull, ...rest } = value;
      let total = isNull == null ? 0 : PRICES.probe;
      const keys = Object.keys(rest).filter((k) => rest[k] != null);
      // `{ id: ... }` alone compares the outer row's key (filter.ts), reading no related row.
      if (keys.length === 1 && keys[0] === 'id' && field.fk)
        total += comparatorPrice(rest.id, false, w, depth);
      else if (keys.length > 0) total += PRICES.relatedRow + entityPrice(field.entity(), rest, w, depth);
      return total;
    }
    case 'collection':
      return collectionPrice(field, value, w, depth);
  }
}

/** Reading a collection's rows for each row tested, and testing each of them. */
function collectionPrice(
  field: Extract<FieldSpec, { kind: 'collection' }>,
  value: Record<string, unknown>,
  w: Walk,
  depth: number,
): number {
  const target = field.entity();
  const perRows = (inner: number) => sat(PRICES.collectionRows * (PRICES.relatedRow + inner));
  let total = 0;
  const direct: Record<string, unknown> = {};
  for (const key in value) {
    const v = value[key];
    if (v == null) continue;
    if (!within(w)) break;
    if (key === 'some' || key === 'every' || key === 'none') {
      total += perRows(entityPrice(target, v, w, depth + 1));
    } else if (key === 'null') {
      total += PRICES.probe;
    } else if (key === 'length') {
      total += perRows(0) + comparatorPrice(v, false, w, depth + 1);
    } else if (key === 'and' || key === 'or') {
      if (Array.isArray(v))
        for (const f of v)
          if (isObject(f) && depth < FILTER_LIMITS.depth) total += collectionPrice(field, f, w, depth + 1);
    } else {
      direct[key] = v;
    }
  }
  // Member conditions given on the collection itself mean "some member matches".
  if (Object.keys(direct).length > 0) total += perRows(entityPrice(target, direct, w, depth));
  return sat(total);
}

const LIKE_OPS = new Set([
  'contains',
  'notContains',
  'containsIgnoreCase',
  'notContainsIgnoreCase',
  'containsIgnoreCaseAndAccent',
  'startsWith',
  'notStartsWith',
  'startsWithIgnoreCase',
  'endsWith',
  'notEndsWith',
  'eqIgnoreCase',
  'neqIgnoreCase',
]);

function comparatorPrice(comparator: unknown, long: boolean, w: Walk, depth: number): number {
  if (!isObject(comparator) || depth > FILTER_LIMITS.depth) return PRICES.comparison;
  let total = 0;
  for (const op in comparator) {
    const v = comparator[op];
    if (v == null) continue;
    if (!within(w)) break;
    if (op === 'and' || op === 'or') {
      if (Array.isArray(v)) for (const c of v) total += comparatorPrice(c, long, w, depth + 1);
    } else if (op === 'null') {
      total += PRICES.comparison;
    } else if (long) {
      total += PRICES.longText;
    } else if (LIKE_OPS.has(op)) {
      total += PRICES.textMatch;
    } else if (Array.isArray(v)) {
      total += PRICES.comparison + PRICES.listValue * Math.min(v.length, FILTER_LIMITS.nodes);
    } else {
      total += PRICES.comparison;
    }
  }
  return sat(total);
}

/**
 * A full-text search over issues (GraphQL searchIssues' term, REST `q`):
 * a match on the indexed vector, every match ranked and counted. With
 * `includeComments` it also tests every comment of the issues it looks at,
 * which is priced as the filter that does the same:
 * `comments: { some: { body: { containsIgnoreCase: term } } }`.
 */
export function searchPrice(term: string, includeComments = false): number {
  const comments = includeComments
    ? filterPrice(issueEntity, { comments: { some: { body: { containsIgnoreCase: term } } } })
    : 0;
  return round(PRICES.search + comments);
}
