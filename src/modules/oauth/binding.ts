// Which browser started an authorization. The provider binds its own resume
// step to that browser by a cookie, but the consent page's endpoints are our
// REST routes, reached with the signed-in person's token: whoever learned an
// interaction's uid could read it, or approve it for their own account while
// the browser that started it (perhaps someone else's) collects the code. So
// the starting browser also gets a cookie of ours, scoped to those routes,
// holding a MAC of the uid under a key derived from the workspace secret; a
// request without it is answered as if the interaction did not exist. In
// that browser, the interaction is also one account's: the first signed-in
// person to use it claims it (service.ts, `pending`).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { fastifyCookie } from '@fastify/cookie';
import type { AppContext } from '../../platform/context.js';

const COOKIE = 'trackway_oauth_interaction';
const KEY_PURPOSE = 'oauth-interaction-binding';

/** The consent endpoints of one interaction (rest.ts): the only path the cookie is sent to. */
export const interactionApiPath = (uid: string) => `/api/oauth/interactions/${uid}`;

const macOf = (ctx: AppContext, uid: string) =>
  createHmac('sha256', ctx.deriveKey(KEY_PURPOSE)).update(uid).digest('base64url');

/** The subset of Koa's cookie jar the provider's context hands us. */
interface CookieJar {
  set(name: string, value: string, options: Record<string, unknown>): unknown;
}

/** Gives the browser that started interaction `uid` its proof (on the provider's `interaction.started`). */
export function bindToBrowser(ctx: AppContext, cookies: CookieJar, uid: string, ttlSeconds: number): void {
  cookies.set(COOKIE, macOf(ctx, uid), {
    path: interactionApiPath(uid),
    httpOnly: true,
    // Lax: sent by the consent page's own requests, never by another site's.
    sameSite: 'lax',
    signed: false,
    overwrite: true,
    maxAge: ttlSeconds * 1000,
  });
}

/** Whether the request's cookies prove it comes from the browser that started interaction `uid`. */
export function startedHere(ctx: AppContext, cookieHeader: string | undefined, uid: string): boolean {
  const given = cookieHeader ? fastifyCookie.parse(cookieHeader)[COOKIE] : undefined;
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(macOf(ctx, uid));
  return a.length === b.length && timingSafeEqual(a, b);
}
