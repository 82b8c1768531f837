// SQL of signing in: API-key lookup and password-reset tokens. Every function
// takes the connection or transaction it runs in.
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';

/** Stores a reset token's hash, valid for `ttlMs` from the database's now. */
export async function insertResetToken(
  db: Db,
  userId: string,
  tokenHash: string,
  ttlMs: number,
): Promise<void> {
  await db
    .insertInto('password_reset_tokens')
    .values({
      user_id: userId,
      token_hash: tokenHash,
      expires_at: sql<Date>`now() + make_interval(secs => ${ttlMs / 1000})`,
    })
    .execute();
}

/**
 * Marks a token used, in one statement, when it is unused, unexpired and its
 * user live and active; returns that user's id, or undefined.
 */
export async function claimResetToken(db: Db, tokenHash: string): Promise<string | undefined> {
  const row = await db
    .updateTable('password_reset_tokens as t')
    .from('users as u')
    .set({ used_at: sql<Date>`now()` })
    .whereRef('u.id', '=', 't.user_id')
    .where('t.token_hash', '=', tokenHash)
    .where('t.used_at', 'is', null)
    .where('t.expires_at', '>', sql<Date>`now()`)
    .where('u.status', '=', 'active')
    .where('u.deleted_at', 'is', null)
    .returning('t.user_id')
    .executeTakeFirst();
  return row?.user_id;
}

/** Every unused reset token of the user stops working (after any password change). */
export async function invalidateResetTokens(db: Db, userId: string): Promise<void> {
  await db
    .updateTable('password_reset_tokens')
    .set({ used_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

/** The live user an API key (by its hash) belongs to, with the key's id and last use. */
export function apiKeyOwner(db: Db, keyHash: string) {
  return db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .selectAll('users')
    .select(['api_keys.id as key_id', 'api_keys.last_used_at as key_last_used_at'])
    .where('api_keys.key_hash', '=', keyHash)
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst();
}

// last_used_at is written at most once a minute per key, not on every request.
const LAST_USED_GRANULARITY = sql<Date>`now() - interval '1 minute'`;

/** Records a key's use, unless it was recorded within the last minute. */
export async function touchApiKey(db: Db, keyId: string, first = false): Promise<boolean> {
  // `first`: only a key never used before, so of racing first requests exactly one reports it.
  const r = await db
    .updateTable('api_keys')
    .set({ last_used_at: sql<Date>`now()` })
    .where('id', '=', keyId)
    .where((eb) =>
      first
        ? eb('last_used_at', 'is', null)
        : eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', LAST_USED_GRANULARITY)]),
    )
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
