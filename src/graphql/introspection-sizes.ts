// How many items an introspection list holds, on average, in this schema.
// Introspection is priced like data (objects 1, scalars 0.1), but its lists
// are not connections with a page size: their length is the schema's own.
// Averages over the whole schema make `__schema { types { fields { args } } }`
// cost what its answer really holds (every type, every field, every argument).
import {
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isUnionType,
} from 'graphql';

/** `${introspection type}.${field}` → items per parent, for the list fields of introspection. */
export type IntrospectionSizes = ReadonlyMap<string, number>;

const cache = new WeakMap<GraphQLSchema, IntrospectionSizes>();

export function introspectionSizes(schema: GraphQLSchema): IntrospectionSizes {
  let sizes = cache.get(schema);
  if (!sizes) {
    sizes = count(schema);
    cache.set(schema, sizes);
  }
  return sizes;
}

function count(schema: GraphQLSchema): IntrospectionSizes {
  const types = Object.values(schema.getTypeMap());
  let fields = 0;
  let args = 0;
  let inputFields = 0;
  let enumValues = 0;
  let interfaces = 0;
  let possibleTypes = 0;
  for (const t of types) {
    if (isObjectType(t) || isInterfaceType(t)) {
      const own = Object.values(t.getFields());
      fields += own.length;
      for (const f of own) args += f.args.length;
      interfaces += t.getInterfaces().length;
    }
    if (isInterfaceType(t) || isUnionType(t)) possibleTypes += schema.getPossibleTypes(t).length;
    if (isInputObjectType(t)) inputFields += Object.keys(t.getFields()).length;
    if (isEnumType(t)) enumValues += t.getValues().length;
  }
  const directives = schema.getDirectives();
  const directiveArgs = directives.reduce((n, d) => n + d.args.length, 0);
  const per = (total: number, of: number) => (of === 0 ? 0 : total / of);
  return new Map([
    ['__Schema.types', types.length],
    ['__Schema.directives', directives.length],
    ['__Type.fields', per(fields, types.length)],
    ['__Type.interfaces', per(interfaces, types.length)],
    ['__Type.possibleTypes', per(possibleTypes, types.length)],
    ['__Type.enumValues', per(enumValues, types.length)],
    ['__Type.inputFields', per(inputFields, types.length)],
    ['__Field.args', per(args, fields)],
    ['__Directive.args', per(directiveArgs, directives.length)],
  ]);
}
