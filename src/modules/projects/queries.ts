// SQL for projects. Every function takes the connection or transaction it runs in.

import type { Insertable, Updateable } from 'kysely';
import { sql } from 'kysely';
import { canSeeTeam, type TeamAccess, visibility, visibleIn } from '../../platform/access.js';
import type { Db } from '../../platform/db/database.js';
import type { ProjectHealth, ProjectRow, ProjectsTable, TeamRow } from '../../platform/db/tables.js';
import { isUuid } from '../../platform/ids.js';
import { projectEntity } from '../../platform/list/entities.js';
import { timeKey } from '../../platform/list/order.js';
import { type ListRequest, restList } from '../../platform/list/query.js';
import { type ProgressOwner, progressSql } from './fields.js';
import type { ProjectRecord } from './present.js';
import { emptyProgress, type Progress } from './progress.js';
import { type ProgressDay, sampleDays } from './progress-history.js';

/** A project the caller may see. */
export function findProjectRow(
  db: Db,
  id: string,
  access: TeamAccess,
  lock = false,
): Promise<ProjectRow | undefined> {
  const q = db
    .selectFrom('projects')
    .selectAll()
    .where('id', '=', id)
    .where(visibleIn(visibility.project, 'projects', access));
  return (lock ? q.forUpdate() : q).executeTakeFirst();
}

