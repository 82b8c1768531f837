// Saved views over GraphQL: customViews, customView, the three mutations
// (through the views service, so the rules are REST's) and the CustomView
// fields we hold, each with its own resolver so what is held is explicit.
import * as views from '../../modules/views/service.js';
import type { CustomViewRow, TeamRow, UserRow } from '../../platform/db/tables.js';
import { invalidField } from '../../platform/errors.js';
import { issueEntity } from '../../platform/list/entities.js';
import { compileFilter } from '../../platform/list/filter.js';
import { currentSyncId } from '../../platform/outbox.js';
import type { Resolver, ResolverMap } from '../build-schema.js';
import { type ListArgs, listConnection, lists } from '../connections.js';
import type { GqlContext } from '../context.js';
import { teamNode, userNode, viewNode } from '../nodes.js';
import { belongsTo, mustLoad } from './helpers.js';

type Input = Record<string, unknown>;
type Source = { id: string; row: CustomViewRow };

const FIELDS = ['id', 'name', 'description', 'icon', 'color', 'filterData', 'shared', 'teamId', 'ownerId'];
/** Inputs for views of other things (projects, initiatives, updates) that we do not hold. */
const NOT_HELD = [
  'projectFilterData',
  'initiativeFilterData',
  'feedItemFilterData',
  'projectId',
  'initiativeId',
];

/** The keys the caller sent (null included: it clears); unheld ones are refused, never dropped. */
function pick(input: Input): Input {
  for (const k of NOT_HELD) {
    if (input[k] != null) throw invalidField(k, 'is not held by this service: views list issues only');
  }
  return Object.fromEntries(FIELDS.filter((k) => input[k] !== undefined).map((k) => [k, input[k]]));
}

const payload = async (g: GqlContext, record: Record<string, unknown>) => ({
  success: true,
  lastSyncId: await currentSyncId(g.db),
  ...record,
});

const column =
  (read: (r: CustomViewRow) => unknown): Resolver =>
  (src: Source) =>
    read(src.row);

/** Owner and creator: whoever sees the view sees who made it (loaders.ts viewPeople). */
const person =
  (fk: (r: CustomViewRow) => string): Resolver =>
  async (src: Source, _a, g) => {
    const row = await g.loaders.viewPeople.load(fk(src.row));
    return row ? userNode(row as UserRow, g.actor.id, g.app.config.publicUrl) : null;
  };

/**
 * The view's issues as the caller sees them (never as its owner does): the
 * issues list with the caller's rule, the view's filter and the argument's.
 * One statement per view: each view has its own filter, so views do not batch.
 */
const viewIssues: Resolver = async (src: Source, a: ListArgs, g) => {
  const access = await g.access();
  const ctx = { now: g.now, actorId: g.actor.id, access };
  const own = compileFilter(issueEntity, 't', src.row.filter_data, ctx, 'filterData');
  return listConnection(g, lists.issues, a, [own]);
};

export const viewResolvers: ResolverMap = {
  Query: {
    customView: async (_s, a: { id: string }, g) =>
      viewNode(await mustLoad<CustomViewRow>(g, 'customView', a.id, 'Custom view')),
    customViews: (_s, a: ListArgs, g) => listConnection(g, lists.customViews, a),
  },

  Mutation: {
    customViewCreate: async (_s, a: { input: Input }, g) => {
      const row = await views.createView(g.app, g.actor, pick(a.input) as never);
      return payload(g, { customView: viewNode(row) });
    },
    customViewUpdate: async (_s, a: { id: string; input: Input }, g) => {
      const row = await views.updateView(g.app, g.actor, a.id, pick(a.input) as never);
      return payload(g, { customView: viewNode(row) });
    },
    customViewDelete: async (_s, a: { id: string }, g) => {
      const row = await views.deleteView(g.app, g.actor, a.id);
      return payload(g, { entityId: row.id });
    },
  },

  CustomView: {
    id: (src: Source) => src.id,
    createdAt: column((r) => r.created_at),
    updatedAt: column((r) => r.updated_at),
    archivedAt: column((r) => r.archived_at),
    name: column((r) => r.name),
    description: column((r) => r.description),
    icon: column((r) => r.icon),
    color: column((r) => r.color),
    filterData: column((r) => r.filter_data),
    filters: column((r) => r.filter_data),
    shared: column((r) => r.shared),
    slugId: column((r) => r.slug_id),
    modelName: () => 'Issue',
    owner: person((r) => r.owner_id),
    creator: person((r) => r.creator_id),
    team: belongsTo<TeamRow>(
      'team',
      (r) => r.team_id,
      (r) => teamNode(r),
    ),
    issues: viewIssues,
  },
};
