// GraphQL limits against the attacks of issue 11, over a real socket: an
// exponential fragment document and thousands of introspection aliases are
// refused at once while /healthz keeps answering; refusals are charged to the
// caller's hourly budget; introspection is priced; answers have a size ceiling.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { InvalidInputLinearError } from '@linear/sdk';
import { type FieldNode, getIntrospectionQuery, getOperationAST, Kind, parse, print } from 'graphql';
import { apiKeyFor, gql, sdk, startGraphqlApp } from './graphql-helpers.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let base: string;
let key: string;

before(async () => {
  ({ t, base, key } = await startGraphqlApp());
});
after(() => t.close());

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** The finding's document: F0 spreads F1 twice, ... F25 spreads F26 twice; F26 selects id. */
const fragmentDoubling = [
  '{ viewer { ...F0 } }',
  ...range(26).map((i) => `fragment F${i} on User { ...F${i + 1} ...F${i + 1} }`),
  'fragment F26 on User { id }',
].join('\n');

const schemaSelection = 'types { name kind fields { name description args { name description } } }';
/** 2,600 aliases of __schema with types, fields and their args, written out and through a fragment. */
const introspectionAliases = `{ ${range(2600)
  .map((i) => `a${i}: __schema { ${schemaSelection} }`)
  .join(' ')} }`;
const introspectionAliasesByFragment = `{ ${range(2600)
  .map((i) => `a${i}: __schema { ...S }`)
  .join(' ')} } fragment S on __Schema { ${schemaSelection} }`;

/**
 * Sends `attack` `rounds` times, one after the other, while another client
 * polls /healthz one request after the other; returns the attack answers and
 * the order in which answers arrived.
 */
async function underFire(query: string, rounds: number) {
  const order: ('attack' | 'health')[] = [];
  const health: number[] = [];
  let attacking = true;
  const poll = (async () => {
    while (attacking) {
      const res = await fetch(`${base}/healthz`);
      health.push(res.status);
      order.push('health');
    }
  })();
  const answers = [];
  for (const _ of range(rounds)) {
    answers.push(await gql(base, key, query));
    order.push('attack');
  }
  attacking = false;
  await poll;
  return { answers, order, health };
}

/** Health answers that arrived between the first and the last attack answer. */
const healthDuring = (order: ('attack' | 'health')[]) =>
  order.slice(order.indexOf('attack'), order.lastIndexOf('attack')).filter((e) => e === 'health').length;

// The timeouts only stop a run that hangs: before the fix one round of the
// fragment document kept the event loop busy for about 16 s.
describe('attacks are refused at once while the server keeps answering', () => {
  test('27 levels of doubled fragment spreads: too complex, every time', { timeout: 120_000 }, async () => {
    const { answers, order, health } = await underFire(fragmentDoubling, 10);
    for (const res of answers) {
      assert.equal(res.status, 400);
      const [err] = res.body.errors;
      assert.equal(err.extensions.type, 'invalid input');
      assert.equal(err.extensions.code, 'QUERY_TOO_COMPLEX');
      assert.match(err.message, /Query too complex: cost 6710887\.4 exceeds the limit of 10000/);
      assert.equal(res.headers.get('x-complexity'), '10000', 'a refusal is charged the limit');
    }
    assert.ok(healthDuring(order) >= 1, `health answers between attacks: ${order.join(' ')}`);
    assert.ok(health.length > 0 && health.every((s) => s === 200));
    // The SDK classifies the refusal as invalid input.
    await assert.rejects(() => sdk(base, key).client.rawRequest(fragmentDoubling), InvalidInputLinearError);
  });

  test('2,600 aliases of __schema with types, fields and args: refused before running', {
    timeout: 120_000,
  }, async () => {
    // Written out, the document is over the 20,000-token parse limit.
    const written = await underFire(introspectionAliases, 5);
    for (const res of written.answers) {
      assert.equal(res.status, 400);
      assert.match(res.body.errors[0].message, /more that 20000 tokens/);
    }
    // Through a fragment it parses; the alias cap refuses it before validation.
    const spread = await underFire(introspectionAliasesByFragment, 5);
    for (const res of spread.answers) {
      assert.equal(res.status, 400);
      assert.equal(res.body.errors[0].extensions.code, 'QUERY_TOO_COMPLEX');
      assert.match(res.body.errors[0].message, /"__schema" is selected more than 20 times/);
    }
    for (const run of [written, spread]) {
      assert.ok(healthDuring(run.order) >= 1, run.order.join(' '));
      assert.ok(run.health.every((s) => s === 200));
    }
  });
});

