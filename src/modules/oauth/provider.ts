// Trackway's OAuth 2.1 authorization server: oidc-provider (an OpenID-certified
// implementation) configured for plain OAuth as the third-party tracker's apps
// and MCP clients use it (docs/agents.md). The issuer is PUBLIC_URL; the
// provider's endpoints live under /oauth and rest.ts forwards raw requests to
// it. Its signing and cookie keys derive from the workspace secret, so every
// process of an installation agrees without a key to distribute; its store is
// the database (adapter.ts).
import { createECDH } from 'node:crypto';
import type Provider from 'oidc-provider';
import type { AppContext } from '../../platform/context.js';
import { adapterFor } from './adapter.js';
import { bindToBrowser } from './binding.js';
import { appActorOfGrant } from './queries.js';
import { SCOPES } from './scopes.js';

/** Access tokens live an hour: short, as OAuth 2.1 asks; apps refresh them. */
export const ACCESS_TOKEN_TTL_S = 60 * 60;
/** Refresh tokens rotate at each use; one unused for 30 days expires. */
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 60 * 60;
/** A pending authorization (the consent page) waits ten minutes. */
const INTERACTION_TTL_S = 10 * 60;

export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  revocation: '/oauth/revoke',
  registration: '/oauth/register',
  jwks: '/oauth/jwks',
  introspection: '/oauth/introspect',
  userinfo: '/oauth/userinfo',
  end_session: '/oauth/end-session',
  pushed_authorization_request: '/oauth/par',
  backchannel_authentication: '/oauth/backchannel',
  code_verification: '/oauth/device',
  device_authorization: '/oauth/device/auth',
} as const;

/**
 * The `actor` parameter of an authorization, as the third-party tracker's apps
 * send it: `app` (or the older `application`) makes the app act under its own
 * name; `user`, or none, as the person.
 */
const ACTORS = new Set(['user', 'app', 'application']);
export const actsAsApp = (actor: unknown) => actor === 'app' || actor === 'application';

/** Where an access token keeps the app user it acts as (the token's `extra`, set at issue). */
export const APP_USER_CLAIM = 'trackway_app_user';

export const consentPath = (uid: string) => `/oauth/consent/${uid}`;

/** An ES256 key derived from the workspace secret (the same in every process). */
function signingKey(ctx: AppContext) {
  const d = ctx.deriveKey('oauth-signing-key');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(d);
  const point = ecdh.getPublicKey(); // 0x04 || x || y
  return {
    kty: 'EC',
    crv: 'P-256',
    d: d.toString('base64url'),
    x: point.subarray(1, 33).toString('base64url'),
    y: point.subarray(33, 65).toString('base64url'),
    kid: 'trackway-1',
    alg: 'ES256',
    use: 'sig',
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page a browser sees when an authorization request cannot go back to its app (a bad client or redirect URI). */
function errorPage(out: Record<string, string>): string {
  const detail = out['error_description'] ?? out['error'] ?? 'The request could not be completed';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorization failed · Trackway</title></head>
<body><main><h1>This app's request could not be completed</h1><p>${escapeHtml(detail)}</p>
<p>Go back to the app and try again; if it keeps failing, its developer needs to fix it.</p></main></body></html>`;
}

/**
 * The provider, with oidc-provider loaded now: a server none of whose clients use OAuth never
 * holds it (about 14 MB of heap with its dependencies; docs/benchmarks.md, "Issue 25, fourth stop").
 */
export async function buildProvider(ctx: AppContext): Promise<Provider> {
  const { default: Provider, errors, interactionPolicy } = await import('oidc-provider');
  // Every authorization asks the signed-in person on the consent page, even
  // when the provider remembers an earlier one in this browser: another
  // person may have signed in to Trackway since.
  const policy = interactionPolicy.base();
  policy
    .get('login')
    ?.checks.add(
      new interactionPolicy.Check('ask_every_time', 'Trackway asks the signed-in person each time', (c) =>
        c.oidc.result?.login
          ? interactionPolicy.Check.NO_NEED_TO_PROMPT
          : interactionPolicy.Check.REQUEST_PROMPT,
      ),
    );

  const provider = new Provider(ctx.config.publicUrl, {
    adapter: adapterFor(ctx.db),
    clients: [],
    async findAccount(_ctx: unknown, id: string) {
      return { accountId: id, claims: () => ({ sub: id }) };
    },
    scopes: ['openid', ...SCOPES],
    extraParams: {
      actor(_c: unknown, value: string | undefined) {
        if (value !== undefined && !ACTORS.has(value)) {
          throw new errors.InvalidRequest("actor must be 'user' or 'app'");
        }
      },
    },
    // A grant given with actor=app: each access token issued under it (first and refreshed) carries the app user.
    async extraTokenClaims(_c: unknown, token: { kind?: string; grantId?: string }) {
      if (token.kind !== 'AccessToken' || !token.grantId) return undefined;
      const appUser = await appActorOfGrant(ctx.db, token.grantId);
      return appUser ? { [APP_USER_CLAIM]: appUser } : undefined;
    },
    claims: { openid: ['sub'] },
    responseTypes: ['code'],
    pkce: { methods: ['S256'], required: () => true },
    routes: { ...OAUTH_ROUTES },
    interactions: { url: (_c, interaction) => consentPath(interaction.uid), policy },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      introspection: { enabled: true },
      userinfo: { enabled: false },
    },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      id_token_signed_response_alg: 'ES256',
    },
    issueRefreshToken: (_c, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    // Tokens outlive the provider's short browser session: an app keeps working until revoked.
    expiresWithSession: () => false,
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_S,
      AuthorizationCode: 60,
      RefreshToken: REFRESH_TOKEN_TTL_S,
      Grant: 365 * 24 * 60 * 60,
      Interaction: INTERACTION_TTL_S,
      Session: 10 * 60,
      IdToken: 10 * 60,
    },
    renderError: (c, out) => {
      c.type = 'html';
      c.body = errorPage(out);
    },
    cookies: { keys: [ctx.deriveKey('oauth-cookies').toString('base64url')] },
    jwks: { keys: [signingKey(ctx)] },
  });
  // Behind a proxy the provider must see https as the client did (its cookies are Secure then).
  provider.proxy = ctx.config.trustProxy !== false;
  // The browser that starts an authorization is the one whose consent endpoints may finish it (binding.ts).
  provider.on('interaction.started', (c) => {
    const koa = c as {
      cookies: Parameters<typeof bindToBrowser>[1];
      oidc: { entities: { Interaction: { uid: string } } };
    };
    bindToBrowser(ctx, koa.cookies, koa.oidc.entities.Interaction.uid, INTERACTION_TTL_S);
  });
  provider.on('server_error', (_c: unknown, err: unknown) => ctx.log.error({ err }, 'OAuth server error'));
  return provider;
}
