// Property-based guard over the GraphQL endpoint: documents generated from the
// schema it serves (every root query and mutation, arguments from their input
// types, inline or as variables), issue filters from the filter model, deep
// filter chains, and request bodies that are not GraphQL at all. Sent over a
// real socket by an admin, a member, a guest and nobody. No answer may be a
// 5xx or an "internal error", and a mutation that failed must change nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { buildClientSchema, type GraphQLSchema, getIntrospectionQuery } from 'graphql';
import { issueEntity } from '../src/platform/list/entities.js';
import { changedTables, digest, tablesToWatch } from './support/fuzz/digest.js';
import { issueFilters } from './support/fuzz/filters.js';
import type { Mode } from './support/fuzz/from-schema.js';
import { literal, operations } from './support/fuzz/graphql-documents.js';
import { deepNesting, hostileJson, hostileString } from './support/fuzz/values.js';
import { type FuzzWorkspace, fuzzWorkspace } from './support/fuzz/workspace.js';
import { startTestApp, type TestApp } from './support/harness.js';

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 12);
const GQL_RUNS = RUNS * 25;

describe('fuzz: the GraphQL endpoint', () => {
  let t: TestApp;
  let base: string;
  let ws: FuzzWorkspace;
  let schema: GraphQLSchema;
  let tables: string[];

  const send = async (caller: number, body: string) => {
    const token = ws.callers[caller]?.token;
    const res = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body,
    });
    const text = await res.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      assert.fail(`answer is not JSON (${res.status}): ${text.slice(0, 200)}`);
    }
    return { status: res.status, json };
  };

  /** No 5xx and no internal error, whatever was sent. */
  const assertHandled = (what: string, r: { status: number; json: any }) => {
    assert.ok(r.status < 500, `${what}: ${r.status} ${JSON.stringify(r.json).slice(0, 300)}`);
    const internal = (r.json?.errors ?? []).filter((e: any) => e?.extensions?.type === 'internal error');
    assert.deepEqual(internal, [], `${what}: internal error`);
  };

  before(async () => {
    t = await startTestApp({
      graphqlRequestsPerHour: 1_000_000,
      graphqlComplexityPerHour: 1e12,
      sessionRequestsPerHour: 1_000_000,
      sessionComplexityPerHour: 1e12,
    });
    base = await t.listen();
    ws = await fuzzWorkspace(t);
    const intro = await send(0, JSON.stringify({ query: getIntrospectionQuery() }));
    schema = buildClientSchema(intro.json.data);
    tables = await tablesToWatch(t.ctx.db);
  });
  after(() => t.close());

  test('generated queries and mutations: no internal error, a failed mutation changes nothing', async () => {
    const request = fc
      .constantFrom<Mode>('valid', 'hostile')
      .chain((mode) =>
        fc.record({ op: operations(schema, ws.pool, mode), caller: fc.integer({ min: 0, max: 3 }) }),
      );
    await fc.assert(
      fc.asyncProperty(request, async ({ op, caller }) => {
        const before = await digest(t.ctx.db, tables);
        const r = await send(caller, JSON.stringify({ query: op.query, variables: op.variables }));
        const what = `${op.query} ${JSON.stringify(op.variables)} as ${ws.callers[caller]?.role ?? 'nobody'}`;
        assertHandled(what, r);
        const failed = r.status >= 400 || (r.json.errors?.length && r.json.data?.[op.field] == null);
        if (op.kind === 'mutation' && failed) {
          assert.deepEqual(
            changedTables(before, await digest(t.ctx.db, tables)),
            [],
            `${what}: changed tables`,
          );
        }
      }),
      { numRuns: GQL_RUNS, includeErrorInReport: true },
    );
  });

  test('issue filters from the filter model, inline and as variables', async () => {
    const filterType = schema.getType('IssueFilter') as never;
    const request = fc.record({
      filter: issueFilters(issueEntity, ws.pool),
      inline: fc.boolean(),
      caller: fc.integer({ min: 0, max: 2 }),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ filter, inline, caller }) => {
        const body = inline
          ? { query: `{ issues(filter: ${literal(filter, filterType)}, first: 5) { nodes { id } } }` }
          : {
              query: 'query F($f: IssueFilter) { issues(filter: $f, first: 5) { nodes { id } } }',
              variables: { f: filter },
            };
        assertHandled(JSON.stringify(body).slice(0, 500), await send(caller, JSON.stringify(body)));
      }),
      { numRuns: RUNS * 10, includeErrorInReport: true },
    );
  });

  test('bodies that are not a GraphQL request', async () => {
    const body = fc.oneof(
      hostileString,
      hostileJson.map((v) => JSON.stringify(v)),
      fc
        .record({
          query: fc.oneof(hostileString, hostileJson),
          variables: hostileJson,
          operationName: hostileJson,
        })
        .map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 200 }).map((q) => JSON.stringify({ query: `{ ${q} }` })),
      // Nesting past the limit (issue 24, finding 11): the body, variables, inline values, selections.
      deepNesting(),
      deepNesting().map(
        (d) =>
          `{"query":"mutation($i: AttachmentCreateInput!) { attachmentCreate(input: $i) { success } }","variables":{"i":{"issueId":"x","title":"t","url":"https://example.com/v","metadata":${d}}}}`,
      ),
      deepNesting('graphql').map((d) =>
        JSON.stringify({
          query: `mutation { attachmentCreate(input: { issueId: "x", title: "t", url: "https://example.com/i", metadata: ${d} }) { success } }`,
        }),
      ),
      deepNesting('graphql').map((d) =>
        JSON.stringify({
          query: `{ issues(filter: { or: ${d.replace(/\{a:/g, '[').replace(/\}/g, ']')} }) { nodes { id } } }`,
        }),
      ),
      fc
        .integer({ min: 10, max: 5_000 })
        .map((n) => JSON.stringify({ query: `{ ${'viewer { '.repeat(n)}id${' }'.repeat(n)} }` })),
    );
    await fc.assert(
      fc.asyncProperty(body, fc.integer({ min: 0, max: 3 }), async (b, caller) => {
        assertHandled(b.slice(0, 300), await send(caller, b));
      }),
      { numRuns: RUNS * 10, includeErrorInReport: true },
    );
  });
});
