// Authenticates each request before its body is read. Routes are private by
// default; `config: { auth: 'public' }` opens one. Routes that guests may not
// use say `auth: 'member'` (with the constant their policy.ts checks), routes
// only admins may call say `auth: 'admin'`, routes only a signed-in person
// (not an API key) may use say `auth: 'session'`, and every route under /api/admin/
// is admin-only whatever it says. The role is checked here, before the body
// is parsed or validated, so a caller without it learns nothing about the
// body's shape; it also comes before feature flags, which the services check.
// Finer rules (who owns a comment, the last admin) stay in each domain's
// policy.ts, which also repeats the role check for GraphQL.
//
// An OAuth app's access token is narrowed here too, by its scopes (app.ts
// passes modules/oauth/scopes.ts's decision, which reads the route's declared
// role and its method), after the role check, before the body. A door that
// runs many operations through one route (MCP) says `scopes: 'per-operation'`
// and asks the same decision for each.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor, RequestOrigin } from '../context.js';
import { forbidden, unauthenticated } from '../errors.js';
import { hasRole, type RequiredRole } from '../roles.js';

/** `session`: a signed-in person, any role, not an API key (changing the password). */
export type RouteAuth = 'public' | 'user' | 'session' | 'none' | RequiredRole;

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
    /** 'per-operation': the route checks an OAuth token's scopes for each operation it runs. */
    scopes?: 'per-operation';
  }
  interface FastifyRequest {
    actor: Actor | undefined;
  }
  interface FastifyInstance {
    /** Every route with the authentication it requires, in registration order (tests read it). */
    routeAuth: ReadonlyArray<{ method: string; url: string; auth: RouteAuth }>;
  }
}

export type Authenticate = (header: string | undefined, origin: RequestOrigin) => Promise<Actor>;

/** Throws when an OAuth token's scopes do not allow this route and method. */
export type CheckScopes = (actor: Actor, method: string, url: string, auth: RouteAuth | undefined) => void;

const ADMIN_PREFIX = '/api/admin/';

const REFUSAL: Record<RequiredRole, string> = {
  member: 'Guests can read and comment, but not do this',
  admin: 'Only workspace admins can do this',
};

export function installAuth(
  app: FastifyInstance,
  authenticate: Authenticate,
  checkScopes: CheckScopes,
): void {
  const table: { method: string; url: string; auth: RouteAuth }[] = [];
  app.decorate('routeAuth', table);
  app.decorateRequest('actor', undefined);
  app.addHook('onRoute', (route) => {
    let auth = route.config?.auth ?? 'user';
    if (route.url.startsWith(ADMIN_PREFIX)) {
      // A route here that asks for less is a mistake, caught at start.
      if (auth !== 'user' && auth !== 'admin') throw new Error(`${route.url} must not be auth: '${auth}'`);
      auth = 'admin';
      route.config = { ...(route.config ?? {}), auth };
    }
    for (const method of [route.method].flat()) table.push({ method, url: route.url, auth });
  });
  app.addHook('onRequest', async (request) => {
    const mode = request.routeOptions.config?.auth;
    // Unknown routes (404) and routes that authenticate themselves skip this.
    if (mode === 'public' || mode === 'none' || !request.routeOptions.url) return;
    const origin = originOf(request);
    request.actor = { ...(await authenticate(request.headers.authorization, origin)), origin };
    if ((mode === 'member' || mode === 'admin') && !hasRole(request.actor, mode)) {
      throw forbidden(REFUSAL[mode]);
    }
    if (mode === 'session' && request.actor.via !== 'session') {
      throw forbidden('An API key or an app cannot do this; sign in with your password');
    }
    if (request.actor.oauth && request.routeOptions.config?.scopes !== 'per-operation') {
      checkScopes(request.actor, request.method, request.routeOptions.url, mode);
    }
  });
}

export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthenticated();
  return request.actor;
}

/** Where a request came from, as sessions and the audit log record it (the address honours TRUST_PROXY). */
export function originOf(request: FastifyRequest): RequestOrigin {
  const agent = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof agent === 'string' ? agent : null };
}
