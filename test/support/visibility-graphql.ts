// GraphQL documents generated from the served schema, for the visibility
// matrix: a record's scalars, every object or connection field below it
// (connections as `nodes`, first 5) and again one level further (ids only).
// Fields whose required arguments cannot be filled are left out; a document
// over the server's cost limit is split into several, measured with the
// server's own rule.
import {
  buildClientSchema,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  getIntrospectionQuery,
  getNamedType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isUnionType,
  type OperationDefinitionNode,
  parse,
} from 'graphql';
import { MAX_COMPLEXITY, measure } from '../../src/graphql/cost.js';
import type { TestApp } from './harness.js';

const PAGE = 5;
/** Types left out of every selection: webhooks are admin-only already (a nested Team.webhooks refuses others). */
const SKIP_TYPES = new Set(['Webhook', 'WebhookConnection']);
const BUDGET = MAX_COMPLEXITY * 0.9;

export async function servedSchema(t: TestApp): Promise<GraphQLSchema> {
  const res = await t.post('/graphql', { query: getIntrospectionQuery() }, t.adminToken);
  if (!res.body?.data)
    throw new Error(`introspection: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
  return buildClientSchema(res.body.data);
}

/** Fields the server holds; the rest answer empty by one rule and cannot leak (their descriptions say so). */
export const isHeldField = (f: GraphQLField<unknown, unknown>) =>
  !f.description?.includes('Not held by this service');

const fieldsOf = (t: GraphQLNamedType): GraphQLField<unknown, unknown>[] =>
  isObjectType(t) || isInterfaceType(t) ? Object.values(t.getFields()).filter(isHeldField) : [];

/** The record type of a connection (a type with `nodes: [X!]!`), else undefined. */
export function nodeType(t: GraphQLNamedType): GraphQLNamedType | undefined {
  const nodes = fieldsOf(t).find((f) => f.name === 'nodes');
  if (!nodes) return undefined;
  const inner = isNonNullType(nodes.type) ? nodes.type.ofType : nodes.type;
  const named = getNamedType(nodes.type);
  return isListType(inner) && (isObjectType(named) || isInterfaceType(named)) ? named : undefined;
}

/** Arguments for a nested field: a page of 5, archived records too; null when a required one is unknown. */
export function nestedArgs(field: GraphQLField<unknown, unknown>, first = PAGE): string | null {
  const parts: string[] = [];
  for (const a of field.args) {
    if (a.name === 'first') parts.push(`first: ${first}`);
    else if (a.name === 'includeArchived') parts.push('includeArchived: true');
    else if (isNonNullType(a.type) && a.defaultValue === undefined) return null;
  }
  return parts.length ? `(${parts.join(', ')})` : '';
}

/**
 * The selection of a record at `level` (0: the root's record): its id, its
 * scalars above `deepest`, and below it every object or connection field.
 * Types without an id (PageInfo, IssueSharedAccess) are looked through.
 */
export function items(
  t: GraphQLNamedType,
  level: number,
  deepest: number,
  through = new Set<string>(),
): string[] {
  const fields = fieldsOf(t);
  const out = fields.some((f) => f.name === 'id') ? ['id'] : ['__typename'];
  for (const f of fields) {
    const args = nestedArgs(f);
    const named = getNamedType(f.type);
    if (args === null || f.name === 'id' || named.name.startsWith('__') || SKIP_TYPES.has(named.name))
      continue;
    if (isLeafType(named)) {
      if (level < deepest) out.push(`${f.name}${args}`);
    } else if (isUnionType(named)) {
      if (level < deepest) out.push(`${f.name}${args} { __typename }`);
    } else if (nodeType(named)) {
      if (level < deepest)
        out.push(`${f.name}${args} { nodes { ${items(nodeType(named)!, level + 1, deepest).join(' ')} } }`);
    } else if (fieldsOf(named).some((x) => x.name === 'id')) {
      if (level < deepest) out.push(`${f.name}${args} { ${items(named, level + 1, deepest).join(' ')} }`);
    } else if (!through.has(named.name)) {
      out.push(
        `${f.name}${args} { ${items(named, level, deepest, new Set([...through, named.name])).join(' ')} }`,
      );
    }
  }
  return out;
}

const cost = (schema: GraphQLSchema, doc: string) => {
  const parsed = parse(doc);
  const op = parsed.definitions[0] as OperationDefinitionNode;
  return measure(schema, op, {}, {}).cost;
};

/**
 * `open + items + close` split into documents under the cost limit; each
 * starts with the record's id so every part can be checked on its own.
 */
export function documents(schema: GraphQLSchema, open: string, list: string[], close: string): string[] {
  const [first, ...rest] = list;
  const docs: string[] = [];
  let current = [first!];
  for (const item of rest) {
    const next = [...current, item];
    if (cost(schema, open + next.join(' ') + close) <= BUDGET) current = next;
    else {
      docs.push(open + current.join(' ') + close);
      current = [first!, item];
    }
  }
  docs.push(open + current.join(' ') + close);
  const over = docs.find((d) => cost(schema, d) > MAX_COMPLEXITY);
  if (over) throw new Error(`one field alone is over the cost limit: ${over.slice(0, 300)}`);
  return docs;
}
