// GraphQL SDL: workflow-state types.
// Names and types match the schema @linear/sdk expects; descriptions are ours.
export const workflowStateSdl = /* GraphQL */ `
"""A step in a team's workflow; its type places it in the lifecycle."""
type WorkflowState implements Node {
  """Unique identifier."""
  id: ID!
  """Issues."""
  issues(
    "Cursor after which the page starts." after: String
    "Cursor before which the page ends." before: String
    "Conditions the records must meet." filter: IssueFilter
    "Page size from the start (default 50, at most 250)." first: Int
    "Include archived records." includeArchived: Boolean
    "Page size from the end (at most 250)." last: Int
    "Sort key; newest first." orderBy: PaginationOrderBy
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
