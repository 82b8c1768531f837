// The public shape of a team.
import { Type } from 'typebox';
import type { TeamRow } from '../../platform/db/tables.js';
import { type UserJson, UserSchema } from '../users/present.js';
import type { MembershipRow } from './queries.js';

export function presentTeam(t: TeamRow) {
  return {
    id: t.id,
    key: t.key,
    name: t.name,
    description: t.description,
    color: t.color,
    icon: t.icon,
    private: t.private,
    lastIssueNumber: t.issue_count,
    cyclesEnabled: t.cycles_enabled,
    timezone: t.timezone,
    createdAt: t.created_at.toISOString(),
    updatedAt: t.updated_at.toISOString(),
    archivedAt: t.archived_at?.toISOString() ?? null,
  };
}

export type TeamJson = ReturnType<typeof presentTeam>;

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const TeamSchema = Type.Object({
  id: Type.String(),
  key: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  color: Nullable(Type.String()),
  icon: Nullable(Type.String()),
  private: Type.Boolean(),
  lastIssueNumber: Type.Integer({
    description:
      "The last issue number taken in this team (the next issue is this + 1); GraphQL's Team.issueCount counts its issues",
  }),
  cyclesEnabled: Type.Boolean(),
  timezone: Type.String({ description: 'IANA time zone name' }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  archivedAt: Nullable(Type.String({ format: 'date-time' })),
});

/** A team in the list, which also counts its members (for the administration page). */
export const TeamListItemSchema = Type.Object({
  ...TeamSchema.properties,
  memberCount: Type.Integer({ description: 'Members of the team' }),
});

export function presentMembership(m: MembershipRow) {
  return {
    id: m.id,
    teamId: m.team_id,
    userId: m.user_id,
    owner: m.owner,
    sortOrder: m.sort_order,
    createdAt: m.created_at.toISOString(),
    updatedAt: m.updated_at.toISOString(),
  };
}

export const MembershipSchema = Type.Object({
  id: Type.String({ description: 'Membership id (GraphQL teamMembershipDelete takes it)' }),
  teamId: Type.String(),
  userId: Type.String(),
  owner: Type.Boolean(),
  sortOrder: Type.Number(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

/** A member as listed under a team: the membership and the user. */
export const presentMember = (m: MembershipRow, user: UserJson) => ({ ...presentMembership(m), user });

export const MemberSchema = Type.Object({ ...MembershipSchema.properties, user: UserSchema });
