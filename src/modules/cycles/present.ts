// The public shape of a cycle, shared by REST, GraphQL and webhook payloads.
import { Type } from 'typebox';
import type { CycleRow } from '../../platform/db/tables.js';
import { type Progress, ProgressSchema } from '../projects/progress.js';

export interface CycleRecord extends CycleRow {
  progress: Progress;
}

export type CycleStatus = 'past' | 'current' | 'upcoming';

/** From the dates alone; a completed cycle is past whatever its dates say. */
export function cycleStatus(
  c: Pick<CycleRow, 'starts_at' | 'ends_at' | 'completed_at'>,
  now = new Date(),
): CycleStatus {
  if (c.completed_at || c.ends_at <= now) return 'past';
  if (c.starts_at > now) return 'upcoming';
  return 'current';
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentCycle(c: CycleRecord, now = new Date()) {
  const status = cycleStatus(c, now);
  return {
    id: c.id,
    teamId: c.team_id,
    number: c.number,
    name: c.name,
    description: c.description,
    startsAt: c.starts_at.toISOString(),
    endsAt: c.ends_at.toISOString(),
    completedAt: iso(c.completed_at),
    status,
    isActive: status === 'current',
    isPast: status === 'past',
    isFuture: status === 'upcoming',
    progress: c.progress,
    createdAt: c.created_at.toISOString(),
    updatedAt: c.updated_at.toISOString(),
    archivedAt: iso(c.archived_at),
  };
}

export type CycleJson = ReturnType<typeof presentCycle>;

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
