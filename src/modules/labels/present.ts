// The public shape of a label (issue label, or a label group when isGroup).
import { Type } from 'typebox';
import type { LabelRow } from '../../platform/db/tables.js';

export function presentLabel(l: LabelRow) {
  return {
    id: l.id,
    name: l.name,
    description: l.description,
    color: l.color,
    teamId: l.team_id,
    parentId: l.parent_id,
    isGroup: l.is_group,
    creatorId: l.creator_id,
    createdAt: l.created_at.toISOString(),
    updatedAt: l.updated_at.toISOString(),
    archivedAt: l.archived_at?.toISOString() ?? null,
  };
}

export type LabelJson = ReturnType<typeof presentLabel>;

const NullableString = Type.Union([Type.String(), Type.Null()]);

export const LabelSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: NullableString,
  color: Type.String({ description: '#rrggbb' }),
  teamId: Type.Union([Type.String(), Type.Null()], { description: 'null for a workspace-wide label' }),
  parentId: Type.Union([Type.String(), Type.Null()], { description: 'The label group it belongs to' }),
  isGroup: Type.Boolean(),
  creatorId: NullableString,
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  archivedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