export function insertProject(db: Db, values: Insertable<ProjectsTable>): Promise<ProjectRow> {
  return db.insertInto('projects').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateProjectRow(
  db: Db,
  id: string,
  patch: Updateable<ProjectsTable>,
): Promise<ProjectRow | undefined> {
  return db
    .updateTable('projects')
    .set({ ...patch, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteProjectRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('projects').where('id', '=', id).execute();
}

export async function replaceMembers(db: Db, projectId: string, userIds: readonly string[]): Promise<void> {
  await db.deleteFrom('project_members').where('project_id', '=', projectId).execute();
  if (userIds.length === 0) return;
  await db
    .insertInto('project_members')
    .values(userIds.map((user_id) => ({ project_id: projectId, user_id })))
    .execute();
}

export async function replaceTeams(db: Db, projectId: string, teamIds: readonly string[]): Promise<void> {
  await db.deleteFrom('project_teams').where('project_id', '=', projectId).execute();
  if (teamIds.length === 0) return;
  await db
    .insertInto('project_teams')
    .values(teamIds.map((team_id) => ({ project_id: projectId, team_id })))
    .execute();
}

/** The id of the project with this slug id (visibility is the caller's loader's to apply). */
/**
 * A project by id, or by the slug id that ends its URL (the whole tail or the
 * slug id alone, as GraphQL's project(id) takes it), as a condition over the
 * project row under `alias`.
 */
export function projectRefCondition(alias: string, idOrSlug: string) {
  if (isUuid(idOrSlug)) return sql<boolean>`${sql.ref(`${alias}.id`)} = ${idOrSlug}::uuid`;
  return sql<boolean>`${sql.ref(`${alias}.slug_id`)} = ${idOrSlug.split('-').pop() ?? idOrSlug}`;
}

/** The id of a project the caller sees, by id or slug id (alone or as the tail of its URL). */
export async function resolveProjectId(db: Db, ref: string, access: TeamAccess): Promise<string | undefined> {
  if (ref === '') return undefined;
  const row = await db
    .selectFrom('projects')
    .select('id')
    .where(projectRefCondition('projects', ref))
    .where(visibleIn(visibility.project, 'projects', access))
    .executeTakeFirst();
  return row?.id;
}

export async function projectIdBySlug(db: Db, slug: string): Promise<string | undefined> {
  const row = await db.selectFrom('projects').select('id').where('slug_id', '=', slug).executeTakeFirst();
  return row?.id;
}

export function slugTaken(db: Db, slug: string): Promise<boolean> {
  return db
    .selectFrom('projects')
    .select('id')
    .where('slug_id', '=', slug)
    .executeTakeFirst()
    .then((r) => r !== undefined);
}

/**
 * Members, teams and progress for a page of projects: three queries however
 * long the page is. Teams and issues the caller may not see are left out.
 */
export async function loadProjectRecords(
  db: Db,
  rows: readonly ProjectRow[],
  access: TeamAccess,
): Promise<ProjectRecord[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [members, teams, progress] = await Promise.all([
    db
      .selectFrom('project_members')
      .select(['project_id', 'user_id'])
      .where('project_id', 'in', ids)
      .orderBy('user_id')
      .execute(),
    db
      .selectFrom('project_teams')
      .select(['project_id', 'team_id'])
      .where('project_id', 'in', ids)
      .orderBy('team_id')
      .execute(),
    progressBy(db, 'project_id', ids, access),
  ]);
  return rows.map((r) => ({
    ...r,
    memberIds: members.filter((m) => m.project_id === r.id).map((m) => m.user_id),
    teamIds: teams
      .filter((t) => t.project_id === r.id && canSeeTeam(access, t.team_id))
      .map((t) => t.team_id),
    progress: progress.get(r.id) ?? emptyProgress(),
  }));
}

/** A page of the projects the caller sees, newest first. */
export function listProjectRows(db: Db, list: ListRequest) {
  return restList<ProjectRow>(db, {
    ...list,
    entity: projectEntity,
    from: sql`projects as t`,
    archivable: true,
    sort: timeKey('createdAt', 'desc'),
  });
}

// Lookups of records projects and cycles refer to by id.

/** The workspace's first team, the default for new records: the one the issues module uses too. */
export { firstTeam } from '../teams/queries.js';

/** A team by id or by key (e.g. "ENG"). */
export function findTeamByRef(db: Db, ref: string): Promise<TeamRow | undefined> {
  const q = db.selectFrom('teams').selectAll();
  return (isUuid(ref) ? q.where('id', '=', ref) : q.where('key', '=', ref.toUpperCase())).executeTakeFirst();
}

/** The subset of `ids` that are live (not deleted) users. */
export async function existingUserIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return new Set();
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('id', 'in', valid)
    .where('deleted_at', 'is', null)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Resolves team ids or keys to ids; returns the refs that match no team in `missing`. */
export async function resolveTeamRefs(
  db: Db,
  refs: readonly string[],
  access: TeamAccess,
): Promise<{ ids: string[]; missing: string[] }> {
  if (refs.length === 0) return { ids: [], missing: [] };
  const uuids = refs.filter(isUuid);
  const keys = refs.filter((r) => !isUuid(r)).map((r) => r.toUpperCase());
  const rows = await db
    .selectFrom('teams')
    .select(['id', 'key'])
    .where((eb) =>
      eb.or([
        ...(uuids.length ? [eb('id', 'in', uuids)] : []),
        ...(keys.length ? [eb('key', 'in', keys)] : []),
      ]),
    )
    .execute();
  const ids: string[] = [];
  const missing: string[] = [];
  for (const ref of refs) {
    const row = rows.find((r) => r.id === ref || r.key === ref.toUpperCase());
    // A team the caller may not see does not exist for them.
    if (row && canSeeTeam(access, row.id)) {
      if (!ids.includes(row.id)) ids.push(row.id);
    } else missing.push(ref);
  }
  return { ids, missing };
}

const OWNER_TABLE = {
  project_id: 'projects',
  cycle_id: 'cycles',
  project_milestone_id: 'project_milestones',
} as const;

/** Progress of a whole page of projects, cycles or milestones in one statement (fields.ts progressSql). */
export async function progressBy(
  db: Db,
  column: ProgressOwner,
  ids: readonly string[],
  access: TeamAccess,
): Promise<Map<string, Progress>> {
  const out = new Map<string, Progress>();
  if (ids.length === 0) return out;
  const { rows } = await sql<{ id: string; progress: Progress }>`select o.id,
      ${progressSql(column, sql.ref('o.id'), access)} as progress
    from ${sql.table(OWNER_TABLE[column])} as o where o.id in (${sql.join([...ids])})`.execute(db);
  for (const r of rows) out.set(r.id, r.progress);
  return out;
}

/** The burn-up of a project or cycle (progress-history.ts says what each day counts). */
export async function progressHistory(
  db: Db,
  owner: { column: 'project_id' | 'cycle_id'; id: string },
  access: TeamAccess,
  span: { from: Date; to: Date },
): Promise<ProgressDay[]> {
  const key = owner.column === 'project_id' ? 'projectId' : 'cycleId';
  const { first, last, stepDays } = sampleDays(span.from, span.to);
  const owned = db
    .selectFrom('issues as i')
    .select((eb) => [
      sql<number>`coalesce(i.estimate, 1)`.as('points'),
      eb.fn
        .coalesce(
          eb
            .selectFrom('issue_history as h')
            .select((h) => h.fn.max('h.created_at').as('at'))
            .whereRef('h.issue_id', '=', 'i.id')
            .where(sql<boolean>`h.changes -> ${key} ->> 'to' = ${owner.id}`),
          'i.created_at',
        )
        .as('joined_at'),
      'i.started_at',
      'i.completed_at',
      'i.canceled_at',
    ])
    .where(`i.${owner.column}`, '=', owner.id)
    .where('i.archived_at', 'is', null)
    .where(() => visibility.issue('i', access) as never);
  const rows = await sql<{
    date: string;
    scope: number | string;
    completed_scope: number | string;
    in_progress_scope: number | string;
    issues: number | string;
    completed_issues: number | string;
  }>`
    with owned as (${owned}),
    days as (
      select d::date as day, d::date + 1 as day_end
      from generate_series(${first}::date, ${last}::date, make_interval(days => ${stepDays}::int)) as d
    ),
    at_day as (
      select d.day, o.points,
             coalesce(o.completed_at < d.day_end, false) as done,
             coalesce(o.started_at < d.day_end, false) and coalesce(o.completed_at >= d.day_end, true) as started
      from days d
      join owned o on o.joined_at < d.day_end and coalesce(o.canceled_at >= d.day_end, true)
    )
    select to_char(d.day, 'YYYY-MM-DD') as date,
           coalesce(sum(a.points), 0) as scope,
           coalesce(sum(a.points) filter (where a.done), 0) as completed_scope,
           coalesce(sum(a.points) filter (where a.started), 0) as in_progress_scope,
           count(a.day) as issues,
           count(a.day) filter (where a.done) as completed_issues
    from days d left join at_day a on a.day = d.day
    group by d.day
    order by d.day`.execute(db);
  return rows.rows.map((r) => ({
    date: r.date,
    scope: Number(r.scope),
    completedScope: Number(r.completed_scope),
    inProgressScope: Number(r.in_progress_scope),
    issues: Number(r.issues),
    completedIssues: Number(r.completed_issues),
  }));
}

/** A project update set the project's health (and when it did). */
export async function setProjectHealth(db: Db, id: string, health: ProjectHealth): Promise<void> {
  await db
    .updateTable('projects')
    .set({ health, health_updated_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .execute();
}
