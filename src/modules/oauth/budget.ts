// The request budget of the OAuth endpoints (/oauth/*): every request is
// counted before the provider sees it, on the sign-in limiter's buckets
// (platform/auth/login-limiter.ts, table auth_throttle, shared by every
// process): per address, per app from that address, and registrations per
// address. Over budget: 429 JSON with Retry-After (docs/security.md).
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { rateLimited } from '../../platform/errors.js';

/** Longer client ids are cut here: the key of a counter stays small whatever is sent. */
const MAX_CLIENT_ID = 128;

/** The app a request names: client_id in its query or form body, or the user of HTTP Basic client authentication. */
export function clientIdOf(req: FastifyRequest): string | undefined {
  const query = req.query as Record<string, unknown> | undefined;
  const fromQuery = typeof query?.['client_id'] === 'string' ? query['client_id'] : undefined;
  const fromBody = typeof req.body === 'string' ? new URLSearchParams(req.body).get('client_id') : null;
  const id = fromQuery ?? fromBody ?? basicUser(req.headers.authorization);
  return id ? id.slice(0, MAX_CLIENT_ID) : undefined;
}

function basicUser(header: string | undefined): string | undefined {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? '');
  if (!m) return undefined;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  try {
    return decodeURIComponent(decoded.slice(0, colon));
  } catch {
    return undefined;
  }
}

/** Counts the request, or refuses it with the seconds to wait. */
export async function spendOAuthBudget(ctx: AppContext, req: FastifyRequest, registration: boolean) {
  const slot = await ctx.loginLimiter.reserveOAuthRequest(req.ip, clientIdOf(req), registration);
  if (!slot.ok) {
    throw rateLimited(
      'Too many requests to the OAuth endpoints from this address; wait and try again',
      slot.retryAfter,
    );
  }
}
