// Query cost, computed from the document before anything runs: each object
// field 1, each scalar 0.1, and the nodes/edges of a connection multiplied by
// its page size (first/last, default 50). Introspection is priced the same
// way, its lists multiplied by the schema's own sizes (introspection-sizes.ts).
//
// The walk visits each fragment once: its cost, depth and field count are
// remembered by name (a fragment's type condition fixes the type it is read
// as, and the variables are fixed for the request), so a fragment spread
// 2^26 times through 27 levels costs 27 visits, not 2^26. Numbers saturate at
// CEILING, so such a document is priced "huge" without reaching Infinity/NaN.
//
// A field also costs the work its arguments cause: a `filter` is priced by
// platform/list/price.ts (each condition, the related rows a relation or a
// collection condition reads, long texts compared), a search `term` by the
// search it runs, and more with `includeComments`. REST prices its lists with
// the same functions, so a filter costs the same on either door.
import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  isAbstractType,
  isCompositeType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  SchemaMetaFieldDef,
  type SelectionSetNode,
  TypeMetaFieldDef,
  valueFromASTUntyped,
} from 'graphql';
import { AppError } from '../platform/errors.js';
import { entityOfFilterType, filterPrice, MAX_REQUEST_PRICE, searchPrice } from '../platform/list/price.js';
import { DEFAULT_PAGE } from '../platform/list/window.js';
import { type IntrospectionSizes, introspectionSizes } from './introspection-sizes.js';

export const MAX_COMPLEXITY = MAX_REQUEST_PRICE;
export const MAX_DEPTH = 12;
/** Fields one operation may ask for at its root, aliases and fragments included. */
export const MAX_ROOT_FIELDS = 50;
const INTROSPECTION_SCALE = 0.025;
const CEILING = 1e15;

export interface Measure {
  cost: number;
  /** Nested selection sets, the operation's own included. */
  depth: number;
  /** Fields the operation's root selects, counted through fragments. */
  rootFields: number;
}

/** What a selection set adds up to; `perRecord` is its nodes/edges part when its type is a connection. */
interface Part {
  flat: number;
  perRecord: number;
  /** Levels of selection sets below this one. */
  depth: number;
  fields: number;
}

interface Walk {
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  sizes: IntrospectionSizes;
  /** Fragment name → its part; null while it is being walked (a cycle, which validation refuses). */
  memo: Map<string, Part | null>;
  /** Fragment name → the type it is read as (its type condition), set when it is first walked. */
  conditions: Map<string, GraphQLNamedType | undefined>;
}

const sat = (n: number) => Math.min(n, CEILING);
const EMPTY: Part = { flat: 0, perRecord: 0, depth: 0, fields: 0 };

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

function fieldDef(
  parent: GraphQLNamedType,
  name: string,
  w: Walk,
): GraphQLField<unknown, unknown> | undefined {
  if (parent === w.schema.getQueryType()) {
    if (name === '__schema') return SchemaMetaFieldDef;
    if (name === '__type') return TypeMetaFieldDef;
  }
  return isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
}

/** Items an introspection list holds per parent; 1 for everything else (data lists cost as one object). */
function listSize(parent: GraphQLNamedType, def: GraphQLField<unknown, unknown>, w: Walk): number {
  const t = isNonNullType(def.type) ? def.type.ofType : def.type;
  if (!isListType(t) || !parent.name.startsWith('__')) return 1;
  return w.sizes.get(`${parent.name}.${def.name}`) ?? 1;
}

/** The argument given for `name`, as execution sees it (variables and the argument's default applied). */
function argument(field: FieldNode, def: GraphQLField<unknown, unknown>, name: string, w: Walk): unknown {
  const node = field.arguments?.find((a) => a.name.value === name);
  if (node) return valueFromASTUntyped(node.value, w.variables);
  return def.args.find((a) => a.name === name)?.defaultValue;
}

/** What a field's arguments make the database do: its filter and its search. */
function argumentsCost(field: FieldNode, def: GraphQLField<unknown, unknown>, w: Walk): number {
  if (!field.arguments?.length) return 0;
  let cost = 0;
  const filterArg = def.args.find((a) => a.name === 'filter');
  if (filterArg) {
    const entity = entityOfFilterType(getNamedType(filterArg.type).name);
    cost += filterPrice(entity, argument(field, def, 'filter', w));
  }
  if (def.args.some((a) => a.name === 'term')) {
    const term = argument(field, def, 'term', w);
    cost += searchPrice(
      typeof term === 'string' ? term : '',
      argument(field, def, 'includeComments', w) === true,
    );
  }
  return cost;
}

