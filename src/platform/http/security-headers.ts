// The security headers of every response, decided here and nowhere else, set
// through @fastify/helmet. Registered before the auth hook so that refusals
// (401, 404, 413, ...) carry them too. A route may still set a stricter header
// of its own: the file download route answers with its sandboxing CSP, which
// wins because helmet writes its headers first and the route's come later.
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { Http } from './types.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Read by @fastify/helmet per request; set it from a scope's onRoute hook. */
    helmet?: Omit<FastifyHelmetOptions, 'global'>;
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

export async function installSecurityHeaders(app: Http): Promise<void> {
  await app.register(helmet, {
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
export const INJECTED_STYLES_PAGE: Omit<FastifyHelmetOptions, 'global'> = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { ...CSP_DIRECTIVES, 'style-src': ["'self'", "'unsafe-inline'"] },
  },
};
