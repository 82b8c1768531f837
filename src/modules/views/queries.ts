// SQL for saved views. Reads by id apply the caller's view rule
// (platform/access.ts visibility.customView), which binds admins too: a
// personal view is its owner's alone.
import type { Insertable, Updateable } from 'kysely';
import { sql } from 'kysely';
import { type TeamAccess, visibility, visibleIn } from '../../platform/access.js';
import type { Db } from '../../platform/db/database.js';
import type { CustomViewRow, CustomViewsTable } from '../../platform/db/tables.js';
import { isUuid } from '../../platform/ids.js';
import { customViewEntity } from '../../platform/list/entities.js';
import { timeKey } from '../../platform/list/order.js';
import { restList } from '../../platform/list/query.js';

/** A view the caller may see; `lock` holds it for a change. */
export function findViewRow(
  db: Db,
  id: string,
  access: TeamAccess,
  lock = false,
): Promise<CustomViewRow | undefined> {
  if (!isUuid(id)) return Promise.resolve(undefined);
  const q = db
    .selectFrom('custom_views')
    .selectAll()
    .where('id', '=', id)
    .where(visibleIn(visibility.customView, 'custom_views', access));
  return (lock ? q.forUpdate() : q).executeTakeFirst();
}

/** Whether any view (whoever's) has this id. */
export async function viewIdTaken(db: Db, id: string): Promise<boolean> {
  return (
    (await db.selectFrom('custom_views').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
  );
}

export async function slugTaken(db: Db, slug: string): Promise<boolean> {
  const row = await db.selectFrom('custom_views').select('id').where('slug_id', '=', slug).executeTakeFirst();
  return row !== undefined;
}

export function insertView(db: Db, values: Insertable<CustomViewsTable>): Promise<CustomViewRow> {
  return db.insertInto('custom_views').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateViewRow(
  db: Db,
  id: string,
  patch: Updateable<CustomViewsTable>,
): Promise<CustomViewRow | undefined> {
  return db
    .updateTable('custom_views')
    .set({ ...patch, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteViewRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('custom_views').where('id', '=', id).execute();
}

export interface ViewListQuery {
  access: TeamAccess;
  actorId: string;
  now: Date;
  /** REST parameters folded into the one filter grammar. */
  filter: Record<string, unknown>;
  includeArchived: boolean;
  limit: number;
  offset: number;
}

/** The views the caller sees, newest first, with the total. */
export function listViewRows(db: Db, q: ViewListQuery) {
  return restList<CustomViewRow>(db, {
    entity: customViewEntity,
    access: q.access,
    actorId: q.actorId,
    now: q.now,
    filter: q.filter,
    from: sql`custom_views as t`,
    archivable: true,
    includeArchived: q.includeArchived,
    sort: timeKey('createdAt', 'desc'),
    limit: q.limit,
    offset: q.offset,
  });
}
