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
 * their rows hang off the parent, by `Type.field` of the parent. These three
 * are behind a feature flag that their resolvers check per request, which a
 * declared relation would skip in the compiled reads (a root list's flag is
 * checked in its statement; a nested one's is not yet).
 */
export const undeclaredSources: Record<string, NestedSource> = {
  'team.cycles': key('t.team_id'),
  'team.projects': {
    from: sql`projects as t join project_teams as pt on pt.project_id = t.id`,
    parentKey: sql.ref('pt.team_id'),
  },
  'project.projectMilestones': key('t.project_id'),
};
