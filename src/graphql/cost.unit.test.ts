// test-runner: any database
// Query cost: fragments priced once, equal to the document written out,
// introspection priced, width and depth limits.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  getIntrospectionQuery,
  getOperationAST,
  Kind,
  parse,
  print,
} from 'graphql';
import { AppError } from '../platform/errors.js';
import { buildExecutableSchema } from './build-schema.js';
import { assertWithinLimits, MAX_COMPLEXITY, MAX_ROOT_FIELDS, type Measure, measure } from './cost.js';
import { allResolvers } from './resolvers/index.js';

const schema = buildExecutableSchema(allResolvers);

function fragmentsOf(doc: DocumentNode): Record<string, FragmentDefinitionNode> {
  const out: Record<string, FragmentDefinitionNode> = {};
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) out[d.name.value] = d;
  return out;
}

/** Measures `query`; `lookups` counts how often each fragment definition was read. */
function cost(query: string, variables: Record<string, unknown> = {}) {
  const doc = parse(query);
  const lookups = new Map<string, number>();
  const fragments = new Proxy(fragmentsOf(doc), {
    get(target, name: string) {
      lookups.set(name, (lookups.get(name) ?? 0) + 1);
      return target[name];
    },
  });
  return { ...measure(schema, getOperationAST(doc)!, fragments, variables), lookups };
}

/** The same operation with every fragment spread replaced by its selections, as an inline fragment. */
function inlined(query: string): string {
  const doc = parse(query);
  const fragments = fragmentsOf(doc);
  const expand = (text: string): string =>
    text.replace(/\.\.\.(\w+)/g, (_, name: string) => {
      const f = fragments[name]!;
      return `... on ${f.typeCondition.name.value} ${expand(print(f.selectionSet))}`;
    });
  return expand(print(getOperationAST(doc)!));
}

const doubling = (levels: number, type = 'User', root = '{ viewer { ...F0 } }') => {
  let q = root;
  for (let i = 0; i < levels; i++) q += ` fragment F${i} on ${type} { ...F${i + 1} ...F${i + 1} }`;
  return `${q} fragment F${levels} on ${type} { id }`;
};

const refusal = (m: Measure) => {
  try {
    assertWithinLimits(m);
    return undefined;
  } catch (err) {
    assert.ok(err instanceof AppError);
    assert.equal(err.code, 'QUERY_TOO_COMPLEX');
    assert.equal(err.status, 400);
    return err.message;
  }
};

test('a fragment is read once however often it is spread: 27 levels of doubled spreads', () => {
  const m = cost(doubling(26));
  assert.equal(m.lookups.size, 27);
  assert.ok(
    [...m.lookups.values()].every((n) => n === 1),
    'each fragment definition read once',
  );
  // Written out, the document selects `id` 2^26 times: 1 for viewer + 2^26 x 0.1.
  assert.equal(m.cost, Math.round((1 + 2 ** 26 * 0.1) * 10) / 10);
  assert.match(refusal(m) ?? '', /Query too complex: cost 6710887\.4 exceeds the limit of 10000/);
});

test('the memoised cost equals the cost of the document written out', () => {
  const docs = [
    doubling(6),
    doubling(5, 'Issue', '{ issues(first: 7) { nodes { ...F0 } } }'),
    // A fragment on a connection: its nodes are still multiplied by the page size.
    `{ issues(first: 10) { ...C } } fragment C on IssueConnection { nodes { ...I } pageInfo { hasNextPage } }
     fragment I on Issue { id title comments(last: 3) { ...K } assignee { ...U } }
     fragment K on CommentConnection { nodes { id body user { ...U } } }
     fragment U on User { id name }`,
    `query Q($n: Int) { a: viewer { ...U } issues(first: $n) { edges { node { assignee { ...U } } } } }
     fragment U on User { id assignedIssues(first: 4) { nodes { id } } }`,
  ];
  for (const q of docs) {
    const m = cost(q, { n: 20 });
    const written = cost(inlined(q), { n: 20 });
    assert.equal(written.lookups.size, 0);
    assert.deepEqual(
      { cost: m.cost, depth: m.depth, rootFields: m.rootFields },
      { cost: written.cost, depth: written.depth, rootFields: written.rootFields },
      q,
    );
  }
  const expected = 1 + 10 * (1 + 0.2 + (1 + 3 * (1 + 0.2 + 1.2)) + 1.2) + 1.1;
  assert.equal(cost(docs[2]!).cost, Math.round(expected * 10) / 10);
});

test('depth counts through fragments, at the deepest place a fragment is spread', () => {
  const U = 'fragment U on User { assignedIssues { nodes { parent { parent { id } } } } }';
  assert.equal(cost(`{ viewer { ...U } } ${U}`).depth, 6);
  // The same fragment also spread seven levels down: 1 + 8 + the fragment's 4.
  const deep = `{ viewer { ...U } issues { nodes { parent { parent { parent { parent { parent {
    assignee { ...U } } } } } } } } } ${U}`;
  const m = cost(deep);
  assert.equal(m.depth, 13);
  assert.equal(cost(inlined(deep)).depth, 13);
  assert.match(refusal(m) ?? '', /Query too deep: depth 13 exceeds the limit of 12/);
});

