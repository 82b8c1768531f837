// Builds the Fastify application from the modules. server.ts listens with it;
// tests call buildApp with a database of their own and use app.inject.

import { createHmac, randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';
import { firstStart } from './first-start.js';
import { Budgets } from './graphql/rate-budget.js';
import { graphqlRoutes } from './graphql/routes.js';
import { apiKeyRoutes } from './modules/api-keys/rest.js';
import { attachmentsRoutes } from './modules/attachments/rest.js';
import { auditRoutes } from './modules/audit/rest.js';
import { startAuditRetention } from './modules/audit/retention.js';
import { authRoutes } from './modules/auth/rest.js';
import { authenticate } from './modules/auth/service.js';
import { backupRoutes } from './modules/backups/rest.js';
import { type BackupWorkerOptions, startBackupWorker } from './modules/backups/worker.js';
import { commentsRoutes } from './modules/comments/rest.js';
import { type CycleWorkerOptions, startCycleWorker } from './modules/cycles/automation.js';
import { cyclesRoutes } from './modules/cycles/rest.js';
import { filesRoutes } from './modules/files/rest.js';
import { flagRoutes } from './modules/flags/rest.js';
import { gitModule } from './modules/git/rest.js';
import type { GitWorkerOptions } from './modules/git/worker.js';
import { importRoutes } from './modules/import/rest.js';
import { issueHistoryHandler } from './modules/issues/history.js';
import { issuesRoutes } from './modules/issues/rest.js';
import { notificationMailHandler } from './modules/mail/digest.js';
import { mailRoutes } from './modules/mail/rest.js';
import { type MailWorkerOptions, startMailWorker } from './modules/mail/worker.js';
import { mcpRoutes } from './modules/mcp/rest.js';
import { milestonesRoutes } from './modules/milestones/rest.js';
import { notificationsHandler } from './modules/notifications/handler.js';
import { notificationsRoutes } from './modules/notifications/rest.js';
import { oauthRoutes } from './modules/oauth/rest.js';
import { assertScope, restAction } from './modules/oauth/scopes.js';
import { portabilityRoutes } from './modules/portability/rest.js';
import { projectUpdatesRoutes } from './modules/project-updates/rest.js';
import { progressRoutes } from './modules/projects/progress-rest.js';
import { projectsRoutes } from './modules/projects/rest.js';
import { reactionsRoutes } from './modules/reactions/rest.js';
import { relationsRoutes } from './modules/relations/rest.js';
import { scimRoutes, scimTokenRoutes } from './modules/scim/rest.js';
import { sessionRoutes } from './modules/sessions/rest.js';
import { ssoRoutes } from './modules/sso/rest.js';
import { StreamHub } from './modules/stream/hub.js';
import { streamRoutes } from './modules/stream/rest.js';
import { teamsRoutes } from './modules/teams/rest.js';
import { serveWebUi } from './modules/ui/serve.js';
import { userRoutes } from './modules/users/rest.js';
import { viewsRoutes } from './modules/views/rest.js';
import { webhooksRoutes } from './modules/webhooks/rest.js';
import { startWebhookWorker } from './modules/webhooks/worker.js';
import { workspaceRoutes } from './modules/workspace/rest.js';
import { CREDENTIALS_CHANNEL, CredentialCache } from './platform/auth/credential-cache.js';
import { DEFAULT_LOGIN_LIMITS, LoginLimiter, type LoginLimits } from './platform/auth/login-limiter.js';
import { TokenSigner } from './platform/auth/tokens.js';
import type { AppContext } from './platform/context.js';
import { type Database, ping } from './platform/db/database.js';
import { migrate } from './platform/db/migrate.js';
import { listenForNotifications } from './platform/db/notifications.js';
import { keepStatistics } from './platform/db/statistics.js';
import { installAuth } from './platform/http/auth-hook.js';
import { installCompression } from './platform/http/compression.js';
import { installDbTimeBudget } from './platform/http/db-time-hook.js';
import { frameworkErrors, installErrorHandling } from './platform/http/error-handler.js';
import { installJsonBodyParser } from './platform/http/json-body.js';
import { lazySerializerFactory, lazyValidatorCompiler } from './platform/http/lazy-compile.js';
import { installRequestBudget } from './platform/http/request-budget.js';
import { ErrorResponse } from './platform/http/schemas.js';
import { INJECTED_STYLES_PAGE, installSecurityHeaders } from './platform/http/security-headers.js';
import type { Http } from './platform/http/types.js';
import { validatorCompiler } from './platform/http/validation.js';
import type { EventHandler } from './platform/outbox.js';

/** JSON bodies are small; file uploads stream through their own parser. */
export const JSON_BODY_LIMIT = 1024 * 1024;

export interface BuildOptions {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  /** Sign-in and registration limits, over the defaults (tests lift or lower them). */
  loginLimits?: Partial<LoginLimits>;
  /** The clock of the sign-in limits and the request budgets (tests move it); Date.now by default. */
  clock?: () => number;
  /** Options of the mail worker, which runs when SMTP is configured; false: none (tests start their own). */
  mailWorker?: MailWorkerOptions | false;
  /** Options of the git delivery worker; false: none (tests that stop before processing). */
  gitWorker?: GitWorkerOptions | false;
  /** Options of the backup worker; false: none (tests that drive their own). */
  backupWorker?: BackupWorkerOptions | false;
  /** Options of the cycle worker (automatic cycles); false: none (tests that drive their own). */
  cycleWorker?: CycleWorkerOptions | false;
}

/**
 * Every side effect of a change, run by recordEvent in the writer's
 * transaction for each event of their types, in this order (a handler's own
 * events, such as a notification's, run the list again).
 */
export const EVENT_HANDLERS: readonly EventHandler[] = [
  issueHistoryHandler, // issue.update: the history entry
  notificationsHandler, // issue and comment changes: subscriptions, assignment, mentions, replies, status
  notificationMailHandler, // notification.create: a line of the recipient's next email digest
];

/** How long closing waits for change streams, well under Fastify's 10 s hook limit. */
const STREAM_CLOSE_LIMIT_MS = 3_000;

/** True if `work` settled within `ms` (it goes on either way). */
async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const settled = work.then(
    () => true,
    () => true,
  );
  const result = await Promise.race([settled, late]);
  clearTimeout(timer);
  return result;
}

