// Custom scalars. Timestamps leave as ISO-8601 strings in UTC; dates as
// YYYY-MM-DD. Date-or-duration inputs stay strings: the filter engine resolves
// them against the request's clock.
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';

const stringIn = (name: string) => (v: unknown) => {
  if (typeof v !== 'string') throw new GraphQLError(`${name} must be a string`);
  return v;
};

function literalToJs(node: ValueNode): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.ENUM:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.BOOLEAN:
      return node.value;
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map(literalToJs);
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literalToJs(f.value)]));
    default:
      throw new GraphQLError('Variables inside JSON literals are not supported');
  }
}

const serializeDateTime = (v: unknown) => (v instanceof Date ? v.toISOString() : v == null ? v : String(v));

function parseDateTime(v: unknown): string {
  if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) {
    throw new GraphQLError('DateTime must be an ISO-8601 timestamp');
  }
  return new Date(v).toISOString();
}

function parseDate(v: unknown): string {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`))) {
    throw new GraphQLError('TimelessDate must be a date as YYYY-MM-DD');
  }
  return v;
}

const scalar = (
  name: string,
  serialize: (v: unknown) => unknown,
  parseValue: (v: unknown) => unknown,
  literal = true,
) =>
  new GraphQLScalarType({
    name,
    serialize,
    parseValue,
    parseLiteral: (node) => {
      if (!literal && node.kind !== Kind.STRING) throw new GraphQLError(`${name} must be a string`);
      return parseValue(literalToJs(node));
    },
  });

export const scalars: Record<string, GraphQLScalarType> = {
  DateTime: scalar('DateTime', serializeDateTime, parseDateTime, false),
  TimelessDate: scalar('TimelessDate', (v) => v, parseDate, false),
  DateTimeOrDuration: scalar('DateTimeOrDuration', (v) => v, stringIn('DateTimeOrDuration'), false),
  TimelessDateOrDuration: scalar(
    'TimelessDateOrDuration',
    (v) => v,
    stringIn('TimelessDateOrDuration'),
    false,
  ),
  Duration: scalar('Duration', (v) => v, stringIn('Duration'), false),
  JSON: scalar(
    'JSON',
    (v) => v,
    (v) => v,
  ),
  JSONObject: scalar(
    'JSONObject',
    (v) => v,
    (v) => {
      if (typeof v !== 'object' || v === null || Array.isArray(v))
        throw new GraphQLError('JSONObject must be an object');
      return v;
    },
  ),
};
