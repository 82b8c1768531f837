// The rows each GraphQL list reads, as the runner takes them: a table's rows
// as `t`, the columns and scope of lists that need one, and for each nested
// list the join from its rows to their parent and the parent's key. The
// connections (graphql/connections.ts) add visibility, filter and window.
import { type RawBuilder, sql } from 'kysely';
import { ISSUE_COLUMNS } from '../db/tables.js';

type Sql = RawBuilder<unknown>;

/** A list over one table, its rows as `t`. */
export const tableRows = (table: string): Sql => sql`${sql.table(table)} as t`;

/** Issue lists read the issue's columns, not its search tsvectors. */
export const issueListColumns: Sql = sql.raw(ISSUE_COLUMNS.map((c) => `t.${c}`).join(', '));

/** Deleted accounts are never listed; suspended ones only with includeDisabled. */
export const userListScope = (includeDisabled: boolean | null | undefined): Sql[] => [
  sql`t.deleted_at is null`,
  ...(includeDisabled ? [] : [sql`t.status = 'active'`]),
];

export interface NestedSource {
  /** FROM clause with the listed rows as t (default: the list's table). */
  from?: Sql;
  /** SQL of the parent's id for each listed row. */
  parentKey: Sql;
}

const key = (column: string) => ({ parentKey: sql.ref(column) });

/** Each nested list, by `Type.field` of its parent: how its rows hang off the parent. */
export const nestedSources = {
  'issue.comments': key('t.issue_id'),
  'issue.children': key('t.parent_id'),
  'issue.attachments': key('t.issue_id'),
  'issue.history': key('t.issue_id'),
  'issue.relations': key('t.issue_id'),
  'issue.inverseRelations': key('t.related_issue_id'),
  'issue.labels': {
    from: sql`labels as t join issue_labels as il on il.label_id = t.id`,
    parentKey: sql.ref('il.issue_id'),
  },
  'issue.subscribers': {
    from: sql`users as t join issue_subscribers as s on s.user_id = t.id`,
    parentKey: sql.ref('s.issue_id'),
  },
  'user.assignedIssues': key('t.assignee_id'),
  'user.createdIssues': key('t.creator_id'),
  'user.teamMemberships': key('t.user_id'),
  'user.teams': {
    from: sql`teams as t join team_memberships as m on m.team_id = t.id and m.archived_at is null`,
    parentKey: sql.ref('m.user_id'),
  },
  'team.issues': key('t.team_id'),
  'team.states': key('t.team_id'),
  'team.cycles': key('t.team_id'),
  'team.webhooks': key('t.team_id'),
  'team.memberships': key('t.team_id'),
  // A team's labels are its own plus the workspace-wide ones.
  'team.labels': {
    from: sql`labels as t join teams as o on (t.team_id = o.id or t.team_id is null)`,
    parentKey: sql.ref('o.id'),
  },
  'team.members': {
    from: sql`users as t join team_memberships as m on m.user_id = t.id and m.archived_at is null`,
    parentKey: sql.ref('m.team_id'),
  },
  'team.projects': {
    from: sql`projects as t join project_teams as pt on pt.project_id = t.id`,
    parentKey: sql.ref('pt.team_id'),
  },
  'state.issues': key('t.state_id'),
  'label.children': key('t.parent_id'),
  'label.issues': {
    from: sql`issues as t join issue_labels as il on il.issue_id = t.id`,
    parentKey: sql.ref('il.label_id'),
  },
  'project.issues': key('t.project_id'),
  'project.projectMilestones': key('t.project_id'),
  'project.projectUpdates': key('t.project_id'),
  'project.members': {
    from: sql`users as t join project_members as pm on pm.user_id = t.id`,
    parentKey: sql.ref('pm.project_id'),
  },
  'project.teams': {
    from: sql`teams as t join project_teams as pt on pt.team_id = t.id`,
    parentKey: sql.ref('pt.project_id'),
  },
  'milestone.issues': key('t.project_milestone_id'),
  'cycle.issues': key('t.cycle_id'),
  'comment.children': key('t.parent_id'),
} satisfies Record<string, NestedSource>;

export type NestedKey = keyof typeof nestedSources;