test('root fields are counted through fragments and capped', () => {
  const fields = (n: number) => Array.from({ length: n }, (_, i) => `a${i}: viewer { id }`).join(' ');
  assert.equal(refusal(cost(`{ ${fields(MAX_ROOT_FIELDS)} }`)), undefined);
  const wide = cost(`{ ${fields(30)} ...Q } fragment Q on Query { ${fields(21)} }`);
  assert.equal(wide.rootFields, 51);
  assert.match(refusal(wide) ?? '', /Query too wide: 51 root fields exceed the limit of 50/);
  // Fragments doubling at the root: counted, not walked, 2^30 times.
  assert.equal(
    cost(doubling(30, 'Query', '{ ...F0 }').replace(/\{ id \}$/, '{ viewer { id } }')).rootFields,
    2 ** 30,
  );
});

test('introspection is priced from the schema sizes, and aliases add up', () => {
  const types = Object.keys(schema.getTypeMap()).length;
  // A fortieth of the data rule: 0.025 per object, 0.0025 per scalar, `types` as long as the schema's list.
  assert.equal(cost('{ __schema { types { name } } }').cost, Math.round((0.025 + types * 0.0275) * 10) / 10);
  const one = cost('{ __schema { types { name fields { name args { name } } } } }').cost;
  assert.ok(one > 100, `cost ${one}`);
  const aliases = (n: number) => Array.from({ length: n }, (_, i) => `a${i}: __schema { ...S }`).join(' ');
  const twenty = cost(
    `{ ${aliases(20)} } fragment S on __Schema { types { name fields { name args { name } } } }`,
  );
  assert.ok(Math.abs(twenty.cost - 20 * one) < 1, `${twenty.cost} vs 20 x ${one}`);
  assert.ok(cost('{ __type(name: "Issue") { name fields { name } } }').cost > 0);
  assert.equal(cost('{ __typename }').cost, 0);
});

test("GraphiQL's introspection query fits the limits; a few aliased copies of it do not", () => {
  // GraphiQL sends the default query; its options (off by default) ask for more.
  const everything = getIntrospectionQuery({
    descriptions: true,
    specifiedByUrl: true,
    directiveIsRepeatable: true,
    schemaDescription: true,
    inputValueDeprecation: true,
    oneOf: true,
  });
  for (const query of [getIntrospectionQuery(), everything]) {
    const m = cost(query);
    assert.equal(refusal(m), undefined);
    assert.ok(m.cost > 1000, `cost ${m.cost}`);
  }
  const full = cost(getIntrospectionQuery());
  // The same operation with its __schema field under three aliases.
  const doc = parse(getIntrospectionQuery());
  const op = getOperationAST(doc)!;
  const field = op.selectionSet.selections[0] as FieldNode;
  const aliased = ['a', 'b', 'c'].map((value) => ({ ...field, alias: { kind: Kind.NAME, value } as const }));
  const copies = print({
    ...doc,
    definitions: doc.definitions.map((d) =>
      d === op ? { ...op, selectionSet: { ...op.selectionSet, selections: aliased } } : d,
    ),
  });
  const three = cost(copies);
  assert.ok(Math.abs(three.cost - 3 * full.cost) < 1);
  assert.match(refusal(three) ?? '', /Query too complex/);
});

test('costs saturate: 2,000 levels of doubled spreads are refused with a finite figure', () => {
  const m = cost(doubling(2000));
  assert.ok(Number.isFinite(m.cost) && m.cost > MAX_COMPLEXITY);
  assert.match(refusal(m) ?? '', /cost over 1000000000000000 exceeds/);
  // A page of nothing multiplies to nothing, not NaN.
  assert.equal(cost(doubling(2000, 'Issue', '{ issues(first: 0) { nodes { ...F0 } } }')).cost, 1);
});

test('fragments narrowed to different types of an interface cost as the dearest one, per record', () => {
  const issueOnly = cost(
    `{ notifications(first: 10) { nodes { id ... on IssueNotification { issue { id title } } } } }`,
  );
  const both = cost(`{ notifications(first: 10) { nodes { id
    ... on IssueNotification { issue { id title } }
    ... on ProjectNotification { project { id } } } } }`);
  // 1 + 10 × (the node 1, id 0.1, issue 1.2): the cheaper ProjectNotification part adds nothing.
  assert.equal(issueOnly.cost, 24);
  assert.equal(both.cost, issueOnly.cost);
  // A named fragment on a type counts the same way; fields common to all types add up.
  const named = cost(`{ notifications(first: 10) { nodes { id type ...I ...P } } }
    fragment I on IssueNotification { issue { id title } }
    fragment P on ProjectNotification { project { id name url } }`);
  // 1 + 10 × (the node 1, id and type 0.2, the dearer project part 1.3).
  assert.equal(named.cost, 26);
  // Depth still counts every branch.
  assert.equal(both.depth, issueOnly.depth);
});
