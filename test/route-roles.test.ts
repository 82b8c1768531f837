// Guests read, comment and look after their own account; nothing else. Every
// REST route they may not use declares it (`auth: 'member'`, the constant its
// policy.ts checks), and the auth hook refuses them there with 403 before the
// body is parsed: whatever they send, the answer is the same and nothing
// changes. Every other write route is on GUEST_WRITES below with the reason
// guests may use it, so a new write route either declares its role or is
// added there on purpose. Routes come from the app's own table, so a new one
// is covered without editing this file.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { gql } from './graphql-helpers.js';
import { insertIssue, setFlag } from './projects.fixtures.js';
import { changedTables, digest, tablesToWatch } from './support/fuzz/digest.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { BAD_BODIES, fill, probe, ZERO_UUID } from './support/route-probes.js';

/** The write routes guests may use, and why. Everything else that writes is member or admin. */
const GUEST_WRITES: Record<string, string> = {
  'POST /api/auth/register': 'public: signing up',
  'POST /api/auth/login': 'public: signing in',
  'POST /api/auth/sso/exchange': 'public: finishing a single sign-on (the sealed cookie is the credential)',
  'PATCH /api/auth/me': 'their own profile',
  'POST /api/auth/change-password': 'their own password',
  'POST /api/auth/password-reset': 'public: asking for a reset email',
  'POST /api/auth/password-reset/confirm': 'public: the reset email’s token is the credential',
  'POST /api/mail/unsubscribe': 'public: the signed token only turns its user’s notification email off',
  'POST /api/integrations/github/webhook': 'public: GitHub’s HMAC signature of the body is the credential',
  'POST /api/integrations/gitlab/webhook': 'public: the GitLab webhook token is the credential',
  'POST /api/integrations/gitea/webhook': 'public: Gitea’s HMAC signature of the body is the credential',
  'PATCH /api/me/preferences': 'their own mail preference',
  'POST /api/api-keys': 'their own API keys',
  'DELETE /api/api-keys/:id': 'their own API keys',
  'POST /api/issues/:id/comments': 'guests comment',
  'PATCH /api/comments/:id': 'their own comments (comments/policy.ts checks the author)',
  'DELETE /api/comments/:id': 'their own comments (comments/policy.ts checks the author)',
  'POST /api/issues/:id/reactions': 'guests react as they comment',
  'POST /api/comments/:id/reactions': 'guests react as they comment',
  'DELETE /api/issues/:id/reactions/:emoji': 'their own reaction',
  'DELETE /api/comments/:id/reactions/:emoji': 'their own reaction',
  'DELETE /api/reactions/:id': 'their own reactions (reactions/policy.ts checks who reacted)',
  'POST /api/stream/tickets': 'a ticket to read their own change stream',
  'POST /api/issues/counts': 'a read: counts of the issues they see (a POST for its body of filters)',
  'DELETE /api/sessions/:id': 'their own sessions (sessions/service.ts ends only the caller’s)',
  'POST /api/sessions/end-others': 'their own sessions',
  'POST /api/auth/logout': 'signing out of their own session',
  'POST /oauth/authorize': 'public: an app’s authorization request (OAuth, the provider checks it)',
  'POST /oauth/token':
    'public: an app’s token request (the code, verifier or refresh token is the credential)',
  'POST /oauth/revoke': 'public: revoking a token the app holds',
  'POST /oauth/introspect': 'public: an app asking about its own token (client authentication)',
  'POST /oauth/register': 'public: dynamic client registration (an admin can turn it off)',
  'POST /api/oauth/interactions/:uid/consent':
    'authorizing an app to act as themselves, no further than their role',
  'POST /api/oauth/interactions/:uid/deny': 'refusing an app',
  'DELETE /api/oauth/apps/:clientId': 'revoking an app they authorized (their own grants only)',
  'POST /api/views': 'their own personal views (sharing is refused: views/policy.ts)',
  'PATCH /api/views/:id': 'their own personal views (views/policy.ts checks the owner)',
  'DELETE /api/views/:id': 'their own personal views (views/policy.ts checks the owner)',
  'PATCH /api/notifications/:id': 'their own inbox',
  'POST /api/notifications/read-all': 'their own inbox',
  'PATCH /api/issues/:id/notifications': 'their own inbox (the notifications about an issue they see)',
  'PATCH /api/projects/:id/notifications': 'their own inbox (the notifications about a project they see)',
  'PUT /api/issues/:id/subscription': 'their own subscription to an issue they see',
  'DELETE /api/issues/:id/subscription': 'their own subscription to an issue they see',
  'POST /graphql': 'each mutation checks its policy (guests get FORBIDDEN there)',
  'POST /mcp': 'each MCP tool calls the service whose policy refuses guests (test/mcp.test.ts)',
  'DELETE /mcp': 'no sessions to end: 405 to everyone (modules/mcp/rest.ts)',
};

