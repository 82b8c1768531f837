// Assembles the executable schema: our SDL modules, our scalars, and the
// resolvers of each domain. Every object field without a resolver reads the
// property of the same name, and when the source does not have it (a concept
// this service does not hold) answers the truthful empty value for its type:
// null, an empty list or connection, false, 0, '' or an object of such values.
import {
  buildSchema,
  GraphQLEnumType,
  type GraphQLFieldResolver,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  GraphQLScalarType,
  type GraphQLSchema,
  isObjectType,
} from 'graphql';
import type { GqlContext } from './context.js';
import { scalars } from './scalars.js';
import { schemaSdl } from './schema/index.js';

// biome-ignore lint/suspicious/noExplicitAny: sources and arguments differ per field; each resolver names its own
export type Resolver = GraphQLFieldResolver<any, GqlContext, any>;
export type ResolverMap = Record<string, Record<string, Resolver>>;

const EMPTY_PAGE_INFO = { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null };

/** The empty value for a field type (null when nullable). */
export function emptyValue(type: GraphQLOutputType): unknown {
  if (!(type instanceof GraphQLNonNull)) return null;
  const inner = type.ofType;
  if (inner instanceof GraphQLList) return [];
  if (inner instanceof GraphQLScalarType) {
    if (inner.name === 'Boolean') return false;
    if (inner.name === 'Int' || inner.name === 'Float') return 0;
    if (inner.name === 'JSONObject' || inner.name === 'JSON') return {};
    return '';
  }
  if (inner instanceof GraphQLEnumType) return inner.getValues()[0]?.value;
  if (inner instanceof GraphQLObjectType && inner.name.endsWith('Connection')) {
    return { nodes: [], edges: [], pageInfo: EMPTY_PAGE_INFO };
  }
  return {};
}

export function buildExecutableSchema(resolverMaps: ResolverMap[]): GraphQLSchema {
  const schema = buildSchema(schemaSdl);
  const resolvers: ResolverMap = {};
  for (const map of resolverMaps) {
    for (const [type, fields] of Object.entries(map)) resolvers[type] = { ...resolvers[type], ...fields };
  }
  for (const [name, type] of Object.entries(schema.getTypeMap())) {
    const custom = scalars[name];
    if (custom && type instanceof GraphQLScalarType) {
      Object.assign(type, {
        serialize: custom.serialize,
        parseValue: custom.parseValue,
        parseLiteral: custom.parseLiteral,
      });
      continue;
    }
    if (!isObjectType(type) || name.startsWith('__')) continue;
    const own = resolvers[name] ?? {};
    for (const [fieldName, field] of Object.entries(type.getFields())) {
      const resolve = own[fieldName];
      if (resolve) {
        field.resolve = resolve;
        continue;
      }
      const empty = emptyValue(field.type);
      field.resolve = (source) => {
        const v = source?.[fieldName];
        return v === undefined ? empty : typeof v === 'function' ? v.call(source) : v;
      };
    }
  }
  for (const type of Object.keys(resolvers)) {
    if (!isObjectType(schema.getType(type))) throw new Error(`resolvers for unknown type ${type}`);
  }
  return schema;
}
