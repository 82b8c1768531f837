// A milestone's progress and status. Progress counts the milestone's issues
// exactly as a project's are counted, and the status ("done", "overdue",
// "next", "unstarted") depends on the milestone's siblings: both are written
// once, in SQL (projects/fields.ts), and read here for whole projects at once
// in one statement (queries.ts milestoneStateRows), as the compiled GraphQL
// reads read them (platform/read/entities.ts).
import type { TeamAccess } from '../../platform/access.js';
import type { Db } from '../../platform/db/database.js';
import type { Progress } from '../projects/progress.js';
import { milestoneStateRows } from './queries.js';

export const MILESTONE_STATUSES = ['done', 'next', 'overdue', 'unstarted'] as const;
export type MilestoneStatus = (typeof MILESTONE_STATUSES)[number];

export interface MilestoneState {
  progress: Progress;
  status: MilestoneStatus;
}

/** Today's date in UTC, as 'YYYY-MM-DD' (target dates are compared with it). */
export const todayUtc = (now: Date) => now.toISOString().slice(0, 10);

/** Progress and status of every milestone of these projects, over the issues the caller sees. */
export async function milestoneStates(
  db: Db,
  projectIds: readonly string[],
  access: TeamAccess,
  now: Date,
): Promise<Map<string, MilestoneState>> {
  const rows = await milestoneStateRows(db, projectIds, access, todayUtc(now));
  return new Map(rows.map((r) => [r.id, { progress: r.progress, status: r.status }]));
}
