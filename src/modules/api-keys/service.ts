// Personal API keys: the secret is returned once at creation; only its hash is kept.

import { generateApiKey } from '../../platform/auth/api-key-secrets.js';
import { changingCredentials } from '../../platform/auth/credential-cache.js';
import type { Actor, AppContext } from '../../platform/context.js';
import type { ApiKeyRow } from '../../platform/db/tables.js';
import { notFound } from '../../platform/errors.js';
import { auditActorOf, recordAudit } from '../audit/record.js';
import * as q from './queries.js';

export async function createApiKey(ctx: AppContext, actor: Actor, input: { label: string }) {
  const { key, hash, hint } = generateApiKey();
  const apiKey = await ctx.db.transaction().execute(async (trx) => {
    const row = await q.insertApiKey(trx, { userId: actor.id, label: input.label.trim(), hash, hint });
    await recordAudit(trx, {
      type: 'apiKey.created',
      actor: auditActorOf(actor),
      entity: { type: 'apiKey', id: row.id, label: row.label },
      after: { label: row.label, hint: row.key_hint },
    });
    return row;
  });
  return { apiKey, key };
}

export function listApiKeys(ctx: AppContext, actor: Actor): Promise<ApiKeyRow[]> {
  return q.userApiKeys(ctx.db, actor.id);
}

/** Revokes one of the caller's own keys; someone else's key is "not found". */
export async function revokeApiKey(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  const deleted = await changingCredentials(ctx.credentials, actor.id, () =>
    ctx.db.transaction().execute(async (trx) => {
      const gone = await q.deleteUserApiKey(trx, actor.id, id);
      if (gone) {
        await recordAudit(trx, {
          type: 'apiKey.revoked',
          actor: auditActorOf(actor),
          entity: { type: 'apiKey', id: gone.id, label: gone.label },
          before: { label: gone.label, hint: gone.key_hint },
        });
      }
      return gone;
    }),
  );
  if (!deleted) throw notFound('API key');
}
