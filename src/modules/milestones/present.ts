// The public shape of a project milestone: its schema, and MILESTONE_VIEW,
// which REST's answers and milestone events read from the read model's
// declaration (platform/read/rest.ts). GraphQL reads the same row and state
// through its loaders (status.ts).
import { Type } from 'typebox';
import type { MilestoneRow } from '../../platform/db/tables.js';
import { milestone } from '../../platform/read/entities.js';
import { restView } from '../../platform/read/rest.js';
import { ProgressSchema } from '../projects/progress.js';
import { MILESTONE_STATUSES, type MilestoneState } from './status.js';

export type MilestoneRecord = MilestoneRow & MilestoneState;

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

/** REST's milestone over the read model's: its progress is the counts. */
export const MILESTONE_VIEW = restView(milestone, MilestoneSchema, { progress: { field: 'progressCounts' } });
