// REST of the OAuth authorization server (docs/agents.md): the provider's own
// endpoints under /oauth, forwarded as raw requests to oidc-provider; the
// metadata documents (RFC 8414 from the provider's own discovery, RFC 9728
// written here); the consent page's endpoints; the admin's switch for
// dynamic client registration.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { PageInfo, pageOf, pageQuery } from '../../platform/http/pagination.js';
import { errors, Ok } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { allApps, myApps, registerApp, removeApp, revokeMyApp, updateApp } from './apps.js';
import { spendOAuthBudget } from './budget.js';
import { APP_USER_CLAIM, buildProvider, OAUTH_ROUTES } from './provider.js';
import { normaliseScopeParam, SCOPES } from './scopes.js';
import { consent, deny, describeInteraction, oauthSettingsView, updateOAuthSettings } from './service.js';
import { oauthSettings } from './settings.js';

/** The provider reads at most 56 kB of a body; ours stops a little above. */
const FORM_BODY_LIMIT = 64 * 1024;

/** What an app asks for when it names no scope, as the third-party tracker does. */
const DEFAULT_SCOPE = 'read';

const Uid = Type.Object({ uid: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }) });
const Next = Type.Object({ redirectTo: Type.String() }, { additionalProperties: false });
const InteractionView = Type.Object(
  {
    uid: Type.String(),
    app: Type.Object({
      clientId: Type.String(),
      name: Type.String(),
      logoUri: Type.Union([Type.String(), Type.Null()]),
      uri: Type.Union([Type.String(), Type.Null()]),
    }),
    redirectUri: Type.String(),
    /** Authorized with actor=app: the app will act under its own name, with the person's access. */
    actsAsApp: Type.Boolean(),
    scopes: Type.Array(Type.Object({ name: Type.String(), description: Type.String() })),
  },
  { additionalProperties: false },
);
const Settings = Type.Object({ dynamicRegistration: Type.Boolean() }, { additionalProperties: false });
const SettingsPatch = Type.Object(
  { dynamicRegistration: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

const ClientIdParam = Type.Object({ clientId: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }) });
const Instant = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);
const AuthorizedApp = Type.Object(
  {
    clientId: Type.String(),
    name: Type.String(),
    iconUrl: Type.Union([Type.String(), Type.Null()]),
    scopes: Type.Array(Type.String()),
    authorizedAt: Instant,
    lastUsedAt: Instant,
  },
  { additionalProperties: false },
);
const AppFields = {
  clientId: Type.String(),
  name: Type.String(),
  iconUrl: Type.Union([Type.String(), Type.Null()]),
  redirectUris: Type.Array(Type.String()),
  kind: Type.Union([Type.Literal('confidential'), Type.Literal('public')]),
  registration: Type.Union([Type.Literal('admin'), Type.Literal('dynamic')]),
};
const RegisteredApp = Type.Object(
  { ...AppFields, registeredAt: Instant, users: Type.Integer() },
  { additionalProperties: false },
);
const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const RedirectUris = Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), {
  minItems: 1,
  maxItems: 10,
});
const IconUrl = Type.Union([Type.String({ minLength: 1, maxLength: 2000 }), Type.Null()]);
const AppCreate = Type.Object(
  {
    name: Name,
    redirectUris: RedirectUris,
    iconUrl: Type.Optional(IconUrl),
    kind: Type.Optional(Type.Union([Type.Literal('confidential'), Type.Literal('public')])),
  },
  { additionalProperties: false },
);
const AppPatch = Type.Object(
  { name: Type.Optional(Name), redirectUris: Type.Optional(RedirectUris), iconUrl: Type.Optional(IconUrl) },
  { additionalProperties: false },
);

/** The scope parameter of a query string or form body with commas as spaces (and the default when absent). */
function withScope(params: URLSearchParams, defaultScope: string | undefined): URLSearchParams {
  const scope = params.get('scope');
  if (scope !== null) params.set('scope', normaliseScopeParam(scope));
  else if (defaultScope) params.set('scope', defaultScope);
  return params;
}

