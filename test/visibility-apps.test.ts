// Who gets what on the routes of apps and agents: the OAuth server (/oauth/*,
// its metadata), the consent endpoints, a person's authorized apps, the
// admin's OAuth apps and import runs, and MCP. The routes come from the app's
// own table: one of these families without a case here fails, so none is
// skipped silently. Each is sent by every role of the visibility world (a
// guest, an outsider, an insider, the admin) and by nobody: the answer is the
// case's, a 2xx names nothing the role may not see, and a refusal changes no
// table. Then MCP through each role's OAuth access token, against the world's
// oracle: search_issues and get_issue show exactly what the role may see.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { changedTables, digest, tablesToWatch } from './support/fuzz/digest.js';
import { type Res, startTestApp, type TestApp } from './support/harness.js';
import { REDIRECT, registerDynamic, tokensFor } from './support/oauth-app.js';
import { buildWorld, ROLES, type Role, type World } from './support/visibility-fixture.js';
import { Findings, type Secrets, secretsOf } from './support/visibility-scan.js';

type Who = Role | 'anonymous';
/** The admin last: a case whose admin request writes does so after the refusals were checked. */
const WHO: Who[] = ['anonymous', 'guest', 'outsider', 'insider', 'admin'];

/** The routes this file answers for. */
const FAMILY =
  /^\/(oauth|mcp|api\/oauth|api\/admin\/oauth|api\/admin\/imports)(\/|$)|^\/\.well-known\/oauth-/;

interface Case {
  /** What `who` sends; `token` is their credential (none for anonymous). */
  send(who: Who, token: string | undefined): Promise<Res>;
  /** The status each caller gets. */
  want: Record<Who, number>;
  /** More to check in a 2xx answer. */
  check?(who: Who, res: Res): void;
  /** Why a 2xx is not scanned for secrets: the same fixed text for everyone (its examples name ENG). */
  fixed?: string;
}

/** Every caller the same answer: public routes, where the app's own credential decides. */
const all = (status: number): Record<Who, number> =>
  Object.fromEntries(WHO.map((w) => [w, status])) as Record<Who, number>;
/** Signed-in people get `status`, nobody 401. */
const signedIn = (status: number) => ({ ...all(status), anonymous: 401 });
/** The admin gets `status`, the others 403 and nobody 401. */
const adminOnly = (status: number) => ({ ...all(403), anonymous: 401, admin: status });

const CSV = ['Key,Summary', 'IMP-1,Imported one'].join('\n');

let t: TestApp;
let base: string;
let world: World;
let dataDir: string;
const secrets = {} as Record<Role, Secrets>;
/** Each role's OAuth access token, from an app it authorized itself ("App of <role>"). */
const access = {} as Record<Role, string>;
const ids: Record<string, string> = {};
const clients: Client[] = [];

const form = (payload: string) => ({
  payload,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});
const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});
const mcpPost = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
});

