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

/** Deleted accounts and apps' own users are never listed; suspended accounts only with includeDisabled. */
export const userListScope = (includeDisabled: boolean | null | undefined): Sql[] => [
  sql`t.deleted_at is null`,
  includeDisabled ? sql`t.status <> 'app'` : sql`t.status = 'active'`,
];

export interface NestedSource {
  /** FROM clause with the listed rows as t (default: the list's table). */
  from?: Sql;
  /** SQL of the parent's id for each listed row. */
  parentKey: Sql;
}

const key = (column: string) => ({ parentKey: sql.ref(column) });

/**
 * The nested lists the read model does not declare (platform/read/entities.ts
 * declares the rest, and graphql/connections.ts takes those from there): how
 * their rows hang off the parent, by `Type.field` of the parent.
 */
export const undeclaredSources: Record<string, NestedSource> = {
  'user.teams': {
    from: sql`teams as t join team_memberships as m on m.team_id = t.id and m.archived_at is null`,
    parentKey: sql.ref('m.user_id'),
  },
  'team.issues': key('t.team_id'),
  'team.cycles': key('t.team_id'),
  'team.webhooks': key('t.team_id'),
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
  'project.projectMilestones': key('t.project_id'),
};
