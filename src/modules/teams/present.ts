// The public shape of a team and its memberships: their schemas, and the
// views over the read model's declarations that REST's answers read
// (platform/read/rest.ts).
import { Type } from 'typebox';
import { team, teamMembership } from '../../platform/read/entities.js';
import { restView } from '../../platform/read/rest.js';
import { USER_VIEW, UserSchema } from '../users/present.js';

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
  triageEnabled: Type.Boolean({ description: 'Issues from outside the team land in its triage state' }),
  timezone: Type.String({ description: 'IANA time zone name' }),
  cyclesAutomatic: Type.Boolean({ description: 'The cycle worker plans cycles from the settings below' }),
  cycleDuration: Type.Integer({ description: 'Weeks per automatic cycle' }),
  cycleCooldownTime: Type.Integer({ description: 'Weeks between automatic cycles' }),
  cycleStartDay: Type.Integer({ description: 'Day automatic cycles start: 0 Sunday .. 6 Saturday' }),
  upcomingCycleCount: Type.Integer({ description: 'Automatic cycles planned ahead of the current one' }),
  cycleRollover: Type.Boolean({
    description: "An ended automatic cycle's unfinished issues move to the next",
  }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  archivedAt: Nullable(Type.String({ format: 'date-time' })),
});

/** A team in the list, which also counts its members (for the administration page). */
export const TeamListItemSchema = Type.Object({
  ...TeamSchema.properties,
  memberCount: Type.Integer({ description: 'Members of the team' }),
});

/** REST's team over the read model's: the schema's keys in its order. */
export const TEAM_VIEW = restView(team, TeamSchema);
/** A team as its list shows it, with its member count. */
export const TEAM_LIST_VIEW = restView(team, TeamListItemSchema);

export const MembershipSchema = Type.Object({
  id: Type.String({ description: 'Membership id (GraphQL teamMembershipDelete takes it)' }),
  teamId: Type.String(),
  userId: Type.String(),
  owner: Type.Boolean(),
  sortOrder: Type.Number(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

/** A member as listed under a team: the membership and the user (teams/service.ts membersJson). */
export const MemberSchema = Type.Object({ ...MembershipSchema.properties, user: UserSchema });

/** REST's membership over the read model's: the add and change answers. */
export const MEMBERSHIP_VIEW = restView(teamMembership, MembershipSchema);
/** A membership with its user as the user views show them: the team's member list. */
export const MEMBER_VIEW = restView(teamMembership, MemberSchema, {
  user: { field: 'user', select: USER_VIEW.select },
});
