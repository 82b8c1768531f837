// Defects the fuzz tests found, each pinned by a plain test so that it stays
// fixed whatever the generators happen to draw next time.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { gql, startGraphqlApp } from './graphql-helpers.js';
import type { TestApp } from './support/harness.js';

describe('defects found by the fuzz tests', () => {
  let t: TestApp;
  let base: string;
  let key: string;
  let teamId: string;

  before(async () => {
    ({ t, base, key, teamId } = await startGraphqlApp());
  });
  after(() => t.close());

  const count = async (table: 'comments' | 'projects') =>
    Number(
      (
        await t.ctx.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  test('commentCreate without an issueId is invalid input naming issueId, and creates nothing', async () => {
    const before = await count('comments');
    const r = await gql(base, key, 'mutation { commentCreate(input: { body: "x" }) { success } }');
    assert.equal(r.body.errors?.[0]?.extensions?.type, 'invalid input');
    assert.match(r.body.errors[0].message, /issueId/);
    assert.equal(await count('comments'), before);
  });

  test('projectCreate and projectUpdate with an unknown statusId are invalid input, and change nothing', async () => {
    const before = await count('projects');
    const created = await gql(
      base,
      key,
      `mutation { projectCreate(input: { name: "P", teamIds: ["${teamId}"], statusId: "x" }) { success } }`,
    );
    assert.equal(created.body.errors?.[0]?.extensions?.type, 'invalid input');
    assert.equal(await count('projects'), before);

    const ok = await gql(
      base,
      key,
      `mutation { projectCreate(input: { name: "P", teamIds: ["${teamId}"], statusId: "started" }) { project { id status { type } } } }`,
    );
    const project = ok.body.data.projectCreate.project;
    assert.equal(project.status.type, 'started');
    const updated = await gql(
      base,
      key,
      `mutation { projectUpdate(id: "${project.id}", input: { statusId: "nope" }) { success } }`,
    );
    assert.equal(updated.body.errors?.[0]?.extensions?.type, 'invalid input');
    const read = await gql(base, key, `{ project(id: "${project.id}") { status { type } } }`);
    assert.equal(read.body.data.project.status.type, 'started');
  });

  test('a path segment over the router limit, or a URL that is not valid percent-encoding, answers our error shape', async () => {
    // PATCH: no catch-all route answers it first, so the router's own limit is what refuses.
    const long = await t.patch(`/api/issues/${'x'.repeat(500)}`, { title: 'x' }, t.adminToken);
    assert.equal(long.status, 414);
    assert.equal(long.body.error.code, 'BAD_REQUEST');
    const malformed = await t.get('/api/issues/%E0%A4%A', t.adminToken);
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.error.code, 'BAD_REQUEST');
  });

  test('a UUID variable that is not a string is refused before any resolver runs', async () => {
    const doc =
      'mutation M($ids: [UUID!]!) { issueBatchUpdate(ids: $ids, input: { addedLabelIds: [] }) { success } }';
    const r = await gql(base, key, doc, { ids: [0] });
    assert.equal(r.status, 400);
    assert.match(r.body.errors?.[0]?.message ?? '', /UUID must be a string/);
    const literal = await gql(base, key, doc.replace('M($ids: [UUID!]!)', 'M').replace('$ids', '[7]'), {});
    assert.equal(literal.status, 400);
    assert.match(literal.body.errors?.[0]?.message ?? '', /UUID must be a string/);
  });
});
