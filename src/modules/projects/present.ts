// The public shape of a project: its schema, and PROJECT_VIEW, which REST's
// answers and project events read from the read model's declaration
// (platform/read/rest.ts). GraphQL links projects with projectUrl.
import { Type } from 'typebox';
import { PROJECT_STATUSES, type ProjectRow } from '../../platform/db/tables.js';
import { project } from '../../platform/read/entities.js';
import { restView } from '../../platform/read/rest.js';
import { type Progress, ProgressSchema } from './progress.js';

/** A project row with what it is presented with (loaded for a whole page at once). */
export interface ProjectRecord extends ProjectRow {
  memberIds: string[];
  teamIds: string[];
  progress: Progress;
}

/** URL-friendly form of a name: "Q3 Launch!" -> "q3-launch". */
export function slugify(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return s || 'project';
}

export function projectUrl(publicUrl: string, p: Pick<ProjectRow, 'name' | 'slug_id'>): string {
  return `${publicUrl}/project/${slugify(p.name)}-${p.slug_id}`;
}

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const DateTime = Type.String({ format: 'date-time' });

export const ProjectStatusSchema = Type.Enum(PROJECT_STATUSES);
export const ProjectHealthSchema = Type.Union([
  Type.Literal('onTrack'),
  Type.Literal('atRisk'),
  Type.Literal('offTrack'),
]);

export const ProjectSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  content: Nullable(Type.String()),
  slugId: Type.String(),
  url: Type.String(),
  status: ProjectStatusSchema,
  health: Nullable(ProjectHealthSchema),
  leadId: Nullable(Type.String()),
  creatorId: Nullable(Type.String()),
  memberIds: Type.Array(Type.String()),
  teamIds: Type.Array(Type.String()),
  startDate: Nullable(Type.String({ format: 'date' })),
  targetDate: Nullable(Type.String({ format: 'date' })),
  color: Type.String(),
  icon: Nullable(Type.String()),
  sortOrder: Type.Number(),
  createdAt: DateTime,
  updatedAt: DateTime,
  startedAt: Nullable(DateTime),
  completedAt: Nullable(DateTime),
  canceledAt: Nullable(DateTime),
  archivedAt: Nullable(DateTime),
  progress: ProgressSchema,
});

/** REST's project over the read model's: REST's status is the declaration's state, its progress the counts. */
export const PROJECT_VIEW = restView(project, ProjectSchema, {
  status: { field: 'state' },
  progress: { field: 'progressCounts' },
});
