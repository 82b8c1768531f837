// Assembles the executable schema: the third-party schema's types (built from
// data in schema/), our scalars, and the resolvers of each domain. A field is
// held when something produces it (schema/held.ts); every field this service
// does not hold answers the same way for every client:
// - object fields: the empty value of their type (null, [], an empty page,
//   false, 0, '' or an object of such values);
// - Query fields: the same where the type allows it, else a "feature not
//   accessible" error naming the field;
// - Mutation fields: a "feature not accessible" error naming the mutation.
import {
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
import { AppError } from '../platform/errors.js';
import type { GqlContext } from './context.js';
import { scalars } from './scalars.js';
import { buildSchemaFromData, type IsHeld } from './schema/build.js';
import { withOurFields } from './schema/extensions.js';
import { heldModel } from './schema/held.js';
import { thirdPartySchema } from './schema/third-party.js';

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

/** Fields this service does not hold (each answers its type's empty value): compiled reads answer them so too. */
export const unheldFields = new WeakSet<object>();

/** Fields answered from their source object's property of the same name (or their empty value). */
export const sourceFields = new WeakSet<object>();

export const notHeld = (what: string) =>
  new AppError(400, 'NOT_HELD', `${what} is not available on this server: it does not hold this feature`);

function unheldRoot(root: string, field: string, type: GraphQLOutputType): Resolver {
  const answersEmpty =
    root === 'Query' &&
    (!(type instanceof GraphQLNonNull) ||
      type.ofType instanceof GraphQLList ||
      (type.ofType instanceof GraphQLObjectType && type.ofType.name.endsWith('Connection')));
  if (answersEmpty) {
    const empty = emptyValue(type);
    return () => empty;
  }
  return () => {
    throw notHeld(`${root}.${field}`);
  };
}

export function buildExecutableSchema(resolverMaps: ResolverMap[]): GraphQLSchema {
  const resolvers: ResolverMap = {};
  for (const map of resolverMaps) {
    for (const [type, fields] of Object.entries(map)) resolvers[type] = { ...resolvers[type], ...fields };
  }
  const data = withOurFields(thirdPartySchema());
  const isHeld: IsHeld = heldModel(data, resolvers);
  const schema = buildSchemaFromData(data, isHeld);
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
      const empty = emptyValue(field.type);
      if (resolve) field.resolve = resolve;
      else if (!isHeld(name, fieldName)) {
        unheldFields.add(field);
        field.resolve =
          name === 'Query' || name === 'Mutation'
            ? unheldRoot(name, fieldName, field.type)
            : unheldField(name, fieldName, empty);
      } else {
        sourceFields.add(field);
        field.resolve = (source) => {
          const v = source?.[fieldName];
          return v === undefined ? empty : typeof v === 'function' ? v.call(source) : v;
        };
      }
    }
  }
  for (const type of Object.keys(resolvers)) {
    if (!isObjectType(schema.getType(type))) throw new Error(`resolvers for unknown type ${type}`);
  }
  return schema;
}

/**
 * Unheld fields whose source nonetheless carried a value: a field the model
 * (schema/held.ts) forgot, answering empty although we hold it. Tests read it.
 */
export const unheldWithValue = new Set<string>();

function unheldField(type: string, field: string, empty: unknown): Resolver {
  return (source) => {
    if (source?.[field] !== undefined) unheldWithValue.add(`${type}.${field}`);
    return empty;
  };
}
