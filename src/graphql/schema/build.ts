// Builds the GraphQL schema's types from the third-party schema's data and our
// descriptions. No SDL text: types are constructed directly, so the schema is
// exactly the data (every type, field, argument and enum value) plus which of
// its fields this service holds.
import {
  type GraphQLArgumentConfig,
  GraphQLBoolean,
  GraphQLEnumType,
  type GraphQLFieldConfig,
  GraphQLFloat,
  GraphQLID,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLInt,
  GraphQLInterfaceType,
  GraphQLList,
  type GraphQLNamedType,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  type GraphQLType,
  GraphQLUnionType,
} from 'graphql';
import {
  describeArg,
  describeField,
  describeInputField,
  describeRootField,
  describeType,
} from './describe.js';
import {
  type FieldEntry,
  fieldArgs,
  fieldType,
  type OutputType,
  type ThirdPartySchema,
} from './third-party.js';

/** Whether this service holds a field of an object or interface type. */
export type IsHeld = (type: string, field: string) => boolean;

export const heldOf = (schema: GraphQLSchema) => schema.extensions['isHeld'] as IsHeld;

const BUILT_IN: Record<string, GraphQLScalarType> = {
  ID: GraphQLID,
  String: GraphQLString,
  Boolean: GraphQLBoolean,
  Int: GraphQLInt,
  Float: GraphQLFloat,
};

export function buildSchemaFromData(data: ThirdPartySchema, isHeld: IsHeld): GraphQLSchema {
  const named = new Map<string, GraphQLNamedType>(Object.entries(BUILT_IN));
  const get = (name: string) => {
    const t = named.get(name);
    if (!t) throw new Error(`schema data names unknown type ${name}`);
    return t;
  };
  /** `[Issue!]!` -> GraphQLNonNull(GraphQLList(GraphQLNonNull(Issue))). */
  const typeOf = (s: string): GraphQLType => {
    if (s.endsWith('!')) return new GraphQLNonNull(typeOf(s.slice(0, -1)) as never);
    if (s.startsWith('[')) return new GraphQLList(typeOf(s.slice(1, -1)));
    return get(s);
  };
  const inputOf = (s: string) => typeOf(s) as GraphQLInputType;
  const heldType = (name: string, t: OutputType) => Object.keys(t.fields).some((f) => isHeld(name, f));

  for (const name of data.scalars) {
    named.set(name, new GraphQLScalarType({ name, description: describeType(name, 'scalar', true) }));
  }
  for (const [name, values] of Object.entries(data.enums)) {
    named.set(
      name,
      new GraphQLEnumType({
        name,
        description: describeType(name, 'enum', true),
        values: Object.fromEntries(values.map((v) => [v, { value: v }])),
      }),
    );
  }
  for (const [name, fields] of Object.entries(data.inputs)) {
    named.set(
      name,
      new GraphQLInputObjectType({
        name,
        description: describeType(name, 'input', true),
        fields: () =>
          Object.fromEntries(
            Object.entries(fields).map(([f, t]) => [
              f,
              { type: inputOf(t), description: describeInputField(f) },
            ]),
          ),
      }),
    );
  }
  const outputFields = (typeName: string, t: OutputType) => () =>
    Object.fromEntries(
      Object.entries(t.fields).map(([f, e]) => [f, fieldConfig(typeName, f, e)] as const),
    ) as Record<string, GraphQLFieldConfig<unknown, unknown>>;
  const fieldConfig = (typeName: string, f: string, e: FieldEntry): GraphQLFieldConfig<unknown, unknown> => {
    const held = isHeld(typeName, f);
    const type = fieldType(e);
    const args: Record<string, GraphQLArgumentConfig> = Object.fromEntries(
      Object.entries(fieldArgs(e)).map(([a, at]) => [a, { type: inputOf(at), description: describeArg(a) }]),
    );
    const description =
      typeName === 'Query' || typeName === 'Mutation'
        ? describeRootField(typeName, f, held)
        : describeField(f, type, held);
    return {
      type: typeOf(type) as GraphQLOutputType,
      args,
      description,
      ...(typeof e !== 'string' && e.deprecated
        ? { deprecationReason: 'Deprecated in the third-party schema.' }
        : {}),
    };
  };
  const interfacesOf = (t: OutputType) => () =>
    (t.implements ?? []).map((i) => get(i) as GraphQLInterfaceType);
  for (const [name, t] of Object.entries(data.interfaces)) {
    named.set(
      name,
      new GraphQLInterfaceType({
        name,
        description: describeType(name, 'interface', true),
        interfaces: interfacesOf(t),
        fields: outputFields(name, t),
      }),
    );
  }
  for (const [name, t] of Object.entries(data.objects)) {
    named.set(
      name,
      new GraphQLObjectType({
        name,
        description: describeType(name, 'object', heldType(name, t)),
        interfaces: interfacesOf(t),
        fields: outputFields(name, t),
      }),
    );
  }
  for (const [name, members] of Object.entries(data.unions)) {
    named.set(
      name,
      new GraphQLUnionType({
        name,
        description: describeType(name, 'union', true),
        types: () => members.map((m) => get(m) as GraphQLObjectType),
      }),
    );
  }
  return new GraphQLSchema({
    // The model travels with the schema, for the coverage document and tests.
    extensions: { isHeld },
    query: get('Query') as GraphQLObjectType,
    mutation: get('Mutation') as GraphQLObjectType,
    // Types reached only through an interface or union still belong to the schema.
    types: [...named.values()].filter((t) => !(t.name in BUILT_IN)),
  });
}
