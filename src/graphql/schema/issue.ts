// GraphQL SDL: issue types.
// Names and types match the schema @linear/sdk expects; descriptions are ours.
import { pageArgs } from './page-args.js';

// Fields an Issue and an IssueSearchResult both carry (the search result is
// an issue plus its match metadata), kept once: a few scalars, then the rest.
const ISSUE_SCALARS = /* GraphQL */ `
  """Trashed."""
  trashed: Boolean
  """Reaction data."""
  reactionData: JSONObject!
  """Label ids."""
  labelIds: [String!]!
  """Integration source type."""
  integrationSourceType: IntegrationService
  """Address of the record."""
  url: String!
  """Team key and number, e.g. ENG-123."""
  identifier: String!
  """Priority label."""
  priorityLabel: String!`;

const ISSUE_FIELDS = /* GraphQL */ `
  previousIdentifiers: [String!]!
  """Reactions."""
  reactions: [Reaction!]!
  """Customer ticket count."""
  customerTicketCount: Int!
  """Shared access."""
  sharedAccess: IssueSharedAccess!
  """Branch name."""
  branchName: String!
  """Delegate."""
  delegate: User
  """Bot actor."""
  botActor: ActorBot
  """Source comment."""
  sourceComment: Comment
  """Cycle."""
  cycle: Cycle
  """Due date."""
  dueDate: TimelessDate
  """Estimate."""
  estimate: Float
  """Synced with."""
  syncedWith: [ExternalEntityInfo!]
  """External user creator."""
  externalUserCreator: ExternalUser
  """Asks external user requester."""
  asksExternalUserRequester: ExternalUser
  """Asks requester."""
  asksRequester: User
  """Longer description."""
  description: String
  """Title."""
  title: String!
  """Number."""
  number: Float!
  """Last applied template."""
  lastAppliedTemplate: Template
  """When it last changed in a meaningful way."""
  updatedAt: DateTime!
  """Board order."""
  boardOrder: Float!
  """Sort order."""
  sortOrder: Float!
  """Priority sort order."""
  prioritySortOrder: Float!
  """Sub issue sort order."""
  subIssueSortOrder: Float
  """Parent."""
  parent: Issue
  """Priority."""
  priority: Float!
  """Project milestone."""
  projectMilestone: ProjectMilestone
  """Project."""
  project: Project
  """Recurring issue template."""
  recurringIssueTemplate: Template
  """Team."""
  team: Team!
  """When it was archived; null while active."""
  archivedAt: DateTime
  """When it was created."""
  createdAt: DateTime!
  """Started triage at."""
  startedTriageAt: DateTime
  """Triaged at."""
  triagedAt: DateTime
  """Added to cycle at."""
  addedToCycleAt: DateTime
  """Added to project at."""
  addedToProjectAt: DateTime
  """Added to team at."""
  addedToTeamAt: DateTime
  """Auto archived at."""
  autoArchivedAt: DateTime
  """Auto closed at."""
  autoClosedAt: DateTime
  """Canceled at."""
  canceledAt: DateTime
  """Completed at."""
  completedAt: DateTime
  """Started at."""
  startedAt: DateTime
  """Sla started at."""
  slaStartedAt: DateTime
  """Sla breaches at."""
  slaBreachesAt: DateTime
  """Sla high risk at."""
  slaHighRiskAt: DateTime
  """Sla medium risk at."""
  slaMediumRiskAt: DateTime
  """Snoozed until at."""
  snoozedUntilAt: DateTime
  """Sla type."""
  slaType: String
  """Assignee."""
  assignee: User
  """Creator."""
  creator: User
  """Snoozed by."""
  snoozedBy: User
  """Favorite."""
  favorite: Favorite
  """State."""
  state: WorkflowState!
  """Inherits shared access."""
  inheritsSharedAccess: Boolean!`;

