// GraphQL SDL: comment types.
// Names and types match the schema @linear/sdk expects; descriptions are ours.
import { pageArgs } from './page-args.js';

export const commentSdl = /* GraphQL */ `
"""A message on an issue; replies point at their parent comment."""
type Comment implements Node {
  """Unique identifier."""
  id: ID!
  """Children."""
  children(
${pageArgs('CommentFilter')}
  ): CommentConnection!
  """Agent session."""
  agentSession: AgentSession
  """Address of the record."""
  url: String!
  """Reaction data."""
  reactionData: JSONObject!
  """Reactions."""
  reactions: [Reaction!]!
  """Resolving comment id."""
  resolvingCommentId: String
  """Document content id."""
  documentContentId: String
  """Initiative id."""
  initiativeId: String
  """Initiative update id."""
  initiativeUpdateId: String
  """Issue id."""
  issueId: String
  """Parent id."""
  parentId: String
  """Project id."""
  projectId: String
  """Project update id."""
  projectUpdateId: String
  """Bot actor."""
  botActor: ActorBot
  """Resolving comment."""
  resolvingComment: Comment
  """Body."""
  body: String!
  """Document content."""
  documentContent: DocumentContent
  """Synced with."""
  syncedWith: [ExternalEntityInfo!]
  """External thread."""
  externalThread: SyncedExternalThread
  """External user."""
  externalUser: ExternalUser
  """Initiative."""
  initiative: Initiative
  """Initiative update."""
  initiativeUpdate: InitiativeUpdate
  """Issue."""
  issue: Issue
  """When it last changed in a meaningful way."""
  updatedAt: DateTime!
  """Parent."""
  parent: Comment
  """Project."""
  project: Project
  """Project update."""
  projectUpdate: ProjectUpdate
  """Quoted text."""
  quotedText: String
  """When it was archived; null while active."""
  archivedAt: DateTime
  """When it was created."""
  createdAt: DateTime!
  """Edited at."""
  editedAt: DateTime
  """Resolved at."""
  resolvedAt: DateTime
  """Resolving user."""
  resolvingUser: User
  """User."""
  user: User
}

"""A comment with its cursor."""
type CommentEdge {
  """Node."""
  node: Comment!
  """Opaque position of this record, for after/before."""
  cursor: String!
}

"""A page of comments."""
type CommentConnection {
  """The records of this page."""
  nodes: [Comment!]!
  """Paging information."""
  pageInfo: PageInfo!
  """The records of this page with their cursors."""
  edges: [CommentEdge!]!
}

"""Values for a new comment."""
input CommentCreateInput {
  """Body."""
  body: String
  """Body data."""
  bodyData: JSON
  """Create as user."""
  createAsUser: String
  """Create on synced slack thread."""
  createOnSyncedSlackThread: Boolean
  """When it was created."""
  createdAt: DateTime
  """Display icon url."""
  displayIconUrl: String
  """Do not subscribe to issue."""
  doNotSubscribeToIssue: Boolean
  """Document content id."""
  documentContentId: String
  """Unique identifier."""
  id: String
  """Initiative id."""
  initiativeId: String
  """Initiative update id."""
  initiativeUpdateId: String
  """Issue id."""
  issueId: String
  """Parent id."""
  parentId: String
  """Post id."""
  postId: String
  """Project id."""
  projectId: String
  """Project update id."""
  projectUpdateId: String
  """Quoted text."""
  quotedText: String
  """Subscriber ids."""
  subscriberIds: [String!]
}

"""Result of a change to a comment."""
type CommentPayload {
  """Comment."""
  comment: Comment!
  """Change counter after the operation."""
  lastSyncId: Float!
  """Whether the operation succeeded."""
  success: Boolean!
}

"""Changes to a comment; omitted fields stay as they are."""
input CommentUpdateInput {
  """Body."""
  body: String
  """Body data."""
  bodyData: JSON
  """Do not subscribe to issue."""
  doNotSubscribeToIssue: Boolean
  """Quoted text."""
  quotedText: String
  """Resolving comment id."""
  resolvingCommentId: String
  """Resolving user id."""
  resolvingUserId: String
  """Subscriber ids."""
  subscriberIds: [String!]
}
`;
