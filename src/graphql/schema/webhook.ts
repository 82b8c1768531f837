// GraphQL SDL: webhook types.
// Names and types match the schema @linear/sdk expects; descriptions are ours.
export const webhookSdl = /* GraphQL */ `
"""An endpoint that receives signed change notifications."""
type Webhook implements Node {
  """Unique identifier."""
  id: ID!
  """Label."""
  label: String
  """Secret."""
  secret: String
  """Address of the record."""
  url: String
  """When it last changed in a meaningful way."""
  updatedAt: DateTime!
  """Resource types."""
  resourceTypes: [String!]!
  """Team."""
  team: Team
  """When it was archived; null while active."""
  archivedAt: DateTime
  """When it was created."""
  createdAt: DateTime!
  """Creator."""
  creator: User
  """Enabled."""
  enabled: Boolean!
  """All public teams."""
  allPublicTeams: Boolean!
}

"""A webhook with its cursor."""
type WebhookEdge {
  """Node."""
  node: Webhook!
  """Opaque position of this record, for after/before."""
  cursor: String!
}

"""A page of webhooks."""
type WebhookConnection {
  """The records of this page."""
  nodes: [Webhook!]!
  """Paging information."""
  pageInfo: PageInfo!
  """The records of this page with their cursors."""
  edges: [WebhookEdge!]!
}

"""Values for a new webhook."""
input WebhookCreateInput {
  """All public teams."""
  allPublicTeams: Boolean
  """Enabled."""
  enabled: Boolean
  """Unique identifier."""
  id: String
  """Label."""
  label: String
  """Resource types."""
  resourceTypes: [String!]!
  """Secret."""
  secret: String
  """Team id."""
  teamId: String
  """Address of the record."""
  url: String!
}

"""Result of a change to a webhook."""
type WebhookPayload {
  """Change counter after the operation."""
  lastSyncId: Float!
  """Webhook."""
  webhook: Webhook!
  """Whether the operation succeeded."""
  success: Boolean!
}

"""Changes to a webhook; omitted fields stay as they are."""
input WebhookUpdateInput {
  """Enabled."""
  enabled: Boolean
  """Label."""
  label: String
  """Resource types."""
  resourceTypes: [String!]
  """Secret."""
  secret: String
  """Address of the record."""
  url: String
}
`;
