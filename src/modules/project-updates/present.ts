// The public shape of a project update: its text, its health, who wrote it
// (null when out of the reader's sight) and when. PROJECT_UPDATE_VIEW reads it
// from the read model's declaration for every REST answer and every
// projectUpdate event (platform/read/rest.ts).
import { type Static, Type } from 'typebox';
import { projectUpdate } from '../../platform/read/entities.js';
import { restView } from '../../platform/read/rest.js';
import { ProjectHealthSchema } from '../projects/present.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Time = Type.String({ format: 'date-time' });

export const ProjectUpdateSchema = Type.Object({
  id: Type.String(),
  projectId: Type.String(),
  body: Type.String({ description: 'Markdown' }),
  health: ProjectHealthSchema,
  userId: Nullable(Type.String()),
  user: Nullable(Type.Object({ id: Type.String(), name: Type.String() })),
  url: Type.String(),
  createdAt: Time,
  updatedAt: Time,
  editedAt: Nullable(Time),
  archivedAt: Nullable(Time),
});

export type ProjectUpdateJson = Static<typeof ProjectUpdateSchema>;

export const PROJECT_UPDATE_VIEW = restView(projectUpdate, ProjectUpdateSchema, {
  user: {
    field: 'user',
    select: [
      { key: 'id', field: 'id' },
      { key: 'name', field: 'name' },
    ],
  },
});
