// Prints the part of our GraphQL schema this service holds, for the web UI's
// code generation: a document that asks for a field we do not produce fails
// to type-check instead of quietly receiving an empty value.
//   npx tsx scripts/print-graphql-schema.ts [out-file]
import fs from 'node:fs';
import path from 'node:path';
import {
  type GraphQLFieldConfigMap,
  GraphQLInterfaceType,
  type GraphQLNamedType,
  GraphQLObjectType,
  GraphQLSchema,
  type GraphQLType,
  getNamedType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  printSchema,
} from 'graphql';
import { graphqlSchema } from '../src/graphql/routes.js';
import { heldOf } from '../src/graphql/schema/build.js';

export function heldSchema(full: GraphQLSchema): GraphQLSchema {
  const isHeld = heldOf(full);
  const made = new Map<string, GraphQLNamedType>();
  // An object with nothing held cannot be printed (a type needs a field), nor can a field that returns one.
  const empty = (t: GraphQLType): boolean => {
    const n = getNamedType(t);
    return isObjectType(n) && Object.keys(n.getFields()).every((f) => !isHeld(n.name, f));
  };

  // Output types are rebuilt with only their held fields; everything else is kept as is.
  const rebuild = (t: GraphQLType): GraphQLType => {
    if (isNonNullType(t))
      return new (t.constructor as new (x: GraphQLType) => GraphQLType)(rebuild(t.ofType));
    if (isListType(t)) return new (t.constructor as new (x: GraphQLType) => GraphQLType)(rebuild(t.ofType));
    if (isObjectType(t) || isInterfaceType(t)) return named(t);
    return t;
  };
  const named = (t: GraphQLObjectType | GraphQLInterfaceType): GraphQLNamedType => {
    const done = made.get(t.name);
    if (done) return done;
    const config = t.toConfig();
    const required = new Set(t.getInterfaces().flatMap((i) => Object.keys(i.getFields())));
    const fields = (): GraphQLFieldConfigMap<unknown, unknown> => {
      const out: GraphQLFieldConfigMap<unknown, unknown> = {};
      for (const [name, f] of Object.entries(config.fields)) {
        if (isObjectType(t) && !isHeld(t.name, name) && !required.has(name)) continue;
        if (empty(f.type)) continue;
        out[name] = { ...f, type: rebuild(f.type) as never };
      }
      return out;
    };
    const interfaces = () => t.getInterfaces().map((i) => named(i) as GraphQLInterfaceType);
    const copy = isObjectType(t)
      ? new GraphQLObjectType({ ...config, fields, interfaces } as never)
      : new GraphQLInterfaceType({ ...config, fields, interfaces } as never);
    made.set(t.name, copy);
    return copy;
  };
  const query = named(full.getQueryType()!) as GraphQLObjectType;
  const mutation = named(full.getMutationType()!) as GraphQLObjectType;
  return new GraphQLSchema({ query, mutation });
}

const out = process.argv[2] ?? 'web/src/gql/schema.graphql';
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, printSchema(heldSchema(graphqlSchema())));
