// SQL for client-chosen ids (migration 0065).
import type { Db } from '../../platform/db/database.js';
import type { ClientIdsTable } from '../../platform/db/tables.js';

/**
 * Takes `id` for a create, or finds it taken: true when this transaction now
 * holds it. A concurrent transaction holding the same id makes this wait for
 * its end (the primary key's unique check), then see its row once it commits,
 * so of two creates with one id exactly one takes it; no error aborts ours.
 */
export async function takeClientId(
  db: Db,
  row: { id: string; kind: ClientIdsTable['kind']; actor_id: string },
): Promise<boolean> {
  const taken = await db
    .insertInto('client_ids')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return taken !== undefined;
}

export function findClientId(db: Db, id: string) {
  return db.selectFrom('client_ids').select(['kind', 'actor_id']).where('id', '=', id).executeTakeFirst();
}

/** Whether an issue or a comment already has this id (one the server chose, never taken here). */
export async function recordHasId(db: Db, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('issues')
    .select('id')
    .where('id', '=', id)
    .unionAll(db.selectFrom('comments').select('id').where('id', '=', id))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
