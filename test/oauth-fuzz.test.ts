// Properties over the OAuth server's and MCP's input surfaces (modules/oauth,
// modules/mcp): random forms at /oauth/token, /oauth/revoke and
// /oauth/introspect, random authorization requests (GET and POST) and resumes,
// random registrations, random queries at the metadata documents and the keys,
// random uids and bodies at the consent endpoints from every role, and random
// bodies and headers at /mcp. Whatever arrives, the answer is never a 5xx, and
// a refused request (4xx) changes no table. test/fuzz-rest.test.ts names this
// file for these routes, which the OpenAPI document leaves out.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { changedTables, digest, tablesToWatch } from './support/fuzz/digest.js';
import { binaryString, hostileJson, hostileString } from './support/fuzz/values.js';
import { type Res, startTestApp, type TestApp } from './support/harness.js';

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 40);

let t: TestApp;
let tables: string[];
/** Who sends: nobody, the admin, a member and a guest (login tokens). */
const callers: (string | undefined)[] = [undefined];

before(async () => {
  t = await startTestApp();
  tables = await tablesToWatch(t.ctx.db);
  callers.push(t.adminToken, (await t.userWithRole('member')).token, (await t.userWithRole('guest')).token);
});

/** Sends a request; a 5xx fails, and so does a refusal that changed a table. */
async function refusedChangesNothing(what: string, send: () => Promise<Res>): Promise<Res> {
  const before = await digest(t.ctx.db, tables);
  const res = await send();
  assert.ok(res.status < 500, `${what} answered ${res.status}`);
  if (res.status >= 400) {
    const changed = changedTables(before, await digest(t.ctx.db, tables));
    assert.deepEqual(changed, [], `${what}: refused ${res.status} but changed ${changed}`);
  }
  return res;
}

after(async () => {
  await t?.close();
});

const PARAMS = [
  'grant_type',
  'code',
  'code_verifier',
  'redirect_uri',
  'client_id',
  'client_secret',
  'refresh_token',
  'scope',
  'token',
  'token_type_hint',
  'resource',
  'state',
  'response_type',
  'code_challenge',
  'code_challenge_method',
  'actor',
];

const value = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.constantFrom(
    'authorization_code',
    'refresh_token',
    'client_credentials',
    'read,write',
    'read write admin',
    'code',
    'S256',
    'plain',
    'http://127.0.0.1:9/callback',
    'a'.repeat(43),
    '',
  ),
  binaryString({ maxLength: 20 }),
);
const form = fc.dictionary(fc.oneof(fc.constantFrom(...PARAMS), fc.string({ maxLength: 10 })), value, {
  maxKeys: 8,
});

const caller = fc.integer({ min: 0, max: 3 });
const who = (n: number) => ['nobody', 'admin', 'member', 'guest'][n];