export async function buildApp(opts: BuildOptions) {
  const { config, database } = opts;
  await migrate(database.db);
  const started = await firstStart(database.db, config);

  const hops = config.trustProxy;
  const app = Fastify({
    logger: opts.logger ?? { level: config.logLevel },
    bodyLimit: JSON_BODY_LIMIT,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    // Whose X-Forwarded-For to believe: req.ip, which the sign-in limits key on,
    // depends on it. A hop count is given as a function (Fastify's types lack numbers).
    trustProxy: typeof hops === 'number' ? (_address: string, hop: number) => hop < hops : hops,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors,
    ajv: { customOptions: { removeAdditional: false } },
    schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory() } },
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as Http;

  const ctx: AppContext = {
    db: database.db,
    dbKind: database.kind,
    config,
    tokens: new TokenSigner(started.jwtSecret),
    deriveKey: (purpose) => createHmac('sha256', started.jwtSecret).update(`trackway:${purpose}`).digest(),
    loginLimiter: new LoginLimiter(database.db, { ...DEFAULT_LOGIN_LIMITS, ...opts.loginLimits }, opts.clock),
    credentials: new CredentialCache(),
    log: app.log,
    eventHandlers: EVENT_HANDLERS,
  };

  let closing = false;
  const stopCredentialListener = listenForNotifications(
    ctx.db,
    {
      kind: database.kind,
      pglite: database.pglite,
      url: database.url,
    },
    CREDENTIALS_CHANNEL,
    (payload) => ctx.credentials.notified(payload),
    () => closing,
    () => ctx.credentials.disconnected(),
  );
  app.addHook('onClose', async () => {
    closing = true;
    ctx.credentials.disconnected();
    await stopCredentialListener();
  });

  app.setValidatorCompiler(lazyValidatorCompiler(validatorCompiler));
  installJsonBodyParser(app);
  app.addSchema(ErrorResponse);
  installErrorHandling(app);
  installDbTimeBudget(app, () => config.dbTimePerRequestMs);
  await installSecurityHeaders(app); // before the auth hook, so refusals carry the headers too
  await installCompression(app);
  installAuth(
    app,
    (header, origin) => authenticate(ctx, header, { origin }),
    (actor, method, url, auth) => assertScope(actor, restAction(method, url, auth)),
  );
  // Hourly budgets, one per kind of caller, shared by REST (this hook) and GraphQL (its route).
  const budgets = new Budgets(database.db, config, opts.clock);
  installRequestBudget(app, (actor) => budgets.of(actor));
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Trackway REST API', version: '1', description: 'See docs/API.md for conventions.' },
      servers: [{ url: config.publicUrl }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  // The docs page is public like the document it shows; its routes come from
  // the plugin, so mark them in an encapsulated scope.
  await app.register(async (docs) => {
    docs.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), auth: 'public', helmet: INJECTED_STYLES_PAGE };
    });
    // validatorUrl: null, or the page sends the document's address to a public
    // validator for a badge (and breaks the CSP's img-src). Tags start closed:
    // with every operation open, Swagger UI stops rendering past about 130 of
    // them (no error; the later tags are missing), and we have more.
    await docs.register(swaggerUi, {
      routePrefix: '/api/docs',
      uiConfig: { docExpansion: 'none', validatorUrl: null },
    });
  });

  app.get('/api/openapi.json', { config: { auth: 'public' }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
  app.get('/healthz', { config: { auth: 'public' }, schema: { hide: true } }, async () => ({ ok: true }));
  app.get('/readyz', { config: { auth: 'public' }, schema: { hide: true } }, async (_req, reply) => {
    try {
      await ping(ctx.db);
      return { ok: true, database: database.kind };
    } catch {
      return reply
        .status(503)
        .send({ error: { status: 503, code: 'NOT_READY', message: 'Database unreachable' } });
    }
  });

  authRoutes(app, ctx);
  userRoutes(app, ctx);
  apiKeyRoutes(app, ctx);
  sessionRoutes(app, ctx);
  ssoRoutes(app, ctx);
  auditRoutes(app, ctx);
  portabilityRoutes(app, ctx);
  importRoutes(app, ctx);
  backupRoutes(app, ctx);
  scimTokenRoutes(app, ctx);
  scimRoutes(app, ctx);
  flagRoutes(app, ctx);
  workspaceRoutes(app, ctx);
  teamsRoutes(app, ctx);
  issuesRoutes(app, ctx);
  commentsRoutes(app, ctx);
  projectsRoutes(app, ctx);
  progressRoutes(app, ctx);
  milestonesRoutes(app, ctx);
  viewsRoutes(app, ctx);
  notificationsRoutes(app, ctx);
  cyclesRoutes(app, ctx);
  filesRoutes(app, ctx);
  attachmentsRoutes(app, ctx);
  reactionsRoutes(app, ctx);
  projectUpdatesRoutes(app, ctx);
  relationsRoutes(app, ctx);
  webhooksRoutes(app, ctx);
  gitModule(app, ctx, opts.gitWorker);
  const webhookWorker = startWebhookWorker(ctx, { database });
  app.addHook('onClose', () => webhookWorker.stop());
  const stopAuditRetention = startAuditRetention(ctx);
  app.addHook('onClose', stopAuditRetention);
  // Planner statistics follow the tables' sizes on both databases (platform/db/statistics.ts).
  const stopStatistics = keepStatistics(database.db, (err) => app.log.error({ err }, 'analyze failed'));
  app.addHook('onClose', stopStatistics);
  if (opts.backupWorker !== false) {
    const backupWorker = startBackupWorker(ctx, opts.backupWorker);
    app.addHook('onClose', () => backupWorker.stop());
  }
  if (opts.cycleWorker !== false) {
    const cycleWorker = startCycleWorker(ctx, opts.cycleWorker);
    app.addHook('onClose', () => cycleWorker.stop());
  }
  mailRoutes(app, ctx);
  if (config.mail && opts.mailWorker !== false) {
    const mailWorker = startMailWorker(ctx, opts.mailWorker);
    app.addHook('onClose', () => mailWorker.stop());
  }
  const streams = new StreamHub(ctx, database);
  app.decorate('changeStreams', streams);
  streamRoutes(app, ctx, streams);
  // preClose: open streams would otherwise keep the server's close waiting.
  // Bounded: Fastify fails a preClose hook that outlives its plugin timeout
  // (as "Plugin did not start in time: ''"); what is still open by then is
  // left to the server's own close.
  app.addHook('preClose', async () => {
    if (!(await settlesWithin(streams.close(), STREAM_CLOSE_LIMIT_MS))) {
      ctx.log.warn(
        { openStreams: streams.size },
        'change streams were not closed within %d ms',
        STREAM_CLOSE_LIMIT_MS,
      );
    }
  });
  await graphqlRoutes(app, ctx, budgets);
  await oauthRoutes(app, ctx);
  mcpRoutes(app, ctx, (actor) => budgets.of(actor));
  await serveWebUi(app, ctx); // last: its catch-all GET must not shadow API routes

  return { app, ctx, generatedAdmin: started.generatedAdmin };
}
