// SQL for API keys. Every function takes the connection or transaction it runs in.
import type { Db } from '../../platform/db/database.js';
import type { ApiKeyRow } from '../../platform/db/tables.js';

export function insertApiKey(
  db: Db,
  key: { userId: string; label: string; hash: string; hint: string },
): Promise<ApiKeyRow> {
  return db
    .insertInto('api_keys')
    .values({ user_id: key.userId, label: key.label, key_hash: key.hash, key_hint: key.hint })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A user's keys, newest first. */
export function userApiKeys(db: Db, userId: string): Promise<ApiKeyRow[]> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .execute();
}

/** Deletes one key of the user; the key as it was, or undefined when they have no such key. */
export function deleteUserApiKey(db: Db, userId: string, id: string): Promise<ApiKeyRow | undefined> {
  return db
    .deleteFrom('api_keys')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
}

/** Revokes every key of the user (a password reset; a change that asks for it); returns how many. */
export async function revokeAllApiKeys(db: Db, userId: string): Promise<number> {
  const r = await db.deleteFrom('api_keys').where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows);
}
