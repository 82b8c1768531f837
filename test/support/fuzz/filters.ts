// Filter objects generated from the entity model the filter compiler uses
// (platform/list/entities.ts): every field, every comparator, values of the
// right type and of the wrong one, nested relations and collections, and now
// and then a chain far deeper than any client needs.
import fc from 'fast-check';
import type { EntitySpec, FieldSpec, ScalarType } from '../../../src/platform/list/filter.js';
import { hostileJson, hostileNumber, hostileString, type IdPool, idFrom } from './values.js';

const COMPARATORS: Record<ScalarType, string[]> = {
  id: ['eq', 'neq', 'in', 'nin', 'null'],
  string: [
    'eq',
    'neq',
    'in',
    'nin',
    'contains',
    'notContains',
    'containsIgnoreCase',
    'startsWith',
    'endsWith',
    'eqIgnoreCase',
    'containsIgnoreCaseAndAccent',
    'null',
  ],
  number: ['eq', 'neq', 'in', 'nin', 'lt', 'lte', 'gt', 'gte', 'null'],
  boolean: ['eq', 'neq', 'null'],
  date: ['eq', 'neq', 'in', 'nin', 'lt', 'lte', 'gt', 'gte', 'null'],
  timelessDate: ['eq', 'neq', 'in', 'nin', 'lt', 'lte', 'gt', 'gte', 'null'],
};

function rightHandSide(type: ScalarType, pool: IdPool): fc.Arbitrary<unknown> {
  switch (type) {
    case 'id':
      return idFrom(pool);
    case 'number':
      return hostileNumber;
    case 'boolean':
      return fc.boolean();
    case 'date':
    case 'timelessDate':
      return fc.oneof(
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        fc.constantFrom(
          'P1D',
          '-P2W',
          'PT3H',
          '-P1Y2M3DT4H5M6S',
          '2024-02-29',
          '2024-02-30',
          '0000-01-01',
          '-P99999999Y',
        ),
        hostileString,
      );
    case 'string':
      return hostileString;
  }
}

function comparator(type: ScalarType, pool: IdPool): fc.Arbitrary<unknown> {
  const ops = COMPARATORS[type];
  const right = rightHandSide(type, pool);
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.constantFrom(...ops).chain((op) => {
        if (op === 'null') return fc.boolean().map((v) => ({ null: v }));
        if (op === 'in' || op === 'nin') return fc.array(right, { maxLength: 3 }).map((v) => ({ [op]: v }));
        return right.map((v) => ({ [op]: v }));
      }),
    },
    {
      weight: 1,
      arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...ops), hostileString), hostileJson, { maxKeys: 2 }),
    },
  );
}

function fieldFilter(spec: FieldSpec, pool: IdPool, depth: number): fc.Arbitrary<unknown> {
  switch (spec.kind) {
    case 'scalar':
    case 'constant':
      return comparator(spec.type, pool);
    case 'relation':
      return depth <= 0
        ? fc.boolean().map((v) => ({ null: v }))
        : fc.oneof(
            entityFilter(spec.entity(), pool, depth - 1),
            fc.boolean().map((v) => ({ null: v })),
          );
    case 'collection':
      return depth <= 0
        ? fc.constant({ null: true })
        : fc.oneof(
            entityFilter(spec.entity(), pool, depth - 1).map((f) => ({ some: f })),
            entityFilter(spec.entity(), pool, depth - 1).map((f) => ({ every: f })),
            comparator('number', pool).map((c) => ({ length: c })),
          );
    case 'self':
      return depth <= 0 ? fc.constant({}) : entityFilter(spec.entity(), pool, depth - 1);
    case 'search':
      return fc.oneof(
        fc.record({ contains: fc.oneof(fc.string({ maxLength: 40 }), hostileString) }),
        fc.record({ notContains: fc.string({ maxLength: 40 }) }),
        fc.dictionary(fc.oneof(fc.constantFrom('contains', 'notContains'), hostileString), hostileJson, {
          maxKeys: 2,
        }),
      );
    case 'exists':
      return fc.oneof(
        fc.record({ eq: fc.boolean() }),
        fc.record({ neq: fc.boolean() }),
        fc.dictionary(fc.oneof(fc.constantFrom('eq', 'neq'), hostileString), hostileJson, { maxKeys: 2 }),
      );
  }
}

/** A filter over `entity`, up to `depth` relations deep. */
export function entityFilter(
  entity: EntitySpec,
  pool: IdPool,
  depth = 2,
): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.entries(entity.fields);
  const one = fc
    .constantFrom(...fields)
    .chain(([name, spec]) => fieldFilter(spec, pool, depth).map((f) => ({ [name]: f })));
  const several = fc.array(one, { minLength: 1, maxLength: 3 }).map((parts) => Object.assign({}, ...parts));
  return fc.oneof(
    { weight: 5, arbitrary: several },
    { weight: 1, arbitrary: fc.array(several, { maxLength: 3 }).map((and) => ({ and })) },
    { weight: 1, arbitrary: fc.array(several, { maxLength: 3 }).map((or) => ({ or })) },
    { weight: 1, arbitrary: fc.dictionary(hostileString, hostileJson, { maxKeys: 2 }) },
  );
}

/** A filter nested `n` levels deep through one relation, collection or boolean operator. */
export function deepChain(via: 'parent' | 'children' | 'and' | 'or', n: number): Record<string, unknown> {
  let f: Record<string, unknown> = { id: { null: false } };
  for (let i = 0; i < n; i++) {
    if (via === 'parent') f = { parent: f };
    else if (via === 'children') f = { children: { some: f } };
    else f = { [via]: [f] };
  }
  return f;
}

/** Filters of any shape: mostly model-shaped, sometimes deep chains. */
export function issueFilters(entity: EntitySpec, pool: IdPool): fc.Arbitrary<Record<string, unknown>> {
  return fc.oneof(
    { weight: 8, arbitrary: entityFilter(entity, pool) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom('parent', 'children', 'and', 'or') as fc.Arbitrary<'parent'>,
          fc.integer({ min: 5, max: 400 }),
        )
        .map(([via, n]) => deepChain(via, n)),
    },
  );
}
