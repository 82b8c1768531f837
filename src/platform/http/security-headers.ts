// The security headers of every response, decided here and nowhere else,
// written by helmet. Registered before the auth hook so that refusals (401,
// 404, 413, ...) carry them too. A route may still set a stricter header of
// its own: the file download route answers with its sandboxing CSP, which
// wins because these headers are written first and the route's come later.
//
// helmet is run once per policy, at start, against a recorder, and each
// request gets the recorded headers: @fastify/helmet built the whole helmet
// middleware again (CSP directives parsed and joined) on every request.
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type { Http } from './types.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's policy instead of the app's (pages whose third-party UI injects styles). */
    helmet?: HelmetOptions;
  }
}

/**
 * The policy of the app and of every other response. No page has inline
 * script (Vite emits module files; swagger-ui's initializer is a file), and
 * the app has no inline style either: React sets style props through the
 * CSSOM, which style-src does not govern.
 */
export const CSP_DIRECTIVES = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'"],
  // blob: for previews of uploaded images; data: for small inline icons;
  // http(s): for images that descriptions and comments show from elsewhere.
  'img-src': ["'self'", 'data:', 'blob:', 'https:', 'http:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  // GraphiQL's editor workers are files of our own.
  'worker-src': ["'self'"],
  'object-src': ["'none'"],
  'frame-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** The app's policy: every response but the pages that ask for their own. */
const APP_POLICY: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
  xFrameOptions: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  crossOriginOpenerPolicy: { policy: 'same-origin' },
  // The API is called from other origins by scripts (with CORS where it
  // applies); only embedding its answers as no-cors resources is refused.
  crossOriginResourcePolicy: { policy: 'same-origin' },
  // HTTPS is terminated in front of the server, which alone knows whether
  // every name under the domain serves HTTPS: HSTS belongs there.
  strictTransportSecurity: false,
};

type Headers = readonly (readonly [string, string])[];

/** The headers helmet writes for `policy`, recorded once. */
function headersOf(policy: HelmetOptions): Headers {
  const written = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string) => written.set(name, String(value)),
    removeHeader: (name: string) => written.delete(name),
  };
  helmet(policy)({} as IncomingMessage, recorder as unknown as ServerResponse, () => {});
  return [...written];
}

export async function installSecurityHeaders(app: Http): Promise<void> {
  const standard = headersOf(APP_POLICY);
  // Each route's own policy (merged over the app's), recorded when the route is added.
  const byPolicy = new WeakMap<HelmetOptions, Headers>();
  app.addHook('onRoute', (route) => {
    const own = route.config?.helmet;
    if (own && !byPolicy.has(own)) byPolicy.set(own, headersOf({ ...APP_POLICY, ...own } as HelmetOptions));
  });
  app.addHook('onRequest', (request, reply, done) => {
    const own = request.routeOptions.config?.helmet;
    for (const [name, value] of (own && byPolicy.get(own)) || standard) reply.raw.setHeader(name, value);
    done();
  });
}

/**
 * The policy of an uploaded file's bytes (GET /api/files/:id): nothing may
 * load, run or frame it, should a browser ever render one directly.
 */
export const FILE_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";

/**
 * Route options for the GraphiQL and API docs pages: the same policy, except
 * that their third-party UIs (Monaco, swagger-ui) add <style> elements and
 * style attributes at run time, which neither a hash nor a nonce can cover.
 * Styles cannot run script, and these pages show no other user's content as
 * markup, so only they get 'unsafe-inline', for styles alone.
 */
export const INJECTED_STYLES_PAGE: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { ...CSP_DIRECTIVES, 'style-src': ["'self'", "'unsafe-inline'"] },
  },
};
