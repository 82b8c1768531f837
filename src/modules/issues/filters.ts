// The WHERE clause of issue lists, kept apart from the query so a general
// filter engine (GraphQL's) can replace or extend it: it returns one boolean
// expression over the `issues` table, and every column it uses is indexed.
import { type Expression, expressionBuilder, type SqlBool, sql } from 'kysely';
import type { DB } from '../../platform/db/tables.js';
import { matchesSearch } from '../../platform/list/search.js';

/** Exact-match filters; ids must already be resolved to uuids. null means "is not set". */
export interface IssueFilters {
  teamId?: string;
  stateId?: string;
  assigneeId?: string | null;
  projectId?: string | null;
  cycleId?: string | null;
  priority?: number;
  labelId?: string;
}

export function issueWhere(opts: {
  filters: IssueFilters;
  search: Expression<unknown> | null;
  includeArchived: boolean;
}): Expression<SqlBool> {
  const eb = expressionBuilder<DB, 'issues'>();
  const f = opts.filters;
  const conds: Expression<SqlBool>[] = [];
  const exact = (
    col:
      | 'issues.team_id'
      | 'issues.state_id'
      | 'issues.assignee_id'
      | 'issues.project_id'
      | 'issues.cycle_id',
    v: string | null | undefined,
  ) => {
    if (v === undefined) return;
    conds.push(v === null ? eb(col, 'is', null) : eb(col, '=', v));
  };
  exact('issues.team_id', f.teamId);
  exact('issues.state_id', f.stateId);
  exact('issues.assignee_id', f.assigneeId);
  exact('issues.project_id', f.projectId);
  exact('issues.cycle_id', f.cycleId);
  if (f.priority !== undefined) conds.push(eb('issues.priority', '=', f.priority));
  if (f.labelId !== undefined) {
    const labelId = f.labelId;
    conds.push(
      eb.exists(
        eb
          .selectFrom('issue_labels')
          .select(sql`1`.as('one'))
          .whereRef('issue_labels.issue_id', '=', 'issues.id')
          .where('issue_labels.label_id', '=', labelId),
      ),
    );
  }
  if (!opts.includeArchived) conds.push(eb('issues.archived_at', 'is', null));
  if (opts.search) conds.push(matchesSearch('issues', opts.search) as Expression<SqlBool>);
  return eb.and(conds);
}
