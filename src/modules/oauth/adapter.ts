// oidc-provider's storage adapter over the oauth_store table (queries.ts): one
// instance per model name, as the provider asks. Both databases, and every
// process of an installation, see the same store.
import type { Db } from '../../platform/db/database.js';
import * as q from './queries.js';

/** Rows written between sweeps of expired ones: each write has a small chance to sweep a bounded batch. */
const SWEEP_EVERY = 50;

const asString = (v: unknown) => (typeof v === 'string' ? v : null);

/** The adapter class the provider's `adapter` option takes, bound to a database. */
export function adapterFor(db: Db) {
  let writes = 0;
  return class OAuthStore {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number): Promise<void> {
      await q.upsertModel(db, {
        model: this.model,
        id,
        payload,
        grantId: asString(payload['grantId']),
        uid: asString(payload['uid']),
        userCode: asString(payload['userCode']),
        expiresInSeconds: expiresIn,
      });
      if (++writes % SWEEP_EVERY === 0) await q.sweepExpired(db);
    }

    find(id: string) {
      return q.findModel(db, this.model, id).then(withConsumed);
    }

    findByUid(uid: string) {
      return q.findModelByUid(db, this.model, uid).then(withConsumed);
    }

    findByUserCode(userCode: string) {
      return q.findModelByUserCode(db, this.model, userCode).then(withConsumed);
    }

    consume(id: string) {
      return q.consumeModel(db, this.model, id);
    }

    destroy(id: string) {
      return q.destroyModel(db, this.model, id);
    }

    revokeByGrantId(grantId: string) {
      return q.destroyByGrant(db, grantId);
    }
  };
}

/** The payload with `consumed` (seconds) as the provider reads it: a used code or rotated refresh token. */
function withConsumed(row: q.StoredModel | undefined): Record<string, unknown> | undefined {
  if (!row) return undefined;
  return row.consumedAt
    ? { ...row.payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) }
    : row.payload;
}
