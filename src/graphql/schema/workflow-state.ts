// GraphQL SDL: workflow-state types.
// Names and types match the schema @linear/sdk expects; descriptions are ours.
import { pageArgs } from './page-args.js';

export const workflowStateSdl = /* GraphQL */ `
"""A step in a team's workflow; its type places it in the lifecycle."""
type WorkflowState implements Node {
  """Unique identifier."""
  id: ID!
  """Issues."""
  issues(
${pageArgs('IssueFilter')}
  ): IssueConnection!
  """Longer description."""
  description: String
  """When it last changed in a meaningful way."""
  updatedAt: DateTime!
  """Inherited from."""
  inheritedFrom: WorkflowState
  """Position."""
  position: Float!
  """Colour, as #rrggbb."""
  color: String!
  """Name."""
  name: String!
  """Team."""
  team: Team!
  """When it was archived; null while active."""
  archivedAt: DateTime
  """When it was created."""
  createdAt: DateTime!
  """Type."""
  type: String!
}

"""A workflow state with its cursor."""
type WorkflowStateEdge {
  """Node."""
  node: WorkflowState!
  """Opaque position of this record, for after/before."""
  cursor: String!
}

"""A page of workflow states."""
type WorkflowStateConnection {
  """The records of this page."""
  nodes: [WorkflowState!]!
  """Paging information."""
  pageInfo: PageInfo!
  """The records of this page with their cursors."""
  edges: [WorkflowStateEdge!]!
}
`;
