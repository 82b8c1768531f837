// A fast-check arbitrary from a route's JSON schema (as published in the
// OpenAPI document). Two modes: `valid` values the schema accepts, so requests
// get past validation into the services and their rules; `hostile` values
// with wrong types, edge values and unknown fields mixed in at every level, so
// the validators and what lies behind them are tested on what they refuse.
import fc from 'fast-check';
import { hostileJson, hostileNumber, hostileString, type IdPool, idFrom } from './values.js';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  nullable?: boolean;
}

export type Mode = 'valid' | 'hostile';

// Never a public address: a webhook URL the worker would really call stays on this machine.
const LOOPBACK_URLS = ['http://127.0.0.1:9/hook', 'http://localhost:9/x?y=1', 'https://127.0.0.1:9/'];

/** In hostile mode, `good` now and then gives way to a hostile value. */
const spoil = (good: fc.Arbitrary<unknown>, mode: Mode, bad: fc.Arbitrary<unknown> = hostileString) =>
  mode === 'valid' ? good : fc.oneof({ weight: 3, arbitrary: good }, { weight: 1, arbitrary: bad });

function stringFor(s: JsonSchema, pool: IdPool, name: string, mode: Mode): fc.Arbitrary<unknown> {
  const realId = fc.constantFrom(...pool.uuids);
  switch (s.format) {
    case 'uuid':
      return mode === 'valid' ? realId : idFrom(pool);
    case 'date':
      return spoil(
        fc
          .date({ min: new Date('1900-01-01'), max: new Date('2200-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString().slice(0, 10)),
        mode,
      );
    case 'date-time':
      return spoil(
        fc
          .date({ min: new Date('1900-01-01'), max: new Date('2200-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString()),
        mode,
      );
    case 'email':
      return spoil(fc.emailAddress(), mode);
    case 'hexcolor':
      return spoil(fc.stringMatching(/^#[0-9a-f]{6}$/), mode);
    case 'uri':
      return spoil(fc.constantFrom(...LOOPBACK_URLS), mode);
    case 'one-line':
      // Titles and names (issue 24, finding 8): hostile ones carry a line break or control character.
      return spoil(oneLineText(s), mode, brokenLine);
  }
  if (/url$/i.test(name)) return spoil(fc.constantFrom(...LOOPBACK_URLS), mode);
  if (/id$/i.test(name))
    return mode === 'valid' ? fc.oneof(realId, fc.constantFrom(...pool.keys)) : idFrom(pool);
  if (s.pattern === '^[A-Z][A-Z0-9]{0,6}$') return spoil(fc.stringMatching(/^[A-Z][A-Z0-9]{0,6}$/), mode);
  const maxLength = Math.max(1, Math.min(s.maxLength ?? 40, 40));
  // A trailing letter satisfies the common "not only blanks" pattern.
  const text = fc.string({ maxLength: maxLength - 1 }).map((x) => `${x}x`);
  return spoil(text, mode);
}

/** Not blank, no control characters: what `format: 'one-line'` accepts. */
const oneLineText = (s: JsonSchema) =>
  fc.string({ maxLength: Math.max(0, Math.min(s.maxLength ?? 40, 40) - 1) }).map((x) => `${x}x`);

/** Text with a line break or another control character somewhere in it, as in the forged-signature finding. */
const brokenLine = fc
  .tuple(
    fc.string({ maxLength: 20 }),
    fc.constantFrom('\n', '\r\n', '\r', '\u2028', '\u2029', '\u0085', '\t', '\u0000', '\u001b', '\n-- \n'),
    fc.string({ maxLength: 20 }),
  )
  .map(([a, brk, b]) => `${a}${brk}${b}`);

function numberFor(s: JsonSchema, integer: boolean, mode: Mode): fc.Arbitrary<unknown> {
  const min = s.minimum ?? -1e6;
  const max = s.maximum ?? 1e6;
  const inRange = integer
    ? fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31 - 1) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  return spoil(inRange, mode, hostileNumber);
}

/** Values for `schema` in the given mode. */
export function fromSchema(
  schema: JsonSchema,
  pool: IdPool,
  mode: Mode,
  name = '',
  depth = 0,
): fc.Arbitrary<unknown> {
  const value = shaped(schema, pool, mode, name, depth);
  const nullable = schema.nullable ? fc.oneof(value, fc.constant(null)) : value;
  return mode === 'valid' ? nullable : spoil(nullable, mode, hostileJson);
}

function shaped(s: JsonSchema, pool: IdPool, mode: Mode, name: string, depth: number): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((a) => shaped(a, pool, mode, name, depth)));
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      return stringFor(s, pool, name, mode);
    case 'integer':
      return numberFor(s, true, mode);
    case 'number':
      return numberFor(s, false, mode);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      if (depth > 4 || !s.items) return fc.constant([]);
      return fc.array(fromSchema(s.items, pool, mode, name.replace(/s$/, ''), depth + 1), {
        maxLength: Math.min(s.maxItems ?? 4, 4),
      });
    case 'object': {
      if (depth > 4 || !s.properties) return fc.constant({});
      const props: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, sub] of Object.entries(s.properties))
        props[key] = fromSchema(sub, pool, mode, key, depth + 1);
      const record = fc.record(props, { requiredKeys: (s.required ?? []).filter((k) => k in props) });
      if (mode === 'valid') return record;
      // Now and then a field the schema does not know.
      const extra = fc
        .tuple(record, hostileString, hostileJson)
        .map(([r, k, v]) => ({ ...(r as object), [k]: v }));
      return fc.oneof({ weight: 5, arbitrary: record }, { weight: 1, arbitrary: extra });
    }
    default:
      return mode === 'valid' ? fc.constant({}) : hostileJson;
  }
}
