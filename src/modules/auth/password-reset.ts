// Password reset by email (docs/email.md, docs/security.md). A request always
// answers the same, whether or not the account exists; the token is random,
// kept only as its SHA-256, valid for RESET_TOKEN_TTL_MS, used once, and void
// once the password changes (confirm, and changePassword, void every unused
// token of the user).

import { createHash, randomBytes } from 'node:crypto';
import { changingCredentials } from '../../platform/auth/credential-cache.js';
import { hashPassword } from '../../platform/auth/passwords.js';
import type { AppContext } from '../../platform/context.js';
import { AppError, rateLimited } from '../../platform/errors.js';
import { seal } from '../../platform/sealed.js';
import { revokeAllApiKeys } from '../api-keys/queries.js';
import { recordAudit, userEntity } from '../audit/record.js';
import { SEALING_PURPOSE } from '../mail/messages.js';
import { enqueueMail } from '../mail/queries.js';
import { kickMailWorker } from '../mail/worker.js';
import { passwordRule } from '../sso/policy.js';
import * as users from '../users/queries.js';
import * as q from './queries.js';

export const RESET_TOKEN_TTL_MS = 60 * 60_000;
/** A token is 32 random bytes in base64url: 43 characters. */
export const RESET_TOKEN_LENGTH = 43;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export const passwordResetUnavailable = () =>
  // 404, not 503: nothing temporary is wrong, the server has no such service
  // (and a 5xx always means a bug here: docs/API.md).
  new AppError(
    404,
    'PASSWORD_RESET_UNAVAILABLE',
    'Password reset by email is not available: this server has no SMTP configured; ask an admin to set your password',
  );

/** Queues a reset email when the account exists and is active; silent otherwise. */
export async function requestPasswordReset(ctx: AppContext, rawEmail: string, address: string) {
  if (!ctx.config.mail) throw passwordResetUnavailable();
  const email = rawEmail.trim().toLowerCase();
  const slot = await ctx.loginLimiter.reservePasswordReset(email, address);
  if (!slot.ok) {
    throw rateLimited(`Too many password-reset requests; try again in ${slot.retryAfter} s`, slot.retryAfter);
  }
  // Nobody but a break-glass admin has a password to reset while single sign-on is required.
  if ((await passwordRule(ctx)).refuses(email)) return;
  const user = await users.findLiveUserByEmail(ctx.db, email);
  if (user?.status !== 'active') return;
  const token = randomBytes(32).toString('base64url');
  const link = `${ctx.config.publicUrl}/reset-password?token=${token}`;
  await ctx.db.transaction().execute(async (trx) => {
    await q.insertResetToken(trx, user.id, hashToken(token), RESET_TOKEN_TTL_MS);
    await enqueueMail(trx, {
      kind: 'password_reset',
      toUserId: user.id,
      toAddress: user.email,
      payload: { link: seal(ctx.deriveKey(SEALING_PURPOSE), link) },
    });
  });
  kickMailWorker(ctx);
}

const invalidToken = () =>
  new AppError(400, 'INVALID_RESET_TOKEN', 'This password-reset link is invalid, expired or already used');

/**
 * Sets the password of the token's user. Every cost is bounded before the
 * password is hashed: the attempt is counted on the address's sign-in bucket,
 * then the token is claimed (marked used) in one statement, so a wrong token
 * costs no hash and one token yields at most one hash however many requests
 * race for it. Then, in one transaction: every other unused token of the user
 * is voided, the session epoch bumped (every session ends) and every API key
 * revoked (a reset is account recovery: assume the old credentials are in
 * someone else's hands). Should the server stop between the claim and the
 * update, the link is spent and the person asks for a new one.
 */
export async function confirmPasswordReset(
  ctx: AppContext,
  input: { token: string; password: string },
  address: string,
) {
  const slot = await ctx.loginLimiter.reserveAddressAttempt(address);
  if (!slot.ok) {
    throw rateLimited(`Too many password-reset attempts; try again in ${slot.retryAfter} s`, slot.retryAfter);
  }
  if (input.token.length !== RESET_TOKEN_LENGTH) throw invalidToken();
  const userId = await q.claimResetToken(ctx.db, hashToken(input.token));
  if (!userId) throw invalidToken();
  const password_hash = await hashPassword(input.password);
  await changingCredentials(ctx.credentials, userId, () =>
    ctx.db.transaction().execute(async (trx) => {
      await q.invalidateResetTokens(trx, userId);
      const updated = await users.updateUser(trx, userId, { password_hash, bumpEpoch: true });
      if (!updated) throw invalidToken();
      const revoked = await revokeAllApiKeys(trx, userId);
      await recordAudit(trx, {
        type: 'user.passwordReset',
        actor: { kind: 'user', id: userId, label: updated.email, ip: address, userAgent: null },
        entity: userEntity(updated),
        metadata: { revokedApiKeys: revoked },
      });
    }),
  );
}
