// GraphQL documents generated from the served schema: a root query or mutation
// field with arguments built from its input types (filters, inputs, scalars at
// their edges), a selection of its result a few levels deep, and the arguments
// sent either inline or as variables, since the two are coerced by different
// code. Hostile mode mixes in wrong types, unknown enum values and junk.
import fc from 'fast-check';
import {
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
} from 'graphql';
import type { Mode } from './from-schema.js';
import { hostileJson, hostileNumber, hostileString, type IdPool, idFrom } from './values.js';

export interface GeneratedOperation {
  query: string;
  variables: Record<string, unknown>;
  kind: 'query' | 'mutation';
  field: string;
}

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const DATES = [
  '2024-02-29',
  '2024-02-30',
  '0000-01-01',
  '2026-11-23T10:00:00.000Z',
  'P1D',
  '-P2W',
  '-P99999999Y',
  'P1000000000000D',
];

function scalarValue(name: string, pool: IdPool, mode: Mode): fc.Arbitrary<unknown> {
  const valid = ((): fc.Arbitrary<unknown> => {
    switch (name) {
      case 'ID':
        return fc.constantFrom(...pool.uuids, ...pool.keys);
      case 'String':
        return fc.string({ maxLength: 20 }).map((s) => `${s}x`);
      case 'Int':
        return fc.integer({ min: -5, max: 100 });
      case 'Float':
        return fc.double({ min: -1e6, max: 1e6, noNaN: true });
      case 'Boolean':
        return fc.boolean();
      case 'JSON':
      case 'JSONObject':
        return fc.constant({});
      default:
        // DateTime, TimelessDate and the "or duration" variants.
        return fc.oneof(
          fc.constantFrom(...DATES),
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        );
    }
  })();
  if (mode === 'valid') return valid;
  const bad = name === 'ID' ? idFrom(pool) : fc.oneof(hostileString, hostileNumber, hostileJson);
  return fc.oneof({ weight: 2, arbitrary: valid }, { weight: 1, arbitrary: bad });
}

/** A JavaScript value for an input type; input objects get their required fields and some others. */
function inputValue(type: GraphQLInputType, pool: IdPool, mode: Mode, depth: number): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return inputValue(type.ofType, pool, mode, depth);
  if (isListType(type)) {
    return depth > 3
      ? fc.constant([])
      : fc.array(inputValue(type.ofType, pool, mode, depth + 1), { maxLength: 3 });
  }
  if (isEnumType(type)) {
    const names = type.getValues().map((v) => v.name);
    return mode === 'valid' ? fc.constantFrom(...names) : fc.oneof(fc.constantFrom(...names), hostileString);
  }
  if (isScalarType(type)) return scalarValue(type.name, pool, mode);
  if (!isInputObjectType(type) || depth > 3) return fc.constant(null);
  const fields = Object.values(type.getFields());
  const required = fields.filter((f) => isNonNullType(f.type) && f.defaultValue === undefined);
  const optional = fields.filter((f) => !required.includes(f));
  const part = (f: (typeof fields)[number]) =>
    inputValue(f.type, pool, mode, depth + 1).map((v) => [f.name, v] as const);
  return fc
    .tuple(
      fc.tuple(...required.map(part)),
      optional.length
        ? fc
            .uniqueArray(fc.constantFrom(...optional), { maxLength: 2 })
            .chain((fs) => fc.tuple(...fs.map(part)))
        : fc.constant([]),
    )
    .map(([a, b]) => Object.fromEntries([...a, ...b]));
}

