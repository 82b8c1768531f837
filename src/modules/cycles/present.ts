// The public shape of a cycle: its schema, and CYCLE_VIEW, which REST's
// answers and cycle events read from the read model's declaration
// (platform/read/rest.ts).
import { Type } from 'typebox';
import type { CycleRow } from '../../platform/db/tables.js';
import { cycle } from '../../platform/read/entities.js';
import { restView } from '../../platform/read/rest.js';
import { type Progress, ProgressSchema } from '../projects/progress.js';

export interface CycleRecord extends CycleRow {
  progress: Progress;
}

const DateTime = Type.String({ format: 'date-time' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const CycleSchema = Type.Object({
  id: Type.String(),
  teamId: Type.String(),
  number: Type.Integer(),
  name: Nullable(Type.String()),
  description: Nullable(Type.String()),
  startsAt: DateTime,
  endsAt: DateTime,
  completedAt: Nullable(DateTime),
  status: Type.Union([Type.Literal('past'), Type.Literal('current'), Type.Literal('upcoming')]),
  isActive: Type.Boolean(),
  isPast: Type.Boolean(),
  isFuture: Type.Boolean(),
  progress: ProgressSchema,
  createdAt: DateTime,
  updatedAt: DateTime,
  archivedAt: Nullable(DateTime),
});

/** REST's cycle over the read model's: its progress is the counts. */
export const CYCLE_VIEW = restView(cycle, CycleSchema, { progress: { field: 'progressCounts' } });
