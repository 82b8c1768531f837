// Rows by id under each table's visibility rule: the by-id read behind
// GraphQL's batched loaders, where a row the caller may not see reads as
// missing, like an unknown id.
import { sql } from 'kysely';
import { type TeamAccess, type Visibility, visibility } from '../access.js';
import type { Db } from '../db/database.js';
import { ISSUE_COLUMNS } from '../db/tables.js';
import { isUuid } from '../ids.js';

export type ByIdTable =
  | 'users'
  | 'teams'
  | 'workflow_states'
  | 'projects'
  | 'cycles'
  | 'labels'
  | 'issues'
  | 'comments'
  | 'attachments'
  | 'issue_relations'
  | 'project_milestones'
  | 'project_updates'
  | 'custom_views';

const VISIBLE: Record<ByIdTable, Visibility> = {
  users: visibility.user,
  teams: visibility.team,
  workflow_states: visibility.workflowState,
  projects: visibility.project,
  cycles: visibility.cycle,
  labels: visibility.label,
  issues: visibility.issue,
  comments: visibility.comment,
  attachments: visibility.attachment,
  issue_relations: visibility.issueRelation,
  project_milestones: visibility.projectMilestone,
  project_updates: visibility.projectUpdate,
  custom_views: visibility.customView,
};

// Issues list their columns: the search tsvectors stay in the database.
const ISSUE_SELECT = sql.raw(ISSUE_COLUMNS.map((c) => `t.${c}`).join(', '));

/** The rows of `table` among `ids` that the caller may see (ids that are not uuids match nothing). */
export async function visibleRowsById<R>(
  db: Db,
  table: ByIdTable,
  ids: readonly string[],
  access: TeamAccess,
): Promise<R[]> {
  const valid = ids.filter(isUuid);
  if (!valid.length) return [];
  const { rows } =
    await sql<R>`select ${table === 'issues' ? ISSUE_SELECT : sql`t.*`} from ${sql.table(table)} as t
    where t.id in (${sql.join(valid.map((id) => sql`${id}::uuid`))}) and ${VISIBLE[table]('t', access)}`.execute(
      db,
    );
  return rows;
}
