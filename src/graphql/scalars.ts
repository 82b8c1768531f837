// Custom scalars. Timestamps leave as ISO-8601 strings in UTC; dates as
// YYYY-MM-DD. Date-or-duration inputs stay strings: the filter engine checks
// and resolves them against the request's clock, naming the filter field.
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { parseCalendarDate, parseTimestamp } from '../platform/list/relative-time.js';

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

// Strict, with the filter grammar's rules (real calendar dates, years
// 0001-9999), so no value PostgreSQL would refuse reaches it.
function parseDateTime(v: unknown): string {
  const d = typeof v === 'string' ? parseTimestamp(v) : undefined;
  if (!d) throw new GraphQLError('DateTime must be an ISO-8601 timestamp in years 0001 to 9999');
  return d.toISOString();
}

function parseDate(v: unknown): string {
  if (typeof v !== 'string' || !parseCalendarDate(v)) {
    throw new GraphQLError('TimelessDate must be a real date as YYYY-MM-DD in years 0001 to 9999');
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
  // Ids: any string reaches the services, which answer an unknown one as not found.
  UUID: scalar('UUID', (v) => v, stringIn('UUID'), false),
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
