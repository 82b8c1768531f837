// test-runner: any database
// Cost calibration: the documents real clients send must be within our
// limits. Every operation the installed @linear/sdk can send (with its
// defaults, as a caller who passes no page size sends it) and every document
// the real clients of test/real-clients-* sent (test/fixtures/client-documents)
// validates against our schema and is priced under the limits. docs/graphql.md
// ("Query cost") states the rule and these figures.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import {
  type DocumentNode,
  type FragmentDefinitionNode,
  Kind,
  type OperationDefinitionNode,
  parse,
  validate,
} from 'graphql';
import { buildExecutableSchema } from '../src/graphql/build-schema.js';
import { assertWithinLimits, MAX_COMPLEXITY, measure } from '../src/graphql/cost.js';
import { allResolvers } from '../src/graphql/resolvers/index.js';

const root = path.resolve(import.meta.dirname, '..');
const schema = buildExecutableSchema(allResolvers);

function price(doc: DocumentNode, variables: Record<string, unknown>) {
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
  return doc.definitions
    .filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)
    .map((op) => ({ name: op.name?.value ?? '(anonymous)', m: measure(schema, op, fragments, variables) }));
}

function check(label: string, doc: DocumentNode, variables: Record<string, unknown>, costs: number[]) {
  const errors = validate(schema, doc);
  assert.deepEqual(
    errors.map((e) => e.message),
    [],
    `${label} does not validate`,
  );
  for (const { name, m } of price(doc, variables)) {
    assert.doesNotThrow(() => assertWithinLimits(m), `${label} ${name}: cost ${m.cost}, depth ${m.depth}`);
    costs.push(m.cost);
  }
}

const summary = (costs: number[]) => {
  const s = [...costs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(s.length * q))];
  return `${s.length} operations; median ${at(0.5)}, p90 ${at(0.9)}, max ${at(1)} (limit ${MAX_COMPLEXITY})`;
};

test('every operation @linear/sdk can send validates and is within the limits with its defaults', (t) => {
  const source = fs.readFileSync(path.join(root, 'node_modules/@linear/sdk/dist/index.mjs'), 'utf8');
  const costs: number[] = [];
  for (const m of source.matchAll(/new TypedDocumentString\(`([^`]*)`/g)) {
    const doc = parse(m[1] as string);
    // Fragment-only documents are pieces the SDK appends to its operations.
    if (!doc.definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION)) continue;
    check('SDK document', doc, {}, costs);
  }
  assert.ok(costs.length > 600, `${costs.length} operations`);
  t.diagnostic(`@linear/sdk: ${summary(costs)}`);
});

test('every document the real clients sent validates and is within the limits', (t) => {
  const dir = path.join(root, 'test/fixtures/client-documents');
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.graphql')) : [];
  assert.ok(files.length >= 3, 'one file per real client');
  for (const file of files) {
    const costs: number[] = [];
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    for (const chunk of text.split(/^# steps: /m).slice(1)) {
      const variables = [...chunk.matchAll(/^# variables: (.*)$/gm)].map((m) => JSON.parse(m[1] as string));
      // The chunk's first line is the rest of its `# steps:` header.
      const doc = parse(chunk.slice(chunk.indexOf('\n')).replace(/^#.*$/gm, ''));
      for (const v of variables.length ? variables : [{}])
        check(`${file}: ${chunk.split('\n')[0]}`, doc, v, costs);
    }
    assert.ok(costs.length > 0, `${file} holds documents`);
    t.diagnostic(`${file}: ${summary(costs)}`);
  }
});
