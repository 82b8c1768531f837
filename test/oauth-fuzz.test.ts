// Properties over the OAuth server's input surfaces (modules/oauth): random
// forms at /oauth/token, /oauth/revoke and /oauth/introspect, random
// authorization requests, random registrations, and random uids and bodies at
// the consent endpoints. Whatever arrives, the answer is never a 5xx.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { startTestApp, type TestApp } from './support/harness.js';

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 40);

let t: TestApp;

before(async () => {
  t = await startTestApp();
});

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
  fc.string({ unit: 'binary', maxLength: 20 }),
);
const form = fc.dictionary(fc.oneof(fc.constantFrom(...PARAMS), fc.string({ maxLength: 10 })), value, {
  maxKeys: 8,
});

const below500 = (status: number, what: string) => assert.ok(status < 500, `${what} answered ${status}`);

describe('OAuth inputs never answer 5xx', () => {
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
          const res = await t.request('POST', url, { payload, headers });
          below500(res.status, `${url} ${payload}`);
        },
      ),
      { numRuns: RUNS },
    );
  });

  test('/oauth/authorize takes any query', async () => {
    await fc.assert(
      fc.asyncProperty(form, async (fields) => {
        const res = await t.request('GET', `/oauth/authorize?${new URLSearchParams(fields)}`);
        below500(res.status, `authorize ${JSON.stringify(fields)}`);
      }),
      { numRuns: RUNS },
    );
  });

  test('/oauth/register takes any JSON', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), async (body) => {
        const res = await t.request('POST', '/oauth/register', {
          payload: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        });
        below500(res.status, `register ${JSON.stringify(body)}`);
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
      fc.string({ unit: 'binary', maxLength: 20 }),
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
            name: fc.oneof(fc.string({ maxLength: 120 }), fc.string({ unit: 'binary', maxLength: 20 })),
            redirectUris: fc.array(uri, { maxLength: 4 }),
            iconUrl: fc.option(uri, { nil: null }),
            kind: fc.constantFrom('confidential', 'public', 'other'),
          },
          { requiredKeys: [] },
        ),
        fc.boolean(),
        async (body, edit) => {
          const res = edit
            ? await t.patch(
                `/api/admin/oauth/apps/${made.body.clientId}`,
                { ...body, kind: undefined },
                t.adminToken,
              )
            : await t.post('/api/admin/oauth/apps', body, t.adminToken);
          below500(res.status, `${edit ? 'edit' : 'register'} ${JSON.stringify(body)}`);
        },
      ),
      { numRuns: RUNS },
    );
  });

  test('the consent endpoints take any uid and body', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ maxLength: 80 }), fc.stringMatching(/^[A-Za-z0-9_-]{21}$/)),
        fc.constantFrom('', '/consent', '/deny'),
        fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }),
        async (uid, action, body) => {
          const res = await t.request(
            action ? 'POST' : 'GET',
            `/api/oauth/interactions/${encodeURIComponent(uid)}${action}`,
            {
              token: t.adminToken,
              ...(body !== undefined && action ? { body } : {}),
            },
          );
          below500(res.status, `${action} ${uid}`);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
