// The resolver fallback (src/graphql/resolvers/, loaders.ts): what the
// compiled read answers (src/graphql/compiled.ts), the resolvers and their
// batched loaders must answer too, for every role of the visibility world (a
// guest, a member outside the private teams, a member of one, the admin),
// through fragments, aliases, variables and @include/@skip; and a document
// costs the fallback a fixed number of statements, one per relation level,
// whatever its page sizes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sdkIssuesDocument } from '../bench/scenarios.js';
import type { Actor } from '../src/platform/context.js';
import { runCounted } from './graphql-helpers.js';
import { startTestApp, type TestApp } from './support/harness.js';
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

/** Runs a document as `role`, compiled where it can be or through the resolvers; the answer and the statements it took. */
const run = (role: Role, compiled: boolean, query: string, variables: Record<string, unknown> = {}) =>
  runCounted(t, { ...actors[role] }, compiled, query, variables);

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

describe('the resolvers answer what the compiled read answers', () => {
  for (const role of ROLES) {
    for (const [name, query, variables] of cases) {
      test(`${role}: ${name}`, async () => {
        const compiled = await run(role, true, query, variables);
        const resolved = await run(role, false, query, variables);
        assert.equal(resolved.body.errors, undefined, JSON.stringify(resolved.body.errors));
        assert.deepEqual(resolved.body, compiled.body);
        assert.ok(JSON.stringify(resolved.body).includes('"identifier"'), 'the role sees some issues');
        // The words of the teams the role may not see appear nowhere.
        for (const word of world.secretWords[role])
          assert.ok(!JSON.stringify(resolved.body).includes(word), word);
      });
    }
  }

  test('arguments a nested list refuses fail at the nested field, the same way compiled or not', async () => {
    const query = `{ issues(first: 3) { nodes { identifier comments(after: "not a cursor") { nodes { id } } } } }`;
    const compiled = await run('admin', true, query);
    const resolved = await run('admin', false, query);
    assert.ok(resolved.body.errors?.length, 'an error');
    assert.deepEqual(resolved.body, compiled.body);
    assert.deepEqual(resolved.body.errors[0].path.slice(0, 3), ['issues', 'nodes', 0]);
  });
});

/** NESTED three levels deep, with `outer` issues and `inner` rows per nested page. */
const deep = (outer: number, inner: number) => `{
  issues(first: ${outer}, includeArchived: true) {
    nodes {
      identifier assignee { name } state { name team { key } }
      labels(first: ${inner}) { nodes { name parent { name } } }
      comments(first: ${inner}) { nodes { body user { name } children(first: ${inner}) { nodes { body } } } }
      children(first: ${inner}, includeArchived: true) {
        nodes { identifier labels(first: ${inner}) { nodes { name } } comments(first: ${inner}) { nodes { id } } }
      }
    }
  }
}`;

describe('statements of the resolver fallback', () => {
  test('the nested page: the page, then one statement per relation, for 5 issues or 50', async () => {
    for (const [role, teams] of [
      ['admin', 0],
      ['insider', 1],
    ] as const) {
      // The page, states, users, label pages, comment pages; a member's teams are read once more.
      // Five issues may name no assignee, and then no user is read.
      const counts: number[] = [];
      for (const first of [5, 50]) {
        const resolved = await run(role, false, NESTED.replace('first: 50', `first: ${first}`));
        assert.equal(resolved.body.errors, undefined, JSON.stringify(resolved.body.errors));
        counts.push(resolved.statements);
      }
      assert.equal(counts[1], 5 + teams, `${role}, 50 issues`);
      assert.ok(counts[0]! <= counts[1]!, `${role}, 5 issues: ${counts[0]}`);
      // Compiled, the same page is one statement (and the member's teams).
      assert.equal((await run(role, true, NESTED)).statements, 1 + teams, role);
    }
  });

  test('a deeper document costs at most one statement per relation, whatever its page sizes', async () => {
    // The page and its eleven relations (to-one and nested pages, three levels deep), and a member's teams.
    const bound = (role: Role) => 1 + 11 + (role === 'admin' ? 0 : 1);
    for (const role of ROLES) {
      const small = await run(role, false, deep(2, 1));
      const large = await run(role, false, deep(20, 4));
      assert.equal(large.body.errors, undefined, JSON.stringify(large.body.errors));
      // The guest sees few issues, and then both sizes read them all.
      if (role === 'admin')
        assert.ok(
          JSON.stringify(large.body).length > JSON.stringify(small.body).length,
          'more rows were read',
        );
      // A relation no row of the page names (no label has a parent) costs nothing: fewer, never more.
      assert.ok(small.statements <= large.statements, `${role}: ${small.statements} vs ${large.statements}`);
      assert.ok(large.statements <= bound(role), `${role}: ${large.statements} statements`);
    }
  });

  test("the SDK's issues document is one statement for the admin, compiled", async () => {
    const compiled = await run('admin', true, sdkIssuesDocument(process.cwd()), { first: 50 });
    assert.equal(compiled.body.errors, undefined);
    assert.equal(compiled.statements, 1);
  });
});
