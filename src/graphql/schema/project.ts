// GraphQL SDL: project types.
// Names and types match the schema @linear/sdk expects; descriptions are ours.
import { pageArgs } from './page-args.js';

export const projectSdl = /* GraphQL */ `
"""Values of date resolution type."""
enum DateResolutionType {
  halfYear
  month
  quarter
  year
}

"""Values of frequency resolution type."""
enum FrequencyResolutionType {
  daily
  weekly
}

"""A body of work spanning issues, possibly across teams."""
type Project implements Node {
  """Unique identifier."""
  id: ID!
  """Issues."""
  issues(
${pageArgs('IssueFilter')}
  ): IssueConnection!
  """Members."""
  members(
${pageArgs('UserFilter', ['includeDisabled: Boolean'])}
  ): UserConnection!
  """Teams."""
  teams(
${pageArgs('TeamFilter')}
  ): TeamConnection!
  """Trashed."""
  trashed: Boolean
  """Address of the record."""
  url: String!
  """Integrations settings."""
  integrationsSettings: IntegrationsSettings
  """Microsoft teams channel id."""
  microsoftTeamsChannelId: String
  """Slack channel id."""
  slackChannelId: String
  """Label ids."""
  labelIds: [String!]!
  """Document content."""
  documentContent: DocumentContent
  """Status."""
  status: ProjectStatus!
  """Update reminders day."""
  updateRemindersDay: Day
  """Target date."""
  targetDate: TimelessDate
  """Start date."""
  startDate: TimelessDate
  """Synced with."""
  syncedWith: [ExternalEntityInfo!]
  """Update reminder frequency."""
  updateReminderFrequency: Float
  """Update reminders hour."""
  updateRemindersHour: Float
  """Icon."""
  icon: String
  """Converted from issue."""
  convertedFromIssue: Issue
  """Last applied template."""
  lastAppliedTemplate: Template
  """When it last changed in a meaningful way."""
  updatedAt: DateTime!
  """Last update."""
  lastUpdate: ProjectUpdate
  """Update reminder frequency in weeks."""
  updateReminderFrequencyInWeeks: Float
  """Name."""
  name: String!
  """Completed scope history."""
  completedScopeHistory: [Float!]!
  """Completed issue count history."""
  completedIssueCountHistory: [Float!]!
  """In progress scope history."""
  inProgressScopeHistory: [Float!]!
  """Health."""
  health: ProjectUpdateHealthType
  """Progress."""
  progress: Float!
  """Scope."""
  scope: Float!
  """Priority label."""
  priorityLabel: String!
  """Priority."""
  priority: Int!
  """Colour, as #rrggbb."""
  color: String!
  """Content."""
  content: String
  """Slug id."""
  slugId: String!
  """Target date resolution."""
  targetDateResolution: DateResolutionType
  """Start date resolution."""
  startDateResolution: DateResolutionType
  """Frequency resolution."""
  frequencyResolution: FrequencyResolutionType!
  """Longer description."""
  description: String!
  """Priority sort order."""
  prioritySortOrder: Float!
  """Sort order."""
  sortOrder: Float!
  """When it was archived; null while active."""
  archivedAt: DateTime
  """When it was created."""
  createdAt: DateTime!
  """Health updated at."""
  healthUpdatedAt: DateTime
  """Auto archived at."""
  autoArchivedAt: DateTime
  """Canceled at."""
  canceledAt: DateTime
  """Completed at."""
  completedAt: DateTime
  """Started at."""
  startedAt: DateTime
  """Project update reminders paused until at."""
  projectUpdateRemindersPausedUntilAt: DateTime
  """Issue count history."""
  issueCountHistory: [Float!]!
  """Scope history."""
  scopeHistory: [Float!]!
  """Creator."""
  creator: User
  """Lead."""
  lead: User
  """Favorite."""
  favorite: Favorite
  """Slack issue comments."""
  slackIssueComments: Boolean!
  """Slack new issue."""
  slackNewIssue: Boolean!
  """Slack issue statuses."""
  slackIssueStatuses: Boolean!
  """State."""
  state: String!
  """Resource count."""
  resourceCount: Int!
}

"""Result of a change to a project archive."""
type ProjectArchivePayload implements ArchivePayload {
  """Change counter after the operation."""
  lastSyncId: Float!
  """Whether the operation succeeded."""
  success: Boolean!
  """Entity."""
  entity: Project
  """Id of the removed record."""
  entityId: String
}

"""A project with its cursor."""
type ProjectEdge {
  """Node."""
  node: Project!
  """Opaque position of this record, for after/before."""
  cursor: String!
}

"""A page of projects."""
type ProjectConnection {
  """The records of this page."""
  nodes: [Project!]!
  """Paging information."""
  pageInfo: PageInfo!
  """The records of this page with their cursors."""
  edges: [ProjectEdge!]!
}

"""Values for a new project."""
input ProjectCreateInput {
  """Colour, as #rrggbb."""
  color: String
  """Content."""
  content: String
  """Converted from issue id."""
  convertedFromIssueId: String
  """Longer description."""
  description: String
  """Icon."""
  icon: String
  """Unique identifier."""
  id: String
  """Label ids."""
  labelIds: [String!]
  """Last applied template id."""
  lastAppliedTemplateId: String
  """Lead id."""
  leadId: String
  """Member ids."""
  memberIds: [String!]
  """Name."""
  name: String!
  """Priority."""
  priority: Int
  """Priority sort order."""
  prioritySortOrder: Float
  """Sort order."""
  sortOrder: Float
  """Start date."""
  startDate: TimelessDate
  """Start date resolution."""
  startDateResolution: DateResolutionType
  """Status id."""
  statusId: String
  """Target date."""
  targetDate: TimelessDate
  """Target date resolution."""
  targetDateResolution: DateResolutionType
  """Team ids."""
  teamIds: [String!]!
  """Template id."""
  templateId: String
  """Use default template."""
  useDefaultTemplate: Boolean
}

"""Result of a change to a project."""
type ProjectPayload {
  """Change counter after the operation."""
  lastSyncId: Float!
  """Project."""
  project: Project
  """Whether the operation succeeded."""
  success: Boolean!
}

"""Project status."""
type ProjectStatus implements Node {
  """Unique identifier."""
  id: ID!
  """Longer description."""
  description: String
  """Type."""
  type: ProjectStatusType!
  """Colour, as #rrggbb."""
  color: String!
  """When it last changed in a meaningful way."""
  updatedAt: DateTime!
  """Name."""
  name: String!
  """Position."""
  position: Float!
  """When it was archived; null while active."""
  archivedAt: DateTime
  """When it was created."""
  createdAt: DateTime!
  """Indefinite."""
  indefinite: Boolean!
}

"""Values of project status type."""
enum ProjectStatusType {
  backlog
  canceled
  completed
  paused
  planned
  started
}

"""Values of project update health type."""
enum ProjectUpdateHealthType {
  atRisk
  offTrack
  onTrack
}

"""Changes to a project; omitted fields stay as they are."""
input ProjectUpdateInput {
  """Canceled at."""
  canceledAt: DateTime
  """Colour, as #rrggbb."""
  color: String
  """Completed at."""
  completedAt: DateTime
  """Content."""
  content: String
  """Converted from issue id."""
  convertedFromIssueId: String
  """Longer description."""
  description: String
  """Frequency resolution."""
  frequencyResolution: FrequencyResolutionType
  """Icon."""
  icon: String
  """Label ids."""
  labelIds: [String!]
  """Last applied template id."""
  lastAppliedTemplateId: String
  """Lead id."""
  leadId: String
  """Member ids."""
  memberIds: [String!]
  """Name."""
  name: String
  """Priority."""
  priority: Int
  """Priority sort order."""
  prioritySortOrder: Float
  """Project update reminders paused until at."""
  projectUpdateRemindersPausedUntilAt: DateTime
  """Slack issue comments."""
  slackIssueComments: Boolean
  """Slack issue statuses."""
  slackIssueStatuses: Boolean
  """Slack new issue."""
  slackNewIssue: Boolean
  """Sort order."""
  sortOrder: Float
  """Start date."""
  startDate: TimelessDate
  """Start date resolution."""
  startDateResolution: DateResolutionType
  """Status id."""
  statusId: String
  """Target date."""
  targetDate: TimelessDate
  """Target date resolution."""
  targetDateResolution: DateResolutionType
  """Team ids."""
  teamIds: [String!]
  """Trashed."""
  trashed: Boolean
  """Update reminder frequency."""
  updateReminderFrequency: Float
  """Update reminder frequency in weeks."""
  updateReminderFrequencyInWeeks: Float
  """Update reminders day."""
  updateRemindersDay: Day
  """Update reminders hour."""
  updateRemindersHour: Int
}
`;