/** Prints a JavaScript value as a GraphQL literal of `type` (enum names bare). */
export function literal(value: unknown, type: GraphQLInputType | undefined): string {
  const named = type ? getNamedType(type) : undefined;
  const inner = type && isNonNullType(type) ? type.ofType : type;
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string')
    return named && isEnumType(named) && NAME.test(value) ? value : JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '0';
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    const item = inner && isListType(inner) ? inner.ofType : undefined;
    return `[${value.map((v) => literal(v, item)).join(', ')}]`;
  }
  const fields = named && isInputObjectType(named) ? named.getFields() : {};
  const entries = Object.entries(value as object).filter(([k]) => NAME.test(k));
  return `{${entries.map(([k, v]) => `${k}: ${literal(v, fields[k]?.type)}`).join(', ')}}`;
}

function selection(type: GraphQLOutputType | GraphQLNamedType, depth: number): fc.Arbitrary<string> {
  const named = getNamedType(type);
  if (!isObjectType(named) && !isInterfaceType(named)) return fc.constant('{ __typename }');
  const fields = Object.values(named.getFields()).filter((f) => f.args.every((a) => !isNonNullType(a.type)));
  const scalars = fields.filter(
    (f) => !isObjectType(getNamedType(f.type)) && !isInterfaceType(getNamedType(f.type)),
  );
  const objects = fields.filter((f) => !scalars.includes(f));
  const scalarPart = scalars.length
    ? fc.uniqueArray(fc.constantFrom(...scalars.map((f) => f.name)), { minLength: 1, maxLength: 3 })
    : fc.constant(['__typename']);
  const objectPart =
    depth > 0 && objects.length
      ? fc
          .uniqueArray(fc.constantFrom(...objects), { maxLength: 2 })
          .chain((fs) =>
            fc.tuple(...fs.map((f) => selection(f.type, depth - 1).map((s) => `${f.name} ${s}`))),
          )
      : fc.constant([] as string[]);
  return fc.tuple(scalarPart, objectPart).map(([a, b]) => `{ ${[...a, ...b].join(' ')} }`);
}

function call(field: GraphQLField<unknown, unknown>, pool: IdPool, mode: Mode, asVariables: boolean) {
  const args = field.args.map((a) => {
    const value = inputValue(a.type, pool, mode, 0);
    const optional = !isNonNullType(a.type);
    return (optional ? fc.option(value, { nil: undefined, freq: 2 }) : value).map((v) => ({ arg: a, v }));
  });
  return fc.tuple(fc.tuple(...args), selection(field.type, 2)).map(([given, sel]) => {
    const present = given.filter((g) => g.v !== undefined);
    const variables: Record<string, unknown> = {};
    const defs: string[] = [];
    const argText = present.map(({ arg, v }, i) => {
      if (!asVariables) return `${arg.name}: ${literal(v, arg.type)}`;
      variables[`v${i}`] = v;
      defs.push(`$v${i}: ${String(arg.type)}`);
      return `${arg.name}: $v${i}`;
    });
    const isLeaf = !isObjectType(getNamedType(field.type)) && !isInterfaceType(getNamedType(field.type));
    const callText = `${field.name}${argText.length ? `(${argText.join(', ')})` : ''}${isLeaf ? '' : ` ${sel}`}`;
    return { callText, defs, variables };
  });
}

/** One operation: a query or mutation field of the schema, valid-shaped or hostile. */
export function operations(
  schema: GraphQLSchema,
  pool: IdPool,
  mode: Mode,
): fc.Arbitrary<GeneratedOperation> {
  const roots = [
    { kind: 'query' as const, fields: Object.values(schema.getQueryType()?.getFields() ?? {}) },
    { kind: 'mutation' as const, fields: Object.values(schema.getMutationType()?.getFields() ?? {}) },
  ];
  return fc.tuple(fc.constantFrom(...roots), fc.boolean()).chain(([root, asVariables]) =>
    fc.constantFrom(...root.fields).chain((field) =>
      call(field, pool, mode, asVariables).map(({ callText, defs, variables }) => ({
        kind: root.kind,
        field: field.name,
        variables,
        query: `${root.kind} Fuzz${defs.length ? `(${defs.join(', ')})` : ''} { ${callText} }`,
      })),
    ),
  );
}
