// REST for git hosts: the three public receivers (each proves itself by its
// host's signature or token, receive.ts) and the admin routes for connections,
// each team's automation and the delivery log (admin-only under /api/admin/).
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import type { GitHost, WorkspaceRow } from '../../platform/db/tables.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { PageInfo, pageOf, pageQuery } from '../../platform/http/pagination.js';
import { errors, Ok, OneLineText, Timestamp, Uuid } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { BRANCH_PLACEHOLDERS, MAX_BRANCH_FORMAT_LENGTH } from '../issues/branch-format.js';
import { adminGetGitSettings, adminUpdateGitBranchFormat, presentGitSettings } from '../workspace/service.js';
import { receiveDelivery } from './receive.js';
import {
  createConnection,
  deleteConnection,
  getAutomation,
  listConnections,
  listDeliveries,
  MAX_REPOSITORIES,
  MIN_SECRET_LENGTH,
  setAutomation,
  setConnectionRepositories,
  updateConnection,
} from './service.js';
import { type GitWorkerOptions, startGitWorker } from './worker.js';

/** A delivery's body, at most: pull request events are a few tens of KB; pushes list up to 20 commits. */
export const GIT_BODY_LIMIT = 1024 * 1024;
const HOSTS: readonly GitHost[] = ['github', 'gitlab', 'gitea'];

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Host = Type.Union([Type.Literal('github'), Type.Literal('gitlab'), Type.Literal('gitea')]);
const Repository = Type.Object(
  { fullName: Type.String({ minLength: 3, maxLength: 300 }), teamId: Uuid },
  { additionalProperties: false },
);
const WebhookSecret = Type.String({
  minLength: MIN_SECRET_LENGTH,
  maxLength: 256,
  description: 'The secret the host signs deliveries with; kept sealed, never shown again',
});
const ApiToken = Type.String({ minLength: 1, maxLength: 4096 });
const ApiBaseUrl = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'The API root, e.g. https://github.example.com/api/v3, https://gitlab.example.com/api/v4, https://gitea.example.com/api/v1',
});
const Repositories = Type.Array(Repository, { maxItems: MAX_REPOSITORIES });
const NumericId = (description: string) =>
  Type.Union([Type.Integer({ minimum: 1 }), Type.String({ minLength: 1, maxLength: 20 })], { description });
const AppId = NumericId("The App's id (its settings page: App ID)");
const PrivateKey = Type.String({
  minLength: 1,
  maxLength: 16_384,
  description: "The App's private key, PEM; kept sealed, never shown again",
});
const InstallationId = Type.Optional(
  Nullable(NumericId('The installation of the App on the account; null: looked up per repository')),
);
const GitHubAppNew = Type.Object(
  { appId: AppId, privateKey: PrivateKey, installationId: InstallationId },
  { additionalProperties: false },
);
/** On a change the key may be omitted: the one stored is kept. */
const GitHubAppChange = Type.Object(
  { appId: AppId, privateKey: Type.Optional(PrivateKey), installationId: InstallationId },
  { additionalProperties: false },
);
const ConnectionSchema = Type.Object({
  id: Type.String(),
  host: Host,
  name: Type.String(),
  webhookUrl: Type.String({ description: 'Paste this into the host as the webhook URL' }),
  hasApiToken: Type.Boolean(),
  apiBaseUrl: Nullable(Type.String({ description: "The host's API root; null: the public default" })),
  backlinks: Type.Boolean({
    description: 'Back-link comments are on (they also need a token or a GitHub App)',
  }),
  githubApp: Nullable(
    Type.Object(
      { appId: Type.String(), installationId: Nullable(Type.String()) },
      { description: 'The GitHub App back-links authenticate as (its private key is never shown)' },
    ),
  ),
  repositories: Type.Array(Type.Object({ fullName: Type.String(), teamId: Type.String() })),
  createdAt: Timestamp,
});
const Event = Type.Union([
  Type.Literal('draft'),
  Type.Literal('start'),
  Type.Literal('review'),
  Type.Literal('mergeable'),
  Type.Literal('merge'),
]);
const Rule = Type.Object(
  {
    event: Event,
    targetBranch: Nullable(Type.String({ minLength: 1, maxLength: 255 })),
    stateId: Nullable(Uuid),
  },
  { additionalProperties: false },
);
const AutomationSchema = Type.Object({
  rules: Type.Array(
    Type.Object({ event: Event, targetBranch: Nullable(Type.String()), stateId: Nullable(Type.String()) }),
  ),
  defaults: Type.Array(Type.Object({ event: Event, stateId: Nullable(Type.String()) })),
});
const DeliverySchema = Type.Object({
  id: Type.String(),
  host: Host,
  deliveryId: Type.String(),
  connectionId: Type.String(),
  event: Type.String(),
  status: Type.String(),
  attempts: Type.Integer(),
  outcome: Nullable(Type.String()),
  error: Nullable(Type.String()),
  receivedAt: Timestamp,
  processedAt: Nullable(Timestamp),
});
const ReceiveAnswer = Type.Object({
  status: Type.Union([Type.Literal('queued'), Type.Literal('ignored'), Type.Literal('duplicate')]),
  id: Type.Optional(Type.String()),
  reason: Type.Optional(Type.String()),
});

