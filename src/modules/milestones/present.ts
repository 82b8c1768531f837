// The public shape of a project milestone, shared by REST and webhook
// payloads (GraphQL reads the same row and state through its loaders).
import { Type } from 'typebox';
import type { MilestoneRow } from '../../platform/db/tables.js';
import { ProgressSchema } from '../projects/progress.js';
import { MILESTONE_STATUSES, type MilestoneState } from './status.js';

export type MilestoneRecord = MilestoneRow & MilestoneState;

export function presentMilestone(m: MilestoneRecord) {
  return {
    id: m.id,
    projectId: m.project_id,
    name: m.name,
    description: m.description,
    targetDate: m.target_date,
    sortOrder: m.sort_order,
    status: m.status,
    progress: m.progress,
    creatorId: m.creator_id,
    createdAt: m.created_at.toISOString(),
    updatedAt: m.updated_at.toISOString(),
  };
}

export type MilestoneJson = ReturnType<typeof presentMilestone>;

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const MilestoneSchema = Type.Object({
  id: Type.String(),
  projectId: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  targetDate: Nullable(Type.String({ format: 'date' })),
  sortOrder: Type.Number(),
  status: Type.Enum(MILESTONE_STATUSES, { description: 'Derived: done, next, overdue or unstarted' }),
  progress: ProgressSchema,
  creatorId: Nullable(Type.String()),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
