// Who sees what, walked over the whole API: a record the caller may not see
// does not exist for them. The roles: a guest (member of PUB only), an
// outsider (member role, not in the private teams), an insider (in PRV, not
// in VLT) and the admin. The records come from test/support/visibility-fixture.ts,
// and who may see each one from its oracle (the written rules applied to the
// tables). The cases are generated: every GET route of the app's route table
// and every Query field of the served schema, so a new route or field that
// skips the scope fails here without anyone writing a case for it.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type GraphQLSchema, getNamedType, isNonNullType } from 'graphql';
import { changedTables, digest, tablesToWatch } from './support/fuzz/digest.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { buildWorld, type Kind, ROLES, type Role, type World } from './support/visibility-fixture.js';
import { documents, isHeldField, items, nodeType, servedSchema } from './support/visibility-graphql.js';
import { Findings, type Secrets, secretsOf } from './support/visibility-scan.js';

/** GET routes not walked, and why. Everything else in the route table is. */
const SKIP_ROUTES: [RegExp, string][] = [
  [/^\/api\/admin\//, 'admin-only (the auth hook answers 403 to the others); admins see everything'],
  [/^\/api\/docs/, 'Swagger UI: static pages, no records'],
  [/^\/api\/openapi\.json$/, 'the API description: no records (its examples name ENG)'],
  [/^\/\*$/, 'the web UI shell (HTML)'],
  [/^\/assets\/\*$/, 'the web UI build (hashed JS and CSS), present once web/dist is built'],
  [/^\/graphql$/, 'GraphiQL page; GraphQL is walked below through POST'],
  [
    /^\/scim\/v2(\/|$)/,
    'SCIM provisioning: a SCIM token only, which no role holds (401 to all): test/scim.test.ts',
  ],
  [
    /^\/api\/auth\/sso\/(start|callback)$/,
    'single sign-on redirects, no records (off here: 404 to all): test/sso.test.ts',
  ],
  [/^\/api\/stream$/, 'the change stream never ends; who gets which event: test/stream.test.ts'],
  [
    /^\/oauth\/authorize(\/:uid)?$/,
    "OAuth authorization (oidc-provider): a redirect to the consent page or an error page about the app's request, no records: every role's answer in test/visibility-apps.test.ts",
  ],
  [
    /^\/api\/oauth\/interactions\/:uid$/,
    'one pending consent named by its unguessable uid, bound to its browser and account: the app and the scopes asked, no records: test/visibility-apps.test.ts, test/oauth.test.ts',
  ],
  [
    /^\/mcp$/,
    'MCP: GET is 405 (stateless); its reads go through POST, walked against this world with API keys in test/mcp.test.ts and with OAuth tokens in test/visibility-apps.test.ts',
  ],
  [/^\/api\/notifications\/:id$/, "one person's own rows, not a team's: test/notifications.test.ts"],
  [
    /^\/api\/mail\/unsubscribe$/,
    'a page opened by a signed token from an email, no team data: test/mail.test.ts',
  ],
];
/** Collection in the path (or the param's own name) → the kind of record a param names. */
const PARAM_KINDS: Record<string, Kind> = {
  teams: 'team',
  team: 'team',
  issues: 'issue',
  issue: 'issue',
  comments: 'comment',
  attachments: 'attachment',
  reactions: 'reaction',
  'project-updates': 'projectUpdate',
  projectUpdate: 'projectUpdate',
  relations: 'relation',
  cycles: 'cycle',
  cycle: 'cycle',
  'workflow-states': 'state',
  state: 'state',
  labels: 'label',
  label: 'label',
  projects: 'project',
  project: 'project',
  milestones: 'milestone',
  projectMilestone: 'milestone',
  views: 'view',
  customView: 'view',
  parent: 'issue',
  files: 'file',
  users: 'user',
  user: 'user',
  assignee: 'user',
  lead: 'user',
};
/** Kinds whose REST paths also take another name: identifiers (PRV-1) and team keys. */
const REST_ALIASES = new Set<Kind>(['issue', 'team']);
/** Query fields not walked: webhooks are admin-only already; the unread count names no record. */
const SKIP_FIELDS: Record<string, string> = {
  webhook: 'admin-only',
  webhooks: 'admin-only',
  userSessions: "admin-only (a user's sessions): test/sessions.test.ts",
  notificationsUnreadCount: "a number about the caller's own inbox: test/graphql-notifications.test.ts",
  notification: "one person's own rows, not a team's: test/graphql-inbox.test.ts",
};
/** Lists only admins read (the audit log): everyone else gets an error and no data. */
const ADMIN_ONLY_LISTS = new Set(['auditEntries', 'auditEntryTypes']);
/** GraphQL record type → kind, for the by-id root fields. */
const TYPE_KINDS: Record<string, Kind> = {
  Issue: 'issue',
  Team: 'team',
  User: 'user',
  Project: 'project',
  ProjectMilestone: 'milestone',
  CustomView: 'view',
  Comment: 'comment',
  Attachment: 'attachment',
  Reaction: 'reaction',
  ProjectUpdate: 'projectUpdate',
  IssueRelation: 'relation',
  Cycle: 'cycle',
  WorkflowState: 'state',
  IssueLabel: 'label',
  TeamMembership: 'membership',
};
const GQL_ALIASES = new Set<Kind>(['issue', 'team', 'project']);

let t: TestApp;
let w: World;
let dataDir: string;
const secrets = {} as Record<Role, Secrets>;

before(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trackway-matrix-'));
  t = await startTestApp({
    dataDir,
    graphqlRequestsPerHour: 1e6,
    graphqlComplexityPerHour: 1e12,
    sessionRequestsPerHour: 1e6,
    sessionComplexityPerHour: 1e12,
  });
  w = await buildWorld(t);
  for (const role of ROLES) secrets[role] = secretsOf(w, role);
});
after(async () => {
  await t.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const sees = (role: Role, id: string) => w.visible[role].has(id);
const ofKind = (kind: Kind) => w.records.filter((r) => r.kind === kind);
const body = (res: { body: unknown }) =>
  typeof res.body === 'string' ? res.body.slice(0, 200) : JSON.stringify(res.body).slice(0, 200);

describe('REST: every GET route, every role', () => {
  test('routes with params: 404 for secret records, 200 for visible ones, no leak', async (c) => {
    const routes = t.app.routeAuth.filter(
      (r) => r.method === 'GET' && !SKIP_ROUTES.some(([re]) => re.test(r.url)),
    );
    const withParams = routes.filter((r) => r.url.includes(':'));
    let calls = 0;
    for (const route of withParams) {
      await c.test(`GET ${route.url}`, async () => {
        const f = new Findings();
        const segments = route.url.split('/');
        // Each param's kind: its own name (teamId → team) or, for :id, the collection before it.
        const params = segments.flatMap((s, i) => (s.startsWith(':') ? [{ name: s.slice(1), i }] : []));
        const kinds = params.map(
          (p) => PARAM_KINDS[p.name === 'id' ? (segments[p.i - 1] ?? '') : p.name.replace(/Id$/, '')],
        );
        assert.ok(
          kinds.every(Boolean),
          `GET ${route.url}: cannot tell what record ${params.map((p) => p.name)} names; map it in PARAM_KINDS`,
        );
        // One param probes; the others name a record everyone sees.
        const others = (kinds as Kind[]).map((k) =>
          ofKind(k).find((r) => ROLES.every((role) => sees(role, r.id))),
        );
        assert.ok(
          others.every(Boolean),
          `GET ${route.url}: no ${kinds} visible to all to fill the other params`,
        );
        for (const [n, kind] of (kinds as Kind[]).entries()) {
          for (const rec of ofKind(kind)) {
            const refs = [rec.id, ...(REST_ALIASES.has(kind) ? rec.aliases : [])];
            for (const ref of refs) {
              let k = 0;
              const url = route.url.replace(/:\w+/g, () =>
                encodeURIComponent(k++ === n ? ref : others[k - 1]!.id),
              );
              for (const role of ROLES) {
                const res = await t.get(url, w.tokens[role]);
                calls++;
                const want = sees(role, rec.id) ? 200 : 404;
                const why = res.status === 200 ? '' : ` ${body(res)}`;
                if (res.status !== want)
                  f.add(`${url} [${rec.label}] as ${role}: ${res.status}, expected ${want}${why}`);
                else if (res.status === 200) f.leak(url, role, res.body, secrets[role]);
              }
            }
          }
        }
        f.assertNone(`GET ${route.url}`);
      });
    }
    c.diagnostic(
      `REST: ${withParams.length} GET routes with params × their records × ${ROLES.length} roles = ${calls} requests`,
    );
  });

  test('list routes, with their filter params filled with secret refs: no leak', async (c) => {
    const routes = t.app.routeAuth.filter(
      (r) => r.method === 'GET' && !r.url.includes(':') && !SKIP_ROUTES.some(([re]) => re.test(r.url)),
    );
    const { paths } = (await t.get('/api/openapi.json')).body;
    let calls = 0;
    for (const route of routes) {
      await c.test(`GET ${route.url}`, async () => {
        const f = new Findings();
        const query: { name: string }[] = (paths[route.url]?.get?.parameters ?? []).filter(
          (p: any) => p.in === 'query',
        );
        const archived = query.some((p) => p.name === 'includeArchived') ? 'includeArchived=true' : '';
        const idParams = query.filter((p) => /Id$/.test(p.name));
        const unmapped = idParams.filter((p) => !PARAM_KINDS[p.name.replace(/Id$/, '')]).map((p) => p.name);
        assert.deepEqual(
          unmapped,
          [],
          `GET ${route.url}: query params naming records of an unknown kind; map them in PARAM_KINDS`,
        );
        for (const role of ROLES) {
          const variants = [''];
          for (const p of idParams)
            for (const rec of ofKind(PARAM_KINDS[p.name.replace(/Id$/, '')]!).filter(
              (r) => !sees(role, r.id),
            ))
              for (const ref of [rec.id, ...rec.aliases])
                variants.push(`${p.name}=${encodeURIComponent(ref)}`);
          if (query.some((p) => p.name === 'q'))
            for (const word of w.secretWords[role]) variants.push(`q=${word}`);
          for (const qs of variants) {
            const search = [qs, archived].filter(Boolean).join('&');
            const url = `${route.url}${search ? `?${search}` : ''}`;
            const res = await t.get(url, w.tokens[role]);
            calls++;
            // Unfiltered, the list answers; filtered by a secret record, 400 or 404 will do too.
            if (qs ? res.status >= 500 : res.status !== 200)
              f.add(`${url} as ${role}: ${res.status} ${body(res)}`);
            f.leak(url, role, res.body, secrets[role]);
          }
        }
        f.assertNone(`GET ${route.url}`);
      });
    }
    c.diagnostic(
      `REST: ${routes.length} GET list routes × ${ROLES.length} roles, with secret filters: ${calls} requests`,
    );
  });
});

describe('GraphQL: every Query field, every role', () => {
  let schema: GraphQLSchema;
  before(async () => {
    schema = await servedSchema(t);
  });
  const gql = async (role: Role, query: string, variables: Record<string, unknown> = {}) =>
    (await t.post('/graphql', { query, variables }, w.tokens[role])).body;
  const errorsOf = (b: any) =>
    (b.errors ?? [])
      .map((e: any) => e.message)
      .join('; ')
      .slice(0, 200);
  /** Kinds this role has a secret of that GraphQL can name: without one, trees are not worth walking. */
  const hasSecrets = (role: Role) =>
    w.records.some((r) => !sees(role, r.id) && r.kind !== 'file' && r.kind !== 'history');

  test('each root field: by-id answers an error or null for secrets; lists and trees leak nothing', async (c) => {
    const fields = Object.values(schema.getQueryType()!.getFields()).filter(
      (fd) => !SKIP_FIELDS[fd.name] && isHeldField(fd),
    );
    let calls = 0;
    for (const field of fields) {
      await c.test(field.name, async (st) => {
        const f = new Findings();
        const named = getNamedType(field.type);
        const idArg = field.args.find((a) => a.name === 'id');
        const unfillable = field.args.filter(
          (a) => isNonNullType(a.type) && a.defaultValue === undefined && !['id', 'term'].includes(a.name),
        );
        assert.deepEqual(
          unfillable.map((a) => a.name),
          [],
          `${field.name}: required arguments the matrix cannot fill`,
        );
        if (idArg) {
          const kind = TYPE_KINDS[named.name];
          assert.ok(kind, `${field.name}: no kind for ${named.name}; map it in TYPE_KINDS`);
          const open = `query($id: ${String(idArg.type)}) { r: ${field.name}(id: $id) { `;
          const deep = documents(schema, open, items(named, 0, 2), ' } }');
          const flat = [`${open}id } }`];
          st.diagnostic(
            `${items(named, 0, 2).length} fields below ${named.name}, in ${deep.length} document(s)`,
          );
          for (const role of ROLES) {
            for (const rec of ofKind(kind)) {
              const refs = [rec.id, ...(GQL_ALIASES.has(kind) ? rec.aliases : [])];
              for (const ref of refs) {
                const where = `${field.name}(id: "${ref}") [${rec.label}]`;
                for (const doc of ref === rec.id && hasSecrets(role) ? deep : flat) {
                  const b = await gql(role, doc, { id: ref });
                  calls++;
                  if (!sees(role, rec.id) && b.data?.r) f.add(`${where} as ${role}: answered the record`);
                  else if (sees(role, rec.id) && (!b.data?.r || b.errors))
                    f.add(`${where} as ${role}: errors ${errorsOf(b)}`);
                  else f.leak(where, role, b.data, secrets[role]);
                }
              }
            }
          }
        } else {
          const node = nodeType(named);
          // Lists whole (first 50, one level of ids); single objects (viewer) two levels deep.
          const docs = node
            ? documents(schema, `${listHead(field)} { nodes { `, items(node, 0, 1), ' } } }')
            : documents(schema, `{ r: ${field.name} { `, items(named, 0, 2), ' } }');
          for (const role of ROLES) {
            const terms = field.args.some((a) => a.name === 'term')
              ? w.secretWords[role].length
                ? w.secretWords[role]
                : ['quasar']
              : [null];
            for (const term of terms)
              for (const doc of docs) {
                const b = await gql(role, doc, term ? { term } : {});
                calls++;
                if (ADMIN_ONLY_LISTS.has(field.name) && role !== 'admin') {
                  if (!b.errors || b.data?.r) f.add(`${field.name} as ${role}: answered an admin-only list`);
                  continue;
                }
                if (b.errors || !b.data?.r)
                  f.add(`${field.name}${term ? `(term: ${term})` : ''} as ${role}: errors ${errorsOf(b)}`);
                f.leak(field.name + (term ? `(term: ${term})` : ''), role, b.data, secrets[role]);
              }
          }
        }
        f.assertNone(field.name);
      });
    }
    c.diagnostic(
      `GraphQL: ${fields.length} Query fields × ${ROLES.length} roles × their records = ${calls} documents`,
    );
  });

  test('counts leave out what the role may not see', async () => {
    const f = new Findings();
    const admin = w.userIds.admin;
    for (const role of ROLES) {
      const want = w.issueCounts[role];
      const rest = await t.get('/api/issues?includeArchived=true&limit=1', w.tokens[role]);
      if (rest.body.pageInfo?.total !== want.all)
        f.add(`/api/issues pageInfo.total as ${role}: ${rest.body.pageInfo?.total}, expected ${want.all}`);
      const b = await gql(role, `{ user(id: "${admin}") { createdIssueCount } }`);
      if (b.data?.user?.createdIssueCount !== want.byAdmin)
        f.add(
          `user(admin).createdIssueCount as ${role}: ${b.data?.user?.createdIssueCount}, expected ${want.byAdmin}`,
        );
      for (const word of w.secretWords[role]) {
        const s = await gql(
          role,
          `{ searchIssues(term: "${word}", includeArchived: true) { totalCount nodes { id } } }`,
        );
        if (s.data?.searchIssues?.totalCount !== 0)
          f.add(
            `searchIssues(term: ${word}).totalCount as ${role}: ${s.data?.searchIssues?.totalCount}, expected 0`,
          );
      }
      // A team a role sees shows all of its issues to that role, so its count is the admin's.
      for (const team of ofKind('team').filter((r) => sees(role, r.id))) {
        const q = `{ team(id: "${team.id}") { issueCount } }`;
        const [mine, all] = [
          (await gql(role, q)).data?.team?.issueCount,
          (await gql('admin', q)).data?.team?.issueCount,
        ];
        if (mine !== all) f.add(`team(${team.label}).issueCount as ${role}: ${mine}, admin sees ${all}`);
      }
    }
    f.assertNone('counts');
  });
});

describe('what a scan cannot see', () => {
  test('the insider finds PRV issues by a word of their titles; a file is downloaded only where its attachment is seen', async () => {
    const f = new Findings();
    const s = await t.post(
      '/graphql',
      { query: '{ searchIssues(term: "quasar") { totalCount } }' },
      w.tokens.insider,
    );
    if (!(s.body.data?.searchIssues?.totalCount > 0))
      f.add(`searchIssues(term: quasar) as insider: ${body(s)}`);
    const expect = async (role: Role, file: string, want: number) => {
      const res = await t.get(`/api/files/${w.ids[file]}`, w.tokens[role]);
      if (res.status !== want) f.add(`GET /api/files/<${file}> as ${role}: ${res.status}, expected ${want}`);
    };
    await expect('insider', 'prvFile', 200);
    await expect('outsider', 'prvFile', 404);
    await expect('guest', 'prvFile', 404);
    await expect('guest', 'pubFile', 200);
    await expect('insider', 'orphanFile', 404); // uploaded by the admin, attached nowhere
    f.assertNone('files and search');
  });

  // Last: if a write gets through (as before the scope is enforced), it changes the world.
  test('outsider writes to PRV records: 400 naming teamId or 404, GraphQL error, and nothing changes', async () => {
    const f = new Findings();
    const tables = await tablesToWatch(t.ctx.db);
    const before = await digest(t.ctx.db, tables);
    const token = w.tokens.outsider;
    const created = await t.post('/api/issues', { title: 'sneaky', teamId: 'PRV' }, token);
    if (created.status !== 400 || created.body.error?.details?.[0]?.field !== '/teamId')
      f.add(
        `POST /api/issues {teamId: PRV}: ${created.status}, expected 400 naming /teamId ${body(created)}`,
      );
    const writes = [
      ['PATCH /api/issues/PRV-1', await t.patch('/api/issues/PRV-1', { title: 'sneaky' }, token)],
      [
        'POST /api/issues/PRV-1/comments',
        await t.post('/api/issues/PRV-1/comments', { body: 'sneaky' }, token),
      ],
    ] as const;
    for (const [what, res] of writes)
      if (res.status !== 404) f.add(`${what}: ${res.status}, expected 404 ${body(res)}`);
    const mutation = `mutation { issueUpdate(id: "${w.ids['prv1']}", input: { title: "sneaky" }) { success } }`;
    const g = await t.post('/graphql', { query: mutation }, token);
    if (!g.body.errors?.length) f.add(`issueUpdate on PRV-1: no error ${body(g)}`);
    const changed = changedTables(before, await digest(t.ctx.db, tables));
    if (changed.length) f.add(`tables changed: ${changed.join(', ')}`);
    f.assertNone('outsider writes');
  });
});

/** `query { r: issues(first: 50, includeArchived: true)`: whole lists, archived records too. */
function listHead(field: { name: string; args: readonly { name: string; type: unknown }[] }): string {
  const term = field.args.find((a) => a.name === 'term');
  const parts = field.args.flatMap((a) =>
    a.name === 'first' ? ['first: 50'] : a.name === 'includeArchived' ? ['includeArchived: true'] : [],
  );
  if (term) parts.push('term: $term');
  return `query${term ? `($term: ${String(term.type)})` : ''} { r: ${field.name}${parts.length ? `(${parts.join(', ')})` : ''}`;
}
