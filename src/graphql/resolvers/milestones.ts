// Project milestones over GraphQL: the root fields, the mutations (through
// the milestones service, so rules and events are REST's), Project.
// projectMilestones, Issue.projectMilestone, and every field a milestone
// holds, each with its own resolver so what is held is explicit.
import { assertFeature } from '../../modules/flags/service.js';
import * as milestones from '../../modules/milestones/service.js';
import { emptyProgress } from '../../modules/projects/progress.js';
import type { MilestoneRow, ProjectRow } from '../../platform/db/tables.js';
import { currentSyncId } from '../../platform/outbox.js';
import type { Resolver, ResolverMap } from '../build-schema.js';
import { type ListArgs, listConnection, lists, nested } from '../connections.js';
import type { GqlContext } from '../context.js';
import { milestoneNode, node } from '../nodes.js';
import { belongsTo, mustLoad } from './helpers.js';

type Input = Record<string, unknown>;
type Source = { id: string; row: MilestoneRow };

// Checked once per request: Project.projectMilestones runs for every project of a page.
const flagChecks = new WeakMap<GqlContext, Promise<void>>();
function projectsOn(g: GqlContext): Promise<void> {
  let check = flagChecks.get(g);
  if (!check) {
    check = assertFeature(g.db, 'projects', 'projects');
    flagChecks.set(g, check);
  }
  return check;
}

const payload = async (g: GqlContext, record: Record<string, unknown>) => ({
  success: true,
  lastSyncId: await currentSyncId(g.db),
  ...record,
});

/** The keys the caller sent (null included: it clears). */
function pick(input: Input, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => input[k] !== undefined).map((k) => [k, input[k]]));
}

const FIELDS = ['name', 'description', 'targetDate', 'sortOrder', 'projectId'] as const;

const state = async (src: Source, g: GqlContext) =>
  (await g.loaders.projectMilestoneStates.load(src.row.project_id)).get(src.id);

const column =
  (read: (r: MilestoneRow) => unknown): Resolver =>
  (src: Source) =>
    read(src.row);

const issueMilestone = belongsTo<MilestoneRow>(
  'projectMilestone',
  (r) => r.project_milestone_id,
  milestoneNode,
);

const projectMilestones = nested(lists.milestones, 'project.projectMilestones');

export const milestoneResolvers: ResolverMap = {
  Query: {
    projectMilestone: async (_s, a: { id: string }, g) => {
      await projectsOn(g);
      return milestoneNode(await mustLoad<MilestoneRow>(g, 'projectMilestone', a.id, 'Project milestone'));
    },
    projectMilestones: async (_s, a: ListArgs, g) => {
      await projectsOn(g);
      return listConnection(g, lists.milestones, a);
    },
  },

  Mutation: {
    projectMilestoneCreate: async (_s, a: { input: Input }, g) => {
      const record = await milestones.createMilestone(g.app, g.actor, pick(a.input, FIELDS) as never);
      return payload(g, { projectMilestone: milestoneNode(record) });
    },
    projectMilestoneUpdate: async (_s, a: { id: string; input: Input }, g) => {
      const record = await milestones.updateMilestone(g.app, g.actor, a.id, pick(a.input, FIELDS) as never);
      return payload(g, { projectMilestone: milestoneNode(record) });
    },
    projectMilestoneDelete: async (_s, a: { id: string }, g) => {
      const record = await milestones.deleteMilestone(g.app, g.actor, a.id);
      return payload(g, { entityId: record.id });
    },
  },

  ProjectMilestone: {
    id: (src: Source) => src.id,
    createdAt: column((r) => r.created_at),
    updatedAt: column((r) => r.updated_at),
    name: column((r) => r.name),
    description: column((r) => r.description),
    targetDate: column((r) => r.target_date),
    sortOrder: column((r) => r.sort_order),
    progress: async (src: Source, _a, g) => ((await state(src, g))?.progress ?? emptyProgress()).progress,
    status: async (src: Source, _a, g) => (await state(src, g))?.status ?? 'unstarted',
    // A milestone is visible only through its project, so the project always loads.
    project: belongsTo<ProjectRow>('project', (r) => r.project_id, node.project),
    issues: nested(lists.issues, 'milestone.issues'),
  },

  Project: {
    projectMilestones: async (src, a: ListArgs, g, info) => {
      await projectsOn(g);
      return projectMilestones(src, a, g, info);
    },
  },

  Issue: { projectMilestone: issueMilestone },
  IssueSearchResult: { projectMilestone: issueMilestone },

  IssueHistory: {
    fromProjectMilestone: historyMilestone('from'),
    toProjectMilestone: historyMilestone('to'),
  },
};

/** A history entry's recorded milestone id; a deleted milestone answers null. */
function historyMilestone(side: 'from' | 'to'): Resolver {
  return belongsTo<MilestoneRow>(
    'projectMilestone',
    (r: { changes?: Record<string, { from?: string; to?: string }> }) =>
      r.changes?.projectMilestoneId?.[side],
    milestoneNode,
  );
}