/** Routes whose refusal of a guest's bad request is another 4xx, and why (above each). */
const OTHER_REFUSALS: Record<string, number[]> = {
  'POST /api/auth/sso/exchange': [400, 401, 403, 404],
  'POST /mcp': [400, 403, 404, 406],
  'DELETE /mcp': [400, 405],
  // The git receivers want their host's signature or token, not the caller's: 401 without it.
  'POST /api/integrations/github/webhook': [401],
  'POST /api/integrations/gitlab/webhook': [401],
  'POST /api/integrations/gitea/webhook': [401],
};

/** Member routes that exist today; the walk below covers later ones too. */
const KNOWN_MEMBER_ROUTES = [
  'POST /api/issues',
  'PATCH /api/issues/:id',
  'DELETE /api/issues/:id',
  'POST /api/issues/:id/archive',
  'POST /api/issues/:id/unarchive',
  'POST /api/labels',
  'PATCH /api/labels/:id',
  'DELETE /api/labels/:id',
  'POST /api/projects',
  'PATCH /api/projects/:id',
  'DELETE /api/projects/:id',
  'POST /api/projects/:id/archive',
  'POST /api/projects/:id/unarchive',
  'POST /api/cycles',
  'PATCH /api/cycles/:id',
  'DELETE /api/cycles/:id',
  'POST /api/uploads',
  'PUT /api/uploads/:id',
  'POST /api/uploads/:id/complete',
  'POST /api/files',
  'POST /api/issues/:id/attachments',
  'PATCH /api/attachments/:id',
  'DELETE /api/attachments/:id',
];

let t: TestApp;
let member: { token: string };
let guest: { token: string };
let tables: string[];
/** A real record per collection, so that a request which got through would change something. */
const ids: Record<string, string> = {};

const must = (res: { status: number; body: any }, key: string) => {
  assert.ok(res.status < 300, `${key}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body[key];
};

before(async () => {
  t = await startTestApp();
  member = await t.userWithRole('member');
  guest = await t.userWithRole('guest', { teams: ['ENG'] });
  tables = await tablesToWatch(t.ctx.db);
  const issue = await insertIssue(t);
  const team = (await t.get('/api/teams', member.token)).body.teams[0];
  ids['issues'] = issue.id;
  ids['teams'] = team.id;
  ids['labels'] = must(
    await t.post('/api/labels', { name: 'Probe', color: '#123456' }, member.token),
    'label',
  ).id;
  ids['projects'] = must(await t.post('/api/projects', { name: 'Probe' }, member.token), 'project').id;
  const cycle = { teamId: team.id, startsAt: '2026-01-05T00:00:00Z', endsAt: '2026-01-19T00:00:00Z' };
  ids['cycles'] = must(await t.post('/api/cycles', cycle, member.token), 'cycle').id;
  const attachment = { title: 'Probe', url: 'https://example.com/probe' };
  ids['attachments'] = must(
    await t.post(`/api/issues/${issue.id}/attachments`, attachment, member.token),
    'attachment',
  ).id;
  const grant = { contentType: 'text/plain', filename: 'probe.txt', size: 5 };
  const uploadUrl = must(await t.post('/api/uploads', grant, member.token), 'uploadFile').uploadUrl;
  ids['uploads'] = new URL(uploadUrl).pathname.split('/').pop() as string;
  ids['comments'] = must(
    await t.post(`/api/issues/${issue.id}/comments`, { body: 'mine' }, guest.token),
    'comment',
  ).id;
  ids['api-keys'] = must(await t.post('/api/api-keys', { label: 'mine' }, guest.token), 'apiKey').id;
});
after(() => t.close());

/** /api/<collection>/:id gets that collection's record. */
const real = (url: string) => fill(url, () => ids[url.split('/')[2] ?? ''] ?? ZERO_UUID);
const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
const memberRoutes = () => t.app.routeAuth.filter((r) => r.auth === 'member' && r.method !== 'HEAD');
/** SCIM's routes take a SCIM token, never a person's credentials (below, and scim.test.ts). */
const SCIM = '/scim/v2';
const writes = () =>
  t.app.routeAuth.filter((r) => r.method !== 'GET' && r.method !== 'HEAD' && !r.url.startsWith(SCIM));

describe('routes guests may not use check the role before the body', () => {
  test('every route we know guests may not use is declared member, and documents its 403', async () => {
    const declared = memberRoutes().map(key);
    for (const known of KNOWN_MEMBER_ROUTES) assert.ok(declared.includes(known), `${known} is not member`);
    const { paths } = (await t.get('/api/openapi.json')).body;
    for (const route of memberRoutes()) {
      const op = paths[route.url.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
      assert.ok(op?.responses?.['403'], `${key(route)} does not document 403`);
    }
  });

  test('guest: 403 FORBIDDEN for every member route and bad body; anonymous: 401; nothing changes', async () => {
    const before = await digest(t.ctx.db, tables);
    for (const route of memberRoutes()) {
      for (const body of BAD_BODIES) {
        const label = `${key(route)} with ${body.what}`;
        const res = await probe(t, route.method, real(route.url), body, guest.token);
        assert.equal(res.status, 403, `${label} as guest: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error.code, 'FORBIDDEN', label);
        const anonymous = await probe(t, route.method, real(route.url), body);
        assert.equal(anonymous.status, 401, `${label} anonymous: ${JSON.stringify(anonymous.body)}`);
      }
    }
    assert.deepEqual(changedTables(before, await digest(t.ctx.db, tables)), []);
  });

  test('a member gets past the role check: the same request is not FORBIDDEN', async () => {
    for (const route of memberRoutes()) {
      const res = await probe(t, route.method, real(route.url), { payload: '{"name": ' }, member.token);
      assert.ok(res.body?.error?.code !== 'FORBIDDEN', `${key(route)}: ${JSON.stringify(res.body)}`);
    }
  });
});

