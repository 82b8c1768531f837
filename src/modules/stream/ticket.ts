// Stream tickets: EventSource cannot send an Authorization header, and a
// login token or API key in a URL ends up in proxy and server logs. A ticket
// is obtained by POST with the normal credentials, is good for
// TICKET_LIFETIME_SECONDS and for GET /api/stream only (its key is derived
// for that purpose alone), and dies with the user's session epoch (a password
// change, suspension or deletion) and with the session it was asked for in
// (an API key's has none). A leaked one is worth a minute of reading.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Actor, AppContext } from '../../platform/context.js';
import { isUuid } from '../../platform/ids.js';

export const TICKET_LIFETIME_SECONDS = 60;

export interface TicketClaims {
  userId: string;
  epoch: number;
  /** The sign-in session it was asked for in; null for an API key. */
  sessionId: string | null;
}

const sign = (ctx: AppContext, body: string) =>
  createHmac('sha256', ctx.deriveKey('stream-ticket')).update(body).digest('base64url');

export function issueTicket(ctx: AppContext, claims: TicketClaims, now = Date.now()) {
  const expires = Math.floor(now / 1000) + TICKET_LIFETIME_SECONDS;
  const body = `${claims.userId}.${claims.epoch}.${claims.sessionId ?? '-'}.${expires}`;
  return { ticket: `${body}.${sign(ctx, body)}`, expiresAt: new Date(expires * 1000).toISOString() };
}

/** The claims of a genuine, unexpired ticket, or undefined. */
export function readTicket(ctx: AppContext, ticket: string, now = Date.now()): TicketClaims | undefined {
  const parts = ticket.split('.');
  if (parts.length !== 5) return undefined;
  const [userId, epoch, session, expires, signature] = parts as [string, string, string, string, string];
  const expected = Buffer.from(sign(ctx, `${userId}.${epoch}.${session}.${expires}`));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  if (!isUuid(userId) || !/^\d+$/.test(epoch) || !/^\d+$/.test(expires)) return undefined;
  if (session !== '-' && !isUuid(session)) return undefined;
  if (Number(expires) * 1000 <= now) return undefined;
  return { userId, epoch: Number(epoch), sessionId: session === '-' ? null : session };
}

export const actorOfUser = (u: { id: string; role: Actor['role']; name: string; email: string }): Actor => ({
  id: u.id,
  role: u.role,
  name: u.name,
  email: u.email,
  via: 'session',
});