before(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trackway-apps-matrix-'));
  t = await startTestApp({
    dataDir,
    graphqlRequestsPerHour: 1e6,
    graphqlComplexityPerHour: 1e12,
    sessionRequestsPerHour: 1e6,
    sessionComplexityPerHour: 1e12,
    publicUrl: 'http://127.0.0.1',
  });
  base = (await t.listen()).replace('localhost', '127.0.0.1');
  // The provider is built on its first request, so it takes the address the app listens on.
  (t.config as { publicUrl: string }).publicUrl = base;
  // An import run first, ended, so that the world's oracle counts what it made.
  const started = await t.post(
    '/api/admin/imports',
    { source: 'csv', csv: CSV, mapping: { team: 'IMP', columns: { key: 'Key', title: 'Summary' } } },
    t.adminToken,
  );
  assert.equal(started.status, 202, JSON.stringify(started.body));
  ids['run'] = started.body.importRun.id;
  for (let i = 0; i < 200; i++) {
    const run = await t.get(`/api/admin/imports/${ids['run']}`, t.adminToken);
    if (!['queued', 'running'].includes(run.body.importRun.status)) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  world = await buildWorld(t);
  for (const role of ROLES) secrets[role] = secretsOf(world, role);
  for (const role of ROLES) {
    const app = await registerDynamic(base, `App of ${role}`);
    access[role] = (await tokensFor(t, base, app, 'read write', world.tokens[role])).access_token;
  }
  // The admin's second app, for revocation; and two the admin registered (one to edit, one to remove).
  const other = await registerDynamic(base, 'Admin other app');
  await tokensFor(t, base, other, 'read', t.adminToken);
  ids['adminOtherApp'] = other.clientMetadata().client_id;
  for (const name of ['Registered app', 'Doomed app']) {
    const made = await t.post('/api/admin/oauth/apps', { name, redirectUris: [REDIRECT] }, t.adminToken);
    assert.equal(made.status, 201, JSON.stringify(made.body));
    ids[name] = made.body.clientId;
  }
});
after(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await t?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const CASES: Record<string, Case> = {
  // Discovery and keys: public documents, the same for everyone, about the server only.
  'GET /.well-known/oauth-authorization-server': {
    send: (_, token) => t.request('GET', '/.well-known/oauth-authorization-server', { token }),
    want: all(200),
    check: (_, res) => assert.equal(res.body.code_challenge_methods_supported.join(), 'S256'),
  },
  'GET /.well-known/oauth-protected-resource': {
    send: (_, token) => t.request('GET', '/.well-known/oauth-protected-resource', { token }),
    want: all(200),
  },
  'GET /.well-known/oauth-protected-resource/mcp': {
    send: (_, token) => t.request('GET', '/.well-known/oauth-protected-resource/mcp', { token }),
    want: all(200),
    check: (_, res) => assert.match(res.body.resource, /\/mcp$/),
  },
  'GET /oauth/jwks': {
    send: (_, token) => t.request('GET', '/oauth/jwks', { token }),
    want: all(200),
    check: (_, res) =>
      assert.ok(
        res.body.keys.every((k: Record<string, unknown>) => !('d' in k)),
        'only public key parts',
      ),
  },
  // The provider's endpoints: the app's request is the credential, not a person's; an incomplete one is refused alike.
  'GET /oauth/authorize': {
    send: (_, token) => t.request('GET', '/oauth/authorize?response_type=code', { token }),
    want: all(400),
  },
  'POST /oauth/authorize': {
    send: (_, token) => t.request('POST', '/oauth/authorize', { token, ...form('response_type=code') }),
    want: all(400),
  },
  'GET /oauth/authorize/:uid': {
    send: (_, token) => t.request('GET', '/oauth/authorize/not-a-pending-uid', { token }),
    want: all(400),
  },
  'POST /oauth/token': {
    send: (_, token) =>
      t.request('POST', '/oauth/token', { token, ...form('grant_type=authorization_code&code=x') }),
    want: all(400),
  },
  'POST /oauth/revoke': {
    send: (_, token) => t.request('POST', '/oauth/revoke', { token, ...form(`token=${access.admin}`) }),
    want: all(400),
  },
  'POST /oauth/introspect': {
    send: (_, token) => t.request('POST', '/oauth/introspect', { token, ...form(`token=${access.admin}`) }),
    want: all(400),
  },
  'POST /oauth/register': {
    send: (_, token) => t.request('POST', '/oauth/register', { token, ...json({ client_name: 'No URIs' }) }),
    want: all(400),
  },
  // The consent endpoints: a signed-in person, from the browser that started the authorization
  // (test/oauth.test.ts walks a real one); without that browser's proof it does not exist.
  'GET /api/oauth/interactions/:uid': {
    send: (_, token) => t.request('GET', '/api/oauth/interactions/abcdefghijklmnopqrstu', { token }),
    want: signedIn(404),
  },
  'POST /api/oauth/interactions/:uid/consent': {
    send: (_, token) => t.request('POST', '/api/oauth/interactions/abcdefghijklmnopqrstu/consent', { token }),
    want: signedIn(404),
  },
  'POST /api/oauth/interactions/:uid/deny': {
    send: (_, token) => t.request('POST', '/api/oauth/interactions/abcdefghijklmnopqrstu/deny', { token }),
    want: signedIn(404),
  },
  // A person's own apps: exactly theirs.
  'GET /api/oauth/apps': {
    send: (_, token) => t.request('GET', '/api/oauth/apps', { token }),
    want: signedIn(200),
    check: (who, res) =>
      assert.deepEqual(
        res.body.apps.map((a: { name: string }) => a.name).sort(),
        who === 'admin' ? ['Admin other app', 'App of admin'] : [`App of ${who}`],
      ),
  },
  // Someone else's authorization is not theirs to revoke: not found; the admin revokes their own.
  'DELETE /api/oauth/apps/:clientId': {
    send: (_, token) => t.request('DELETE', `/api/oauth/apps/${ids['adminOtherApp']}`, { token }),
    want: { ...signedIn(404), admin: 200 },
  },
  // The admin's OAuth apps and settings.
  'GET /api/admin/oauth/apps': {
    send: (_, token) => t.request('GET', '/api/admin/oauth/apps?limit=50', { token }),
    want: adminOnly(200),
    check: (_, res) => {
      const names = res.body.apps.map((a: { name: string }) => a.name);
      for (const role of ROLES) assert.ok(names.includes(`App of ${role}`), `${role}'s app listed`);
    },
  },
  'POST /api/admin/oauth/apps': {
    send: (_, token) =>
      t.request('POST', '/api/admin/oauth/apps', {
        token,
        body: { name: 'Late app', redirectUris: [REDIRECT] },
      }),
    want: adminOnly(201),
  },
  'PATCH /api/admin/oauth/apps/:clientId': {
    send: (_, token) =>
      t.request('PATCH', `/api/admin/oauth/apps/${ids['Registered app']}`, {
        token,
        body: { name: 'Renamed' },
      }),
    want: adminOnly(200),
  },
  'DELETE /api/admin/oauth/apps/:clientId': {
    send: (_, token) => t.request('DELETE', `/api/admin/oauth/apps/${ids['Doomed app']}`, { token }),
    want: adminOnly(200),
  },
  'GET /api/admin/oauth': {
    send: (_, token) => t.request('GET', '/api/admin/oauth', { token }),
    want: adminOnly(200),
  },
  'PATCH /api/admin/oauth': {
    send: (_, token) =>
      t.request('PATCH', '/api/admin/oauth', { token, body: { dynamicRegistration: true } }),
    want: adminOnly(200),
  },
  // Import runs: the admin's. A start without a mapping is refused, after the role, alike for the admin.
  'POST /api/admin/imports': {
    send: (_, token) => t.request('POST', '/api/admin/imports', { token, body: { source: 'csv', csv: CSV } }),
    want: adminOnly(400),
  },
  'GET /api/admin/imports': {
    send: (_, token) => t.request('GET', '/api/admin/imports', { token }),
    want: adminOnly(200),
    check: (_, res) => assert.equal(res.body.importRuns[0]?.id, ids['run']),
  },
  'GET /api/admin/imports/:id': {
    send: (_, token) => t.request('GET', `/api/admin/imports/${ids['run']}`, { token }),
    want: adminOnly(200),
  },
  // MCP with each role's OAuth access token (the tools' answers are walked below).
  'POST /mcp': {
    send: (who, token) =>
      t.request('POST', '/mcp', {
        token: who === 'anonymous' ? token : access[who],
        ...mcpPost({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      }),
    want: signedIn(200),
    check: (_, res) => assert.ok(res.body.result.tools.length >= 10),
    fixed: 'the tool list: names, descriptions and schemas, the same for every caller',
  },
  'GET /mcp': {
    send: (who, token) => t.request('GET', '/mcp', { token: who === 'anonymous' ? token : access[who] }),
    want: signedIn(405),
  },
  'DELETE /mcp': {
    send: (who, token) => t.request('DELETE', '/mcp', { token: who === 'anonymous' ? token : access[who] }),
    want: signedIn(405),
  },
};

const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;

describe('the routes of apps and agents, every role and nobody', () => {
  test('every such route of the app has a case here, and every case a route', () => {
    const routes = t.app.routeAuth.filter((r) => r.method !== 'HEAD' && FAMILY.test(r.url)).map(key);
    assert.ok(routes.length >= 25, `only ${routes.length} routes found`);
    assert.deepEqual(
      routes.filter((r) => !CASES[r]),
      [],
      'routes without a case: add one to CASES',
    );
    assert.deepEqual(
      Object.keys(CASES).filter((c) => !routes.includes(c)),
      [],
      'cases of routes that do not exist',
    );
  });

  test('each caller gets its answer, a 2xx leaks nothing, a refusal changes nothing', async (c) => {
    const tables = await tablesToWatch(t.ctx.db);
    for (const [route, cs] of Object.entries(CASES)) {
      await c.test(route, async () => {
        const f = new Findings();
        const fixedAnswers = new Set<string>();
        for (const who of WHO) {
          const token = who === 'anonymous' ? undefined : world.tokens[who];
          const before = await digest(t.ctx.db, tables);
          const res = await cs.send(who, token);
          const text =
            typeof res.body === 'string' ? res.body.slice(0, 200) : JSON.stringify(res.body).slice(0, 200);
          if (res.status !== cs.want[who]) {
            f.add(`${route} as ${who}: ${res.status}, expected ${cs.want[who]} ${text}`);
            continue;
          }
          if (res.status >= 400) {
            const changed = changedTables(before, await digest(t.ctx.db, tables));
            if (changed.length) f.add(`${route} as ${who}: refused ${res.status} but changed ${changed}`);
          } else {
            if (cs.fixed) fixedAnswers.add(JSON.stringify(res.body));
            else if (who !== 'anonymous') f.leak(route, who, res.body, secrets[who]);
            try {
              cs.check?.(who, res);
            } catch (err) {
              f.add(`${route} as ${who}: ${(err as Error).message}`);
            }
          }
        }
        if (fixedAnswers.size > 1)
          f.add(`${route}: ${cs.fixed}, yet callers got ${fixedAnswers.size} answers`);
        f.assertNone(route);
      });
    }
  });
});

describe('MCP through OAuth access tokens, against the oracle', () => {
  async function connect(token: string): Promise<Client> {
    const client = new Client({ name: 'trackway-matrix', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(client);
    return client;
  }
  const text = (res: unknown) => (res as { content: { text: string }[] }).content.map((x) => x.text).join('');

  test('search_issues lists, and get_issue reads, exactly what each role sees', async () => {
    const f = new Findings();
    const issues = world.records.filter((r) => r.kind === 'issue');
    for (const role of ROLES) {
      // Each role's own app is still authorized (the revocations above ended other apps).
      const client = await connect(access[role]);
      const seen = new Set<string>();
      let cursor: string | null = null;
      do {
        const res = await client.callTool({
          name: 'search_issues',
          arguments: { includeArchived: true, limit: 50, ...(cursor ? { cursor } : {}) },
        });
        const page = JSON.parse(text(res));
        for (const i of page.issues) seen.add(i.id);
        f.leak('search_issues', role, page, secrets[role]);
        cursor = page.nextCursor;
      } while (cursor);
      for (const rec of issues) {
        const visible = world.visible[role].has(rec.id);
        if (visible !== seen.has(rec.id))
          f.add(`search_issues as ${role}: ${rec.label} ${visible ? 'missing' : 'listed'}`);
        const ref = rec.aliases.find((a) => /^[A-Z]+-\d+$/.test(a)) ?? rec.id;
        const got = (await client.callTool({ name: 'get_issue', arguments: { issue: ref } })) as {
          isError?: boolean;
        };
        if (visible === (got.isError === true))
          f.add(`get_issue ${ref} as ${role}: ${text(got).slice(0, 120)}`);
        else if (visible) f.leak(`get_issue ${ref}`, role, JSON.parse(text(got)), secrets[role]);
      }
    }
    f.assertNone('MCP over OAuth');
  });

  test('a person never reaches past their role with an app: writes outside their teams are refused', async () => {
    const tables = (await tablesToWatch(t.ctx.db)).filter(
      (x) => !/^(sessions|api_keys|oauth_store)$/.test(x),
    );
    const before = await digest(t.ctx.db, tables);
    const refusals: [Role, string, Record<string, unknown>][] = [
      ['guest', 'create_issue', { team: 'PUB', title: 'by an app' }],
      ['guest', 'add_comment', { issue: 'PRV-1', body: 'by an app' }],
      ['outsider', 'update_issue', { issue: 'PRV-1', title: 'by an app' }],
      ['insider', 'add_comment', { issue: 'VLT-1', body: 'by an app' }],
    ];
    for (const [role, name, args] of refusals) {
      const res = (await (await connect(access[role])).callTool({ name, arguments: args })) as {
        isError?: boolean;
      };
      assert.equal(res.isError, true, `${name} as ${role}: ${text(res)}`);
    }
    assert.deepEqual(changedTables(before, await digest(t.ctx.db, tables)), []);
  });
});
