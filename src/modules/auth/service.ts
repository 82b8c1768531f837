import { hashApiKey, looksLikeApiKey } from '../../platform/auth/api-key-secrets.js';
import { changingCredentials } from '../../platform/auth/credential-cache.js';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../platform/auth/passwords.js';
import { looksLikeJwt } from '../../platform/auth/tokens.js';
import type { Actor, AppContext, KnownCredential, RequestOrigin } from '../../platform/context.js';
import type { UserRow } from '../../platform/db/tables.js';
import { AppError, rateLimited, unauthenticated } from '../../platform/errors.js';
import { revokeAllApiKeys } from '../api-keys/queries.js';
import { auditActorOf, recordAudit, userEntity } from '../audit/record.js';
import { findSession, touchSession } from '../sessions/queries.js';
import { type SignInOrigin, startSession } from '../sessions/service.js';
import { passwordRule, ssoRequiredError } from '../sso/policy.js';
import * as users from '../users/queries.js';
import { createAccount } from '../users/service.js';
import { assertMayRegister } from '../workspace/policy.js';
import { getWorkspace } from '../workspace/service.js';
import * as q from './queries.js';

/**
 * Self-registration: refused when the workspace does not allow it (before any
 * cost), then counted against the client address before the password is hashed.
 */
export async function register(
  ctx: AppContext,
  input: { name: string; email: string; password: string },
  origin: SignInOrigin,
) {
  if ((await passwordRule(ctx)).required) throw ssoRequiredError();
  assertMayRegister(await getWorkspace(ctx.db), input.email);
  const slot = await ctx.loginLimiter.reserveRegistration(origin.ip);
  if (!slot.ok) {
    throw rateLimited(
      `Too many registrations from this address; try again in ${slot.retryAfter} s`,
      slot.retryAfter,
    );
  }
  // Self-registration always yields a member, whatever the request asks for.
  const user = await createAccount(ctx.db, { ...input, role: 'member' });
  return { user, token: await startSession(ctx, user, origin, 'registration') };
}

const invalidCredentials = () => new AppError(401, 'INVALID_CREDENTIALS', 'Invalid email or password');

export async function login(
  ctx: AppContext,
  input: { email: string; password: string },
  origin: SignInOrigin,
) {
  const email = input.email.trim().toLowerCase();
  // Counted as a failure before the (slow) password check, so parallel
  // guesses cannot all pass the limit; a success clears it.
  const slot = await ctx.loginLimiter.reserveLogin(email, origin.ip);
  if (!slot.ok)
    throw rateLimited(`Too many sign-in attempts; try again in ${slot.retryAfter} s`, slot.retryAfter);
  const user = await users.findLiveUserByEmail(ctx.db, email);
  // Each refusal is one audit entry; the limit above bounds how many an attacker can write.
  const refused = (reason: string) =>
    recordAudit(ctx.db, {
      type: 'auth.signInFailed',
      actor: {
        kind: user ? 'user' : 'anonymous',
        id: user?.id ?? null,
        label: email.slice(0, 320),
        ...origin,
      },
      metadata: { reason, method: 'password' },
    });
  // Single sign-on required: only break-glass emails go on to the password check.
  const passwords = await passwordRule(ctx);
  if (passwords.refuses(email)) {
    await refused('ssoRequired');
    throw ssoRequiredError();
  }
  if (!user) {
    await burnPasswordCheck(input.password);
    await refused('unknownEmail');
    throw invalidCredentials();
  }
  if (!(await verifyPassword(user.password_hash, input.password))) {
    await refused('wrongPassword');
    throw invalidCredentials();
  }
  // Only someone who knows the password learns that the account is suspended.
  if (user.status === 'suspended') {
    await refused('suspended');
    throw new AppError(403, 'ACCOUNT_SUSPENDED', 'This account is suspended');
  }
  // A break-glass email that is not (or no longer) an admin's gets no exception.
  if (user.role !== 'admin' && passwords.required) {
    await refused('ssoRequired');
    throw ssoRequiredError();
  }
  await slot.succeeded();
  return { user, token: await startSession(ctx, user, origin, 'password') };
}

