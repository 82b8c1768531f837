// Values an attacker or a broken client sends: the edges of every type the API
// takes (dates that do not exist, durations that overflow, NUL characters,
// lone surrogates, huge numbers), mixed with ordinary ones so that generated
// input also gets past validation into the services.
import fc from 'fast-check';

/** Real record ids of the running app, so generated requests reach real rows. */
export interface IdPool {
  uuids: string[];
  /** Issue identifiers such as ENG-1, team keys such as ENG, an OAuth app's client id. */
  keys: string[];
}

export const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '💥'.repeat(50),
  'x'.repeat(5_000),
  "' or 1=1 --",
  '"; drop table issues; --',
  '../../../../etc/passwd',
  '%2e%2e%2f',
  '<script>alert(1)</script>',
  '<svg onload=alert(1)>',
  'javascript:alert(1)',
  '{{7*7}}',
  '$' + '{7*7}',
  '\\',
  '%',
  '_',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '1e400',
  '-0',
  'NaN',
  'Infinity',
  '0x1f',
  '2024-02-30',
  '2024-13-01',
  '0000-01-01',
  '9999-12-31',
  '10000-01-01',
  '-271821-04-20T00:00:00Z',
  '+275760-09-13T00:00:01Z',
  '2024-01-01T25:61:61Z',
  'P99999999Y',
  '-P99999999Y',
  'P1000000000000D',
  '-PT9999999999999H',
  'P99999999D',
  'PT',
  'P',
  '-P1D',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '00000000-0000-0000-0000-00000000000g',
  'ENG-0',
  'ENG--1',
  'ENG-99999999999999999999',
  'eng-1',
  'ZZZ-1',
  '#ff00ff',
  '#gggggg',
  'http://127.0.0.1:9/hook',
  'http://[::1]:9/x',
  'file:///etc/passwd',
  'ftp://127.0.0.1/',
  'admin@example.com',
  'ADMIN@EXAMPLE.COM',
  'a@b',
  '@',
];

export const HOSTILE_NUMBERS = [
  0,
  -0,
  1,
  -1,
  0.5,
  4,
  5,
  250,
  251,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 53,
  -(2 ** 53),
  1e15,
  1e300,
  -1e300,
  Number.MIN_VALUE,
];

const SURROGATES = 0xe000 - 0xd800;
/** Any code point but a lone surrogate half. */
const codePoint = fc
  .integer({ min: 0, max: 0x10ffff - SURROGATES })
  .map((n) => (n >= 0xd800 ? n + SURROGATES : n));

/**
 * Strings of any code points, as `fc.string({ unit: 'binary' })` draws them, minus its first
 * use's cost: that builds a reverse map of every code point (1.1 million entries, a CPU-second
 * and more in each test process that imports it) to shrink values it did not make.
 */
export const binaryString = (constraints: { minLength?: number; maxLength: number }) =>
  fc.array(codePoint, constraints).map((points) => String.fromCodePoint(...points));

export const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: binaryString({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

export const hostileNumber = fc.oneof(
  fc.constantFrom(...HOSTILE_NUMBERS),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Any JSON value, leaning on the hostile ones. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(hostileString, fc.constantFrom('id', 'name', 'title', '__proto__', 'constructor')),
      tie('value'),
      {
        maxKeys: 4,
      },
    ),
  ),
})).value;

/** An id for a path or a body: a real one, a well-formed stranger, or junk. */
export const idFrom = (pool: IdPool) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...pool.uuids) },
    { weight: 1, arbitrary: pool.keys.length ? fc.constantFrom(...pool.keys) : fc.uuid() },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: hostileString },
  );

/**
 * Objects and arrays nested `depth` levels deep around a leaf, as text (a
 * value that deep would overflow JSON.stringify itself): mostly near the
 * nesting limit (64), sometimes tens of thousands of levels. `graphql` writes
 * object keys bare, as a GraphQL input literal.
 */
export const deepNesting = (style: 'json' | 'graphql' = 'json'): fc.Arbitrary<string> =>
  fc
    .record({
      depth: fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: 60, max: 70 }) },
        { weight: 1, arbitrary: fc.integer({ min: 1, max: 200 }) },
        { weight: 1, arbitrary: fc.constantFrom(1_000, 10_000, 60_000) },
      ),
      kinds: fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
      leaf: fc.constantFrom('1', '"x"', 'null', '"[{"'),
    })
    .map(({ depth, kinds, leaf }) => {
      const open: string[] = [];
      const close: string[] = [];
      for (let i = 0; i < depth; i++) {
        const object = kinds[i % kinds.length];
        open.push(object ? (style === 'json' ? '{"a":' : '{a:') : '[');
        close.push(object ? '}' : ']');
      }
      return open.join('') + leaf + close.reverse().join('');
    });
