// GraphQL SDL: team types.
// Names and types match the schema @linear/sdk expects; descriptions are ours.
import { pageArgs } from './page-args.js';

export const teamSdl = /* GraphQL */ `
"""A group of people with its own issue numbering, workflow and labels."""
type Team implements Node {
  """Unique identifier."""
  id: ID!
  """Cycles."""
  cycles(
${pageArgs('CycleFilter')}
  ): CycleConnection!
  """Issues."""
  issues(
${pageArgs('IssueFilter', ['includeSubTeams: Boolean'])}
  ): IssueConnection!
  """Labels."""
  labels(
${pageArgs('IssueLabelFilter')}
  ): IssueLabelConnection!
  """Members."""
  members(
${pageArgs('UserFilter', ['includeDisabled: Boolean', 'sort: [UserSortInput!]'])}
  ): UserConnection!
  """Memberships."""
  memberships(
${pageArgs(null)}
  ): TeamMembershipConnection!
  """Projects."""
  projects(
${pageArgs('ProjectFilter', ['includeSubTeams: Boolean', 'sort: [ProjectSortInput!]'])}
  ): ProjectConnection!
  """States."""
  states(
${pageArgs('WorkflowStateFilter')}
  ): WorkflowStateConnection!
  """Webhooks."""
  webhooks(
${pageArgs(null)}
  ): WebhookConnection!
  """Cycle issue auto assign completed."""
  cycleIssueAutoAssignCompleted: Boolean!
  """Cycle lock to active."""
  cycleLockToActive: Boolean!
  """Cycle issue auto assign started."""
  cycleIssueAutoAssignStarted: Boolean!
  """Cycle calender url."""
  cycleCalenderUrl: String!
  """Upcoming cycle count."""
  upcomingCycleCount: Float!
  """Auto archive period."""
  autoArchivePeriod: Float!
  """Auto close period."""
  autoClosePeriod: Float
  """Security settings."""
  securitySettings: JSONObject!
  """Integrations settings."""
  integrationsSettings: IntegrationsSettings
  """Active cycle."""
  activeCycle: Cycle
  """Triage responsibility."""
  triageResponsibility: TriageResponsibility
  """Scim group name."""
  scimGroupName: String
  """Auto close state id."""
  autoCloseStateId: String
  """Cycle cooldown time."""
  cycleCooldownTime: Float!
  """Cycle start day."""
  cycleStartDay: Float!
  """Default template for members."""
  defaultTemplateForMembers: Template
  """Default template for non members."""
  defaultTemplateForNonMembers: Template
  """Default project template."""
  defaultProjectTemplate: Template
  """Default issue state."""
  defaultIssueState: WorkflowState
  """Cycle duration."""
  cycleDuration: Float!
  """Icon."""
  icon: String
  """Default template for members id."""
  defaultTemplateForMembersId: String
  """Default template for non members id."""
  defaultTemplateForNonMembersId: String
  """Issue estimation type."""
  issueEstimationType: String!
  """When it last changed in a meaningful way."""
  updatedAt: DateTime!
  """Display name."""
  displayName: String!
  """Led initiative count."""
  ledInitiativeCount: Int!
  """Colour, as #rrggbb."""
  color: String
  """Longer description."""
  description: String
  """Name."""
  name: String!
  """Parent."""
  parent: Team
  """Key."""
  key: String!
  """When it was archived; null while active."""
  archivedAt: DateTime
  """When it was created."""
  createdAt: DateTime!
  """Retired at."""
  retiredAt: DateTime
  """Timezone."""
  timezone: String!
  """Issue count."""
  issueCount(
    "Include archived records." includeArchived: Boolean
  ): Int!
  """Visibility."""
  visibility: TeamVisibility!
  """Merge workflow state."""
  mergeWorkflowState: WorkflowState
  """Draft workflow state."""
  draftWorkflowState: WorkflowState
  """Start workflow state."""
  startWorkflowState: WorkflowState
  """Mergeable workflow state."""
  mergeableWorkflowState: WorkflowState
  """Review workflow state."""
  reviewWorkflowState: WorkflowState
  """Triage issue state."""
  triageIssueState: WorkflowState
  """Default issue estimate."""
  defaultIssueEstimate: Float!
  """Set issue sort order on state change."""
  setIssueSortOrderOnStateChange: String!
  """All members can join."""
  allMembersCanJoin: Boolean
  """Require priority to leave triage."""
  requirePriorityToLeaveTriage: Boolean!
  """Auto close child issues."""
  autoCloseChildIssues: Boolean
  """Auto close parent issues."""
  autoCloseParentIssues: Boolean
  """Scim managed."""
  scimManaged: Boolean!
  """Private."""
  private: Boolean!
  """Inherit issue estimation."""
  inheritIssueEstimation: Boolean!
  """Inherit workflow statuses."""
  inheritWorkflowStatuses: Boolean!
  """Cycles enabled."""
  cyclesEnabled: Boolean!
  """Issue estimation extended."""
  issueEstimationExtended: Boolean!
  """Issue estimation allow zero."""
  issueEstimationAllowZero: Boolean!
  """Ai discussion summaries enabled."""
  aiDiscussionSummariesEnabled: Boolean!
  """Ai thread summaries enabled."""
  aiThreadSummariesEnabled: Boolean!
  """Group issue history."""
  groupIssueHistory: Boolean!
  """Slack issue comments."""
  slackIssueComments: Boolean!
  """Slack new issue."""
  slackNewIssue: Boolean!
  """Slack issue statuses."""
  slackIssueStatuses: Boolean!
  """Triage enabled."""
  triageEnabled: Boolean!
  """Marked as duplicate workflow state."""
  markedAsDuplicateWorkflowState: WorkflowState
  """Invite hash."""
  inviteHash: String!
  """Issue ordering no priority first."""
  issueOrderingNoPriorityFirst: Boolean!
  """Issue sort order default to bottom."""
  issueSortOrderDefaultToBottom: Boolean!
  """Viewer membership."""
  viewerMembership: TeamMembership
  """Viewer can leave."""
  viewerCanLeave: Boolean!
  """Viewer can join."""
  viewerCanJoin: Boolean!
  """Initiatives enabled."""
  initiativesEnabled: Boolean!
}

"""A team with its cursor."""
type TeamEdge {
  """Node."""
  node: Team!
  """Opaque position of this record, for after/before."""
  cursor: String!
}

"""A page of teams."""
type TeamConnection {
  """The records of this page."""
  nodes: [Team!]!
  """Paging information."""
  pageInfo: PageInfo!
  """The records of this page with their cursors."""
  edges: [TeamEdge!]!
}

"""A user belonging to a team."""
type TeamMembership implements Node {
  """Unique identifier."""
  id: ID!
  """When it last changed in a meaningful way."""
  updatedAt: DateTime!
  """Sort order."""
  sortOrder: Float!
  """Team."""
  team: Team!
  """When it was archived; null while active."""
  archivedAt: DateTime
  """When it was created."""
  createdAt: DateTime!
  """User."""
  user: User!
  """Owner."""
  owner: Boolean!
}

"""A team membership with its cursor."""
type TeamMembershipEdge {
  """Node."""
  node: TeamMembership!
  """Opaque position of this record, for after/before."""
  cursor: String!
}

"""A page of team memberships."""
type TeamMembershipConnection {
  """The records of this page."""
  nodes: [TeamMembership!]!
  """Paging information."""
  pageInfo: PageInfo!
  """The records of this page with their cursors."""
  edges: [TeamMembershipEdge!]!
}

"""Values of team visibility."""
enum TeamVisibility {
  private
  public
  restricted
}
`;