/**
 * Changes the password and retires every earlier login token; returns a fresh
 * one. Only a signed-in person gets here (the route refuses API keys), and the
 * current password is counted on the sign-in limits before it is checked, so a
 * stolen token gives no more guesses than the sign-in form. API keys are kept
 * (integrations survive a routine change) unless `revokeApiKeys` asks to end
 * them too; a password reset always ends them.
 */
export async function changePassword(
  ctx: AppContext,
  actor: Actor,
  input: { currentPassword: string; newPassword: string; revokeApiKeys?: boolean },
  origin: SignInOrigin,
): Promise<{ token: string; revokedApiKeys: number }> {
  const user = await users.findLiveUserById(ctx.db, actor.id);
  if (!user) throw unauthenticated();
  const slot = await ctx.loginLimiter.reserveLogin(user.email.trim().toLowerCase(), origin.ip);
  if (!slot.ok)
    throw rateLimited(`Too many password attempts; try again in ${slot.retryAfter} s`, slot.retryAfter);
  if (!(await verifyPassword(user.password_hash, input.currentPassword))) {
    throw new AppError(401, 'INVALID_CREDENTIALS', 'Current password is incorrect');
  }
  await slot.succeeded();
  const password_hash = await hashPassword(input.newPassword);
  const result = await changingCredentials(ctx.credentials, actor.id, () =>
    ctx.db.transaction().execute(async (trx) => {
      // A reset link mailed before the change must not undo it.
      await q.invalidateResetTokens(trx, actor.id);
      const updated = await users.updateUser(trx, actor.id, { password_hash, bumpEpoch: true });
      const revoked = updated && input.revokeApiKeys ? await revokeAllApiKeys(trx, actor.id) : 0;
      if (updated) {
        await recordAudit(trx, {
          type: 'user.passwordChanged',
          actor: { ...auditActorOf(actor), ...origin },
          entity: userEntity(updated),
          metadata: { revokedApiKeys: revoked },
        });
      }
      return { updated, revoked };
    }),
  );
  if (!result.updated) throw unauthenticated();
  // The change ended every session (a new epoch); the person carries on in a new one.
  const token = await startSession(ctx, result.updated, origin, 'passwordChange');
  return { token, revokedApiKeys: result.revoked };
}

/** The caller changes their own name; email and role stay with admins. */
export async function updateOwnProfile(
  ctx: AppContext,
  actor: Actor,
  input: { name: string },
): Promise<UserRow> {
  const name = input.name.trim();
  const updated = await changingCredentials(ctx.credentials, actor.id, () =>
    users.updateUser(ctx.db, actor.id, { name, display_name: name.split(/\s+/)[0] ?? name }),
  );
  if (!updated) throw unauthenticated();
  return updated;
}

const toActor = (u: UserRow, via: Actor['via']): Actor => ({
  id: u.id,
  role: u.role,
  name: u.name,
  email: u.email,
  via,
});

async function actorFromApiKey(ctx: AppContext, secret: string, origin?: RequestOrigin): Promise<Actor> {
  const hash = hashApiKey(secret);
  const known = await remembered(ctx, `key:${hash}`, async () => {
    const row = await q.apiKeyOwner(ctx.db, hash);
    if (!row) return undefined;
    const { key_id, key_last_used_at, ...user } = row;
    return { user, key: { id: key_id, lastUsedAt: key_last_used_at } };
  });
  if (!known?.key) throw unauthenticated('Invalid API key');
  if (known.user.status !== 'active') throw unauthenticated('This account is suspended');
  const key = known.key;
  if (!key.lastUsedAt) {
    // The first use of a key is worth an entry: a key nobody expected to be used, used.
    key.lastUsedAt = new Date();
    if (await q.touchApiKey(ctx.db, key.id, true)) {
      await recordAudit(ctx.db, {
        type: 'auth.apiKeyFirstUse',
        actor: {
          kind: 'apiKey',
          id: known.user.id,
          label: known.user.email,
          ip: origin?.ip ?? null,
          userAgent: origin?.userAgent ?? null,
        },
        entity: { type: 'apiKey', id: key.id },
      });
    }
  } else if (key.lastUsedAt < new Date(Date.now() - 60_000)) {
    // Written at most once a minute (queries.ts); the remembered time follows.
    key.lastUsedAt = new Date();
    await q.touchApiKey(ctx.db, key.id);
  }
  return toActor(known.user, 'apiKey');
}

