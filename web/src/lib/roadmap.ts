// The timeline's data: every project with its dates, teams, the health of its
// latest update and its milestones, read page by page (100 projects a request,
// milestones nested, so one statement per level on the server, never one
// request per project), and the writes that move dates: each shown at once in
// the cached timeline and put back if the server refuses.
import { useQuery } from '@tanstack/react-query';
import { graphql } from '../gql';
import { useAction } from './action';
import { gql, ok, rest } from './api';
import { invalidate } from './query';
import { keys } from './query-keys';

const RoadmapQuery = graphql(`
  query Roadmap($after: String) {
    projects(first: 100, after: $after) {
      nodes {
        id name state startDate targetDate
        lastUpdate { health }
        teams(first: 20) { nodes { id name } }
        projectMilestones(first: 50) { nodes { id name targetDate } }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

export interface RoadmapMilestone {
  id: string;
  name: string;
  targetDate: string | null;
}
export interface RoadmapProject {
  id: string;
  name: string;
  state: string;
  startDate: string | null;
  targetDate: string | null;
  health: string | null;
  teams: { id: string; name: string }[];
  milestones: RoadmapMilestone[];
}

/** Every project, all pages (a workspace's projects number in the hundreds, not more). */
export function useRoadmap() {
  return useQuery({
    queryKey: keys.projects.roadmap,
    queryFn: async (): Promise<RoadmapProject[]> => {
      const all: RoadmapProject[] = [];
      let after: string | undefined;
      for (;;) {
        const { projects } = await gql(RoadmapQuery, after ? { after } : {});
        for (const p of projects.nodes)
          all.push({
            id: p.id,
            name: p.name,
            state: p.state,
            startDate: p.startDate ?? null,
            targetDate: p.targetDate ?? null,
            health: p.lastUpdate?.health ?? null,
            teams: p.teams.nodes,
            milestones: p.projectMilestones.nodes.map((m) => ({ ...m, targetDate: m.targetDate ?? null })),
          });
        if (!projects.pageInfo.hasNextPage || !projects.pageInfo.endCursor) return all;
        after = projects.pageInfo.endCursor;
      }
    },
  });
}

/** A change of dates: a project's start and target, or a milestone's target. */
export type DateMove =
  | { kind: 'project'; id: string; startDate: string; targetDate: string }
  | { kind: 'milestone'; id: string; projectId: string; targetDate: string };

function applyMove(list: RoadmapProject[], move: DateMove): RoadmapProject[] {
  return list.map((p) => {
    if (move.kind === 'project')
      return p.id === move.id ? { ...p, startDate: move.startDate, targetDate: move.targetDate } : p;
    if (p.id !== move.projectId) return p;
    return {
      ...p,
      milestones: p.milestones.map((m) => (m.id === move.id ? { ...m, targetDate: move.targetDate } : m)),
    };
  });
}

/** Saves a move over REST (PATCH /api/projects/:id, /api/milestones/:id); `onRefused` hears why. */
export function useDateMove(onDone: (move: DateMove, error: unknown) => void) {
  const refreshMilestones = (move: DateMove) => {
    if (move.kind === 'milestone') void invalidate(keys.milestones(move.projectId));
  };
  return useAction<DateMove, unknown, RoadmapProject[]>(
    (move: DateMove): Promise<unknown> =>
      move.kind === 'project'
        ? ok(
            rest.PATCH('/api/projects/{id}', {
              params: { path: { id: move.id } },
              body: { startDate: move.startDate, targetDate: move.targetDate },
            }),
          )
        : ok(
            rest.PATCH('/api/milestones/{id}', {
              params: { path: { id: move.id } },
              body: { targetDate: move.targetDate },
            }),
          ),
    {
      optimistic: { key: keys.projects.roadmap, apply: applyMove },
      refreshes: [keys.projects.list],
      onSuccess: (_r, move) => {
        refreshMilestones(move);
        onDone(move, null);
      },
      onError: (error, move) => {
        refreshMilestones(move);
        onDone(move, error);
      },
    },
  );
}
