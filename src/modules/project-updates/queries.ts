// SQL for project updates. An update is seen with its project (visibility.projectUpdate).
import { sql } from 'kysely';
import { type TeamAccess, visibility, visibleIn } from '../../platform/access.js';
import type { Db } from '../../platform/db/database.js';
import type { ProjectHealth, ProjectUpdateRow } from '../../platform/db/tables.js';
import { isUuid } from '../../platform/ids.js';
import { timeKey } from '../../platform/list/order.js';
import { offsetPage } from '../../platform/list/runner.js';
import { type PageRequest, windowOf } from '../../platform/list/window.js';
import { lastProjectUpdateSql } from '../projects/fields.js';

export type { ProjectUpdateRow };

/** An update the caller may see; `lock` holds it for this transaction. */
export function findProjectUpdate(
  db: Db,
  id: string,
  access: TeamAccess,
  lock = false,
): Promise<ProjectUpdateRow | undefined> {
  if (!isUuid(id)) return Promise.resolve(undefined);
  const q = db
    .selectFrom('project_updates')
    .selectAll()
    .where('id', '=', id)
    .where(visibleIn(visibility.projectUpdate, 'project_updates', access));
  return (lock ? q.forUpdate() : q).executeTakeFirst();
}

/** A page of a project's updates, newest first, and how many it has (archived ones only when asked). */
export function listProjectUpdates(
  db: Db,
  projectId: string,
  page: PageRequest & { includeArchived?: boolean },
) {
  let rows = db.selectFrom('project_updates').selectAll().where('project_id', '=', projectId);
  if (!page.includeArchived) rows = rows.where('archived_at', 'is', null);
  const order = timeKey('createdAt', 'desc');
  return offsetPage<ProjectUpdateRow>(
    db,
    { from: sql`(${rows}) as t`, archivable: false },
    order,
    windowOf(page, order),
  );
}

export async function insertProjectUpdate(
  db: Db,
  u: { id?: string; project_id: string; user_id: string; body: string; health: ProjectHealth },
): Promise<ProjectUpdateRow> {
  return db.insertInto('project_updates').values(u).returningAll().executeTakeFirstOrThrow();
}

export async function updateProjectUpdate(
  db: Db,
  id: string,
  set: { body?: string; health?: ProjectHealth; archived_at?: Date | null },
  edited: boolean,
): Promise<ProjectUpdateRow> {
  return db
    .updateTable('project_updates')
    .set({ ...set, updated_at: sql<Date>`now()`, ...(edited ? { edited_at: sql<Date>`now()` } : {}) })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteProjectUpdate(db: Db, id: string): Promise<void> {
  await db.deleteFrom('project_updates').where('id', '=', id).execute();
}

/** The id of the project's newest update that is not archived. */
export async function newestLiveUpdate(db: Db, projectId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('project_updates')
    .select('id')
    .where('project_id', '=', projectId)
    .where('archived_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

/** Each project's newest update that is not archived (Project.lastUpdate), by project id. */
export async function lastUpdatesOf(
  db: Db,
  projectIds: readonly string[],
): Promise<Map<string, ProjectUpdateRow>> {
  const valid = [...new Set(projectIds.filter(isUuid))];
  if (valid.length === 0) return new Map();
  const { rows } =
    await sql<ProjectUpdateRow>`select pu.* from unnest(cast(${`{${valid.join(',')}}`} as uuid[])) as p(id)
    join project_updates pu on pu.id = ${lastProjectUpdateSql(sql.ref('p.id'))}`.execute(db);
  return new Map(rows.map((r) => [r.project_id, r]));
}
