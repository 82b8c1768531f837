// What a stream re-checks of its caller while it is open. The full check is
// the one every request gets (authenticate, or the ticket's user); the shared
// feed (hub.ts) instead loads every connected user's row once per batch
// (grants.ts) and compares it with what the credential was issued for: the
// user, their session epoch (login token, ticket), the API key. Anything the
// comparison cannot vouch for goes back to the full check, which answers 401
// or the caller as they now are.
import { hashApiKey, looksLikeApiKey } from '../../platform/auth/api-key-secrets.js';
import type { Actor, AppContext, RequestOrigin } from '../../platform/context.js';
import { unauthenticated } from '../../platform/errors.js';
import { authenticate } from '../auth/service.js';
import { findSession } from '../sessions/queries.js';
import { findLiveUserById } from '../users/queries.js';
import { actorOfUser, readTicket } from './ticket.js';

export interface StreamCredential {
  actor: Actor;
  /** The session epoch it was issued in (login token, ticket); null for an API key. */
  epoch: number | null;
  /** The API key's hash; null for a login token or a ticket. */
  keyHash: string | null;
  /** The sign-in session (login token, ticket); null for an API key or a token from before sessions. */
  sessionId: string | null;
  /** What needs no database: a login token's signature and expiry (cached by the signer). */
  signed(): Promise<boolean>;
  /** The full check, as at open: the caller now, or a 401. */
  check(): Promise<Actor>;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Checks the caller once (a 401 before anything else) and returns what to re-check later. */
export async function openCredential(
  ctx: AppContext,
  header: string | undefined,
  ticket: unknown,
  origin?: RequestOrigin,
): Promise<StreamCredential> {
  if (header !== undefined || typeof ticket !== 'string') {
    const check = () => authenticate(ctx, header, { origin });
    const actor = await check();
    const secret = BEARER.exec(header ?? '')![1]!;
    if (looksLikeApiKey(secret)) {
      return {
        actor,
        epoch: null,
        keyHash: hashApiKey(secret),
        sessionId: null,
        signed: async () => true,
        check,
      };
    }
    const claims = await ctx.tokens.verify(secret);
    if (!claims) throw unauthenticated('Invalid or expired token');
    const signed = async () => (await ctx.tokens.verify(secret)) !== undefined;
    return { actor, epoch: claims.epoch, keyHash: null, sessionId: claims.sessionId ?? null, signed, check };
  }
  const claims = readTicket(ctx, ticket);
  const check = async () => {
    const user = claims && (await findLiveUserById(ctx.db, claims.userId));
    if (!claims || user?.status !== 'active' || user.session_epoch !== claims.epoch) {
      throw unauthenticated('Invalid or expired stream ticket');
    }
    if (claims.sessionId) {
      const session = await findSession(ctx.db, claims.sessionId);
      if (session?.user_id !== user.id || session.ended_at) throw unauthenticated('This session has ended');
    }
    return { ...actorOfUser(user), sessionId: claims.sessionId ?? undefined };
  };
  const actor = await check();
  // A ticket only has to be good at open: a stream opened in time stays open (while its session lives).
  return {
    actor,
    epoch: claims!.epoch,
    keyHash: null,
    sessionId: claims!.sessionId,
    signed: async () => true,
    check,
  };
}
