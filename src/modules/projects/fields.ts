// Progress of a group of issues (a project's, a cycle's or a milestone's),
// and a milestone's status, each written once as SQL over the owner's id:
// REST (queries.ts progressBy, milestones/queries.ts milestoneStates), the
// GraphQL resolvers (through those) and the compiled reads
// (platform/read/entities.ts) all read these, so no door counts differently.
//
// Counted by the type of each issue's workflow state, over the live (not
// archived) issues the caller sees. Canceled issues are out of scope: they
// count neither in the total nor as done.
import { type RawBuilder, sql } from 'kysely';
import { type TeamAccess, visibility } from '../../platform/access.js';
import { PROJECT_STATUSES } from '../../platform/db/tables.js';
import { integer, json, object } from '../../platform/read/json.js';

type Sql = RawBuilder<unknown>;

export type ProgressOwner = 'project_id' | 'cycle_id' | 'project_milestone_id';

/** One row (total, completed, started) of the issues whose `column` is `owner`. */
const counts = (column: ProgressOwner, owner: Sql, access: TeamAccess) =>
  sql`(select count(*) filter (where ps.type <> 'canceled') as total,
      count(*) filter (where ps.type = 'completed') as completed,
      count(*) filter (where ps.type = 'started') as started
    from issues pi join workflow_states ps on ps.id = pi.state_id
    where ${sql.ref(`pi.${column}`)} = ${owner} and pi.archived_at is null
    and ${visibility.issue('pi', access)})`;

/** completed / total as a double (JavaScript's division), 0 when nothing is in scope. */
const ratio = sql`(case when pc.total = 0 then 0 else pc.completed::float8 / pc.total end)`;

/**
 * The whole progress as JSON: issueCount, completedIssueCount, startedIssueCount,
 * progress. Built as the read model builds every object (its JSON text has no
 * spaces, as the rest of an answer), typed json for the readers that want an object.
 */
export const progressSql = (column: ProgressOwner, owner: Sql, access: TeamAccess) =>
  sql<unknown>`(select ${object([
    ['issueCount', integer(sql`pc.total`)],
    ['completedIssueCount', integer(sql`pc.completed`)],
    ['startedIssueCount', integer(sql`pc.started`)],
    ['progress', json(ratio)],
  ])}::json from ${counts(column, owner, access)} as pc)`;

/** The progress ratio alone (GraphQL's Project.progress, Cycle.progress, ProjectMilestone.progress). */
export const progressRatioSql = (column: ProgressOwner, owner: Sql, access: TeamAccess) =>
  sql<number>`(select ${ratio} from ${counts(column, owner, access)} as pc)`;

/** The issues in scope (GraphQL's Project.scope: counted in issues, there are no estimates here). */
export const progressScopeSql = (column: ProgressOwner, owner: Sql, access: TeamAccess) =>
  sql<number>`(select pc.total from ${counts(column, owner, access)} as pc)`;

/**
 * A milestone's status, derived, never stored:
 *
 *   done       it has issues in scope and every one of them is completed
 *   overdue    not done, and its target date is before today (UTC)
 *   next       the first milestone of its project, in the project's order
 *              (sortOrder, then oldest first, then id), neither done nor overdue
 *   unstarted  any other
 *
 * `m` is the milestone's row; `today` is 'YYYY-MM-DD' in UTC.
 */
export function milestoneStatusSql(m: Sql, access: TeamAccess, today: string) {
  const done = (x: Sql) =>
    sql`(select pc.total > 0 and pc.completed = pc.total from ${counts('project_milestone_id', sql`${x}.id`, access)} as pc)`;
  const overdue = (x: Sql) => sql`(${x}.target_date is not null and ${x}.target_date < ${today}::date)`;
  const before = sql`(ms.sort_order, ms.created_at, ms.id) < (${m}.sort_order, ${m}.created_at, ${m}.id)`;
  return sql<string>`(case when ${done(m)} then 'done' when ${overdue(m)} then 'overdue'
    when not exists (select 1 from project_milestones ms where ms.project_id = ${m}.project_id and ${before}
      and not ${done(sql`ms`)} and not ${overdue(sql`ms`)}) then 'next'
    else 'unstarted' end)`;
}

/**
 * A project's status as GraphQL presents it (ProjectStatus): the statuses are
 * a fixed list here, each with its colour; backlog and paused have no end.
 * The compiled reads build the same object in SQL from these constants
 * (platform/read/entities.ts projectStatus).
 */
export const PROJECT_STATUS_COLORS: Record<string, string> = {
  backlog: '#bec2c8',
  planned: '#e2e2e2',
  started: '#f2c94c',
  paused: '#0f783c',
  completed: '#5e6ad2',
  canceled: '#95a2b3',
};
export const DEFAULT_STATUS_COLOR = '#bec2c8';
export const INDEFINITE_STATUSES: readonly string[] = ['backlog', 'paused'];

export const projectStatusOf = (type: string, since: Date) => ({
  id: type,
  type,
  name: type[0]!.toUpperCase() + type.slice(1),
  color: PROJECT_STATUS_COLORS[type] ?? DEFAULT_STATUS_COLOR,
  position: PROJECT_STATUSES.indexOf(type as never),
  indefinite: INDEFINITE_STATUSES.includes(type),
  createdAt: since,
  updatedAt: since,
});

/** The id of the project's newest update that is not archived (Project.lastUpdate), as a uuid expression. */
export const lastProjectUpdateSql = (projectId: Sql): Sql =>
  sql`(select lpu.id from project_updates lpu where lpu.project_id = ${projectId} and lpu.archived_at is null
    order by lpu.created_at desc, lpu.id desc limit 1)`;