export async function oauthRoutes(app: Http, ctx: AppContext): Promise<void> {
  // Built on first use, not here: oidc-provider fixes its issuer when built,
  // and the issuer is PUBLIC_URL, which the rest of the app reads per request
  // (a test harness that listens on a port the system picks learns its URL
  // only after the app is built). Nothing OAuth happens before a request.
  let built: Promise<{ provider: Provider; handle: ReturnType<Provider['callback']> }> | undefined;
  const lazy = () => {
    built ??= buildProvider(ctx).then(
      (provider) => ({ provider, handle: provider.callback() }),
      (err: unknown) => {
        built = undefined; // the next request tries again
        throw err;
      },
    );
    return built;
  };
  const provider = async () => (await lazy()).provider;
  ctx.oauth = { accessToken: async (token) => readAccessToken(await provider(), token) };

  /** Hands the request to the provider as it came, with the headers our hooks set so far. */
  const forward = async (
    req: FastifyRequest,
    reply: FastifyReply,
    rewrite?: { url?: string; body?: unknown },
  ) => {
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) reply.raw.setHeader(name, value as string | string[]);
    }
    reply.hijack();
    const raw = req.raw as typeof req.raw & { body?: unknown };
    if (rewrite?.url !== undefined) raw.url = rewrite.url;
    // Fastify has read the body; the provider takes it from here (its documented fallback).
    const body = rewrite?.body ?? req.body;
    if (body !== undefined) raw.body = body;
    await (await lazy()).handle(raw, reply.raw);
  };

  /** The authorization request with its scope normalised (GET query or POST form). */
  const authorize = (req: FastifyRequest, reply: FastifyReply) => {
    const url = new URL(req.raw.url ?? '/', 'http://x');
    const query = withScope(url.searchParams, req.method === 'GET' ? DEFAULT_SCOPE : undefined);
    const body =
      typeof req.body === 'string'
        ? withScope(new URLSearchParams(req.body), DEFAULT_SCOPE).toString()
        : req.body;
    return forward(req, reply, { url: `${url.pathname}?${query}`, body });
  };

  /** A form body with its scope normalised (the token endpoint's refresh may narrow scopes). */
  const formBody = (req: FastifyRequest) =>
    typeof req.body === 'string' ? withScope(new URLSearchParams(req.body), undefined).toString() : req.body;

  await app.register(async (oauth) => {
    // The provider parses its own forms; Fastify keeps the text (bounded) for the forwarding.
    oauth.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_req, body, done) => done(null, body),
    );
    const open = { config: { auth: 'public' as const }, schema: { hide: true }, bodyLimit: FORM_BODY_LIMIT };
    // Every request here spends the OAuth budget first (budget.ts), once its form body is read.
    oauth.addHook('preHandler', (req) =>
      spendOAuthBudget(ctx, req, req.routeOptions.url === OAUTH_ROUTES.registration),
    );

    oauth.get(OAUTH_ROUTES.authorization, open, authorize);
    oauth.post(OAUTH_ROUTES.authorization, open, authorize);
    // Where the browser resumes after the consent page (the interaction cookie binds it).
    oauth.get(`${OAUTH_ROUTES.authorization}/:uid`, open, (req, reply) => forward(req, reply));
    oauth.post(OAUTH_ROUTES.token, open, (req, reply) => forward(req, reply, { body: formBody(req) }));
    oauth.post(OAUTH_ROUTES.revocation, open, (req, reply) => forward(req, reply));
    oauth.post(OAUTH_ROUTES.introspection, open, (req, reply) => forward(req, reply));
    oauth.get(OAUTH_ROUTES.jwks, open, (req, reply) => forward(req, reply));
    oauth.post(OAUTH_ROUTES.registration, open, async (req, reply) => {
      if (!(await oauthSettings(ctx.db)).dynamicRegistration) {
        throw new AppError(
          403,
          'REGISTRATION_DISABLED',
          'Dynamic client registration is turned off in this workspace; ask an admin to register the app',
        );
      }
      return forward(req, reply);
    });
  });

  // RFC 8414: the provider's own discovery document, so the two cannot disagree.
  app.get(
    '/.well-known/oauth-authorization-server',
    { config: { auth: 'public' }, schema: { hide: true } },
    (req, reply) => forward(req, reply, { url: '/.well-known/openid-configuration' }),
  );

  // RFC 9728: this server's API (REST, GraphQL, MCP) as one protected resource.
  const resourceMetadata = (resource: string) => ({
    resource,
    authorization_servers: [ctx.config.publicUrl],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Trackway',
    resource_documentation: `${ctx.config.publicUrl}/api/docs`,
  });
  app.get(
    '/.well-known/oauth-protected-resource',
    { config: { auth: 'public' }, schema: { hide: true } },
    async () => resourceMetadata(ctx.config.publicUrl),
  );
  app.get(
    '/.well-known/oauth-protected-resource/mcp',
    { config: { auth: 'public' }, schema: { hide: true } },
    async () => resourceMetadata(`${ctx.config.publicUrl}/mcp`),
  );

  app.get(
    '/api/oauth/interactions/:uid',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['oauth'],
        summary: 'A pending app authorization: the app and the scopes it asks for (the consent page)',
        params: Uid,
        response: { 200: InteractionView, ...errors(401, 403, 404) },
      },
    },
    async (req) =>
      describeInteraction(ctx, await provider(), actorOf(req), req.params.uid, req.headers.cookie),
  );
  app.post(
    '/api/oauth/interactions/:uid/consent',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['oauth'],
        summary: 'Authorize the app for the scopes it asked for; answers where the browser goes next',
        params: Uid,
        response: { 200: Next, ...errors(401, 403, 404) },
      },
    },
    async (req) => consent(ctx, await provider(), actorOf(req), req.params.uid, req.headers.cookie),
  );
  app.post(
    '/api/oauth/interactions/:uid/deny',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['oauth'],
        summary: 'Refuse the app; answers where the browser goes next (the app learns access_denied)',
        params: Uid,
        response: { 200: Next, ...errors(401, 403, 404) },
      },
    },
    async (req) => deny(ctx, await provider(), actorOf(req), req.params.uid, req.headers.cookie),
  );

  app.get(
    '/api/oauth/apps',
    {
      schema: {
        tags: ['oauth'],
        summary: 'The apps you authorized: name, icon, scopes, when authorized and last used',
        querystring: Type.Object(pageQuery(50), { additionalProperties: false }),
        response: {
          200: Type.Object({ apps: Type.Array(AuthorizedApp), pageInfo: PageInfo }),
          ...errors(400, 401, 403),
        },
      },
    },
    async (req) => myApps(ctx, actorOf(req), pageOf(req.query, 50)),
  );
  app.delete(
    '/api/oauth/apps/:clientId',
    {
      schema: {
        tags: ['oauth'],
        summary: 'Revoke an app you authorized: its tokens are refused from the next request on',
        params: ClientIdParam,
        response: { 200: Ok, ...errors(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await revokeMyApp(ctx, actorOf(req), req.params.clientId);
      return { ok: true as const };
    },
  );

  app.get(
    '/api/admin/oauth/apps',
    {
      schema: {
        tags: ['admin'],
        summary: 'Every OAuth app: how it was registered and how many people authorized it (admins only)',
        querystring: Type.Object(pageQuery(50), { additionalProperties: false }),
        response: {
          200: Type.Object({ apps: Type.Array(RegisteredApp), pageInfo: PageInfo }),
          ...errors(400, 401, 403),
        },
      },
    },
    async (req) => allApps(ctx, actorOf(req), pageOf(req.query, 50)),
  );
  app.post(
    '/api/admin/oauth/apps',
    {
      schema: {
        tags: ['admin'],
        summary: 'Register an OAuth app; a confidential one gets its client secret in this answer only',
        body: AppCreate,
        response: {
          201: Type.Object(
            {
              ...AppFields,
              registeredAt: Instant,
              users: Type.Integer(),
              clientSecret: Type.Optional(Type.String()),
            },
            { additionalProperties: false },
          ),
          ...errors(400, 401, 403),
        },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return registerApp(ctx, await provider(), actorOf(req), req.body);
    },
  );
  app.patch(
    '/api/admin/oauth/apps/:clientId',
    {
      schema: {
        tags: ['admin'],
        summary: "Change an OAuth app's name, redirect URIs or icon",
        params: ClientIdParam,
        body: AppPatch,
        response: {
          200: Type.Object(AppFields, { additionalProperties: false }),
          ...errors(400, 401, 403, 404),
        },
      },
    },
    async (req) => updateApp(ctx, await provider(), actorOf(req), req.params.clientId, req.body),
  );
  app.delete(
    '/api/admin/oauth/apps/:clientId',
    {
      schema: {
        tags: ['admin'],
        summary: "Remove an OAuth app: everyone's grants and tokens end and its client id is refused",
        params: ClientIdParam,
        response: { 200: Ok, ...errors(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await removeApp(ctx, actorOf(req), req.params.clientId);
      return { ok: true as const };
    },
  );

  app.get(
    '/api/admin/oauth',
    {
      schema: {
        tags: ['admin'],
        summary: 'OAuth app settings: whether MCP clients may register themselves (admins only)',
        response: { 200: Settings, ...errors(401, 403) },
      },
    },
    async (req) => oauthSettingsView(ctx, actorOf(req)),
  );
  app.patch(
    '/api/admin/oauth',
    {
      schema: {
        tags: ['admin'],
        summary: 'Turn dynamic client registration (RFC 7591) on or off',
        body: SettingsPatch,
        response: { 200: Settings, ...errors(400, 401, 403) },
      },
    },
    async (req) => updateOAuthSettings(ctx, actorOf(req), req.body),
  );
}

/** A live access token through the provider's AccessToken model (expired and revoked ones are gone). */
async function readAccessToken(provider: Provider, token: string) {
  const found = await provider.AccessToken.find(token);
  if (!found || found.isExpired) return undefined;
  const appUser = found.extra?.[APP_USER_CLAIM];
  return {
    userId: found.accountId,
    clientId: found.clientId,
    scopes: new Set((found.scope ?? '').split(' ').filter(Boolean)),
    appUserId: typeof appUser === 'string' ? appUser : undefined,
  };
}
