// Security headers on every kind of response: the web app, GraphiQL, the API
// docs, JSON routes (answers and refusals) and file downloads, which keep their
// own sandboxing policy. The browser side (nothing breaks under the policy) is
// test/ui/csp.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Res } from './support/harness.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t?.close());

/** A Content-Security-Policy as directive -> sorted sources. */
function csp(res: Res): Record<string, string[]> {
  const header = res.headers['content-security-policy'];
  assert.equal(typeof header, 'string', 'a Content-Security-Policy header');
  const out: Record<string, string[]> = {};
  for (const part of String(header).split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out[name] = sources.sort();
  }
  return out;
}

const STRICT = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'frame-ancestors': ["'none'"],
  'form-action': ["'self'"],
  'connect-src': ["'self'"],
};

function assertCommonHeaders(res: Res) {
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  assert.equal(res.headers['x-frame-options'], 'DENY');
  assert.equal(res.headers['referrer-policy'], 'no-referrer');
  assert.equal(res.headers['cross-origin-opener-policy'], 'same-origin');
}

function assertPagePolicy(res: Res, styles: string[]) {
  assertCommonHeaders(res);
  const policy = csp(res);
  for (const [name, sources] of Object.entries(STRICT)) assert.deepEqual(policy[name], sources, name);
  assert.deepEqual(policy['style-src'], styles.sort());
  assert.ok(!JSON.stringify(policy['script-src']).includes('unsafe'), 'no unsafe script source');
}

describe('security headers', () => {
  test('the web app (index.html, a client route, an asset) has the strict policy, no inline styles', async () => {
    for (const url of ['/', '/issue/ENG-1']) {
      const res = await t.get(url);
      assert.equal(res.status, 200, url);
      assert.match(String(res.headers['content-type']), /text\/html/);
      assertPagePolicy(res, ["'self'"]);
    }
  });

  test('GraphiQL (GET /graphql) and the API docs allow inline styles, nothing else more', async () => {
    const graphiql = await t.get('/graphql');
    assert.equal(graphiql.status, 200);
    assert.match(String(graphiql.headers['content-type']), /text\/html/);
    assertPagePolicy(graphiql, ["'self'", "'unsafe-inline'"]);

    const docs = await t.request('GET', '/api/docs/');
    assert.equal(docs.status, 200);
    assert.match(String(docs.headers['content-type']), /text\/html/);
    assertPagePolicy(docs, ["'self'", "'unsafe-inline'"]);
    const docsScript = await t.get('/api/docs/static/swagger-initializer.js');
    assert.equal(docsScript.status, 200);
    assertCommonHeaders(docsScript);
  });

  test('JSON answers and refusals carry the headers too', async () => {
    const answers = [
      await t.get('/api/config'),
      await t.get('/api/issues', t.adminToken),
      await t.get('/api/issues'), // 401 from the auth hook
      await t.get('/api/nothing-here', t.adminToken), // 404
      await t.post('/graphql', { query: '{ viewer { id } }' }, t.adminToken),
    ];
    assert.deepEqual(
      answers.map((r) => r.status),
      [200, 200, 401, 404, 200],
    );
    for (const res of answers) {
      assertCommonHeaders(res);
      assert.deepEqual(csp(res)['frame-ancestors'], ["'none'"]);
    }
  });

  test('a file download keeps its own sandboxing policy, with the common headers', async () => {
    const up = await t.request('POST', '/api/files', {
      payload: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      headers: { 'content-type': 'image/svg+xml', 'x-filename': 'a.svg' },
      token: t.adminToken,
    });
    assert.equal(up.status, 201);
    const dl = await t.get(`/api/files/${up.body.file.id}`, t.adminToken);
    assert.equal(dl.status, 200);
    assertCommonHeaders(dl);
    assert.deepEqual(csp(dl), {
      'default-src': ["'none'"],
      'frame-ancestors': ["'none'"],
      sandbox: [],
    });
    assert.match(String(dl.headers['content-disposition']), /^attachment;/);
  });
});
