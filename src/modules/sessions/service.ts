// Sign-in sessions: every way in (password, registration, a password
// change's fresh token, single sign-on) starts one here, and its id rides in
// the login token (`sid`), so a person can see where they are signed in and
// end any session, or all but this one, and an admin can end a user's.
//
//   startSession(ctx, user, origin)                  -> login token
//   listSessions(ctx, actor, page)                   -> the caller's live sessions
//   endSession(ctx, actor, id)                       -> ends one of the caller's
//   endOtherSessions(ctx, actor)                     -> all the caller's but this one
//   logout(ctx, actor)                               -> ends this one
//   logoutEverywhere(ctx, actor)                     -> all, this one included
//   listUserSessions / endUserSessions(ctx, admin, userId[, sessionId])
//
// Ending a session commits `ended_at`; migration 0042's trigger tells every
// instance's credential cache, so the token is refused from the next request
// and the session's change streams close (stream/session.ts).
import { changingCredentials } from '../../platform/auth/credential-cache.js';
import { TOKEN_LIFETIME_SECONDS } from '../../platform/auth/tokens.js';
import type { Actor, AppContext, RequestOrigin } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { SessionRow, UserRow } from '../../platform/db/tables.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';
import { auditActorOf, recordAudit } from '../audit/record.js';
import { assertAdmin } from '../users/policy.js';
import { findLiveUserById, updateUser } from '../users/queries.js';
import * as q from './queries.js';

/** Where a sign-in came from, for the session list and the audit log. */
export type SignInOrigin = RequestOrigin;

/** The live sessions a user keeps; signing in past it ends the least recently used. */
export const MAX_LIVE_SESSIONS = 50;
const USER_AGENT_MAX = 512;

/**
 * Opens a session for `user` (in `db`, the caller's transaction when there is
 * one) and returns its login token. Recorded in the audit log as a sign-in.
 */
export async function startSession(
  ctx: AppContext,
  user: Pick<UserRow, 'id' | 'email' | 'session_epoch'>,
  origin: SignInOrigin,
  method: q.SignInMethod,
  db: Db = ctx.db,
): Promise<string> {
  const session = await q.insertSession(db, {
    userId: user.id,
    ip: origin.ip,
    userAgent: origin.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
    method,
  });
  await q.endSessionsBeyond(db, user.id, MAX_LIVE_SESSIONS);
  await recordAudit(db, {
    type: 'auth.signIn',
    actor: { kind: 'user', id: user.id, label: user.email, ip: origin.ip, userAgent: origin.userAgent },
    entity: { type: 'session', id: session.id },
    metadata: { method },
  });
  return ctx.tokens.sign({ userId: user.id, epoch: user.session_epoch, sessionId: session.id });
}

export interface SessionPage {
  rows: SessionRow[];
  total: number;
  /** The caller's own session among them, when they came in with a login token. */
  currentId: string | null;
}

export async function listSessions(
  ctx: AppContext,
  actor: Actor,
  page: { limit: number; offset: number },
): Promise<SessionPage> {
  const { rows, total } = await q.liveSessions(ctx.db, actor.id, page, TOKEN_LIFETIME_SECONDS);
  return { rows, total, currentId: actor.sessionId ?? null };
}

/** Ends one of the caller's own sessions (404 for anyone else's: their ids are not the caller's to learn). */
export async function endSession(ctx: AppContext, actor: Actor, id: string) {
  if (!isUuid(id)) throw notFound('Session');
  const ended = await end(ctx, actor, actor.id, { only: id }, 'owner');
  if (ended === 0) throw notFound('Session');
}

/** Ends every session of the caller but the one they are using; how many it ended. */
export function endOtherSessions(ctx: AppContext, actor: Actor): Promise<number> {
  return end(ctx, actor, actor.id, { except: actor.sessionId ?? null }, 'owner');
}

/** Sign-out: ends the session the caller is using. An API key has none (it is revoked instead). */
export async function logout(ctx: AppContext, actor: Actor): Promise<void> {
  if (!actor.sessionId) throw badRequest('Signing out ends a login session; an API key is revoked instead');
  await end(ctx, actor, actor.id, { only: actor.sessionId }, 'signOut');
}

/**
 * Ends every session of the caller, this one included, and retires any login
 * token or stream ticket that carries no session (issued before sessions
 * existed) by moving the session epoch on.
 */
export async function logoutEverywhere(ctx: AppContext, actor: Actor): Promise<number> {
  return end(ctx, actor, actor.id, { except: null }, 'owner', true);
}

/** An admin reads a user's live sessions. */
export async function listUserSessions(
  ctx: AppContext,
  actor: Actor,
  userId: string,
  page: { limit: number; offset: number },
): Promise<SessionPage> {
  assertAdmin(actor);
  await liveUser(ctx, userId);
  const { rows, total } = await q.liveSessions(ctx.db, userId, page, TOKEN_LIFETIME_SECONDS);
  return { rows, total, currentId: userId === actor.id ? (actor.sessionId ?? null) : null };
}

/** An admin ends one session of a user, or all of them (and every token without a session). */
export async function endUserSessions(
  ctx: AppContext,
  actor: Actor,
  userId: string,
  sessionId?: string,
): Promise<number> {
  assertAdmin(actor);
  await liveUser(ctx, userId);
  if (sessionId === undefined) return end(ctx, actor, userId, { except: null }, 'admin', true);
  if (!isUuid(sessionId)) throw notFound('Session');
  const ended = await end(ctx, actor, userId, { only: sessionId }, 'admin');
  if (ended === 0) throw notFound('Session');
  return ended;
}

async function liveUser(ctx: AppContext, userId: string): Promise<void> {
  if (!isUuid(userId) || !(await findLiveUserById(ctx.db, userId))) throw notFound('User');
}

/** Ends sessions and records it, in one transaction; the caller's credential cache forgets the user at commit. */
async function end(
  ctx: AppContext,
  actor: Actor,
  userId: string,
  which: { only: string } | { except: string | null },
  by: 'owner' | 'admin' | 'signOut',
  bumpEpoch = false,
): Promise<number> {
  return changingCredentials(ctx.credentials, userId, () =>
    ctx.db.transaction().execute(async (trx) => {
      const ended = await q.endSessions(trx, userId, actor.id, which);
      if (bumpEpoch) await updateUser(trx, userId, { bumpEpoch: true });
      const who = auditActorOf(actor);
      if (by === 'signOut') {
        await recordAudit(trx, {
          type: 'auth.signOut',
          actor: who,
          entity: { type: 'session', id: ended[0]?.id ?? '' },
        });
      } else if (ended.length > 0 || bumpEpoch) {
        await recordAudit(trx, {
          type: 'session.ended',
          actor: who,
          entity: { type: 'user', id: userId },
          metadata: { by, sessionIds: ended.map((s) => s.id), allSessions: bumpEpoch },
        });
      }
      return ended.length;
    }),
  );
}
