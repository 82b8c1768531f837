// Query cost, computed from the document before anything runs: each object
// field 1, each scalar 0.1, and the nodes/edges of a connection multiplied by
// its page size (first/last, default 50). Introspection is free. Depth counts
// nested selections; both limits refuse with an "invalid input" error.
import {
  type FragmentDefinitionNode,
  GraphQLObjectType,
  type GraphQLSchema,
  type GraphQLType,
  getNamedType,
  isCompositeType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
  valueFromASTUntyped,
} from 'graphql';
import { AppError } from '../platform/errors.js';
import { DEFAULT_PAGE } from '../platform/list/paginate.js';

export const MAX_COMPLEXITY = 10_000;
export const MAX_DEPTH = 12;

interface Walk {
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  seen: Set<string>;
}

function pageSize(
  args: readonly { name: { value: string }; value: ValueNode }[] | undefined,
  w: Walk,
): number {
  for (const name of ['first', 'last']) {
    const arg = args?.find((a) => a.name.value === name);
    if (!arg) continue;
    const v = valueFromASTUntyped(arg.value, w.variables);
    if (typeof v === 'number') return Math.max(0, v);
  }
  return DEFAULT_PAGE;
}

function walk(
  set: SelectionSetNode,
  type: GraphQLType,
  w: Walk,
  depth: number,
): { cost: number; depth: number } {
  let cost = 0;
  let deepest = depth;
  const parent = getNamedType(type);
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      const name = sel.name.value;
      if (name.startsWith('__')) continue; // introspection and __typename
      const field =
        parent instanceof GraphQLObjectType || 'getFields' in parent
          ? (parent as GraphQLObjectType).getFields()[name]
          : undefined;
      if (!field) continue; // validation reports unknown fields
      const named = getNamedType(field.type);
      if (!sel.selectionSet || !isCompositeType(named)) {
        cost += 0.1;
        continue;
      }
      const inner = walk(sel.selectionSet, named, w, depth + 1);
      deepest = Math.max(deepest, inner.depth);
      if (named.name.endsWith('Connection') || named.name === 'IssueSearchPayload') {
        // Multiply what is per record (nodes, edges) by the page size.
        const n = pageSize(sel.arguments, w);
        let perRecord = 0;
        let rest = 0;
        for (const child of sel.selectionSet.selections) {
          const part = walk({ kind: Kind.SELECTION_SET, selections: [child] }, named, w, depth + 1).cost;
          if (child.kind === Kind.FIELD && (child.name.value === 'nodes' || child.name.value === 'edges'))
            perRecord += part;
          else rest += part;
        }
        cost += 1 + n * perRecord + rest;
      } else {
        cost += 1 + inner.cost;
      }
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      const t = sel.typeCondition ? (w.schema.getType(sel.typeCondition.name.value) ?? parent) : parent;
      const inner = walk(sel.selectionSet, t, w, depth);
      cost += inner.cost;
      deepest = Math.max(deepest, inner.depth);
    } else {
      const frag = w.fragments[sel.name.value];
      if (!frag || w.seen.has(frag.name.value)) continue;
      w.seen.add(frag.name.value);
      const t = w.schema.getType(frag.typeCondition.name.value) ?? parent;
      const inner = walk(frag.selectionSet, t, w, depth);
      w.seen.delete(frag.name.value);
      cost += inner.cost;
      deepest = Math.max(deepest, inner.depth);
    }
  }
  return { cost, depth: deepest };
}

export function measure(
  schema: GraphQLSchema,
  op: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
): { cost: number; depth: number } {
  const root = op.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  if (!root) return { cost: 0, depth: 0 };
  const r = walk(op.selectionSet, root, { schema, fragments, variables, seen: new Set() }, 1);
  return { cost: Math.round(r.cost * 10) / 10, depth: r.depth };
}

export function assertWithinLimits(m: { cost: number; depth: number }): void {
  if (m.cost > MAX_COMPLEXITY) {
    throw new AppError(
      400,
      'QUERY_TOO_COMPLEX',
      `Query too complex: cost ${m.cost} exceeds the limit of ${MAX_COMPLEXITY}. Ask for smaller pages (first/last) or fewer nested connections.`,
    );
  }
  if (m.depth > MAX_DEPTH) {
    throw new AppError(
      400,
      'QUERY_TOO_COMPLEX',
      `Query too deep: depth ${m.depth} exceeds the limit of ${MAX_DEPTH}.`,
    );
  }
}