async function actorFromToken(ctx: AppContext, token: string): Promise<Actor> {
  const claims = await ctx.tokens.verify(token);
  if (!claims) throw unauthenticated('Invalid or expired token');
  const sid = claims.sessionId;
  // Remembered by session: ending one forgets its user's entries (migration 0042's trigger).
  const known = await remembered(ctx, sid ? `session:${sid}` : `user:${claims.userId}`, async () => {
    const user = await users.findLiveUserById(ctx.db, claims.userId);
    if (!user || !sid) return user && { user };
    const session = await findSession(ctx.db, sid);
    if (session?.user_id !== user.id || session.ended_at) return undefined;
    return { user, session: { id: session.id, lastUsedAt: session.last_used_at } };
  });
  // A deleted or suspended user, an ended session, or a token from before a password change, is refused.
  if (
    known?.user.status !== 'active' ||
    known.user.session_epoch !== claims.epoch ||
    (sid !== undefined && known.session?.id !== sid)
  ) {
    throw unauthenticated('Invalid or expired token');
  }
  const session = known.session;
  if (session && session.lastUsedAt < new Date(Date.now() - 60_000)) {
    // Written at most once a minute (sessions/queries.ts); the remembered time follows.
    session.lastUsedAt = new Date();
    await touchSession(ctx.db, session.id);
  }
  return { ...toActor(known.user, 'session'), sessionId: sid };
}

/** oidc-provider's opaque access tokens: 43 characters of base64url. */
const looksLikeOAuthToken = (credential: string) => /^[A-Za-z0-9_-]{43}$/.test(credential);

/**
 * An OAuth app's access token (modules/oauth): the token is read each time,
 * so a revoked one is refused at once; its user comes from the credential cache.
 */
async function actorFromAccessToken(ctx: AppContext, token: string): Promise<Actor> {
  const access = await ctx.oauth?.accessToken(token);
  if (!access) throw unauthenticated('Invalid or expired token');
  const known = await remembered(ctx, `user:${access.userId}`, async () => {
    const user = await users.findLiveUserById(ctx.db, access.userId);
    return user && { user };
  });
  if (known?.user.status !== 'active') throw unauthenticated('Invalid or expired token');
  const actor: Actor = {
    ...toActor(known.user, 'oauth'),
    oauth: { scopes: access.scopes, clientId: access.clientId },
  };
  if (access.appUserId) {
    const appUserId = access.appUserId;
    const app = await remembered(ctx, `user:${appUserId}`, async () => {
      const user = await users.findLiveUserById(ctx.db, appUserId);
      return user && { user };
    });
    // An app user that is gone (its app removed) leaves no one to write as.
    if (app?.user.status !== 'app') throw unauthenticated('Invalid or expired token');
    actor.app = { userId: app.user.id, name: app.user.name, email: app.user.email };
  }
  return actor;
}

/**
 * A credential's owner from the credential cache, or read and remembered.
 * Unknown credentials are not remembered: each guess costs its read.
 */
async function remembered(
  ctx: AppContext,
  key: string,
  read: () => Promise<KnownCredential | undefined>,
): Promise<KnownCredential | undefined> {
  const cached = ctx.credentials.get(key);
  if (cached) return cached;
  const readAt = ctx.credentials.generation();
  const known = await read();
  if (known) ctx.credentials.set(key, known.user.id, known, readAt);
  return known;
}

/**
 * Resolves an Authorization header. REST takes `Bearer <token or key>`;
 * GraphQL also accepts a bare API key or token (`allowBare`).
 */
export async function authenticate(
  ctx: AppContext,
  header: string | undefined,
  opts: { allowBare?: boolean; origin?: RequestOrigin | undefined } = {},
): Promise<Actor> {
  if (!header) throw unauthenticated();
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const credential = m ? m[1]! : opts.allowBare ? header.trim() : undefined;
  if (!credential) throw unauthenticated('Send credentials as "Authorization: Bearer <token>"');
  // The origin is for the entries written while authenticating (an API key's first use).
  if (looksLikeApiKey(credential)) return actorFromApiKey(ctx, credential, opts.origin);
  if (looksLikeJwt(credential)) return actorFromToken(ctx, credential);
  if (looksLikeOAuthToken(credential)) return actorFromAccessToken(ctx, credential);
  throw unauthenticated('Invalid credentials');
}
