// Property-based guard over every REST route in the OpenAPI document: generated
// paths, query strings (filters included) and bodies, sent by an admin, a
// member, a guest and nobody. No answer may be a 5xx, and a refused request
// (4xx) must leave every table as it was. A route added later is covered
// without touching this file. FUZZ_RUNS scales the runs per route.
import assert from 'node:assert/strict';
import { access } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { stopImports } from '../src/modules/import/service.js';
import { issueEntity } from '../src/platform/list/entities.js';
import { changedTables, digest, tablesToWatch } from './support/fuzz/digest.js';
import { issueFilters } from './support/fuzz/filters.js';
import { fromSchema, type JsonSchema, type Mode } from './support/fuzz/from-schema.js';
import { deepNesting, hostileJson, hostileString, type IdPool, idFrom } from './support/fuzz/values.js';
import { type FuzzWorkspace, fuzzWorkspace } from './support/fuzz/workspace.js';
import { startTestApp, type TestApp } from './support/harness.js';

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 12);

/** Routes the OpenAPI document leaves out (its paths are what is walked here), and where each is fuzzed. */
const OUTSIDE_OPENAPI: [RegExp, string][] = [
  [/^\/api\/docs(\/|$)/, 'no input: the Swagger UI pages'],
  [/^\/api\/openapi\.json$/, 'no input: the API description'],
  [/^\/(healthz|readyz)$/, 'no input: health checks'],
  [/^\/\*$/, 'no input: the web UI shell'],
  [/^\/scim\/v2(\/|$)/, 'SCIM bodies and filters: test/scim.test.ts'],
  [/^\/api\/stream$/, 'the change stream and its Last-Event-ID: test/stream-catchup.test.ts'],
  [/^\/graphql$/, 'GraphQL documents and variables: test/fuzz-graphql.test.ts'],
  [/^\/oauth\//, 'the OAuth server: test/oauth-fuzz.test.ts'],
  [/^\/\.well-known\/oauth-/, 'OAuth metadata with any query: test/oauth-fuzz.test.ts'],
  [/^\/mcp$/, 'MCP bodies (test/oauth-fuzz.test.ts) and tool arguments (test/mcp.test.ts)'],
];
/** Only the routes matching this pattern, e.g. FUZZ_ROUTES='GET /api/issues$'. */
const ONLY = new RegExp(process.env['FUZZ_ROUTES'] ?? '');

interface Param {
  name: string;
  in: 'path' | 'query' | 'header';
  schema?: JsonSchema;
}
interface Route {
  method: string;
  path: string;
  params: Param[];
  body?: JsonSchema;
}

/** Percent-encoding that also takes lone surrogates (sent as U+FFFD, as a browser would). */
const encode = (s: string) =>
  encodeURIComponent(
    s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'),
  );

function routesOf(openapi: any): Route[] {
  const routes: Route[] = [];
  for (const [path, ops] of Object.entries<any>(openapi.paths)) {
    for (const [method, op] of Object.entries<any>(ops)) {
      routes.push({
        method: method.toUpperCase(),
        path,
        params: op.parameters ?? [],
        body: op.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return routes;
}

function queryValue(p: Param, pool: IdPool, mode: Mode): fc.Arbitrary<string> {
  const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  if (p.name === 'filter') {
    const model = issueFilters(issueEntity, pool).map((f) => JSON.stringify(f));
    return mode === 'valid' ? model : fc.oneof(model, hostileJson.map(text), hostileString);
  }
  return fromSchema(p.schema ?? {}, pool, mode, p.name).map(text);
}

/** Sometimes, mostly not: optional parts of a request stay out, so one bad part does not hide the rest. */
const sometimes = <T>(a: fc.Arbitrary<T>, weight = 1) =>
  fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight, arbitrary: a });

const OTHER_TYPES = ['text/plain', 'text/html', 'image/svg+xml', 'application/x-www-form-urlencoded', 'x/y'];

function requestFor(route: Route, pool: IdPool, mode: Mode) {
  const pathParams = route.params.filter((p) => p.in === 'path');
  const queryParams = route.params.filter((p) => p.in === 'query');
  const id = mode === 'valid' ? fc.constantFrom(...pool.uuids, ...pool.keys) : idFrom(pool);
  const path = fc.tuple(...pathParams.map(() => id)).map((values) => {
    let url = route.path;
    pathParams.forEach((p, i) => {
      url = url.replace(`{${p.name}}`, encode(String(values[i])));
    });
    return url;
  });
  const extraParam =
    mode === 'valid' ? fc.constant(undefined) : sometimes(fc.tuple(hostileString, hostileString));
  const query = fc
    .tuple(fc.tuple(...queryParams.map((p) => sometimes(queryValue(p, pool, mode)))), extraParam)
    .map(([values, extra]) => {
      const q = new URLSearchParams();
      queryParams.forEach((p, i) => {
        if (values[i] !== undefined) q.set(p.name, values[i]!);
      });
      if (extra) q.set(extra[0], extra[1]);
      const s = q.toString();
      return s ? `?${s}` : '';
    });
  const json = (route.body ? fromSchema(route.body, pool, mode) : hostileJson).map((v) => ({
    payload: JSON.stringify(v),
    type: 'application/json',
  }));
  const payload =
    mode === 'valid'
      ? json
      : fc.oneof(
          { weight: 4, arbitrary: json },
          { weight: 1, arbitrary: hostileString.map((s) => ({ payload: s, type: 'application/json' })) },
          {
            // Nested past the limit, alone or under a field the route reads (issue 24, finding 11).
            weight: 1,
            arbitrary: fc
              .tuple(fc.constantFrom('', 'metadata', 'filter', 'title', 'input'), deepNesting())
              .map(([key, deep]) => ({
                payload: key ? `{"${key}":${deep},"title":"t","url":"https://example.com/d"}` : deep,
                type: 'application/json',
              })),
          },
          {
            weight: 1,
            arbitrary: fc
              .tuple(fc.constantFrom(...OTHER_TYPES), hostileString)
              .map(([type, payload]) => ({ payload, type })),
          },
        );
  const sendsBody = route.method !== 'GET' && route.method !== 'DELETE';
  return fc.record({
    url: fc.tuple(path, query).map(([p, q]) => p + q),
    body: sendsBody ? (mode === 'valid' ? payload : sometimes(payload, 6)) : fc.constant(undefined),
    caller: mode === 'valid' ? fc.integer({ min: 0, max: 2 }) : fc.integer({ min: 0, max: 3 }),
    filename: mode === 'valid' ? fc.constant(undefined) : sometimes(hostileString),
  });
}

describe('fuzz: every REST route', () => {
  let t: TestApp;
  let ws: FuzzWorkspace;
  let routes: Route[];
  let tables: string[];

  before(async () => {
    // No backup worker: generated settings would send archives to any directory or endpoint the
    // fuzzer names, and a run settling between two requests would change tables under the digest.
    t = await startTestApp(
      {
        graphqlRequestsPerHour: 1_000_000,
        sessionRequestsPerHour: 1_000_000,
        sessionComplexityPerHour: 1e12,
      },
      { backupWorker: false },
    );
    ws = await fuzzWorkspace(t);
    routes = routesOf((await t.get('/api/openapi.json')).body);
    tables = await tablesToWatch(t.ctx.db);
  });
  after(() => t.close());

  test('the OpenAPI document lists the routes to fuzz', () => {
    assert.ok(routes.length >= 60, `only ${routes.length} routes`);
  });

  test('a route the OpenAPI document leaves out is fuzzed elsewhere, by name, or takes no input', async () => {
    const listed = new Set(routes.map((r) => `${r.method} ${r.path}`));
    const outside = t.app.routeAuth
      .filter((r) => r.method !== 'HEAD')
      .map((r) => ({ method: r.method, url: r.url, open: r.url.replace(/:(\w+)/g, '{$1}') }))
      .filter((r) => !listed.has(`${r.method} ${r.open}`))
      // The web build's hashed files, served only once web/dist is built: no input.
      .filter((r) => !/^\/assets\//.test(r.url));
    const unaccounted = outside.filter((r) => !OUTSIDE_OPENAPI.some(([re]) => re.test(r.url)));
    assert.deepEqual(
      unaccounted.map((r) => `${r.method} ${r.url}`),
      [],
      'routes fuzzed nowhere: describe them in OpenAPI or name their fuzz test in OUTSIDE_OPENAPI',
    );
    const stale = OUTSIDE_OPENAPI.filter(([re]) => !outside.some((r) => re.test(r.url)));
    assert.deepEqual(
      stale.map(([re]) => String(re)),
      [],
      'OUTSIDE_OPENAPI names routes that are not there',
    );
    for (const [re, where] of OUTSIDE_OPENAPI) {
      const file = /test\/[\w-]+\.test\.ts/.exec(where)?.[0];
      if (file) await access(new URL(`../${file}`, import.meta.url));
      else assert.match(where, /^no input/, `${re}: name the test file, or say it takes no input`);
    }
  });

  test('no 5xx, and a refused request changes nothing', async (ctx) => {
    for (const route of routes.filter((r) => ONLY.test(`${r.method} ${r.path}`))) {
      await ctx.test(`${route.method} ${route.path}`, () => fuzzRoute(route));
    }
  });

  async function fuzzRoute(route: Route) {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Mode>('valid', 'hostile').chain((mode) => requestFor(route, ws.pool, mode)),
        async (r) => {
          const before = await digest(t.ctx.db, tables);
          const token = ws.callers[r.caller]?.token;
          const headers: Record<string, string> = {};
          if (r.body) headers['content-type'] = r.body.type;
          if (r.filename !== undefined) headers['x-filename'] = encode(r.filename);
          const res = await t.request(route.method, r.url, {
            token,
            headers,
            ...(r.body ? { payload: r.body.payload } : {}),
          });
          // An import the request started goes on after its answer: stopped here, so its writes
          // land before the next request's digest (POST /api/admin/imports).
          await stopImports(t.ctx);
          const where = `${route.method} ${r.url} as ${ws.callers[r.caller]?.role ?? 'nobody'}`;
          assert.ok(res.status < 500, `${where}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
          const now = await digest(t.ctx.db, tables);
          if (res.status >= 400) {
            assert.ok(
              typeof res.body === 'object' && res.body?.error?.code,
              `${where}: error body ${String(res.body).slice(0, 200)}`,
            );
            // A refused sign-in changes nothing but the audit log, which records it on purpose.
            const recorded = route.path === '/api/auth/login' ? ['audit_entries'] : [];
            assert.deepEqual(
              changedTables(before, now).filter((table) => !recorded.includes(table)),
              [],
              `${where}: ${res.status} changed tables`,
            );
          }
        },
      ),
      { numRuns: RUNS, includeErrorInReport: true },
    );
  }
});
