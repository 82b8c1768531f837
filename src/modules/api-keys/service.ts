// Personal API keys: the secret is returned once at creation; only its hash is kept.

import { generateApiKey } from '../../platform/auth/api-key-secrets.js';
import type { Actor, AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { ApiKeyRow } from '../../platform/db/tables.js';
import { notFound } from '../../platform/errors.js';

export async function createApiKey(ctx: AppContext, actor: Actor, input: { label: string }) {
  const { key, hash, hint } = generateApiKey();
  const apiKey = await ctx.db
    .insertInto('api_keys')
    .values({ user_id: actor.id, label: input.label.trim(), key_hash: hash, key_hint: hint })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { apiKey, key };
}

export function listApiKeys(ctx: AppContext, actor: Actor): Promise<ApiKeyRow[]> {
  return ctx.db
    .selectFrom('api_keys')
    .selectAll()
    .where('user_id', '=', actor.id)
    .orderBy('created_at', 'desc')
    .execute();
}

/** Revokes one of the caller's own keys; someone else's key is "not found". */
export async function revokeApiKey(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  const r = await ctx.db
    .deleteFrom('api_keys')
    .where('id', '=', id)
    .where('user_id', '=', actor.id)
    .executeTakeFirst();
  if (Number(r.numDeletedRows) === 0) throw notFound('API key');
}

/** Revokes every key of the user (a password reset; a change that asks for it); returns how many. */
export async function revokeAllApiKeys(db: Db, userId: string): Promise<number> {
  const r = await db.deleteFrom('api_keys').where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows);
}
