// The rules tying an issue to a milestone, applied by the issues service on
// create and update (REST and GraphQL alike):
//
// - a milestone belongs to one project, and an issue's milestone is always one
//   of its own project's (the database holds it too: a composite foreign key);
// - setting a milestone without naming a project moves the issue to the
//   milestone's project (whether it had none or another): the milestone says
//   where the work is;
// - naming both, they must agree, else 400 on projectMilestoneId;
// - changing the project without naming a milestone clears the milestone.
import type { TeamAccess } from '../../platform/access.js';
import type { Db } from '../../platform/db/database.js';
import { findMilestoneRow } from './queries.js';

export interface MilestoneChange {
  project_id?: string | null;
  project_milestone_id?: string | null;
}

interface Problems {
  add(field: string, message: string): void;
}

export async function issueMilestoneChange(
  db: Db,
  access: TeamAccess,
  problems: Problems,
  current: { projectId: string | null; milestoneId: string | null },
  input: { projectId?: string | null | undefined; projectMilestoneId?: string | null | undefined },
): Promise<MilestoneChange> {
  if (input.projectMilestoneId === undefined) {
    const projectChanges = input.projectId !== undefined && input.projectId !== current.projectId;
    return projectChanges && current.milestoneId ? { project_milestone_id: null } : {};
  }
  if (input.projectMilestoneId === null) return { project_milestone_id: null };
  const milestone = await findMilestoneRow(db, input.projectMilestoneId, access, 'share');
  if (!milestone) {
    problems.add('projectMilestoneId', 'no project milestone with this id');
    return {};
  }
  if (input.projectId === null) {
    problems.add('projectMilestoneId', 'an issue without a project cannot have a milestone');
    return {};
  }
  if (input.projectId !== undefined && input.projectId !== milestone.project_id) {
    problems.add('projectMilestoneId', 'the milestone belongs to another project than projectId');
    return {};
  }
  return { project_id: milestone.project_id, project_milestone_id: milestone.id };
}
