// Authenticates each request before its body is read. Routes are private by
// default; `config: { auth: 'public' }` opens one. Routes that only admins may
// call say `auth: 'admin'`, and every route under /api/admin/ is one whatever
// it says: the role is checked here, before the body is parsed or validated,
// so a caller without it learns nothing about the body's shape. Finer rules
// (who owns a comment, the last admin) stay in each domain's policy.ts, which
// also repeats the admin check for GraphQL.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../context.js';
import { forbidden, unauthenticated } from '../errors.js';

export type RouteAuth = 'public' | 'user' | 'none' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    actor: Actor | undefined;
  }
  interface FastifyInstance {
    /** Every route with the authentication it requires, in registration order (tests read it). */
    routeAuth: ReadonlyArray<{ method: string; url: string; auth: RouteAuth }>;
  }
}

export type Authenticate = (header: string | undefined) => Promise<Actor>;

const ADMIN_PREFIX = '/api/admin/';

export function installAuth(app: FastifyInstance, authenticate: Authenticate): void {
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
    request.actor = await authenticate(request.headers.authorization);
    if (mode === 'admin' && request.actor.role !== 'admin') {
      throw forbidden('Only workspace admins can do this');
    }
  });
}

export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthenticated();
  return request.actor;
}