const FLAGS = ['projects', 'cycles', 'attachments'] as const;

describe('feature flags come after the role', () => {
  // A valid request per flagged member route: what a member would send.
  const valid = (): Record<
    string,
    { flag: 'projects' | 'cycles' | 'attachments'; body?: unknown; raw?: boolean; query?: string }
  > => ({
    'POST /api/projects': { flag: 'projects', body: { name: 'Flag off' } },
    'PATCH /api/projects/:id': { flag: 'projects', body: { name: 'Flag off' } },
    'DELETE /api/projects/:id': { flag: 'projects' },
    'POST /api/projects/:id/archive': { flag: 'projects' },
    'POST /api/projects/:id/unarchive': { flag: 'projects' },
    'POST /api/cycles': {
      flag: 'cycles',
      body: { teamId: 'ENG', startsAt: '2026-02-02T00:00:00Z', endsAt: '2026-02-16T00:00:00Z' },
    },
    'PATCH /api/cycles/:id': { flag: 'cycles', body: { name: 'Flag off' } },
    'DELETE /api/cycles/:id': { flag: 'cycles' },
    'POST /api/uploads': {
      flag: 'attachments',
      body: { contentType: 'text/plain', filename: 'a.txt', size: 1 },
    },
    'PUT /api/uploads/:id': { flag: 'attachments', raw: true, query: '?expires=1&signature=x' },
    'POST /api/uploads/:id/complete': { flag: 'attachments' },
    'POST /api/files': { flag: 'attachments', raw: true },
    'POST /api/issues/:id/attachments': {
      flag: 'attachments',
      body: { title: 'Off', url: 'https://example.com/off' },
    },
    'PATCH /api/attachments/:id': { flag: 'attachments', body: { title: 'Off' } },
    'DELETE /api/attachments/:id': { flag: 'attachments' },
  });

  test('flags off: a guest gets 403 FORBIDDEN, a member 403 FEATURE_DISABLED', async () => {
    const requests = valid();
    for (const flag of FLAGS) await setFlag(t, flag, false);
    try {
      const before = await digest(t.ctx.db, tables);
      for (const [route, r] of Object.entries(requests)) {
        const [method, url] = route.split(' ') as [string, string];
        const send = (token: string) =>
          t.request(method, `${real(url)}${r.query ?? ''}`, {
            token,
            ...(r.body !== undefined ? { body: r.body } : {}),
            ...(r.raw
              ? { payload: 'hello', headers: { 'content-type': 'text/plain', 'x-filename': 'a.txt' } }
              : {}),
          });
        const g = await send(guest.token);
        assert.equal(g.body.error?.code, 'FORBIDDEN', `${route} as guest: ${JSON.stringify(g.body)}`);
        const m = await send(member.token);
        assert.equal(m.status, 403, `${route} as member: ${JSON.stringify(m.body)}`);
        assert.equal(m.body.error.code, 'FEATURE_DISABLED', `${route} as member`);
      }
      assert.deepEqual(changedTables(before, await digest(t.ctx.db, tables)), []);
    } finally {
      for (const flag of FLAGS) await setFlag(t, flag, true);
    }
  });
  // GraphQL goes through the policies, which check the role before the flag too.
  test('GraphQL agrees: flags off, a guest is forbidden and a member told the feature is off', async () => {
    const base = await t.listen();
    const mutations = [
      `mutation { projectCreate(input: { name: "Off", teamIds: ["${ids['teams']}"] }) { success } }`,
      `mutation { cycleCreate(input: { teamId: "ENG", startsAt: "2026-03-02T00:00:00Z", endsAt: "2026-03-16T00:00:00Z" }) { success } }`,
      'mutation { fileUpload(contentType: "text/plain", filename: "a.txt", size: 1) { success } }',
    ];
    for (const flag of FLAGS) await setFlag(t, flag, false);
    try {
      for (const mutation of mutations) {
        const g = await gql(base, `Bearer ${guest.token}`, mutation);
        assert.equal(
          g.body.errors?.[0]?.extensions?.code,
          'FORBIDDEN',
          `${mutation}: ${JSON.stringify(g.body)}`,
        );
        const m = await gql(base, `Bearer ${member.token}`, mutation);
        assert.equal(
          m.body.errors?.[0]?.extensions?.code,
          'FEATURE_DISABLED',
          `${mutation}: ${JSON.stringify(m.body)}`,
        );
      }
    } finally {
      for (const flag of FLAGS) await setFlag(t, flag, true);
    }
  });
});

