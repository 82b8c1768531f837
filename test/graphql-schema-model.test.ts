// The schema is the third-party schema as data plus our held model:
// - third-party.json is what the installed @linear/sdk's types say;
// - the coverage document is the model's own, not stale;
// - every field is held or answers by the one unheld rule, and no field the
//   model calls unheld is produced with a value (a held field forgotten);
// - unheld queries, mutations and filters answer as documented, to real clients.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FeatureNotAccessibleLinearError, InvalidInputLinearError, type LinearClient } from '@linear/sdk';
import { getNamedType, isLeafType, isObjectType } from 'graphql';
import { coverageDocument } from '../scripts/graphql-coverage.js';
import { readThirdPartySchema } from '../scripts/third-party-schema-reader.js';
import { buildExecutableSchema, unheldWithValue } from '../src/graphql/build-schema.js';
import { allResolvers } from '../src/graphql/resolvers/index.js';
import { heldOf } from '../src/graphql/schema/build.js';
import { thirdPartySchema } from '../src/graphql/schema/third-party.js';
import { apiKeyFor, sdk } from './graphql-helpers.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { buildWorld, type World } from './support/visibility-fixture.js';
import { documents, isHeldField, items, nodeType, servedSchema } from './support/visibility-graphql.js';

const root = path.resolve(import.meta.dirname, '..');

describe('the schema data and its model', () => {
  test('third-party.json is what the installed SDK publishes', () => {
    assert.deepEqual(readThirdPartySchema(root), thirdPartySchema());
  });

  test('docs/graphql-coverage.md is the model as it is', async () => {
    const committed = await fs.readFile(path.join(root, 'docs/graphql-coverage.md'), 'utf8');
    assert.equal(committed, coverageDocument(), 'run: npx tsx scripts/write-graphql-coverage.ts');
  });

  test('every field of every object type is held or on the not-held list, and the SDK needs only held ones', () => {
    const schema = buildExecutableSchema(allResolvers);
    const isHeld = heldOf(schema);
    const doc = coverageDocument(schema);
    let unheld = 0;
    for (const t of Object.values(schema.getTypeMap())) {
      if (!isObjectType(t) || t.name.startsWith('__')) continue;
      for (const f of Object.keys(t.getFields())) {
        if (isHeld(t.name, f)) continue;
        unheld++;
        // Named in the document: as a not-held field of a held type, or its whole type as not held.
        assert.ok(doc.includes(`\`${f}\``) || doc.includes(`\`${t.name}\``), `${t.name}.${f}`);
      }
    }
    assert.ok(unheld > 1000, 'most of the third-party schema is not held');
    for (const name of ['issue', 'issues', 'projects', 'workflowStates', 'viewer', 'organization']) {
      assert.ok(isHeld('Query', name), `Query.${name}`);
    }
  });
});

describe('a served workspace', () => {
  let t: TestApp;
  let w: World;
  let dataDir: string;
  let client: LinearClient;

  before(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trackway-model-'));
    t = await startTestApp({
      dataDir,
      // Documents two levels deep over every held field check shapes, not costs (graphql-limits and
      // search-cost test the budgets); under a loaded CI one spent the tests' 60 s of statement time.
      dbTimePerRequestMs: 600_000,
      graphqlRequestsPerHour: 1e6,
      graphqlComplexityPerHour: 1e12,
      sessionRequestsPerHour: 1e6,
      sessionComplexityPerHour: 1e12,
    });
    w = await buildWorld(t);
    client = sdk(await t.listen(), await apiKeyFor(t, w.tokens.admin));
  });
  after(async () => {
    await t.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  test('every held field of every held Query field, two levels down, is produced by what the model says', async () => {
    const schema = await servedSchema(t);
    unheldWithValue.clear();
    let docs = 0;
    for (const field of Object.values(schema.getQueryType()!.getFields()).filter(isHeldField)) {
      // By id: the same records are reached through the lists.
      if (field.args.some((a) => a.name === 'id' || a.type.toString().endsWith('!'))) continue;
      const node = nodeType(getNamedType(field.type));
      // A scalar root field (notificationsUnreadCount) has nothing to select.
      const list = isLeafType(getNamedType(field.type))
        ? [`{ r: ${field.name} }`]
        : node
          ? documents(schema, `{ r: ${field.name}(first: 5) { nodes { `, items(node, 0, 2), ' } } }')
          : documents(schema, `{ r: ${field.name} { `, items(getNamedType(field.type), 0, 2), ' } }');
      for (const query of list) {
        const res = await t.post('/graphql', { query }, w.tokens.admin);
        docs++;
        assert.equal(
          res.body.errors,
          undefined,
          `${field.name}: ${JSON.stringify(res.body.errors)?.slice(0, 300)}`,
        );
      }
    }
    assert.ok(docs >= 10, `${docs} documents`);
    assert.deepEqual([...unheldWithValue], [], 'fields the model calls unheld were produced with a value');
  });

  test('unheld lists answer empty pages, to the SDK as to any client', async () => {
    const res = await t.post(
      '/graphql',
      {
        query:
          '{ favorites { nodes { id } } releases { nodes { id } } teams { nodes { id resourceSections { id } } } }',
      },
      w.tokens.admin,
    );
    assert.equal(res.body.errors, undefined, JSON.stringify(res.body.errors));
    assert.deepEqual(res.body.data.favorites.nodes, []);
    assert.deepEqual(res.body.data.releases.nodes, []);
    assert.ok(res.body.data.teams.nodes.length > 0);
    assert.deepEqual((await client.favorites()).nodes, []);
  });

  test('an unheld mutation, or a query that must answer a record, is "feature not accessible" naming it', async () => {
    const res = await t.post(
      '/graphql',
      { query: 'mutation { documentCreate(input: { title: "x" }) { success } }' },
      w.tokens.admin,
    );
    assert.equal(res.body.errors[0].extensions.type, 'feature not accessible');
    assert.match(res.body.errors[0].message, /Mutation\.documentCreate/);
    const byId = await t.post('/graphql', { query: '{ document(id: "x") { id } }' }, w.tokens.admin);
    assert.equal(byId.body.errors[0].extensions.type, 'feature not accessible');
    assert.match(byId.body.errors[0].message, /Query\.document/);
    await assert.rejects(() => client.createDocument({ title: 'x' }), FeatureNotAccessibleLinearError);
  });

  test('a filter on an unheld field is invalid input naming the field', async () => {
    const res = await t.post(
      '/graphql',
      { query: '{ issues(filter: { customerCount: { eq: 1 } }) { nodes { id } } }' },
      w.tokens.admin,
    );
    assert.equal(res.body.errors[0].extensions.type, 'invalid input');
    assert.match(res.body.errors[0].message, /customerCount.*not held/);
    await assert.rejects(
      () => client.issues({ filter: { slaStatus: { eq: 'Breached' as never } } }),
      InvalidInputLinearError,
    );
  });
});
