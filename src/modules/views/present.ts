// The public shape of a saved view over REST: its schema, and VIEW_VIEW,
// which every REST answer reads from the read model's declaration
// (platform/read/rest.ts).
import { Type } from 'typebox';
import { customView } from '../../platform/read/entities.js';
import { restView } from '../../platform/read/rest.js';
import { DisplaySchema } from './display.js';

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

/** REST's saved view over the read model's: the schema's keys in its order. */
export const VIEW_VIEW = restView(customView, ViewSchema);
