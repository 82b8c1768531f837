// The public shape of a workflow state.
import { Type } from 'typebox';
import type { StateRow } from '../../platform/db/tables.js';

export function presentState(s: StateRow) {
  return {
    id: s.id,
    teamId: s.team_id,
    name: s.name,
    type: s.type,
    color: s.color,
    description: s.description,
    position: s.position,
    createdAt: s.created_at.toISOString(),
    updatedAt: s.updated_at.toISOString(),
    archivedAt: s.archived_at?.toISOString() ?? null,
  };
}

export const StateSchema = Type.Object({
  id: Type.String(),
  teamId: Type.String(),
  name: Type.String(),
  type: Type.String({ description: 'triage, backlog, unstarted, started, completed or canceled' }),
  color: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  position: Type.Number(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  archivedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