export const issueSdl = /* GraphQL */ `
"""Archive response."""
type ArchiveResponse {
  """Archive."""
  archive: String!
  """Total count."""
  totalCount: Float!
  """Database version."""
  databaseVersion: Float!
  """Includes dependencies."""
  includesDependencies: [String!]!
}

"""A unit of work tracked by a team."""
type Issue implements Node {
  """Unique identifier."""
  id: ID!
  """Attachments."""
  attachments(
${pageArgs('AttachmentFilter')}
  ): AttachmentConnection!
  """Children."""
  children(
${pageArgs('IssueFilter')}
  ): IssueConnection!
  """Comments."""
  comments(
${pageArgs('CommentFilter')}
  ): CommentConnection!
  """History."""
  history(
${pageArgs(null)}
  ): IssueHistoryConnection!
  """Labels."""
  labels(
${pageArgs('IssueLabelFilter')}
  ): IssueLabelConnection!
  """Subscribers."""
  subscribers(
${pageArgs('UserFilter', ['includeDisabled: Boolean'])}
  ): UserConnection!
${ISSUE_SCALARS}
  """Previous identifiers."""
${ISSUE_FIELDS}
}

"""Result of a change to a issue archive."""
type IssueArchivePayload implements ArchivePayload {
  """Change counter after the operation."""
  lastSyncId: Float!
  """Whether the operation succeeded."""
  success: Boolean!
  """Entity."""
  entity: Issue
  """Id of the removed record."""
  entityId: String
}

"""A issue with its cursor."""
type IssueEdge {
  """Node."""
  node: Issue!
  """Opaque position of this record, for after/before."""
  cursor: String!
}

"""A page of issues."""
type IssueConnection {
  """The records of this page."""
  nodes: [Issue!]!
  """Paging information."""
  pageInfo: PageInfo!
  """The records of this page with their cursors."""
  edges: [IssueEdge!]!
}

"""Values for a new issue."""
input IssueCreateInput {
  """Assignee id."""
  assigneeId: String
  """Completed at."""
  completedAt: DateTime
  """Create as user."""
  createAsUser: String
  """When it was created."""
  createdAt: DateTime
  """Cycle id."""
  cycleId: String
  """Delegate id."""
  delegateId: String
  """Longer description."""
  description: String
  """Description data."""
  descriptionData: JSON
  """Display icon url."""
  displayIconUrl: String
  """Due date."""
  dueDate: TimelessDate
  """Estimate."""
  estimate: Int
  """Unique identifier."""
  id: String
  """Inherits shared access."""
  inheritsSharedAccess: Boolean
  """Label ids."""
  labelIds: [String!]
  """Last applied template id."""
  lastAppliedTemplateId: String
  """Parent id."""
  parentId: String
  """Preserve sort order on create."""
  preserveSortOrderOnCreate: Boolean
  """Priority."""
  priority: Int
  """Priority sort order."""
  prioritySortOrder: Float
  """Project id."""
  projectId: String
  """Project milestone id."""
  projectMilestoneId: String
  """Reference comment id."""
  referenceCommentId: String
  """Release ids."""
  releaseIds: [String!]
  """Sla breaches at."""
  slaBreachesAt: DateTime
  """Sla started at."""
  slaStartedAt: DateTime
  """Sla type."""
  slaType: SLADayCountType
  """Sort order."""
  sortOrder: Float
  """Source comment id."""
  sourceCommentId: String
  """Source pull request comment id."""
  sourcePullRequestCommentId: String
  """State id."""
  stateId: String
  """Sub issue sort order."""
  subIssueSortOrder: Float
  """Subscriber ids."""
  subscriberIds: [String!]
  """Team id."""
  teamId: String!
  """Template id."""
  templateId: String
  """Title."""
  title: String
  """Use default template."""
  useDefaultTemplate: Boolean
}

"""One recorded change of an issue."""
type IssueHistory implements Node {
  """Unique identifier."""
  id: ID!
  """Triage responsibility auto assigned."""
  triageResponsibilityAutoAssigned: Boolean
  """Relation changes."""
  relationChanges: [IssueRelationHistoryPayload!]
  """Added label ids."""
  addedLabelIds: [String!]
  """Removed label ids."""
  removedLabelIds: [String!]
  """Added to release ids."""
  addedToReleaseIds: [String!]
  """Removed from release ids."""
  removedFromReleaseIds: [String!]
  """Attachment id."""
  attachmentId: String
  """To cycle id."""
  toCycleId: String
  """To parent id."""
  toParentId: String
  """To project id."""
  toProjectId: String
  """To converted project id."""
  toConvertedProjectId: String
  """To state id."""
  toStateId: String
  """From cycle id."""
  fromCycleId: String
  """From parent id."""
  fromParentId: String
  """From project id."""
  fromProjectId: String
  """From state id."""
  fromStateId: String
  """From team id."""
  fromTeamId: String
  """To team id."""
  toTeamId: String
  """From assignee id."""
  fromAssigneeId: String
  """To assignee id."""
  toAssigneeId: String
  """Actor id."""
  actorId: String
  """To sla breaches at."""
  toSlaBreachesAt: DateTime
  """From sla breaches at."""
  fromSlaBreachesAt: DateTime
  """Actor."""
  actor: User
  """Description updated by."""
  descriptionUpdatedBy: [User!]
  """Actors."""
  actors: [User!]
  """From delegate."""
  fromDelegate: User
  """To delegate."""
  toDelegate: User
  """Bot actor."""
  botActor: ActorBot
  """From cycle."""
  fromCycle: Cycle
  """To cycle."""
  toCycle: Cycle
  """Issue import."""
  issueImport: IssueImport
  """Issue."""
  issue: Issue!
  """Added labels."""
  addedLabels: [IssueLabel!]
  """Removed labels."""
  removedLabels: [IssueLabel!]
  """When it last changed in a meaningful way."""
  updatedAt: DateTime!
  """Attachment."""
  attachment: Attachment
  """To converted project."""
  toConvertedProject: Project
  """From parent."""
  fromParent: Issue
  """To parent."""
  toParent: Issue
  """From project milestone."""
  fromProjectMilestone: ProjectMilestone
  """To project milestone."""
  toProjectMilestone: ProjectMilestone
  """From project."""
  fromProject: Project
  """To project."""
  toProject: Project
  """From state."""
  fromState: WorkflowState
  """To state."""
  toState: WorkflowState
  """From team."""
  fromTeam: Team
  """To team."""
  toTeam: Team
  """Triage responsibility team."""
  triageResponsibilityTeam: Team
  """When it was archived; null while active."""
  archivedAt: DateTime
  """When it was created."""
  createdAt: DateTime!
  """To sla started at."""
  toSlaStartedAt: DateTime
  """From sla started at."""
  fromSlaStartedAt: DateTime
  """To sla type."""
  toSlaType: String
  """From sla type."""
  fromSlaType: String
  """To assignee."""
  toAssignee: User
  """From assignee."""
  fromAssignee: User
  """Triage responsibility notified users."""
  triageResponsibilityNotifiedUsers: [User!]
  """From due date."""
  fromDueDate: TimelessDate
  """To due date."""
  toDueDate: TimelessDate
  """From estimate."""
  fromEstimate: Float
  """To estimate."""
  toEstimate: Float
  """From priority."""
  fromPriority: Float
  """To priority."""
  toPriority: Float
  """From title."""
  fromTitle: String
  """To title."""
  toTitle: String
  """From sla breached."""
  fromSlaBreached: Boolean
  """To sla breached."""
  toSlaBreached: Boolean
  """Archived."""
  archived: Boolean
  """Auto archived."""
  autoArchived: Boolean
  """Auto closed."""
  autoClosed: Boolean
  """Trashed."""
  trashed: Boolean
  """Updated description."""
  updatedDescription: Boolean
  """Customer need id."""
  customerNeedId: String
}

"""A issue history with its cursor."""
type IssueHistoryEdge {
  """Node."""
  node: IssueHistory!
  """Opaque position of this record, for after/before."""
  cursor: String!
}

"""A page of issue histories."""
type IssueHistoryConnection {
  """The records of this page."""
  nodes: [IssueHistory!]!
  """Paging information."""
  pageInfo: PageInfo!
  """The records of this page with their cursors."""
  edges: [IssueHistoryEdge!]!
}

"""Issue import."""
type IssueImport implements Node {
  """Unique identifier."""
  id: ID!
  """Progress."""
  progress: Float
  """Error metadata."""
  errorMetadata: JSONObject
  """Csv file url."""
  csvFileUrl: String
  """Creator id."""
  creatorId: String
  """Service metadata."""
  serviceMetadata: JSONObject
  """Status."""
  status: String!
  """Mapping."""
  mapping: JSONObject
  """Display name."""
  displayName: String!
  """Service."""
  service: String!
  """When it last changed in a meaningful way."""
  updatedAt: DateTime!
  """Team name."""
  teamName: String
  """When it was archived; null while active."""
  archivedAt: DateTime
  """When it was created."""
  createdAt: DateTime!
  """Error."""
  error: String
}

"""Result of a change to a issue."""
type IssuePayload {
  """Change counter after the operation."""
  lastSyncId: Float!
  """Issue."""
  issue: Issue
  """Whether the operation succeeded."""
  success: Boolean!
}

"""Result of a change to a issue relation history."""
type IssueRelationHistoryPayload {
  """Team key and number, e.g. ENG-123."""
  identifier: String!
  """Type."""
  type: String!
}

"""Result of a change to a issue search."""
type IssueSearchPayload {
  """Archive payload."""
  archivePayload: ArchiveResponse!
  """Total count."""
  totalCount: Float!
  """The records of this page."""
  nodes: [IssueSearchResult!]!
  """Paging information."""
  pageInfo: PageInfo!
}

"""An issue matched by a text search."""
type IssueSearchResult implements Node {
  """Unique identifier."""
  id: ID!
${ISSUE_SCALARS}
  """Metadata."""
  metadata: JSONObject!
  """Previous identifiers."""
${ISSUE_FIELDS}
}

"""Issue shared access."""
type IssueSharedAccess {
  """Disallowed issue fields."""
  disallowedIssueFields: [IssueSharedAccessDisallowedField!]!
  """Shared with count."""
  sharedWithCount: Int!
  """Shared with users."""
  sharedWithUsers: [User!]!
  """Viewer has only shared access."""
  viewerHasOnlySharedAccess: Boolean!
  """Is shared."""
  isShared: Boolean!
}

"""Values of issue shared access disallowed field."""
enum IssueSharedAccessDisallowedField {
  cycleId
  projectId
  projectMilestoneId
  teamId
}

"""Changes to a issue; omitted fields stay as they are."""
input IssueUpdateInput {
  """Added label ids."""
  addedLabelIds: [String!]
  """Added release ids."""
  addedReleaseIds: [String!]
  """Assignee id."""
  assigneeId: String
  """Auto closed by parent closing."""
  autoClosedByParentClosing: Boolean
  """Cycle id."""
  cycleId: String
  """Delegate id."""
  delegateId: String
  """Longer description."""
  description: String
  """Description data."""
  descriptionData: JSON
  """Due date."""
  dueDate: TimelessDate
  """Estimate."""
  estimate: Int
  """Inherits shared access."""
  inheritsSharedAccess: Boolean
  """Label ids."""
  labelIds: [String!]
  """Last applied template id."""
  lastAppliedTemplateId: String
  """Parent id."""
  parentId: String
  """Priority."""
  priority: Int
  """Priority sort order."""
  prioritySortOrder: Float
  """Project id."""
  projectId: String
  """Project milestone id."""
  projectMilestoneId: String
  """Release ids."""
  releaseIds: [String!]
  """Removed label ids."""
  removedLabelIds: [String!]
  """Removed release ids."""
  removedReleaseIds: [String!]
  """Sla breaches at."""
  slaBreachesAt: DateTime
  """Sla started at."""
  slaStartedAt: DateTime
  """Sla type."""
  slaType: SLADayCountType
  """Snoozed by id."""
  snoozedById: String
  """Snoozed until at."""
  snoozedUntilAt: DateTime
  """Sort order."""
  sortOrder: Float
  """State id."""
  stateId: String
  """Sub issue sort order."""
  subIssueSortOrder: Float
  """Subscriber ids."""
  subscriberIds: [String!]
  """Team id."""
  teamId: String
  """Title."""
  title: String
  """Trashed."""
  trashed: Boolean
  """Trusted."""
  trusted: Boolean
}

"""Values of sladay count type."""
enum SLADayCountType {
  all
  onlyBusinessDays
}
`;
