// GraphQL SDL: managing teams, their memberships and their workflow states.
// Names and types match the schema @linear/sdk expects; descriptions are ours.
// Input fields for settings Trackway does not hold are accepted and ignored
// (docs/graphql.md lists which fields are held).
import { pageArgs } from './page-args.js';

export const teamManagementSdl = /* GraphQL */ `
extend type Mutation {
  """Creates a team with the default workflow (admins only)."""
  teamCreate(
    "The values to write." input: TeamCreateInput!
    "Not supported: settings are never copied."
    copySettingsFromTeamId: String
  ): TeamPayload!
  """Changes a team (admins only). A new key re-keys its issues; old identifiers keep resolving."""
  teamUpdate(
    "Id or key of the team." id: String!
    "The values to write." input: TeamUpdateInput!
    "Ignored."
    mapping: InheritanceEntityMapping
  ): TeamPayload!
  """Archives a team; its issues stay (admins only)."""
  teamDelete(
    "Id or key of the team." id: String!
  ): DeletePayload!
  """Unarchives a team (admins only)."""
  teamUnarchive(
    "Id or key of the team." id: String!
  ): TeamArchivePayload!
  """Adds a user to a team (admins only)."""
  teamMembershipCreate(
    "The values to write." input: TeamMembershipCreateInput!
  ): TeamMembershipPayload!
  """Changes a membership's owner flag or sort order (admins only)."""
  teamMembershipUpdate(
    "Id of the membership." id: String!
    "The values to write." input: TeamMembershipUpdateInput!
  ): TeamMembershipPayload!
  """Removes a membership (admins only)."""
  teamMembershipDelete(
    "Id of the membership." id: String!
    "Ignored: there are no sub-teams."
    alsoLeaveParentTeams: Boolean
  ): DeletePayload!
  """Adds a workflow state to a team (admins only)."""
  workflowStateCreate(
    "The values to write." input: WorkflowStateCreateInput!
  ): WorkflowStatePayload!
  """Changes a workflow state (admins only)."""
  workflowStateUpdate(
    "Id of the state." id: String!
    "The values to write." input: WorkflowStateUpdateInput!
  ): WorkflowStatePayload!
  """Archives a workflow state that no issue is in; REST can move its issues (admins only)."""
  workflowStateArchive(
    "Id of the state." id: String!
  ): WorkflowStateArchivePayload!
}

extend type Query {
  """One team membership."""
  teamMembership(
    "Id of the membership." id: String!
  ): TeamMembership!
  """Every team membership."""
  teamMemberships(
${pageArgs(null)}
  ): TeamMembershipConnection!
}

extend type User {
  """The user's team memberships."""
  teamMemberships(
${pageArgs(null)}
  ): TeamMembershipConnection!
}

"""Result of a team change."""
type TeamPayload {
  """Change counter after the operation."""
  lastSyncId: Float!
  """Whether the operation succeeded."""
  success: Boolean!
  """The team."""
  team: Team
}

"""Result of archiving or unarchiving a team."""
type TeamArchivePayload implements ArchivePayload {
  """Change counter after the operation."""
  lastSyncId: Float!
  """Whether the operation succeeded."""
  success: Boolean!
  """The team."""
  entity: Team
}

"""Result of adding a user to a team."""
type TeamMembershipPayload {
  """Change counter after the operation."""
  lastSyncId: Float!
  """Whether the operation succeeded."""
  success: Boolean!
  """The membership."""
  teamMembership: TeamMembership
}

"""Result of a workflow state change."""
type WorkflowStatePayload {
  """Change counter after the operation."""
  lastSyncId: Float!
  """Whether the operation succeeded."""
  success: Boolean!
  """The state."""
  workflowState: WorkflowState!
}

"""Result of archiving a workflow state."""
type WorkflowStateArchivePayload implements ArchivePayload {
  """Change counter after the operation."""
  lastSyncId: Float!
  """Whether the operation succeeded."""
  success: Boolean!
  """The state."""
  entity: WorkflowState
}

"""Scope of product intelligence suggestions (not held)."""
enum ProductIntelligenceScope {
  none
  team
  teamHierarchy
  workspace
}

"""What happens to sub-teams when a team retires (not held)."""
enum TeamRetirementSubTeamHandling {
  retire
  unnest
}

"""A role within a team."""
enum TeamRoleType {
  member
  owner
}

"""Minimum team roles for team operations (not held)."""
input TeamSecuritySettingsInput {
  agentSkillsManagement: TeamRoleType
  automationManagement: TeamRoleType
  issueSharing: TeamRoleType
  labelManagement: TeamRoleType
  memberManagement: TeamRoleType
  pinnedViewManagement: TeamRoleType
  teamManagement: TeamRoleType
  templateManagement: TeamRoleType
}

"""How inherited entities map when a team changes parent (not held)."""
input InheritanceEntityMapping {
  issueLabels: JSONObject
  projectLabels: JSONObject
  projectStatuses: JSONObject
  workflowStates: JSONObject!
}

"""A new team. Held: name, key, description, color, icon, private, timezone, cyclesEnabled."""
input TeamCreateInput {
  autoArchivePeriod: Float
  autoClosePeriod: Float
  autoCloseStateId: String
  color: String
  cycleCooldownTime: Int
  cycleDuration: Int
  cycleIssueAutoAssignCompleted: Boolean
  cycleIssueAutoAssignStarted: Boolean
  cycleLockToActive: Boolean
  cycleStartDay: Float
  cyclesEnabled: Boolean
  defaultIssueEstimate: Float
  defaultProjectTemplateId: String
  defaultTemplateForMembersId: String
  defaultTemplateForNonMembersId: String
  description: String
  groupIssueHistory: Boolean
  icon: String
  id: String
  inheritIssueEstimation: Boolean
  inheritProductIntelligenceScope: Boolean
  inheritProjectStatuses: Boolean
  inheritSlackAutoCreateProjectChannel: Boolean
  inheritWorkflowStatuses: Boolean
  initiativesEnabled: Boolean
  issueEstimationAllowZero: Boolean
  issueEstimationExtended: Boolean
  issueEstimationType: String
  issueSharingEnabled: Boolean
  key: String
  name: String!
  parentId: String
  private: Boolean
  productIntelligenceScope: ProductIntelligenceScope
  requirePriorityToLeaveTriage: Boolean
  setIssueSortOrderOnStateChange: String
  slackAutoCreateProjectChannel: Boolean
  timezone: String
  triageEnabled: Boolean
  upcomingCycleCount: Float
}

"""Changes to a team. Held: name, key, description, color, icon, private, timezone, cyclesEnabled."""
input TeamUpdateInput {
  agentAutomationEnabled: Boolean
  aiDiscussionSummariesEnabled: Boolean
  aiThreadSummariesEnabled: Boolean
  allMembersCanJoin: Boolean
  autoArchivePeriod: Float
  autoCloseChildIssues: Boolean
  autoCloseParentIssues: Boolean
  autoClosePeriod: Float
  autoCloseStateId: String
  codingAgentEnabled: Boolean
  color: String
  cycleCooldownTime: Int
  cycleDuration: Int
  cycleEnabledStartDate: DateTime
  cycleIssueAutoAssignCompleted: Boolean
  cycleIssueAutoAssignStarted: Boolean
  cycleLockToActive: Boolean
  cycleStartDay: Float
  cyclesEnabled: Boolean
  defaultIssueEstimate: Float
  defaultIssueStateId: String
  defaultProjectTemplateId: String
  defaultTemplateForMembersId: String
  defaultTemplateForNonMembersId: String
  description: String
  groupIssueHistory: Boolean
  handleSubTeamsOnRetirement: TeamRetirementSubTeamHandling
  icon: String
  inheritIssueEstimation: Boolean
  inheritProductIntelligenceScope: Boolean
  inheritProjectStatuses: Boolean
  inheritSlackAutoCreateProjectChannel: Boolean
  inheritWorkflowStatuses: Boolean
  initiativesEnabled: Boolean
  issueEstimationAllowZero: Boolean
  issueEstimationExtended: Boolean
  issueEstimationType: String
  issueSharingEnabled: Boolean
  joinByDefault: Boolean
  key: String
  name: String
  parentId: String
  private: Boolean
  productIntelligenceScope: ProductIntelligenceScope
  requirePriorityToLeaveTriage: Boolean
  retiredAt: DateTime
  scimGroupName: String
  scimManaged: Boolean
  securitySettings: TeamSecuritySettingsInput
  setIssueSortOrderOnStateChange: String
  slackAutoCreateProjectChannel: Boolean
  slackIssueComments: Boolean
  slackIssueStatuses: Boolean
  slackNewIssue: Boolean
  timezone: String
  triageEnabled: Boolean
  upcomingCycleCount: Float
}

"""A new membership. Held: teamId, userId, owner, sortOrder."""
input TeamMembershipCreateInput {
  id: String
  owner: Boolean
  sortOrder: Float
  teamId: String!
  userId: String!
}

"""Changes to a membership."""
input TeamMembershipUpdateInput {
  owner: Boolean
  sortOrder: Float
}

"""A new workflow state."""
input WorkflowStateCreateInput {
  color: String!
  description: String
  id: String
  name: String!
  position: Float
  teamId: String!
  type: String!
}

"""Changes to a workflow state."""
input WorkflowStateUpdateInput {
  color: String
  description: String
  name: String
  position: Float
}
`;
