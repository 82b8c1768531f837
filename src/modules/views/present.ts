// The public shape of a saved view over REST (GraphQL reads the same row).
import { Type } from 'typebox';
import type { CustomViewRow } from '../../platform/db/tables.js';
import { DisplaySchema } from './display.js';

export function presentView(v: CustomViewRow) {
  return {
    id: v.id,
    slugId: v.slug_id,
    name: v.name,
    description: v.description,
    icon: v.icon,
    color: v.color,
    filterData: v.filter_data,
    display: v.display,
    shared: v.shared,
    ownerId: v.owner_id,
    creatorId: v.creator_id,
    teamId: v.team_id,
    createdAt: v.created_at.toISOString(),
    updatedAt: v.updated_at.toISOString(),
    archivedAt: v.archived_at ? v.archived_at.toISOString() : null,
  };
}

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const ViewSchema = Type.Object({
  id: Type.String(),
  slugId: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  icon: Nullable(Type.String()),
  color: Nullable(Type.String()),
  filterData: Type.Record(Type.String(), Type.Unknown(), {
    description: 'An IssueFilter (the GraphQL grammar, docs/graphql.md "Filters")',
  }),
  display: DisplaySchema,
  shared: Type.Boolean(),
  ownerId: Type.String(),
  creatorId: Type.String(),
  teamId: Nullable(Type.String()),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  archivedAt: Nullable(Type.String({ format: 'date-time' })),
});
