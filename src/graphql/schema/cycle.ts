// GraphQL SDL: cycle types.
// Names and types match the schema @linear/sdk expects; descriptions are ours.
import { pageArgs } from './page-args.js';

export const cycleSdl = /* GraphQL */ `
"""A numbered, time-boxed iteration of one team."""
type Cycle implements Node {
  """Unique identifier."""
  id: ID!
  """Issues."""
  issues(
${pageArgs('IssueFilter')}
  ): IssueConnection!
  """Uncompleted issues upon close."""
  uncompletedIssuesUponClose(
${pageArgs('IssueFilter')}
  ): IssueConnection!
  """Number."""
  number: Float!
  """Completed at."""
  completedAt: DateTime
  """Name."""
  name: String
  """Longer description."""
  description: String
  """Ends at."""
  endsAt: DateTime!
  """When it last changed in a meaningful way."""
  updatedAt: DateTime!
  """Completed scope history."""
  completedScopeHistory: [Float!]!
  """Completed issue count history."""
  completedIssueCountHistory: [Float!]!
  """In progress scope history."""
  inProgressScopeHistory: [Float!]!
  """Progress."""
  progress: Float!
  """Inherited from."""
  inheritedFrom: Cycle
  """Starts at."""
  startsAt: DateTime!
  """Team."""
  team: Team!
  """Auto archived at."""
  autoArchivedAt: DateTime
  """When it was archived; null while active."""
  archivedAt: DateTime
  """When it was created."""
  createdAt: DateTime!
  """Scope history."""
  scopeHistory: [Float!]!
  """Issue count history."""
  issueCountHistory: [Float!]!
  """Is future."""
  isFuture: Boolean!
  """Is active."""
  isActive: Boolean!
  """Is past."""
  isPast: Boolean!
  """Is previous."""
  isPrevious: Boolean!
  """Is next."""
  isNext: Boolean!
}

"""A cycle with its cursor."""
type CycleEdge {
  """Node."""
  node: Cycle!
  """Opaque position of this record, for after/before."""
  cursor: String!
}

"""A page of cycles."""
type CycleConnection {
  """The records of this page."""
  nodes: [Cycle!]!
  """Paging information."""
  pageInfo: PageInfo!
  """The records of this page with their cursors."""
  edges: [CycleEdge!]!
}

"""Values for a new cycle."""
input CycleCreateInput {
  """Completed at."""
  completedAt: DateTime
  """Longer description."""
  description: String
  """Ends at."""
  endsAt: DateTime!
  """Unique identifier."""
  id: String
  """Name."""
  name: String
  """Starts at."""
  startsAt: DateTime!
  """Team id."""
  teamId: String!
}

"""Result of a change to a cycle."""
type CyclePayload {
  """Cycle."""
  cycle: Cycle
  """Change counter after the operation."""
  lastSyncId: Float!
  """Whether the operation succeeded."""
  success: Boolean!
}

"""Changes to a cycle; omitted fields stay as they are."""
input CycleUpdateInput {
  """Completed at."""
  completedAt: DateTime
  """Longer description."""
  description: String
  """Ends at."""
  endsAt: DateTime
  """Name."""
  name: String
  """Starts at."""
  startsAt: DateTime
}
`;
