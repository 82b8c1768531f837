// Read plans (src/graphql/plan/): an issue page's selected relations read in
// the page's own statement must answer exactly what the batched loaders
// answer, for every role of the visibility world (a guest, a member outside
// the private teams, a member of one, the admin), through fragments,
// aliases, variables and @include/@skip; and the nested page must cost the
// statements docs/graphql.md claims.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sdkIssuesDocument } from '../bench/scenarios.js';
import { runGraphql } from '../src/graphql/execute.js';
import { graphqlSchema } from '../src/graphql/routes.js';
import type { Actor } from '../src/platform/context.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { StatementCounter } from './support/statement-counter.js';
import { buildWorld, ROLES, type Role, type World, worldActors } from './support/visibility-fixture.js';

let t: TestApp;
let world: World;
let actors: Record<Role, Actor>;

before(async () => {
  t = await startTestApp();
  world = await buildWorld(t);
  actors = await worldActors(t, world);
});
after(() => t.close());

/** Runs a document as `role` with the plan on or off; the answer and the statements it took. */
async function run(role: Role, plan: boolean, query: string, variables: Record<string, unknown> = {}) {
  const counter = new StatementCounter();
  const app = {
    ...t.ctx,
    db: t.ctx.db.withPlugin(counter),
    // Compiled reads (test/graphql-compiled.test.ts) would answer these documents before the plan.
    config: { ...t.ctx.config, graphqlReadPlan: plan, graphqlCompiledReads: false },
  };
  // A new actor object per request: the caller's teams are read again, as for a real request.
  const res = await runGraphql(graphqlSchema(), app, { ...actors[role] }, { query, variables });
  return { body: JSON.parse(res.json ?? JSON.stringify(res.body)), statements: counter.count };
}

const NESTED = `query Nested($team: ID) {
  issues(first: 50, includeArchived: true, filter: { team: { id: { eq: $team } } }) {
    nodes {
      id identifier title priority createdAt
      state { id name type }
      assignee { id name email }
      labels { nodes { id name } }
      comments(first: 5) { nodes { id body createdAt } }
    }
    pageInfo { hasNextPage endCursor }
  }
}`;

const EVERYTHING = `query Everything($withState: Boolean!, $skipLabels: Boolean!, $n: Int, $archived: Boolean) {
  issues(first: 20, includeArchived: $archived) {
    edges { cursor node { ...Relations } }
    nodes {
      id
      s: state @include(if: $withState) { name type team { key } }
      labels(first: 5) @skip(if: $skipLabels) { nodes { id name parent { id } } }
      recent: comments(first: $n) { nodes { id body user { name } parent { id } } pageInfo { hasNextPage endCursor } }
      oldest: comments(last: 1, orderBy: updatedAt) { nodes { id } pageInfo { hasPreviousPage startCursor } }
      none: comments(first: 0) { nodes { id } pageInfo { hasNextPage } }
      ... on Issue { parent { id title team { key } } creator { name } }
      ... on Node { id }
    }
  }
}
fragment Relations on Issue {
  identifier
  assignee { id name email }
  project { name teams(first: 3) { nodes { key } } }
  cycle { number }
  team { key name }
  labelIds previousIdentifiers branchName
  children(first: 3, includeArchived: true) { nodes { identifier state { name } } }
  history(first: 3) { nodes { id } }
  attachments(first: 3) { nodes { title } }
  subscribers(first: 3) { nodes { name } }
  ...More @include(if: $withState)
}
fragment More on Issue { state { id position } comments(first: 3, filter: { body: { contains: "reply" } }) { nodes { body } } }`;

const SEARCHES = `query Searches($term: String!) {
  searchIssues(term: $term, first: 20) { nodes { identifier state { name } labels(first: 5) { nodes { name } } } totalCount }
  issueSearch(query: $term, first: 20) { nodes { identifier assignee { name } comments(first: 5) { nodes { body } } } }
}`;

const cases: [string, string, Record<string, unknown>][] = [
  ['the bench nested page', NESTED, {}],
  ['fragments, aliases, variables and directives', EVERYTHING, { withState: true, skipLabels: false, n: 5 }],
  [
    'the same with the other branches of each directive',
    EVERYTHING,
    { withState: false, skipLabels: true, n: 1, archived: true },
  ],
  ['searches', SEARCHES, { term: 'pulsar' }],
  ['the @linear/sdk issues document', sdkIssuesDocument(process.cwd()), { first: 50 }],
];

describe('the plan answers what the loaders answer', () => {
  for (const role of ROLES) {
    for (const [name, query, variables] of cases) {
      test(`${role}: ${name}`, async () => {
        const planned = await run(role, true, query, variables);
        const loaded = await run(role, false, query, variables);
        assert.equal(planned.body.errors, undefined, JSON.stringify(planned.body.errors));
        assert.deepEqual(planned.body, loaded.body);
        assert.ok(JSON.stringify(planned.body).includes('"identifier"'), 'the role sees some issues');
        // The words of the teams the role may not see appear nowhere.
        for (const word of world.secretWords[role])
          assert.ok(!JSON.stringify(planned.body).includes(word), word);
        assert.ok(planned.statements < loaded.statements, `${planned.statements} vs ${loaded.statements}`);
      });
    }
  }

  test('arguments a nested list refuses fail at the nested field, the same way with and without the plan', async () => {
    const query = `{ issues(first: 3) { nodes { identifier comments(after: "not a cursor") { nodes { id } } } } }`;
    const planned = await run('admin', true, query);
    const loaded = await run('admin', false, query);
    assert.ok(planned.body.errors?.length, 'an error');
    assert.deepEqual(planned.body, loaded.body);
    assert.deepEqual(planned.body.errors[0].path.slice(0, 3), ['issues', 'nodes', 0]);
  });
});

describe('statements', () => {
  test('the nested page is one statement for the admin and two for a member, for 5 issues or 50', async () => {
    for (const [role, expected] of [
      ['admin', 1],
      ['insider', 2],
    ] as const) {
      const planned = await run(role, true, NESTED);
      assert.ok(planned.body.data.issues.nodes.length > 5);
      // Over HTTP, the request's token adds one read of its user (docs/graphql.md).
      assert.equal(planned.statements, expected, role);
      const five = await run(role, true, NESTED.replace('first: 50', 'first: 5'));
      assert.equal(five.statements, expected, role);
      // Without the plan: the page, then states, users, label pages and comment pages in batches.
      assert.equal((await run(role, false, NESTED)).statements, expected + 4, role);
    }
  });

  test("the SDK's issues document is one statement for the admin", async () => {
    const planned = await run('admin', true, sdkIssuesDocument(process.cwd()), { first: 50 });
    assert.equal(planned.body.errors, undefined);
    assert.equal(planned.statements, 1);
  });
});
