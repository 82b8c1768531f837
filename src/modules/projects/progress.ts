// Progress of a group of issues (a project's or a cycle's), counted by the type
// of each issue's workflow state. Canceled issues are out of scope: they count
// neither in the total nor as done. Archived issues are not counted.
import { Type } from 'typebox';
import { type TeamAccess, visibility } from '../../platform/access.js';
import type { Db } from '../../platform/db/database.js';

export interface Progress {
  issueCount: number;
  completedIssueCount: number;
  startedIssueCount: number;
  /** completed / issueCount, 0 when there are no issues in scope. */
  progress: number;
}

export const ProgressSchema = Type.Object({
  issueCount: Type.Integer(),
  completedIssueCount: Type.Integer(),
  startedIssueCount: Type.Integer(),
  progress: Type.Number({ minimum: 0, maximum: 1 }),
});

export const emptyProgress = (): Progress => ({
  issueCount: 0,
  completedIssueCount: 0,
  startedIssueCount: 0,
  progress: 0,
});

/** One grouped query for a whole page of projects, cycles or milestones, over the issues the caller sees. */
export async function progressBy(
  db: Db,
  column: 'project_id' | 'cycle_id' | 'project_milestone_id',
  ids: readonly string[],
  access: TeamAccess,
): Promise<Map<string, Progress>> {
  const out = new Map<string, Progress>();
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('issues as i')
    .innerJoin('workflow_states as s', 's.id', 'i.state_id')
    .select((eb) => [
      `i.${column} as owner`,
      eb.fn.countAll<number>().filterWhere('s.type', '<>', 'canceled').as('total'),
      eb.fn.countAll<number>().filterWhere('s.type', '=', 'completed').as('completed'),
      eb.fn.countAll<number>().filterWhere('s.type', '=', 'started').as('started'),
    ])
    .where(`i.${column}`, 'in', [...ids])
    .where('i.archived_at', 'is', null)
    .where(() => visibility.issue('i', access) as never)
    .groupBy(`i.${column}`)
    .execute();
  for (const r of rows) {
    const total = Number(r.total);
    const completed = Number(r.completed);
    out.set(String(r.owner), {
      issueCount: total,
      completedIssueCount: completed,
      startedIssueCount: Number(r.started),
      progress: total === 0 ? 0 : completed / total,
    });
  }
  return out;
}
