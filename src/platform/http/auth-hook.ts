// Authenticates each request before its body is read. Routes are private by
// default; `config: { auth: 'public' }` opens one. Role checks live in each
// domain's policy.ts, not here.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../context.js';
import { unauthenticated } from '../errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: 'public' | 'user' | 'none';
  }
  interface FastifyRequest {
    actor: Actor | undefined;
  }
}

export type Authenticate = (header: string | undefined) => Promise<Actor>;

export function installAuth(app: FastifyInstance, authenticate: Authenticate): void {
  app.decorateRequest('actor', undefined);
  app.addHook('onRequest', async (request) => {
    const mode = request.routeOptions.config?.auth;
    // Unknown routes (404) and routes that authenticate themselves skip this.
    if (mode === 'public' || mode === 'none' || !request.routeOptions.url) return;
    request.actor = await authenticate(request.headers.authorization);
  });
}

export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthenticated();
  return request.actor;
}
