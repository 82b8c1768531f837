// Query cost, computed from the document before anything runs: each object
// field 1, each scalar 0.1, and the nodes/edges of a connection multiplied by
// its page size (first/last, default 50). Introspection is free.
//
// The walk visits each fragment once: its cost and depth are
// remembered by name (a fragment's type condition fixes the type it is read
// as, and the variables are fixed for the request), so a fragment spread
// 2^26 times through 27 levels costs 27 visits, not 2^26. Numbers saturate at
// CEILING, so such a document is priced "huge" without reaching Infinity/NaN.
import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  valueFromASTUntyped,
} from 'graphql';
import { AppError } from '../platform/errors.js';
import { DEFAULT_PAGE } from '../platform/list/paginate.js';

export const MAX_COMPLEXITY = 10_000;
export const MAX_DEPTH = 12;
const CEILING = 1e15;

export interface Measure {
  cost: number;
  /** Nested selection sets, the operation's own included. */
  depth: number;
}

/** What a selection set adds up to; `perRecord` is its nodes/edges part when its type is a connection. */
interface Part {
  flat: number;
  perRecord: number;
  /** Levels of selection sets below this one. */
  depth: number;
}

interface Walk {
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  /** Fragment name → its part; null while it is being walked (a cycle, which validation refuses). */
  memo: Map<string, Part | null>;
}

const sat = (n: number) => Math.min(n, CEILING);
const EMPTY: Part = { flat: 0, perRecord: 0, depth: 0 };

const isPaged = (t: GraphQLNamedType) => t.name.endsWith('Connection') || t.name === 'IssueSearchPayload';

function pageSize(field: FieldNode, w: Walk): number {
  for (const name of ['first', 'last']) {
    const arg = field.arguments?.find((a) => a.name.value === name);
    if (!arg) continue;
    const v = valueFromASTUntyped(arg.value, w.variables);
    if (typeof v === 'number') return Math.max(0, v);
  }
  return DEFAULT_PAGE;
}

function fieldCost(field: FieldNode, parent: GraphQLNamedType, w: Walk): { cost: number; depth: number } {
  const def =
    isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[field.name.value] : undefined;
  if (!def) return { cost: 0, depth: 0 }; // validation reports unknown fields
  const named = getNamedType(def.type);
  if (!field.selectionSet || !isCompositeType(named)) return { cost: 0.1, depth: 0 };
  const inner = walk(field.selectionSet, named, w);
  const depth = inner.depth + 1;
  if (isPaged(named)) return { cost: sat(1 + pageSize(field, w) * inner.perRecord + inner.flat), depth };
  return { cost: sat(1 + inner.flat + inner.perRecord), depth };
}

function walk(set: SelectionSetNode, parent: GraphQLNamedType, w: Walk): Part {
  const paged = isPaged(parent);
  let flat = 0;
  let perRecord = 0;
  let depth = 0;
  const add = (p: Part) => {
    flat = sat(flat + p.flat);
    perRecord = sat(perRecord + p.perRecord);
    depth = Math.max(depth, p.depth);
  };
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      if (sel.name.value.startsWith('__')) continue; // introspection and __typename
      const f = fieldCost(sel, parent, w);
      const perItem = paged && (sel.name.value === 'nodes' || sel.name.value === 'edges');
      add({ flat: perItem ? 0 : f.cost, perRecord: perItem ? f.cost : 0, depth: f.depth });
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      const t = sel.typeCondition ? w.schema.getType(sel.typeCondition.name.value) : parent;
      add(walk(sel.selectionSet, t ?? parent, w));
    } else {
      add(fragmentPart(sel.name.value, parent, w));
    }
  }
  return { flat, perRecord, depth };
}

function fragmentPart(name: string, parent: GraphQLNamedType, w: Walk): Part {
  const known = w.memo.get(name);
  if (known !== undefined) return known ?? EMPTY;
  const frag = w.fragments[name];
  if (!frag) return EMPTY; // validation reports unknown fragments
  w.memo.set(name, null);
  const part = walk(frag.selectionSet, w.schema.getType(frag.typeCondition.name.value) ?? parent, w);
  w.memo.set(name, part);
  return part;
}

export function measure(
  schema: GraphQLSchema,
  op: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
): Measure {
  const root = op.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  if (!root) return { cost: 0, depth: 0 };
  const r = walk(op.selectionSet, root, { schema, fragments, variables, memo: new Map() });
  return { cost: Math.round((r.flat + r.perRecord) * 10) / 10, depth: r.depth + 1 };
}

/** Throws QUERY_TOO_COMPLEX when a measure is over a limit. */
export function assertWithinLimits(m: Measure): void {
  if (m.cost > MAX_COMPLEXITY) {
    const shown = m.cost >= CEILING ? `over ${CEILING}` : String(m.cost);
    throw tooComplex(
      `Query too complex: cost ${shown} exceeds the limit of ${MAX_COMPLEXITY}. Ask for smaller pages (first/last) or fewer nested connections.`,
    );
  }
  if (m.depth > MAX_DEPTH) {
    throw tooComplex(`Query too deep: depth ${m.depth} exceeds the limit of ${MAX_DEPTH}.`);
  }
}

export const tooComplex = (message: string) => new AppError(400, 'QUERY_TOO_COMPLEX', message);
