// A milestone's progress and status. Progress counts the milestone's issues
// exactly as a project's are counted (projects/progress.ts: visible, live,
// canceled ones out of scope). The status is derived, never stored:
//
//   done       it has issues in scope and every one of them is completed
//   overdue    not done, and its target date is before today (UTC)
//   next       the first milestone of its project, in the project's order,
//              that is neither done nor overdue
//   unstarted  any other
//
// "next" depends on the milestone's siblings, so both are computed for whole
// projects at once: two statements for any number of projects.
import type { TeamAccess } from '../../platform/access.js';
import type { Db } from '../../platform/db/database.js';
import type { MilestoneRow } from '../../platform/db/tables.js';
import { emptyProgress, type Progress, progressBy } from '../projects/progress.js';
import { milestonesOfProjects } from './queries.js';

export const MILESTONE_STATUSES = ['done', 'next', 'overdue', 'unstarted'] as const;
export type MilestoneStatus = (typeof MILESTONE_STATUSES)[number];

export interface MilestoneState {
  progress: Progress;
  status: MilestoneStatus;
}

/** Today's date in UTC, as 'YYYY-MM-DD' (target dates are compared as text). */
export const todayUtc = (now: Date) => now.toISOString().slice(0, 10);

/** Statuses of one project's milestones, given in the project's order. */
export function deriveStatuses(
  ordered: readonly Pick<MilestoneRow, 'id' | 'target_date'>[],
  progress: ReadonlyMap<string, Progress>,
  today: string,
): Map<string, MilestoneStatus> {
  const out = new Map<string, MilestoneStatus>();
  let nextTaken = false;
  for (const m of ordered) {
    const p = progress.get(m.id) ?? emptyProgress();
    const done = p.issueCount > 0 && p.completedIssueCount === p.issueCount;
    let status: MilestoneStatus;
    if (done) status = 'done';
    else if (m.target_date !== null && m.target_date < today) status = 'overdue';
    else if (!nextTaken) {
      status = 'next';
      nextTaken = true;
    } else status = 'unstarted';
    out.set(m.id, status);
  }
  return out;
}

/** Progress and status of every milestone of these projects, over the issues the caller sees. */
export async function milestoneStates(
  db: Db,
  projectIds: readonly string[],
  access: TeamAccess,
  now: Date,
): Promise<Map<string, MilestoneState>> {
  const rows = await milestonesOfProjects(db, projectIds);
  const progress = await progressBy(
    db,
    'project_milestone_id',
    rows.map((r) => r.id),
    access,
  );
  const byProject = new Map<string, MilestoneRow[]>();
  for (const r of rows) byProject.set(r.project_id, [...(byProject.get(r.project_id) ?? []), r]);
  const today = todayUtc(now);
  const out = new Map<string, MilestoneState>();
  for (const ordered of byProject.values()) {
    const statuses = deriveStatuses(ordered, progress, today);
    for (const m of ordered) {
      out.set(m.id, { progress: progress.get(m.id) ?? emptyProgress(), status: statuses.get(m.id)! });
    }
  }
  return out;
}
