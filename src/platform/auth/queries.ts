// The sign-in throttle's statements (table auth_throttle). The rules and the
// locking order are login-limiter.ts's; this file only reads and writes rows.
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

export interface ThrottleKey {
  scope: string;
  key: string;
}

export interface ThrottleRow extends ThrottleKey {
  count: number;
  last_at: Date;
}

/** When the row was last counted, or undefined when there is none. */
export async function throttleLastAt(db: Db, k: ThrottleKey): Promise<Date | undefined> {
  const row = await db
    .selectFrom('auth_throttle')
    .select('last_at')
    .where('scope', '=', k.scope)
    .where('key', '=', k.key)
    .executeTakeFirst();
  return row?.last_at;
}

/** The row's count and time, locked until the transaction ends. */
export function lockThrottleRow(trx: Db, k: ThrottleKey) {
  return trx
    .selectFrom('auth_throttle')
    .select(['count', 'last_at'])
    .where('scope', '=', k.scope)
    .where('key', '=', k.key)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Creates the missing rows (empty: count 0, times set when counted) and
 * locks and returns every row, in the order given.
 */
export function lockThrottleRows(trx: Db, keys: readonly ThrottleKey[]): Promise<ThrottleRow[]> {
  return (
    trx
      .insertInto('auth_throttle')
      .values(keys.map((k) => ({ ...k, count: 0, last_at: new Date(0), expires_at: new Date(0) })))
      // A no-op update, so that an existing row is locked and returned too.
      .onConflict((oc) =>
        oc.columns(['scope', 'key']).doUpdateSet((eb) => ({ count: eb.ref('auth_throttle.count') })),
      )
      .returning(['scope', 'key', 'count', 'last_at'])
      .execute()
  );
}

export async function saveThrottleRow(
  trx: Db,
  k: ThrottleKey,
  state: { count: number; lastAt: Date; expiresAt: Date },
): Promise<void> {
  await trx
    .updateTable('auth_throttle')
    .set({ count: state.count, last_at: state.lastAt, expires_at: state.expiresAt })
    .where('scope', '=', k.scope)
    .where('key', '=', k.key)
    .execute();
}

/** Creates or replaces a row. */
export async function putThrottleRow(
  trx: Db,
  k: ThrottleKey,
  state: { count: number; lastAt: Date; expiresAt: Date },
): Promise<void> {
  const values = { count: state.count, last_at: state.lastAt, expires_at: state.expiresAt };
  await trx
    .insertInto('auth_throttle')
    .values({ ...k, ...values })
    .onConflict((oc) => oc.columns(['scope', 'key']).doUpdateSet(values))
    .execute();
}

export async function deleteThrottleRow(trx: Db, k: ThrottleKey): Promise<void> {
  await trx.deleteFrom('auth_throttle').where('scope', '=', k.scope).where('key', '=', k.key).execute();
}

/**
 * Deletes expired rows. Rows an attempt holds are skipped, not waited for:
 * pruning never takes part in a lock cycle with an attempt, whatever order it
 * meets rows in.
 */
export async function pruneThrottle(db: Db, now: Date): Promise<void> {
  await sql`delete from auth_throttle where (scope, key) in (
    select scope, key from auth_throttle where expires_at < ${now} for update skip locked)`.execute(db);
}