describe('OAuth and MCP inputs: never a 5xx, and a refusal changes nothing', () => {
  test('/oauth/token, /oauth/revoke and /oauth/introspect take any form', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/oauth/token', '/oauth/revoke', '/oauth/introspect'),
        form,
        fc.constantFrom('application/x-www-form-urlencoded', 'application/json'),
        fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
        async (url, fields, type, basic) => {
          const payload =
            type === 'application/json' ? JSON.stringify(fields) : new URLSearchParams(fields).toString();
          const headers: Record<string, string> = { 'content-type': type };
          if (basic !== undefined)
            headers['authorization'] = `Basic ${Buffer.from(basic).toString('base64')}`;
          await refusedChangesNothing(`${url} ${payload}`, () =>
            t.request('POST', url, { payload, headers }),
          );
        },
      ),
      { numRuns: RUNS },
    );
  });

  test('/oauth/authorize takes any query or form, and its resume any uid, from anyone', async () => {
    await fc.assert(
      fc.asyncProperty(
        form,
        fc.constantFrom('GET', 'POST', 'resume'),
        fc.oneof(fc.string({ maxLength: 40 }), fc.stringMatching(/^[A-Za-z0-9_-]{21}$/)),
        caller,
        async (fields, how, uid, n) => {
          const token = callers[n];
          const query = new URLSearchParams(fields).toString();
          const what = `${how} authorize ${query} as ${who(n)}`;
          await refusedChangesNothing(what, () =>
            how === 'GET'
              ? t.request('GET', `/oauth/authorize?${query}`, { token })
              : how === 'POST'
                ? t.request('POST', '/oauth/authorize', {
                    token,
                    payload: query,
                    headers: { 'content-type': 'application/x-www-form-urlencoded' },
                  })
                : t.request('GET', `/oauth/authorize/${encodeURIComponent(uid)}?${query}`, { token }),
          );
        },
      ),
      { numRuns: RUNS * 2 },
    );
  });

  test('the metadata documents and the keys take any query and any credential', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          '/.well-known/oauth-authorization-server',
          '/.well-known/oauth-protected-resource',
          '/.well-known/oauth-protected-resource/mcp',
          '/oauth/jwks',
        ),
        form,
        caller,
        async (url, fields, n) => {
          const res = await refusedChangesNothing(`${url} as ${who(n)}`, () =>
            t.request('GET', `${url}?${new URLSearchParams(fields)}`, { token: callers[n] }),
          );
          assert.equal(res.status, 200, `${url}: ${res.status}`);
        },
      ),
      { numRuns: RUNS },
    );
  });

  test('/oauth/register takes any JSON', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), async (body) => {
        await refusedChangesNothing(`register ${JSON.stringify(body)}`, () =>
          t.request('POST', '/oauth/register', {
            payload: JSON.stringify(body),
            headers: { 'content-type': 'application/json' },
          }),
        );
      }),
      { numRuns: RUNS },
    );
  });

  test('registering and editing an app takes any name, redirect URIs and icon', async () => {
    const uri = fc.oneof(
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.constantFrom(
        'http://127.0.0.1:9/callback',
        'https://app.example/cb#frag',
        'javascript:alert(1)',
        'custom.scheme:/cb',
        'http://localhost/cb',
        'https://[::1]/cb',
        'data:text/html,x',
        '',
      ),
      fc.string({ maxLength: 40 }),
      binaryString({ maxLength: 20 }),
    );
    const made = await t.post(
      '/api/admin/oauth/apps',
      { name: 'Fuzzed', redirectUris: ['http://127.0.0.1:9/callback'] },
      t.adminToken,
    );
    assert.equal(made.status, 201, JSON.stringify(made.body));
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            name: fc.oneof(fc.string({ maxLength: 120 }), binaryString({ maxLength: 20 })),
            redirectUris: fc.array(uri, { maxLength: 4 }),
            iconUrl: fc.option(uri, { nil: null }),
            kind: fc.constantFrom('confidential', 'public', 'other'),
          },
          { requiredKeys: [] },
        ),
        fc.boolean(),
        caller,
        async (body, edit, n) => {
          const token = callers[n];
          const res = await refusedChangesNothing(
            `${edit ? 'edit' : 'register'} ${JSON.stringify(body)} as ${who(n)}`,
            () =>
              edit
                ? t.patch(`/api/admin/oauth/apps/${made.body.clientId}`, { ...body, kind: undefined }, token)
                : t.post('/api/admin/oauth/apps', body, token),
          );
          if (n !== 1) assert.equal(res.status, n === 0 ? 401 : 403, `as ${who(n)}`);
        },
      ),
      { numRuns: RUNS * 2 },
    );
  });

  test('the consent endpoints take any uid and body, from anyone', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ maxLength: 80 }), fc.stringMatching(/^[A-Za-z0-9_-]{21}$/)),
        fc.constantFrom('', '/consent', '/deny'),
        fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }),
        caller,
        async (uid, action, body, n) => {
          await refusedChangesNothing(`${action} ${uid} as ${who(n)}`, () =>
            t.request(
              action ? 'POST' : 'GET',
              `/api/oauth/interactions/${encodeURIComponent(uid)}${action}`,
              {
                token: callers[n],
                ...(body !== undefined && action ? { body } : {}),
              },
            ),
          );
        },
      ),
      { numRuns: RUNS },
    );
  });

  test('/mcp takes any body, method and headers', async () => {
    const message = fc.record(
      {
        jsonrpc: fc.oneof(fc.constant('2.0'), hostileJson),
        id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null), hostileJson),
        method: fc.oneof(
          fc.constantFrom(
            'initialize',
            'tools/list',
            'tools/call',
            'resources/list',
            'resources/read',
            'resources/templates/list',
            'prompts/list',
            'ping',
            'notifications/initialized',
          ),
          hostileString,
        ),
        params: fc.oneof(
          fc.record(
            {
              name: fc.constantFrom('search_issues', 'create_issue', 'update_issue', 'nope'),
              arguments: fc.oneof(hostileJson, fc.dictionary(fc.string({ maxLength: 8 }), hostileJson)),
              uri: fc.constantFrom('trackway://issue/ENG-1', 'trackway://project/x', 'file:///etc/passwd'),
              protocolVersion: fc.constantFrom('2025-03-26', '2025-06-18', 'x'),
            },
            { requiredKeys: [] },
          ),
          hostileJson,
        ),
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof(
      { weight: 4, arbitrary: message.map((m) => JSON.stringify(m)) },
      { weight: 1, arbitrary: fc.array(message, { maxLength: 3 }).map((m) => JSON.stringify(m)) },
      { weight: 1, arbitrary: hostileString },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('POST', 'GET', 'DELETE'),
        body,
        fc.constantFrom('application/json, text/event-stream', 'application/json', 'text/html', '*/*'),
        fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded'),
        caller,
        async (method, payload, accept, type, n) => {
          const what = `${method} /mcp ${payload.slice(0, 200)} (${accept}; ${type}) as ${who(n)}`;
          const res = await refusedChangesNothing(what, () =>
            t.request(method, '/mcp', {
              token: callers[n],
              ...(method === 'POST' ? { payload } : {}),
              headers: { accept, ...(method === 'POST' ? { 'content-type': type } : {}) },
            }),
          );
          if (n === 0) assert.equal(res.status, 401, what);
        },
      ),
      { numRuns: RUNS * 3 },
    );
  });
});
