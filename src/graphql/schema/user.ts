// GraphQL SDL: user types.
// Names and types match the schema @linear/sdk expects; descriptions are ours.
import { pageArgs } from './page-args.js';

export const userSdl = /* GraphQL */ `
"""Actor bot."""
type ActorBot {
  """Avatar url."""
  avatarUrl: String
  """Sub type."""
  subType: String
  """Unique identifier."""
  id: ID
  """Name."""
  name: String
  """User display name."""
  userDisplayName: String
  """Type."""
  type: String!
}

"""External user."""
type ExternalUser implements Node {
  """Unique identifier."""
  id: ID!
}

"""A person with an account in this workspace."""
type User implements Node {
  """Unique identifier."""
  id: ID!
  """Assigned issues."""
  assignedIssues(
${pageArgs('IssueFilter')}
  ): IssueConnection!
  """Created issues."""
  createdIssues(
${pageArgs('IssueFilter')}
  ): IssueConnection!
  """Teams."""
  teams(
${pageArgs('TeamFilter')}
  ): TeamConnection!
  """Longer description."""
  description: String
  """Avatar url."""
  avatarUrl: String
  """Created issue count."""
  createdIssueCount: Int!
  """Avatar background color."""
  avatarBackgroundColor: String!
  """Status until at."""
  statusUntilAt: DateTime
  """Status emoji."""
  statusEmoji: String
  """Initials."""
  initials: String!
  """When it last changed in a meaningful way."""
  updatedAt: DateTime!
  """Last seen."""
  lastSeen: DateTime
  """Timezone."""
  timezone: String
  """Disable reason."""
  disableReason: String
  """Status label."""
  statusLabel: String
  """When it was archived; null while active."""
  archivedAt: DateTime
  """When it was created."""
  createdAt: DateTime!
  """Git hub user id."""
  gitHubUserId: String
  """Display name."""
  displayName: String!
  """Email."""
  email: String!
  """Name."""
  name: String!
  """Title."""
  title: String
  """Address of the record."""
  url: String!
  """Active."""
  active: Boolean!
  """Is assignable."""
  isAssignable: Boolean!
  """Guest."""
  guest: Boolean!
  """Admin."""
  admin: Boolean!
  """Owner."""
  owner: Boolean!
  """App."""
  app: Boolean!
  """Is mentionable."""
  isMentionable: Boolean!
  """Is me."""
  isMe: Boolean!
  """Supports agent sessions."""
  supportsAgentSessions: Boolean!
  """Can access any public team."""
  canAccessAnyPublicTeam: Boolean!
  """Calendar hash."""
  calendarHash: String
  """Invite hash."""
  inviteHash: String!
}

"""A user with its cursor."""
type UserEdge {
  """Node."""
  node: User!
  """Opaque position of this record, for after/before."""
  cursor: String!
}

"""A page of users."""
type UserConnection {
  """The records of this page."""
  nodes: [User!]!
  """Paging information."""
  pageInfo: PageInfo!
  """The records of this page with their cursors."""
  edges: [UserEdge!]!
}
`;
