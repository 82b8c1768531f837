// GraphQL SDL: attachment types.
// Names and types match the schema @linear/sdk expects; descriptions are ours.
export const attachmentSdl = /* GraphQL */ `
"""A link or uploaded file attached to an issue."""
type Attachment implements Node {
  """Unique identifier."""
  id: ID!
  """Subtitle."""
  subtitle: String
  """Title."""
  title: String!
  """Source."""
  source: JSONObject
  """Metadata."""
  metadata: JSONObject!
  """Address of the record."""
  url: String!
  """Body data."""
  bodyData: String
  """Creator."""
  creator: User
  """Issue."""
  issue: Issue!
  """Original issue."""
  originalIssue: Issue
  """When it last changed in a meaningful way."""
  updatedAt: DateTime!
  """External user creator."""
  externalUserCreator: ExternalUser
  """Source type."""
  sourceType: String
  """When it was archived; null while active."""
  archivedAt: DateTime
  """When it was created."""
  createdAt: DateTime!
  """Group by source."""
  groupBySource: Boolean!
}

"""A attachment with its cursor."""
type AttachmentEdge {
  """Node."""
  node: Attachment!
  """Opaque position of this record, for after/before."""
  cursor: String!
}

"""A page of attachments."""
type AttachmentConnection {
  """The records of this page."""
  nodes: [Attachment!]!
  """Paging information."""
  pageInfo: PageInfo!
  """The records of this page with their cursors."""
  edges: [AttachmentEdge!]!
}

"""Values for a new attachment."""
input AttachmentCreateInput {
  """Comment body."""
  commentBody: String
  """Comment body data."""
  commentBodyData: JSONObject
  """Create as user."""
  createAsUser: String
  """Display icon url."""
  displayIconUrl: String
  """Group by source."""
  groupBySource: Boolean
  """Icon url."""
  iconUrl: String
  """Unique identifier."""
  id: String
  """Issue id."""
  issueId: String!
  """Metadata."""
  metadata: JSONObject
  """Subtitle."""
  subtitle: String
  """Title."""
  title: String!
  """Address of the record."""
  url: String!
}

"""Result of a change to a attachment."""
type AttachmentPayload {
  """Change counter after the operation."""
  lastSyncId: Float!
  """Attachment."""
  attachment: Attachment!
  """Whether the operation succeeded."""
  success: Boolean!
}

"""Changes to a attachment; omitted fields stay as they are."""
input AttachmentUpdateInput {
  """Icon url."""
  iconUrl: String
  """Metadata."""
  metadata: JSONObject
  """Subtitle."""
  subtitle: String
  """Title."""
  title: String!
}
`;