describe('every other write route is one guests may use, on purpose', () => {
  test('each write route is member, admin or on GUEST_WRITES (and the list has nothing stale)', () => {
    const open = writes()
      .filter((r) => r.auth !== 'member' && r.auth !== 'admin')
      .map(key);
    const undeclared = open.filter((k) => !(k in GUEST_WRITES));
    assert.deepEqual(undeclared, [], "declare auth: 'member' (from the policy) or add them to GUEST_WRITES");
    const stale = Object.keys(GUEST_WRITES).filter((k) => !open.includes(k));
    assert.deepEqual(stale, [], 'GUEST_WRITES names routes that do not exist or are declared');
  });

  // Unknown ids, so a route without a body (DELETE) answers 404 instead of acting.
  test('a guest with a bad body there gets 403, a validation error or 404, never a change', async () => {
    const before = await digest(t.ctx.db, tables);
    for (const route of writes().filter((r) => key(r) in GUEST_WRITES)) {
      for (const body of BAD_BODIES) {
        const res = await probe(
          t,
          route.method,
          fill(route.url, () => ZERO_UUID),
          body,
          guest.token,
        );
        const label = `${key(route)} with ${body.what}: ${res.status} ${JSON.stringify(res.body)}`;
        // A route whose credential is not the caller's token (SSO's sealed cookie, a git host's
        // signature) refuses without it: 401.
        // MCP's transport refuses a client that does not accept its answer types (JSON and an event
        // stream) with 406, and the stateless endpoint has no session to DELETE: 405.
        const refusals = OTHER_REFUSALS[key(route)] ?? [400, 403, 404];
        assert.ok(refusals.includes(res.status), label);
      }
    }
    assert.deepEqual(changedTables(before, await digest(t.ctx.db, tables)), []);
  });

  test('a guest and an admin are both 401 on every SCIM write route, and nothing changes', async () => {
    const before = await digest(t.ctx.db, tables);
    const scim = t.app.routeAuth.filter(
      // The bare prefix and /* are the catch-alls that answers SCIM's 404 for unknown paths.
      (r) =>
        r.url.startsWith(`${SCIM}/`) &&
        !r.url.endsWith('*') &&
        ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method),
    );
    assert.ok(scim.length >= 8, 'the SCIM write routes are listed');
    for (const route of scim) {
      for (const token of [guest.token, t.adminToken]) {
        const res = await probe(
          t,
          route.method,
          fill(route.url, () => ZERO_UUID),
          BAD_BODIES[1]!,
          token,
        );
        assert.equal(res.status, 401, `${key(route)}: ${res.status}`);
      }
    }
    assert.deepEqual(changedTables(before, await digest(t.ctx.db, tables)), []);
  });
});
