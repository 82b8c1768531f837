// SQL for project milestones. Every function takes the connection or
// transaction it runs in; reads by id apply the caller's visibility (a
// milestone is visible when its project is, platform/access.ts).
import type { Insertable, Updateable } from 'kysely';
import { sql } from 'kysely';
import { type TeamAccess, visibility, visibleIn } from '../../platform/access.js';
import type { Db } from '../../platform/db/database.js';
import type { MilestoneRow, ProjectMilestonesTable } from '../../platform/db/tables.js';
import { isUuid } from '../../platform/ids.js';
import { milestoneStatusSql, progressSql } from '../projects/fields.js';
import type { Progress } from '../projects/progress.js';
import type { MilestoneStatus } from './status.js';

/**
 * A milestone the caller may see. `lock`: 'update' holds it for a change;
 * 'share' keeps it from being deleted until commit (an issue being linked to
 * it), so the link never meets a milestone deleted meanwhile.
 */
export function findMilestoneRow(
  db: Db,
  id: string,
  access: TeamAccess,
  lock: 'update' | 'share' | false = false,
): Promise<MilestoneRow | undefined> {
  if (!isUuid(id)) return Promise.resolve(undefined);
  const q = db
    .selectFrom('project_milestones')
    .selectAll()
    .where('id', '=', id)
    .where(visibleIn(visibility.projectMilestone, 'project_milestones', access));
  return (lock === 'update' ? q.forUpdate() : lock === 'share' ? q.forKeyShare() : q).executeTakeFirst();
}

/** Milestones of these projects in their order: sortOrder, then oldest first. */
export function milestonesOfProjects(db: Db, projectIds: readonly string[]): Promise<MilestoneRow[]> {
  if (projectIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('project_milestones')
    .selectAll()
    .where('project_id', 'in', [...projectIds])
    .orderBy('project_id')
    .orderBy('sort_order')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Progress and status of every milestone of these projects (projects/fields.ts), in one statement. */
export function milestoneStateRows(
  db: Db,
  projectIds: readonly string[],
  access: TeamAccess,
  today: string,
): Promise<{ id: string; progress: Progress; status: MilestoneStatus }[]> {
  if (projectIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('project_milestones as m')
    .select([
      'm.id',
      progressSql('project_milestone_id', sql.ref('m.id'), access).$castTo<Progress>().as('progress'),
      milestoneStatusSql(sql.ref('m'), access, today).$castTo<MilestoneStatus>().as('status'),
    ])
    .where('m.project_id', 'in', [...projectIds])
    .execute();
}

/** The sort order that puts a new milestone after every other of its project. */
export async function nextSortOrder(db: Db, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('project_milestones')
    .select((eb) => eb.fn.max('sort_order').as('max'))
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  const max = row?.max;
  return max === null || max === undefined ? 0 : Math.floor(Number(max)) + 1;
}

export function insertMilestone(db: Db, values: Insertable<ProjectMilestonesTable>): Promise<MilestoneRow> {
  return db.insertInto('project_milestones').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateMilestoneRow(
  db: Db,
  id: string,
  patch: Updateable<ProjectMilestonesTable>,
): Promise<MilestoneRow | undefined> {
  return db
    .updateTable('project_milestones')
    .set({ ...patch, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Empties the milestone from its issues (touching their updatedAt, so clients
 * that sync by it notice), then deletes it. The foreign key would clear the
 * column on its own, but silently.
 */
export async function deleteMilestoneRow(db: Db, id: string): Promise<number> {
  const cleared = await db
    .updateTable('issues')
    .set({ project_milestone_id: null, updated_at: sql<Date>`now()` })
    .where('project_milestone_id', '=', id)
    .executeTakeFirst();
  await db.deleteFrom('project_milestones').where('id', '=', id).execute();
  return Number(cleared.numUpdatedRows);
}
