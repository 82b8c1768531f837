// Operations and the error contract through HTTP: health and readiness,
// OpenAPI and the docs page, request ids, and 4xx JSON (never HTML, never a
// 5xx) for unknown routes and every kind of malformed request.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const isJson = (res: { headers: Record<string, unknown> }) =>
  String(res.headers['content-type'] ?? '').startsWith('application/json');

function assertJsonError(res: { status: number; body: any; headers: any }, status: number, code?: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.ok(isJson(res), `content-type ${res.headers['content-type']}`);
  assert.equal(res.body.error.status, status);
  assert.equal(typeof res.body.error.message, 'string');
  if (code) assert.equal(res.body.error.code, code);
}

describe('health', () => {
  test('GET /healthz is 200 JSON without credentials', async () => {
    const res = await t.get('/healthz');
    assert.equal(res.status, 200);
    assert.ok(isJson(res));
    assert.deepEqual(res.body, { ok: true });
  });

  test('GET /readyz reaches the database', async () => {
    const res = await t.get('/readyz');
    assert.equal(res.status, 200);
    assert.equal(res.body.ok, true);
    assert.equal(res.body.database, t.ctx.dbKind);
  });
});

describe('API description', () => {
  test('GET /api/openapi.json is an OpenAPI 3 document listing the REST paths', async () => {
    const res = await t.get('/api/openapi.json');
    assert.equal(res.status, 200);
    assert.match(res.body.openapi, /^3\./);
    const paths = Object.keys(res.body.paths);
    for (const p of [
      '/api/auth/register',
      '/api/auth/login',
      '/api/auth/me',
      '/api/auth/change-password',
      '/api/config',
      '/api/admin/flags',
      '/api/admin/flags/{key}',
      '/api/admin/users',
      '/api/admin/users/{id}',
      '/api/admin/workspace',
      '/api/api-keys',
      '/api/api-keys/{id}',
    ]) {
      assert.ok(paths.includes(p), `${p} in ${paths.join(', ')}`);
    }
    const login = res.body.paths['/api/auth/login'].post;
    assert.ok(login.requestBody, 'request bodies are described');
    assert.ok(login.responses['401'], 'error responses are described');
    assert.ok(res.body.components.schemas.Error || JSON.stringify(res.body).includes('"code"'));
  });

  test('GET /api/docs serves an HTML page without credentials', async () => {
    const res = await t.request('GET', '/api/docs', { headers: { accept: 'text/html' } });
    // The UI plugin may redirect to its own index page first.
    let page = res;
    if (res.status >= 300 && res.status < 400) {
      const location = String(res.headers['location']);
      page = await t.get(location.startsWith('/') ? location : `/api/docs/${location.replace(/^\.\//, '')}`);
    }
    assert.equal(page.status, 200, JSON.stringify(page.body));
    assert.match(String(page.headers['content-type']), /text\/html/);
    assert.match(String(page.body), /<html/i);
  });
});

describe('request ids', () => {
  test('every response carries x-request-id; each request gets its own', async () => {
    const a = await t.get('/api/config');
    const b = await t.get('/api/config');
    assert.ok(a.headers['x-request-id']);
    assert.notEqual(a.headers['x-request-id'], b.headers['x-request-id']);
  });

  test('a client-supplied x-request-id is echoed, also on errors', async () => {
    const ok = await t.request('GET', '/api/config', { headers: { 'x-request-id': 'client-id-123' } });
    assert.equal(ok.headers['x-request-id'], 'client-id-123');
    const err = await t.request('GET', '/api/auth/me', { headers: { 'x-request-id': 'client-id-456' } });
    assert.equal(err.status, 401);
    assert.equal(err.headers['x-request-id'], 'client-id-456');
    const missing = await t.request('GET', '/api/no-such-thing', { headers: { 'x-request-id': 'id-789' } });
    assert.equal(missing.headers['x-request-id'], 'id-789');
  });
});

describe('unknown routes', () => {
  for (const [method, url] of [
    ['GET', '/api/no-such-thing'],
    ['POST', '/api/no-such-thing'],
    ['DELETE', '/api/admin/users'],
    ['PUT', '/api/config'],
    ['PATCH', '/api/auth/login'],
    ['GET', '/api/admin/flags/projects/extra'],
  ] as const) {
    test(`${method} ${url} is a 404 JSON error, even when the client asks for HTML`, async () => {
      const res = await t.request(method, url, { headers: { accept: 'text/html' }, token: t.adminToken });
      assertJsonError(res, 404, 'NOT_FOUND');
    });
  }

  test('an unknown API route with a body and no token is still 404 JSON', async () => {
    const res = await t.request('POST', '/api/widgets', { body: { a: 1 } });
    assertJsonError(res, 404, 'NOT_FOUND');
  });
});

