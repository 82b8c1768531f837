// Team administration over REST (admins only): teams, members, workflow states
// and labels. Every change invalidates `ref:` too, so lists and the board pick
// up renamed states, new keys and labels without a reload.

import { useQuery } from '@tanstack/react-query';
import { ok, type RestBody, type RestData, rest } from './api';
import { keys } from './query-keys';

// The API's own shapes (web/src/rest/openapi.ts, generated from the routes' schemas).
export type TeamRecord = RestData<'get', '/api/teams/{id}'>['team'];
export type Membership = RestData<'get', '/api/teams/{id}/members'>['members'][number];
/** The types a state may have, as the create body names them. */
export type StateType = RestBody<'post', '/api/workflow-states'>['type'];
/** A state as listed; its answer's schema says only `string` for a type the server writes from StateType. */
export type WorkflowState = Omit<
  RestData<'get', '/api/workflow-states'>['workflowStates'][number],
  'type'
> & {
  type: StateType;
};
export type LabelRecord = RestData<'get', '/api/labels'>['labels'][number];

/** The API's state types, in workflow order. */
export const STATE_TYPES = [
  'triage',
  'backlog',
  'unstarted',
  'started',
  'completed',
  'canceled',
] as const satisfies readonly StateType[];

export const HEX = /^#[0-9a-f]{6}$/i;

export const useTeams = () =>
  useQuery({ queryKey: keys.teamAdmin.list, queryFn: () => ok(rest.GET('/api/teams')) });

export const useTeam = (id: string) =>
  useQuery({
    queryKey: keys.teamAdmin.team(id),
    queryFn: () => ok(rest.GET('/api/teams/{id}', { params: { path: { id } } })),
  });

export const useMembers = (teamId: string | undefined) =>
  useQuery({
    queryKey: keys.teamAdmin.members(teamId),
    queryFn: () => ok(rest.GET('/api/teams/{id}/members', { params: { path: { id: teamId! } } })),
    enabled: Boolean(teamId),
  });

export const useStates = (teamId: string | undefined) =>
  useQuery({
    queryKey: keys.teamAdmin.states(teamId),
    queryFn: async () => {
      const r = await ok(rest.GET('/api/workflow-states', { params: { query: { teamId: teamId! } } }));
      return r as { workflowStates: WorkflowState[] };
    },
    enabled: Boolean(teamId),
  });

/** Workspace labels (teamId null) or one team's own labels. */
export const useLabels = (teamId: string | null) =>
  useQuery({
    queryKey: keys.teamAdmin.labels(teamId),
    queryFn: async () => {
      const { labels } = await ok(rest.GET('/api/labels', { params: { query: teamId ? { teamId } : {} } }));
      return labels.filter((l) => l.teamId === teamId);
    },
  });

/** `fresh`: read again whenever a component using it mounts (a choice of people made now). */
export const useUsers = ({ fresh = false } = {}) =>
  useQuery({
    queryKey: keys.teamAdmin.users,
    queryFn: () => ok(rest.GET('/api/users', { params: { query: { limit: 250 } } })),
    ...(fresh ? { refetchOnMount: 'always' as const } : {}),
  });

/** What any team change refreshes: the admin pages and the app's reference data. */
export const TEAM_CHANGES = [keys.teamAdmin.all, keys.ref.all] as const;
