// Team administration over REST (admins only): teams, members, workflow states
// and labels. Every change invalidates `ref:` too, so lists and the board pick
// up renamed states, new keys and labels without a reload.

import { useQuery } from '@tanstack/react-query';
import { api } from './api';
import { invalidate } from './query';
import type { User } from './session';

export interface TeamRecord {
  id: string;
  key: string;
  name: string;
  description: string | null;
  color: string | null;
  icon: string | null;
  private: boolean;
  issueCount: number;
  timezone: string;
  updatedAt: string;
  archivedAt: string | null;
  /** In the list of teams only. */
  memberCount?: number;
}

export interface Membership {
  id: string;
  userId: string;
  owner: boolean;
  user: User;
}

/** The API's state types, in workflow order. */
export const STATE_TYPES = ['triage', 'backlog', 'unstarted', 'started', 'completed', 'canceled'] as const;
export type StateType = (typeof STATE_TYPES)[number];

export interface WorkflowState {
  id: string;
  teamId: string;
  name: string;
  type: StateType;
  color: string;
  position: number;
}

export interface LabelRecord {
  id: string;
  name: string;
  color: string;
  teamId: string | null;
}

export const HEX = /^#[0-9a-f]{6}$/i;

export const useTeams = () =>
  useQuery({ queryKey: ['team-admin', 'list'], queryFn: () => api.get<{ teams: TeamRecord[] }>('/teams') });

export const useTeam = (id: string) =>
  useQuery({
    queryKey: ['team-admin', 'team', id],
    queryFn: () => api.get<{ team: TeamRecord }>(`/teams/${encodeURIComponent(id)}`),
  });

export const useMembers = (teamId: string | undefined) =>
  useQuery({
    queryKey: ['team-admin', 'members', teamId],
    queryFn: () => api.get<{ members: Membership[] }>(`/teams/${teamId}/members`),
    enabled: Boolean(teamId),
  });

export const useStates = (teamId: string | undefined) =>
  useQuery({
    queryKey: ['team-admin', 'states', teamId],
    queryFn: () => api.get<{ workflowStates: WorkflowState[] }>(`/workflow-states?teamId=${teamId}`),
    enabled: Boolean(teamId),
  });

/** Workspace labels (teamId null) or one team's own labels. */
export const useLabels = (teamId: string | null) =>
  useQuery({
    queryKey: ['team-admin', 'labels', teamId ?? 'workspace'],
    queryFn: async () => {
      const { labels } = await api.get<{ labels: LabelRecord[] }>(
        teamId ? `/labels?teamId=${teamId}` : '/labels',
      );
      return labels.filter((l) => l.teamId === teamId);
    },
  });

export const useUsers = () =>
  useQuery({
    queryKey: ['team-admin', 'users'],
    queryFn: () => api.get<{ users: User[] }>('/users?limit=250'),
  });

/** After any team change: the admin pages and the app's reference data. */
export function refreshTeams() {
  invalidate('team-admin');
  invalidate('ref');
}