describe('malformed requests get 4xx JSON, never 5xx', () => {
  const json = { 'content-type': 'application/json' };

  test('malformed JSON on every JSON endpoint', async () => {
    const endpoints: [string, string, boolean][] = [
      ['POST', '/api/auth/register', false],
      ['POST', '/api/auth/login', false],
      ['POST', '/api/auth/change-password', true],
      ['POST', '/api/api-keys', true],
      ['PATCH', '/api/admin/flags/projects', true],
      ['POST', '/api/admin/users', true],
      ['PATCH', '/api/admin/workspace', true],
    ];
    for (const [method, url, auth] of endpoints) {
      for (const payload of ['{', '{"a": }', "{'a': 1}", 'nul', '{"a": 1}}']) {
        const res = await t.request(method, url, {
          payload,
          headers: json,
          token: auth ? t.adminToken : undefined,
        });
        assertJsonError(res, 400, 'BAD_REQUEST');
      }
    }
  });

  test('wrong top-level types are 400 VALIDATION_FAILED', async () => {
    for (const payload of ['null', '[]', '"text"', '42', 'true']) {
      const res = await t.request('POST', '/api/auth/login', { payload, headers: json });
      assertJsonError(res, 400, 'VALIDATION_FAILED');
    }
  });

  test('an empty body with a JSON content type is 400', async () => {
    const res = await t.request('POST', '/api/auth/login', { payload: '', headers: json });
    assertJsonError(res, 400);
  });

  test('a body over 1 MiB is 413 on authenticated endpoints too', async () => {
    const res = await t.request('POST', '/api/api-keys', {
      token: t.adminToken,
      payload: JSON.stringify({ label: 'x'.repeat(1_200_000) }),
      headers: json,
    });
    assertJsonError(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  test('an unsupported content type is 415', async () => {
    const res = await t.request('POST', '/api/auth/login', {
      payload: '<login/>',
      headers: { 'content-type': 'application/xml' },
    });
    assertJsonError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  test('NUL characters in text are refused with 400, not a database error', async () => {
    const reg = await t.post('/api/auth/register', {
      name: 'a\u0000b',
      email: 'nul@example.com',
      password: 'secret1',
    });
    assertJsonError(reg, 400);
    const login = await t.post('/api/auth/login', { email: 'x\u0000@example.com', password: 'secret1' });
    assertJsonError(login, 400);
    const key = await t.post('/api/api-keys', { label: 'nul\u0000' }, t.adminToken);
    assertJsonError(key, 400);
  });

  test('a prototype-pollution attempt is refused', async () => {
    const res = await t.request('POST', '/api/auth/login', {
      payload: '{"email":"a@example.com","password":"secret1","__proto__":{"role":"admin"}}',
      headers: json,
    });
    assertJsonError(res, 400);
  });

  test('malformed Authorization headers are 401 JSON', async () => {
    for (const authorization of ['Bearer', 'Bearer ', 'Bearer a.b.c', 'Token abc', 'Bearer x y', '    ']) {
      const res = await t.request('GET', '/api/auth/me', { headers: { authorization } });
      assertJsonError(res, 401, 'UNAUTHENTICATED');
    }
  });

  test('a token signed with another secret is 401', async () => {
    const { TokenSigner } = await import('../src/platform/auth/tokens.js');
    const me = (await t.get('/api/auth/me', t.adminToken)).body.user;
    const foreign = await new TokenSigner('x'.repeat(48)).sign({ userId: me.id, epoch: 0 });
    assertJsonError(await t.get('/api/auth/me', foreign), 401, 'UNAUTHENTICATED');
  });

  test('an offset beyond what the database can count is 400, not 500', async () => {
    const res = await t.get('/api/users?offset=99999999999999999999', t.adminToken);
    assertJsonError(res, 400);
  });

  test('bad query strings are 400', async () => {
    for (const q of ['limit=-5', 'limit=1e3', 'offset=x', 'limit=10&limit=20']) {
      assertJsonError(await t.get(`/api/users?${q}`, t.adminToken), 400, 'VALIDATION_FAILED');
    }
  });
});
