// Password reset by email (docs/email.md, docs/security.md). A request always
// answers the same, whether or not the account exists; the token is random,
// kept only as its SHA-256, valid for RESET_TOKEN_TTL_MS, used once, and void
// once the password changes (confirm, and changePassword, void every unused
// token of the user).
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { hashPassword } from '../../platform/auth/passwords.js';
import type { AppContext } from '../../platform/context.js';
import { AppError, rateLimited } from '../../platform/errors.js';
import { SEALING_PURPOSE } from '../mail/messages.js';
import { enqueueMail } from '../mail/queue.js';
import { seal } from '../mail/sealed.js';
import { kickMailWorker } from '../mail/worker.js';
import * as users from '../users/queries.js';

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
  const user = await users.findLiveUserByEmail(ctx.db, email);
  if (user?.status !== 'active') return;
  const token = randomBytes(32).toString('base64url');
  const link = `${ctx.config.publicUrl}/reset-password?token=${token}`;
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('password_reset_tokens')
      .values({
        user_id: user.id,
        token_hash: hashToken(token),
        expires_at: sql<Date>`now() + make_interval(secs => ${RESET_TOKEN_TTL_MS / 1000})`,
      })
      .execute();
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
 * Sets the password of the token's user, marks the token (and every other
 * unused token of the user) used, and bumps the session epoch so that every
 * existing session ends. One transaction; the token row is locked first, so
 * two confirmations of one token cannot both succeed.
 */
export async function confirmPasswordReset(ctx: AppContext, input: { token: string; password: string }) {
  if (input.token.length !== RESET_TOKEN_LENGTH) throw invalidToken();
  const password_hash = await hashPassword(input.password);
  await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('password_reset_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .select(['t.id', 't.user_id', 'u.status', 'u.deleted_at'])
      .where('t.token_hash', '=', hashToken(input.token))
      .where('t.used_at', 'is', null)
      .where('t.expires_at', '>', sql<Date>`now()`)
      .forUpdate('t')
      .executeTakeFirst();
    if (row?.status !== 'active' || row.deleted_at) throw invalidToken();
    await invalidateResetTokens(trx, row.user_id);
    const updated = await users.updateUser(trx, row.user_id, { password_hash, bumpEpoch: true });
    if (!updated) throw invalidToken();
  });
}

/** Every unused reset token of the user stops working (after any password change). */
export async function invalidateResetTokens(db: AppContext['db'], userId: string): Promise<void> {
  await db
    .updateTable('password_reset_tokens')
    .set({ used_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}