describe('introspection', () => {
  test("GraphiQL's introspection query answers within the limits, with its cost", async () => {
    const res = await gql(base, key, getIntrospectionQuery());
    assert.equal(res.status, 200);
    assert.equal(res.body.errors, undefined);
    assert.ok(res.body.data.__schema.types.length > 200);
    const cost = Number(res.headers.get('x-complexity'));
    assert.ok(cost > 1000 && cost < 10_000, `cost ${cost}`);
  });

  test('aliased copies add up: 5 copies cost 5 times one; three full introspections are too complex', async () => {
    const one = await gql(base, key, `{ a: __schema { ${schemaSelection} } }`);
    assert.equal(one.status, 200);
    const each = Number(one.headers.get('x-complexity'));
    const five = `{ ${range(5)
      .map((i) => `a${i}: __schema { ${schemaSelection} }`)
      .join(' ')} }`;
    const res = await gql(base, key, five);
    assert.equal(res.status, 200);
    const fiveCost = Number(res.headers.get('x-complexity'));
    assert.ok(Math.abs(fiveCost - 5 * each) <= 1, `${fiveCost} vs 5 x ${each}`);

    // GraphiQL's query with its __schema field under three aliases.
    const doc = parse(getIntrospectionQuery());
    const op = getOperationAST(doc)!;
    const field = op.selectionSet.selections[0] as FieldNode;
    const selections = ['a', 'b', 'c'].map((value) => ({
      ...field,
      alias: { kind: Kind.NAME, value } as const,
    }));
    const three = print({
      ...doc,
      definitions: doc.definitions.map((d) =>
        d === op ? { ...op, selectionSet: { ...op.selectionSet, selections } } : d,
      ),
    });
    const refused = await gql(base, key, three);
    assert.equal(refused.status, 400);
    assert.match(refused.body.errors[0].message, /Query too complex/);
  });

  test('an answer over 5 MiB is replaced by a clear error', async () => {
    // Six root fields of about 1.3 MB each: within the cost limit, over 7 MiB of JSON.
    const large =
      'types { name kind description fields { name description isDeprecated deprecationReason args { name description defaultValue } } }';
    const group = (p: string, n: number) =>
      `fragment ${p} on Query { ${range(n)
        .map((i) => `${p}${i}: __schema { ...S }`)
        .join(' ')} }`;
    const query = `{ ...A ...B } ${group('A', 3)} ${group('B', 3)} fragment S on __Schema { ${large} }`;
    const res = await gql(base, key, query);
    assert.equal(res.status, 400);
    assert.equal(res.body.data, undefined);
    assert.equal(res.body.errors[0].extensions.type, 'invalid input');
    assert.match(res.body.errors[0].message, /Response too large: the answer exceeds 5 MiB of JSON/);
    assert.ok(Number(res.headers.get('x-complexity')) < 10_000, 'it ran: its cost was within the limit');
  });
});

describe('what is priced', () => {
  test('a variable left to its default is priced at the default', async () => {
    const res = await gql(base, key, 'query ($n: Int = 250) { issues(first: $n) { nodes { id title } } }');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-complexity'), '301');
  });

  test("nodes read through a fragment on the connection are multiplied by the page (the SDK's documents)", async () => {
    const client = sdk(base, key);
    await client.issues({ first: 200 });
    await assert.rejects(() => client.issues({ first: 250 }), InvalidInputLinearError);
  });
});

describe('refusals are charged', () => {
  let small: TestApp;
  let smallBase: string;
  let smallKey: string;
  before(async () => {
    small = await startTestApp({ graphqlComplexityPerHour: 25_000 });
    smallBase = await small.listen();
    smallKey = await apiKeyFor(small, small.adminToken);
  });
  after(() => small.close());

  test('each too-complex request costs 10,000 points; once the budget is gone every request is 429', async () => {
    const remaining = [];
    for (const _ of range(3)) {
      const res = await gql(smallBase, smallKey, fragmentDoubling);
      assert.equal(res.status, 400);
      remaining.push(Number(res.headers.get('x-ratelimit-complexity-remaining')));
    }
    assert.deepEqual(remaining, [15_000, 5_000, 0]);
    for (const query of [fragmentDoubling, '{ viewer { id } }']) {
      const res = await gql(smallBase, smallKey, query);
      assert.equal(res.status, 429);
      assert.equal(res.body.errors[0].extensions.type, 'ratelimited');
      assert.ok(Number(res.headers.get('retry-after')) > 0);
    }
  });
});