const GitSettingsSchema = Type.Object({
  branchFormat: Type.String(),
  placeholders: Type.Array(Type.Object({ name: Type.String(), description: Type.String() })),
});

const gitSettings = (w: WorkspaceRow) => ({
  ...presentGitSettings(w),
  placeholders: Object.entries(BRANCH_PLACEHOLDERS).map(([name, description]) => ({ name, description })),
});

export function gitRoutes(app: Http, ctx: AppContext, worker: { kick(): void }): void {
  // Receivers: the body is kept as the exact text the host signed.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: GIT_BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );
    for (const host of HOSTS) {
      scope.post(
        `/api/integrations/${host}/webhook`,
        {
          config: { auth: 'public' },
          bodyLimit: GIT_BODY_LIMIT,
          schema: {
            tags: ['git'],
            summary: `Receive a ${host} webhook delivery (signed by the host; see docs/git.md)`,
            security: [],
            response: { 200: ReceiveAnswer, 202: ReceiveAnswer, ...errors(400, 401, 413) },
          },
        },
        async (req, reply) => {
          const body = typeof req.body === 'string' ? req.body : '';
          const answer = await receiveDelivery(ctx, host, req.headers, body, () => worker.kick());
          return reply.status(answer.status).send(answer.body);
        },
      );
    }
  });

  app.post(
    '/api/admin/git/connections',
    {
      schema: {
        tags: ['git'],
        summary: 'Connect a git host; the answer carries the webhook secret, shown only now',
        body: Type.Object(
          {
            host: Host,
            name: OneLineText(200),
            webhookSecret: Type.Optional(WebhookSecret),
            apiToken: Type.Optional(Nullable(ApiToken)),
            apiBaseUrl: Type.Optional(Nullable(ApiBaseUrl)),
            backlinks: Type.Optional(Type.Boolean()),
            githubApp: Type.Optional(Nullable(GitHubAppNew)),
            repositories: Type.Optional(Repositories),
          },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Object({ connection: ConnectionSchema, webhookSecret: Type.String() }),
          ...errors(400, 401, 403, 409),
        },
      },
    },
    async (req, reply) => reply.status(201).send(await createConnection(ctx, actorOf(req), req.body)),
  );

  app.get(
    '/api/admin/git/connections',
    {
      schema: {
        tags: ['git'],
        summary: 'Connected git hosts (oldest first), without secrets',
        querystring: Type.Object(pageQuery(50), { additionalProperties: false }),
        response: {
          200: Type.Object({ connections: Type.Array(ConnectionSchema), pageInfo: PageInfo }),
          ...errors(400, 401, 403),
        },
      },
    },
    async (req) => {
      const page = pageOf(req.query, 50);
      const { connections, total } = await listConnections(ctx, actorOf(req), page);
      return { connections, pageInfo: { total, ...page } };
    },
  );

  app.patch(
    '/api/admin/git/connections/:id',
    {
      schema: {
        tags: ['git'],
        summary:
          "Change a connection's name, webhook secret, API token or GitHub App (null removes either), API base URL or back-link switch",
        params: Type.Object({ id: Uuid }),
        body: Type.Object(
          {
            name: Type.Optional(OneLineText(200)),
            webhookSecret: Type.Optional(WebhookSecret),
            apiToken: Type.Optional(Nullable(ApiToken)),
            apiBaseUrl: Type.Optional(Nullable(ApiBaseUrl)),
            backlinks: Type.Optional(Type.Boolean()),
            githubApp: Type.Optional(Nullable(GitHubAppChange)),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ connection: ConnectionSchema }), ...errors(400, 401, 403, 404) },
      },
    },
    async (req) => ({ connection: await updateConnection(ctx, actorOf(req), req.params.id, req.body) }),
  );

  app.put(
    '/api/admin/git/connections/:id/repositories',
    {
      schema: {
        tags: ['git'],
        summary: "Replace a connection's repositories and the team of each",
        params: Type.Object({ id: Uuid }),
        body: Type.Object({ repositories: Repositories }, { additionalProperties: false }),
        response: { 200: Type.Object({ connection: ConnectionSchema }), ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (req) => ({
      connection: await setConnectionRepositories(ctx, actorOf(req), req.params.id, req.body.repositories),
    }),
  );

  app.delete(
    '/api/admin/git/connections/:id',
    {
      schema: {
        tags: ['git'],
        summary: 'Disconnect a git host (its repositories and queued deliveries go too)',
        params: Type.Object({ id: Uuid }),
        response: { 200: Ok, ...errors(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await deleteConnection(ctx, actorOf(req), req.params.id);
      return { ok: true as const };
    },
  );

  app.get(
    '/api/admin/git/teams/:teamId/automation',
    {
      schema: {
        tags: ['git'],
        summary: "A team's pull request automation: its rules and the defaults",
        params: Type.Object({ teamId: Uuid }),
        response: { 200: AutomationSchema, ...errors(400, 401, 403, 404) },
      },
    },
    async (req) => getAutomation(ctx, actorOf(req), req.params.teamId),
  );

  app.put(
    '/api/admin/git/teams/:teamId/automation',
    {
      schema: {
        tags: ['git'],
        summary: "Replace a team's automation rules (stateId null: don't move; targetBranch null: any)",
        params: Type.Object({ teamId: Uuid }),
        body: Type.Object({ rules: Type.Array(Rule, { maxItems: 100 }) }, { additionalProperties: false }),
        response: { 200: AutomationSchema, ...errors(400, 401, 403, 404) },
      },
    },
    async (req) => setAutomation(ctx, actorOf(req), req.params.teamId, req.body.rules),
  );

  app.get(
    '/api/admin/git/settings',
    {
      schema: {
        tags: ['git'],
        summary: "The workspace's git settings: the branch name format and the placeholders it may use",
        response: { 200: GitSettingsSchema, ...errors(401, 403) },
      },
    },
    async (req) => gitSettings(await adminGetGitSettings(ctx, actorOf(req))),
  );

  app.put(
    '/api/admin/git/settings',
    {
      schema: {
        tags: ['git'],
        summary: "Change the branch name format (every issue's branchName follows it at once)",
        body: Type.Object(
          { branchFormat: Type.String({ maxLength: MAX_BRANCH_FORMAT_LENGTH }) },
          { additionalProperties: false },
        ),
        response: { 200: GitSettingsSchema, ...errors(400, 401, 403) },
      },
    },
    async (req) => gitSettings(await adminUpdateGitBranchFormat(ctx, actorOf(req), req.body.branchFormat)),
  );

  app.get(
    '/api/admin/git/deliveries',
    {
      schema: {
        tags: ['git'],
        summary: 'Received deliveries, newest first, with what each did',
        querystring: Type.Object(pageQuery(50), { additionalProperties: false }),
        response: { 200: Type.Object({ deliveries: Type.Array(DeliverySchema) }), ...errors(400, 401, 403) },
      },
    },
    async (req) => ({ deliveries: await listDeliveries(ctx, actorOf(req), pageOf(req.query, 50)) }),
  );
}

/** Registers the routes and starts the worker, stopped when the app closes. */
export function gitModule(app: Http, ctx: AppContext, options: GitWorkerOptions | false = {}): void {
  if (options === false) {
    gitRoutes(app, ctx, { kick() {} });
    return;
  }
  const worker = startGitWorker(ctx, options);
  app.addHook('onClose', () => worker.stop());
  gitRoutes(app, ctx, worker);
}
