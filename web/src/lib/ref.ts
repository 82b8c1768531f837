// Reference data every screen labels issues with: teams and their workflow
// states, people, labels, projects and cycles. Loaded once, kept fresh by the
// query cache, and invalidated by the admin screens that change them.
import { useQuery } from '@tanstack/react-query';
import { graphql } from '../gql';
import { gql } from './api';
import { queryClient } from './query';
import { keys } from './query-keys';

export interface State {
  id: string;
  name: string;
  type: string;
  color: string;
  position: number;
  teamId: string;
}
export interface Team {
  id: string;
  key: string;
  name: string;
  /** Issues from outside the team wait in its triage queue (pages/Triage.tsx). */
  triageEnabled: boolean;
  states: State[];
}
export interface Person {
  id: string;
  name: string;
  /** What `@` mentions: the first word of the name, unless changed. */
  displayName: string;
  email: string;
}
export interface Label {
  id: string;
  name: string;
  color: string;
  /** The team it belongs to; null for a workspace label, which any issue may carry. */
  teamId: string | null;
}
export interface ProjectRef {
  id: string;
  name: string;
}
export interface CycleRef {
  id: string;
  number: number;
  name: string | null;
  teamId: string;
  isActive: boolean;
  isFuture: boolean;
}

export interface Ref {
  teams: Team[];
  states: State[];
  stateById: Map<string, State>;
  teamById: Map<string, Team>;
  people: Person[];
  personById: Map<string, Person>;
  labels: Label[];
  viewerId: string;
  /** The teams the viewer is a member of, in the order the server lists them. */
  myTeamIds: string[];
  /** The teams the viewer owns (team_members.owner): they change those teams' cycle settings. */
  ownedTeamIds: string[];
}

export const STATE_TYPES = ['triage', 'backlog', 'unstarted', 'started', 'completed', 'canceled'];
/** The state types that close an issue. */
export const DONE_TYPES: ReadonlySet<string> = new Set(['completed', 'canceled']);
/** Whether an issue in `state` is closed (an unknown state counts as open). */
export const isDone = (state: { type: string } | undefined) =>
  state !== undefined && DONE_TYPES.has(state.type);
export const sortStates = (s: State[]) =>
  [...s].sort((a, b) => STATE_TYPES.indexOf(a.type) - STATE_TYPES.indexOf(b.type) || a.position - b.position);

const RefQuery = graphql(`
  query Ref {
    viewer {
      id
      teams(first: 50) { nodes { id } }
      teamMemberships(first: 50) { nodes { owner team { id } } }
    }
    teams(first: 50) { nodes { id key name triageEnabled } }
    workflowStates(first: 250) { nodes { id name type color position team { id } } }
    users(first: 250) { nodes { id name displayName email } }
    issueLabels(first: 250) { nodes { id name color team { id } } }
  }
`);

async function loadRef(): Promise<Ref> {
  const d = await gql(RefQuery);
  // States at the root, not under each team: `teams { states(first: 100) }` is priced as 50 x 100 states
  // (8,300 points for the whole query); this costs about 600.
  const teams = d.teams.nodes.map((t) => ({
    id: t.id,
    key: t.key,
    name: t.name,
    triageEnabled: t.triageEnabled,
    states: sortStates(
      d.workflowStates.nodes
        .filter((s) => s.team.id === t.id)
        .map(({ team, ...s }) => ({ ...s, teamId: team.id })),
    ),
  }));
  const states = teams.flatMap((t) => t.states);
  const people = [...d.users.nodes].sort((a, b) => a.name.localeCompare(b.name));
  return {
    teams,
    states,
    stateById: new Map(states.map((s) => [s.id, s])),
    teamById: new Map(teams.map((t) => [t.id, t])),
    people,
    personById: new Map(people.map((p) => [p.id, p])),
    labels: d.issueLabels.nodes
      .map(({ team, ...l }) => ({ ...l, teamId: team?.id ?? null }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    viewerId: d.viewer.id,
    myTeamIds: d.viewer.teams.nodes.map((t) => t.id),
    ownedTeamIds: d.viewer.teamMemberships.nodes.filter((m) => m.owner).map((m) => m.team.id),
  };
}

/** Reference data changes rarely and every change invalidates it (the change stream, the admin pages). */
const REF_FRESH_MS = 10 * 60_000;

export const useRefData = () =>
  useQuery({
    queryKey: keys.ref.core,
    queryFn: loadRef,
    staleTime: REF_FRESH_MS,
    refetchOnWindowFocus: false,
  });

/** The reference data, read first if it is not here yet (a shortcut pressed while the app starts). */
export const ensureRef = () =>
  queryClient.ensureQueryData({ queryKey: keys.ref.core, queryFn: loadRef, staleTime: REF_FRESH_MS });

const ProjectsQuery = graphql(`
  query ProjectRefs {
    projects(first: 250) { nodes { id name } }
  }
`);
export const useProjects = (enabled: boolean) =>
  useQuery({
    queryKey: keys.ref.projects,
    staleTime: REF_FRESH_MS,
    queryFn: async (): Promise<ProjectRef[]> => (await gql(ProjectsQuery)).projects.nodes,
    enabled,
  });

const CyclesQuery = graphql(`
  query CycleRefs {
    cycles(first: 250) { nodes { id number name isActive isFuture team { id } } }
  }
`);
export const useCycles = (enabled: boolean) =>
  useQuery({
    queryKey: keys.ref.cycles,
    staleTime: REF_FRESH_MS,
    queryFn: async (): Promise<CycleRef[]> =>
      (await gql(CyclesQuery)).cycles.nodes.map(({ team, ...c }) => ({ ...c, teamId: team.id })),
    enabled,
  });

export const cycleName = (c: CycleRef) => c.name || `Cycle ${c.number}`;

/** "ENG · Backlog" once several teams are in play, so same-named states and cycles can be told apart. */
export const teamScoped = (ref: Ref | undefined, teamId: string, name: string) =>
  ref && ref.teams.length > 1 ? `${ref.teamById.get(teamId)?.key ?? '?'} · ${name}` : name;

export { labelsFor } from './issue-edit-choices';
