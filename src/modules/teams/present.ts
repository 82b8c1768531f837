// The public shape of a team.
import { Type } from 'typebox';
import type { TeamRow } from '../../platform/db/tables.js';

export function presentTeam(t: TeamRow) {
  return {
    id: t.id,
    key: t.key,
    name: t.name,
    description: t.description,
    color: t.color,
    icon: t.icon,
    private: t.private,
    issueCount: t.issue_count,
    cyclesEnabled: t.cycles_enabled,
    createdAt: t.created_at.toISOString(),
    updatedAt: t.updated_at.toISOString(),
    archivedAt: t.archived_at?.toISOString() ?? null,
  };
}

export type TeamJson = ReturnType<typeof presentTeam>;

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const TeamSchema = Type.Object({
  id: Type.String(),
  key: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  color: Nullable(Type.String()),
  icon: Nullable(Type.String()),
  private: Type.Boolean(),
  issueCount: Type.Integer({ description: 'Issues ever numbered in this team (the last number taken)' }),
  cyclesEnabled: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  archivedAt: Nullable(Type.String({ format: 'date-time' })),
});
