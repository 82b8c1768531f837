// GraphQL SDL: types of concepts this service does not hold (resolved as empty).
// Names and types match the schema @linear/sdk expects; descriptions are ours.
export const unheldSdl = /* GraphQL */ `
"""Agent session: not held by this service; always absent."""
type AgentSession implements Node {
  """Unique identifier."""
  id: ID!
}

"""Ai prompt rules: not held by this service; always absent."""
type AiPromptRules implements Node {
  """Unique identifier."""
  id: ID!
  """When it last changed in a meaningful way."""
  updatedAt: DateTime!
  """When it was archived; null while active."""
  archivedAt: DateTime
  """When it was created."""
  createdAt: DateTime!
  """Updated by."""
  updatedBy: User
}

"""Values of cycle period."""
enum CyclePeriod {
  after
  before
  during
}

"""Document: not held by this service; always absent."""
type Document implements Node {
  """Unique identifier."""
  id: ID!
}

"""Document content: not held by this service; always absent."""
type DocumentContent implements Node {
  """Unique identifier."""
  id: ID!
  """Ai prompt rules."""
  aiPromptRules: AiPromptRules
  """Content."""
  content: String
  """Content state."""
  contentState: String
  """Document."""
  document: Document
  """Initiative."""
  initiative: Initiative
  """Issue."""
  issue: Issue
  """When it last changed in a meaningful way."""
  updatedAt: DateTime!
  """Project milestone."""
  projectMilestone: ProjectMilestone
  """Project."""
  project: Project
  """Restored at."""
  restoredAt: DateTime
  """When it was archived; null while active."""
  archivedAt: DateTime
  """When it was created."""
  createdAt: DateTime!
  """Welcome message."""
  welcomeMessage: WelcomeMessage
}

"""External entity info: not held by this service; always absent."""
type ExternalEntityInfo {
  """Metadata."""
  metadata: ExternalEntityInfoMetadata
  """Service."""
  service: ExternalSyncService!
  """Unique identifier."""
  id: String!
}

"""External entity info github metadata: not held by this service; always absent."""
type ExternalEntityInfoGithubMetadata {
  """Number."""
  number: Float
  """Owner."""
  owner: String
  """Repo."""
  repo: String
}

"""External entity info jira metadata: not held by this service; always absent."""
type ExternalEntityInfoJiraMetadata {
  """Issue type id."""
  issueTypeId: String
  """Project id."""
  projectId: String
  """Issue key."""
  issueKey: String
}

"""External entity info metadata: not held by this service; always absent."""
union ExternalEntityInfoMetadata = ExternalEntityInfoGithubMetadata | ExternalEntityInfoJiraMetadata | ExternalEntitySlackMetadata

"""External entity slack metadata: not held by this service; always absent."""
type ExternalEntitySlackMetadata {
  """Message url."""
  messageUrl: String
  """Channel id."""
  channelId: String
  """Channel name."""
  channelName: String
  """Is from slack."""
  isFromSlack: Boolean!
}

"""Values of external sync service."""
enum ExternalSyncService {
  github
  jira
  slack
}

"""Favorite: not held by this service; always absent."""
type Favorite implements Node {
  """Unique identifier."""
  id: ID!
}

"""Initiative: not held by this service; always absent."""
type Initiative implements Node {
  """Unique identifier."""
  id: ID!
}

"""Initiative update: not held by this service; always absent."""
type InitiativeUpdate implements Node {
  """Unique identifier."""
  id: ID!
}

"""Integration: not held by this service; always absent."""
type Integration implements Node {
  """Unique identifier."""
  id: ID!
}

"""Values of integration service."""
enum IntegrationService {
  airbyte
  asksWeb
  discord
  email
  figma
  figmaPlugin
  front
  github
  githubCodeAccessPersonal
  githubCommit
  githubEnterpriseServer
  githubImport
  githubPersonal
  gitlab
  gong
  googleCalendarPersonal
  googleSheets
  intercom
  jira
  jiraPersonal
  launchDarkly
  launchDarklyPersonal
  loom
  mcpServer
  mcpServerPersonal
  microsoftPersonal
  microsoftTeams
  microsoftTeamsProjectPost
  notion
  opsgenie
  pagerDuty
  salesforce
  sentry
  slack
  slackAsks
  slackCustomViewNotifications
  slackInitiativePost
  slackOrgInitiativeUpdatesPost
  slackOrgProjectUpdatesPost
  slackPersonal
  slackPost
  slackProjectPost
  slackProjectUpdatesPost
  zendesk
}

"""Integrations settings: not held by this service; always absent."""
type IntegrationsSettings implements Node {
  """Unique identifier."""
  id: ID!
}

"""Project milestone: not held by this service; always absent."""
type ProjectMilestone implements Node {
  """Unique identifier."""
  id: ID!
}

"""Project update: not held by this service; always absent."""
type ProjectUpdate implements Node {
  """Unique identifier."""
  id: ID!
}

"""Reaction: not held by this service; always absent."""
type Reaction implements Node {
  """Unique identifier."""
  id: ID!
  """Comment."""
  comment: Comment
  """External user."""
  externalUser: ExternalUser
  """Initiative update."""
  initiativeUpdate: InitiativeUpdate
  """Issue."""
  issue: Issue
  """When it last changed in a meaningful way."""
  updatedAt: DateTime!
  """Emoji."""
  emoji: String!
  """Project update."""
  projectUpdate: ProjectUpdate
  """When it was archived; null while active."""
  archivedAt: DateTime
  """When it was created."""
  createdAt: DateTime!
  """User."""
  user: User
}

"""Values of release pipeline type."""
enum ReleasePipelineType {
  continuous
  scheduled
}

"""Values of release stage type."""
enum ReleaseStageType {
  canceled
  completed
  planned
  started
}

"""Values of sla status."""
enum SlaStatus {
  Breached
  Completed
  Failed
  HighRisk
  LowRisk
  MediumRisk
}

"""Synced external thread: not held by this service; always absent."""
type SyncedExternalThread {
  """Address of the record."""
  url: String
  """Name."""
  name: String
  """Display name."""
  displayName: String
  """Type."""
  type: String!
  """Sub type."""
  subType: String
  """Unique identifier."""
  id: ID
  """Is personal integration required."""
  isPersonalIntegrationRequired: Boolean!
  """Is personal integration connected."""
  isPersonalIntegrationConnected: Boolean!
  """Is connected."""
  isConnected: Boolean!
}

"""Template: not held by this service; always absent."""
type Template implements Node {
  """Unique identifier."""
  id: ID!
}

"""Triage responsibility: not held by this service; always absent."""
type TriageResponsibility implements Node {
  """Unique identifier."""
  id: ID!
}

"""Welcome message: not held by this service; always absent."""
type WelcomeMessage implements Node {
  """Unique identifier."""
  id: ID!
  """When it last changed in a meaningful way."""
  updatedAt: DateTime!
  """When it was archived; null while active."""
  archivedAt: DateTime
  """When it was created."""
  createdAt: DateTime!
  """Title."""
  title: String
  """Updated by."""
  updatedBy: User
  """Enabled."""
  enabled: Boolean!
}
`;
