// GraphQL SDL: label types.
// Names and types match the schema @linear/sdk expects; descriptions are ours.
import { pageArgs } from './page-args.js';

export const labelSdl = /* GraphQL */ `
"""A tag for issues, owned by a team or shared by the workspace."""
type IssueLabel implements Node {
  """Unique identifier."""
  id: ID!
  """Children."""
  children(
${pageArgs('IssueLabelFilter')}
  ): IssueLabelConnection!
  """Issues."""
  issues(
${pageArgs('IssueFilter')}
  ): IssueConnection!
  """Last applied at."""
  lastAppliedAt: DateTime
  """Colour, as #rrggbb."""
  color: String!
  """Longer description."""
  description: String
  """Name."""
  name: String!
  """When it last changed in a meaningful way."""
  updatedAt: DateTime!
  """Inherited from."""
  inheritedFrom: IssueLabel
  """Parent."""
  parent: IssueLabel
  """Team."""
  team: Team
  """When it was archived; null while active."""
  archivedAt: DateTime
  """When it was created."""
  createdAt: DateTime!
  """Creator."""
  creator: User
  """Retired by."""
  retiredBy: User
  """Is group."""
  isGroup: Boolean!
  """Group type."""
  groupType: LabelGroupType
}

"""A issue label with its cursor."""
type IssueLabelEdge {
  """Node."""
  node: IssueLabel!
  """Opaque position of this record, for after/before."""
  cursor: String!
}

"""A page of issue labels."""
type IssueLabelConnection {
  """The records of this page."""
  nodes: [IssueLabel!]!
  """Paging information."""
  pageInfo: PageInfo!
  """The records of this page with their cursors."""
  edges: [IssueLabelEdge!]!
}

"""Values for a new issue label."""
input IssueLabelCreateInput {
  """Colour, as #rrggbb."""
  color: String
  """Longer description."""
  description: String
  """Unique identifier."""
  id: String
  """Is group."""
  isGroup: Boolean
  """Name."""
  name: String!
  """Parent id."""
  parentId: String
  """Retired at."""
  retiredAt: DateTime
  """Team id."""
  teamId: String
}

"""Result of a change to a issue label."""
type IssueLabelPayload {
  """Change counter after the operation."""
  lastSyncId: Float!
  """Issue label."""
  issueLabel: IssueLabel!
  """Whether the operation succeeded."""
  success: Boolean!
}

"""Changes to a issue label; omitted fields stay as they are."""
input IssueLabelUpdateInput {
  """Colour, as #rrggbb."""
  color: String
  """Longer description."""
  description: String
  """Is group."""
  isGroup: Boolean
  """Name."""
  name: String
  """Parent id."""
  parentId: String
  """Retired at."""
  retiredAt: DateTime
}

"""Values of label group type."""
enum LabelGroupType {
  multiSelect
  singleSelect
}
`;
