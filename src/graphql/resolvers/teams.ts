// Mutations that manage teams, their memberships and their workflow states.
// Each maps the GraphQL input onto the owning service, so roles and validation
// are those of REST.
// Input fields for settings we do not hold are dropped here (docs/graphql.md).

import { CYCLE_SETTING_FIELDS, updateCycleSettings } from '../../modules/cycles/settings.js';
import * as states from '../../modules/states/service.js';
import { findMembershipById } from '../../modules/teams/queries.js';
import * as teams from '../../modules/teams/service.js';
import { canSeeTeam } from '../../platform/access.js';
import { notFound } from '../../platform/errors.js';
import { currentSyncId } from '../../platform/outbox.js';
import type { ResolverMap } from '../build-schema.js';
import { type ListArgs, listConnection, lists } from '../connections.js';
import type { GqlContext } from '../context.js';
import { node, stateNode, teamNode } from '../nodes.js';

type Input = Record<string, unknown>;

/** The listed keys the caller sent; null is passed on (it clears, or the service refuses it). */
function pick(input: Input, keys: readonly string[]): Input {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (input[k] !== undefined) out[k] = input[k];
  return out;
}

const TEAM_FIELDS = [
  'key',
  'name',
  'description',
  'color',
  'icon',
  'private',
  'timezone',
  'cyclesEnabled',
  'triageEnabled',
];

const payload = async (g: GqlContext, record: Record<string, unknown>) => ({
  success: true,
  lastSyncId: await currentSyncId(g.db),
  ...record,
});

export const teamResolvers: ResolverMap = {
  Query: {
    teamMembership: async (_s, a: { id: string }, g) => {
      const row = await findMembershipById(g.db, a.id);
      if (!row || !canSeeTeam(await g.access(), row.team_id)) throw notFound('Team membership');
      return node.membership(row);
    },
    teamMemberships: (_s, a: ListArgs, g) => listConnection(g, lists.memberships, a),
  },
  Mutation: {
    teamCreate: async (_s, a: { input: Input }, g) => {
      const team = await teams.createTeam(g.app, g.actor, pick(a.input, TEAM_FIELDS) as never);
      return payload(g, { team: teamNode(team) });
    },
    // Cycle settings go to their own service, which team owners may use too; the rest is admins'.
    teamUpdate: async (_s, a: { id: string; input: Input }, g) => {
      const settings = pick(a.input, CYCLE_SETTING_FIELDS);
      const rest = pick(a.input, TEAM_FIELDS);
      let team =
        Object.keys(rest).length > 0 || Object.keys(settings).length === 0
          ? await teams.updateTeam(g.app, g.actor, a.id, rest as never)
          : undefined;
      if (Object.keys(settings).length > 0)
        team = await updateCycleSettings(g.app, g.actor, team?.id ?? a.id, settings as never);
      return payload(g, { team: teamNode(team!) });
    },
    // The schema's deletion of a team; here it archives (issues stay, unarchive brings it back).
    teamDelete: async (_s, a: { id: string }, g) => {
      const team = await teams.archiveTeam(g.app, g.actor, a.id);
      return payload(g, { entityId: team.id });
    },
    teamUnarchive: async (_s, a: { id: string }, g) => {
      const team = await teams.unarchiveTeam(g.app, g.actor, a.id);
      return payload(g, { entity: teamNode(team) });
    },
    teamMembershipCreate: async (_s, a: { input: Input }, g) => {
      const { teamId, ...rest } = pick(a.input, ['teamId', 'userId', 'owner', 'sortOrder']);
      const row = await teams.addMember(g.app, g.actor, String(teamId), rest as never);
      return payload(g, { teamMembership: node.membership(row) });
    },
    teamMembershipUpdate: async (_s, a: { id: string; input: Input }, g) => {
      const row = await teams.updateMembership(g.app, g.actor, a.id, pick(a.input, ['owner', 'sortOrder']));
      return payload(g, { teamMembership: node.membership(row) });
    },
    teamMembershipDelete: async (_s, a: { id: string }, g) => {
      const row = await teams.deleteMembership(g.app, g.actor, a.id);
      return payload(g, { entityId: row.id });
    },

    workflowStateCreate: async (_s, a: { input: Input }, g) => {
      const input = pick(a.input, ['teamId', 'name', 'color', 'type', 'description', 'position']);
      const state = await states.createState(g.app, g.actor, input as never);
      return payload(g, { workflowState: stateNode(state) });
    },
    workflowStateUpdate: async (_s, a: { id: string; input: Input }, g) => {
      const input = pick(a.input, ['name', 'color', 'description', 'position']);
      const state = await states.updateState(g.app, g.actor, a.id, input as never);
      return payload(g, { workflowState: stateNode(state) });
    },
    // The schema has no replacement argument: a state that still has issues is refused.
    workflowStateArchive: async (_s, a: { id: string }, g) => {
      const state = await states.archiveState(g.app, g.actor, a.id);
      return payload(g, { entity: stateNode(state) });
    },
  },
};