function fieldCost(field: FieldNode, parent: GraphQLNamedType, w: Walk): { cost: number; depth: number } {
  const def = fieldDef(parent, field.name.value, w);
  if (!def) return { cost: 0, depth: 0 }; // validation reports unknown fields
  const named = getNamedType(def.type);
  // Introspection reads no database: a fortieth of the data rule, and its
  // nesting (TypeRef's ofType chain) does not count towards the depth limit.
  const introspective = parent.name.startsWith('__') || named.name.startsWith('__');
  const scale = introspective ? INTROSPECTION_SCALE : 1;
  const args = introspective ? 0 : argumentsCost(field, def, w);
  if (!field.selectionSet || !isCompositeType(named)) return { cost: sat(0.1 * scale + args), depth: 0 };
  const inner = walk(field.selectionSet, named, w);
  const depth = introspective ? 0 : inner.depth + 1;
  if (isPaged(named))
    return { cost: sat(1 + pageSize(field, w) * inner.perRecord + inner.flat + args), depth };
  return { cost: sat(listSize(parent, def, w) * (scale + inner.flat + inner.perRecord) + args), depth };
}

const sum = (a: Part, p: Part): Part => ({
  flat: sat(a.flat + p.flat),
  perRecord: sat(a.perRecord + p.perRecord),
  depth: Math.max(a.depth, p.depth),
  fields: sat(a.fields + p.fields),
});

/**
 * Where the parent is an interface or union, fragments narrowed to different
 * object types never run for the same record (a notification is an
 * IssueNotification or a ProjectNotification, not both), so a record costs
 * what applies to every type plus the dearest type's own fragments.
 */
function walk(set: SelectionSetNode, parent: GraphQLNamedType, w: Walk): Part {
  const paged = isPaged(parent);
  const abstract = isAbstractType(parent);
  let common = EMPTY;
  const narrowed = new Map<string, Part>();
  const add = (p: Part, to?: GraphQLNamedType) => {
    if (abstract && to && to !== parent && isObjectType(to)) {
      narrowed.set(to.name, sum(narrowed.get(to.name) ?? EMPTY, p));
    } else common = sum(common, p);
  };
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      if (sel.name.value === '__typename') {
        add({ ...EMPTY, fields: 1 });
        continue;
      }
      const f = fieldCost(sel, parent, w);
      const perItem = paged && (sel.name.value === 'nodes' || sel.name.value === 'edges');
      add({ flat: perItem ? 0 : f.cost, perRecord: perItem ? f.cost : 0, depth: f.depth, fields: 1 });
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      const t = (sel.typeCondition ? w.schema.getType(sel.typeCondition.name.value) : parent) ?? parent;
      add(walk(sel.selectionSet, t, w), t);
    } else {
      const part = fragmentPart(sel.name.value, parent, w);
      add(part, w.conditions.get(sel.name.value));
    }
  }
  // Depth and width stay whole: every narrowed fragment is still walked and counted.
  let dearest = EMPTY;
  let depth = 0;
  let fields = 0;
  for (const p of narrowed.values()) {
    if (p.flat + p.perRecord > dearest.flat + dearest.perRecord) dearest = p;
    depth = Math.max(depth, p.depth);
    fields = sat(fields + p.fields);
  }
  return sum(common, { flat: dearest.flat, perRecord: dearest.perRecord, depth, fields });
}

function fragmentPart(name: string, parent: GraphQLNamedType, w: Walk): Part {
  const known = w.memo.get(name);
  if (known !== undefined) return known ?? EMPTY;
  const frag = w.fragments[name];
  if (!frag) return EMPTY; // validation reports unknown fragments
  w.memo.set(name, null);
  const type = w.schema.getType(frag.typeCondition.name.value);
  w.conditions.set(name, type);
  const part = walk(frag.selectionSet, type ?? parent, w);
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
  if (!root) return { cost: 0, depth: 0, rootFields: 0 };
  const w: Walk = {
    schema,
    fragments,
    variables,
    sizes: introspectionSizes(schema),
    memo: new Map(),
    conditions: new Map(),
  };
  const r = walk(op.selectionSet, root, w);
  return { cost: Math.round((r.flat + r.perRecord) * 10) / 10, depth: r.depth + 1, rootFields: r.fields };
}

/** Throws QUERY_TOO_COMPLEX when a measure is over a limit. */
export function assertWithinLimits(m: Measure): void {
  if (m.rootFields > MAX_ROOT_FIELDS) {
    throw tooComplex(
      `Query too wide: ${m.rootFields} root fields exceed the limit of ${MAX_ROOT_FIELDS}. Send fewer aliases or split the request.`,
    );
  }
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
