// SQL for labels.
import { sql } from 'kysely';
import { type TeamAccess, visibility, visibleIn } from '../../platform/access.js';
import type { Db } from '../../platform/db/database.js';
import type { LabelRow } from '../../platform/db/tables.js';
import { labelEntity } from '../../platform/list/entities.js';
import { fixedKey } from '../../platform/list/order.js';
import { type ListRequest, restList } from '../../platform/list/query.js';
import { isUuid } from '../teams/ids.js';

/** A live label the caller may see. */
export function findLabelById(db: Db, id: string, access: TeamAccess): Promise<LabelRow | undefined> {
  if (!isUuid(id)) return Promise.resolve(undefined);
  return db
    .selectFrom('labels')
    .selectAll()
    .where('id', '=', id)
    .where(visibleIn(visibility.label, 'labels', access))
    .where('archived_at', 'is', null)
    .executeTakeFirst();
}

export function findLabelsByIds(db: Db, ids: readonly string[]): Promise<LabelRow[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('labels')
    .selectAll()
    .where('id', 'in', valid)
    .where('archived_at', 'is', null)
    .execute();
}

/** A live label with this name (case-insensitive) in the same scope, other than `exceptId`. */
export function findLabelByName(
  db: Db,
  teamId: string | null,
  name: string,
  exceptId?: string,
): Promise<LabelRow | undefined> {
  let query = db
    .selectFrom('labels')
    .selectAll()
    .where(sql`lower(name)`, '=', name.toLowerCase())
    .where('archived_at', 'is', null)
    .where('team_id', teamId === null ? 'is' : '=', teamId);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return query.executeTakeFirst();
}

export function insertLabel(
  db: Db,
  label: {
    name: string;
    color: string;
    description: string | null;
    team_id: string | null;
    parent_id: string | null;
    is_group: boolean;
    creator_id: string | null;
  },
): Promise<LabelRow> {
  return db.insertInto('labels').values(label).returningAll().executeTakeFirstOrThrow();
}

export function updateLabel(
  db: Db,
  id: string,
  patch: Partial<{
    name: string;
    color: string;
    description: string | null;
    team_id: string | null;
    parent_id: string | null;
    is_group: boolean;
  }>,
): Promise<LabelRow> {
  return db
    .updateTable('labels')
    .set({ ...patch, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function markGroup(db: Db, id: string): Promise<void> {
  await db
    .updateTable('labels')
    .set({ is_group: true, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('is_group', '=', false)
    .execute();
}

export async function deleteLabel(db: Db, id: string): Promise<void> {
  await db.deleteFrom('labels').where('id', '=', id).execute();
}

/** By name, case folded. */
const LABEL_ORDER = fixedKey('name', 'n', [
  { sql: sql`lower(t.name)`, type: 'text', dir: 'asc' },
  { sql: sql`t.id`, type: 'uuid', dir: 'asc' },
]);

/** Every label the caller sees, by name. */
export function listLabelRows(db: Db, list: ListRequest) {
  return restList<LabelRow>(db, {
    ...list,
    entity: labelEntity,
    from: sql`labels as t`,
    archivable: true,
    sort: LABEL_ORDER,
  });
}
