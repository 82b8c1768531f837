// How a saved view shows its issues in our UI: grouping, ordering and the
// properties shown on each row, in the words of vocabulary.ts (shared with the
// UI). A closed shape (unknown keys and values are refused) so the UI can
// trust what it reads back; every key is optional and
// the UI fills in its defaults. The third-party schema has no such input, so
// only REST writes it.
import { Type } from 'typebox';
import { invalidField } from '../../platform/errors.js';
import { DIRECTIONS, type Display, GROUPS, ORDERS, PROPERTIES } from './vocabulary.js';

export type { Display };

const oneOf = <T extends readonly string[]>(values: T, description: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  );

export const DisplaySchema = Type.Object(
  {
    group: Type.Optional(oneOf(GROUPS, 'Group rows by this property')),
    order: Type.Optional(oneOf(ORDERS, 'Sort rows by this property (as GET /api/issues sort)')),
    direction: Type.Optional(oneOf(DIRECTIONS, 'Sort direction')),
    properties: Type.Optional(
      Type.Array(oneOf(PROPERTIES, 'A property shown on each row'), {
        uniqueItems: true,
        maxItems: PROPERTIES.length,
      }),
    ),
    showSubIssues: Type.Optional(Type.Boolean()),
    showArchived: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, description: 'Display settings of our UI' },
);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The service's own check, naming the field: REST's schema already refuses
 * most of this, but the service is the one place the rule holds for every caller.
 */
export function checkDisplay(value: unknown): Display {
  if (!isObject(value)) throw invalidField('display', 'must be an object');
  const enumIn = (key: string, allowed: readonly string[]) => {
    const v = value[key];
    if (v !== undefined && (typeof v !== 'string' || !allowed.includes(v))) {
      throw invalidField(`display/${key}`, `must be one of ${allowed.join(', ')}`);
    }
  };
  for (const key of Object.keys(value)) {
    if (!(key in DisplaySchema.properties)) throw invalidField(`display/${key}`, 'is not a display setting');
  }
  enumIn('group', GROUPS);
  enumIn('order', ORDERS);
  enumIn('direction', DIRECTIONS);
  for (const key of ['showSubIssues', 'showArchived']) {
    if (value[key] !== undefined && typeof value[key] !== 'boolean') {
      throw invalidField(`display/${key}`, 'must be true or false');
    }
  }
  const props = value.properties;
  if (props !== undefined) {
    if (!Array.isArray(props)) throw invalidField('display/properties', 'must be a list');
    const seen = new Set<unknown>();
    for (const [i, p] of props.entries()) {
      if (typeof p !== 'string' || !(PROPERTIES as readonly string[]).includes(p)) {
        throw invalidField(`display/properties/${i}`, `must be one of ${PROPERTIES.join(', ')}`);
      }
      if (seen.has(p)) throw invalidField(`display/properties/${i}`, 'is listed twice');
      seen.add(p);
    }
  }
  return value as Display;
}
