// SQL of the OAuth authorization server: oidc-provider's store (adapter.ts)
// and the dynamic-registration switch in the settings table.
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';

export interface StoredModel {
  payload: Record<string, unknown>;
  consumedAt: Date | null;
}

/** Expired rows this many at a time are removed when a row is written: the sweep's cost is bounded. */
const SWEEP_BATCH = 100;

export async function upsertModel(
  db: Db,
  row: {
    model: string;
    id: string;
    payload: Record<string, unknown>;
    grantId: string | null;
    uid: string | null;
    userCode: string | null;
    expiresInSeconds: number | undefined;
  },
): Promise<void> {
  const expiresAt =
    row.expiresInSeconds === undefined
      ? null
      : sql<Date>`now() + make_interval(secs => ${row.expiresInSeconds})`;
  const payload = sql`${JSON.stringify(row.payload)}::jsonb`;
  await db
    .insertInto('oauth_store')
    .values({
      model: row.model,
      id: row.id,
      payload,
      grant_id: row.grantId,
      uid: row.uid,
      user_code: row.userCode,
      expires_at: expiresAt,
      consumed_at: null,
    })
    .onConflict((oc) =>
      oc.columns(['model', 'id']).doUpdateSet({
        payload,
        grant_id: row.grantId,
        uid: row.uid,
        user_code: row.userCode,
        expires_at: expiresAt,
      }),
    )
    .execute();
}

/** Removes a bounded batch of expired rows of every model. */
export async function sweepExpired(db: Db): Promise<void> {
  await db
    .deleteFrom('oauth_store')
    .where(({ eb, selectFrom }) =>
      eb(
        sql`(model, id)`,
        'in',
        selectFrom('oauth_store')
          .select(['model', 'id'])
          .where('expires_at', '<', sql<Date>`now()`)
          .limit(SWEEP_BATCH),
      ),
    )
    .execute();
}

const live = sql<boolean>`(expires_at is null or expires_at > now())`;

async function findWhere(
  db: Db,
  model: string,
  column: 'id' | 'uid' | 'user_code',
  value: string,
): Promise<StoredModel | undefined> {
  const row = await db
    .selectFrom('oauth_store')
    .select(['payload', 'consumed_at'])
    .where('model', '=', model)
    .where(column, '=', value)
    .where(live)
    .executeTakeFirst();
  return row && { payload: row.payload as Record<string, unknown>, consumedAt: row.consumed_at };
}

export const findModel = (db: Db, model: string, id: string) => findWhere(db, model, 'id', id);
export const findModelByUid = (db: Db, model: string, uid: string) => findWhere(db, model, 'uid', uid);
export const findModelByUserCode = (db: Db, model: string, code: string) =>
  findWhere(db, model, 'user_code', code);

export async function consumeModel(db: Db, model: string, id: string): Promise<void> {
  await db
    .updateTable('oauth_store')
    .set({ consumed_at: sql<Date>`now()` })
    .where('model', '=', model)
    .where('id', '=', id)
    .execute();
}

export async function destroyModel(db: Db, model: string, id: string): Promise<void> {
  await db.deleteFrom('oauth_store').where('model', '=', model).where('id', '=', id).execute();
}

/** Everything issued under a grant (its codes and tokens): revoking the grant ends them all. */
export async function destroyByGrant(db: Db, grantId: string): Promise<void> {
  await db.deleteFrom('oauth_store').where('grant_id', '=', grantId).execute();
}
