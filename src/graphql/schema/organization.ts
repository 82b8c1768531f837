// GraphQL SDL: organization types.
// Names and types match the schema @linear/sdk expects; descriptions are ours.
import { pageArgs } from './page-args.js';

export const organizationSdl = /* GraphQL */ `
"""Values of day."""
enum Day {
  Friday
  Monday
  Saturday
  Sunday
  Thursday
  Tuesday
  Wednesday
}

"""Values of feed summary schedule."""
enum FeedSummarySchedule {
  daily
  never
  weekly
}

"""The workspace itself."""
type Organization implements Node {
  """Unique identifier."""
  id: ID!
  """Labels."""
  labels(
${pageArgs('IssueLabelFilter')}
  ): IssueLabelConnection!
  """Teams."""
  teams(
${pageArgs('TeamFilter')}
  ): TeamConnection!
  """Users."""
  users(
${pageArgs(null, ['includeDisabled: Boolean'])}
  ): UserConnection!
  """Allowed auth services."""
  allowedAuthServices: [String!]!
  """Allowed file upload content types."""
  allowedFileUploadContentTypes: [String!]
  """Created issue count."""
  createdIssueCount: Int!
  """Auth settings."""
  authSettings: JSONObject!
  """Customers configuration."""
  customersConfiguration: JSONObject!
  """Default feed summary schedule."""
  defaultFeedSummarySchedule: FeedSummarySchedule
  """Pull request issue mode."""
  pullRequestIssueMode: String!
  """Previous url keys."""
  previousUrlKeys: [String!]!
  """Period upload volume."""
  periodUploadVolume: Float!
  """Security settings."""
  securitySettings: JSONObject!
  """Slack project channel integration."""
  slackProjectChannelIntegration: Integration
  """Logo url."""
  logoUrl: String
  """Initiative update reminders day."""
  initiativeUpdateRemindersDay: Day!
  """Project update reminders day."""
  projectUpdateRemindersDay: Day!
  """Default home view."""
  defaultHomeView: String
  """Release channel."""
  releaseChannel: ReleaseChannel!
  """Initiative update reminder frequency in weeks."""
  initiativeUpdateReminderFrequencyInWeeks: Float
  """Project update reminder frequency in weeks."""
  projectUpdateReminderFrequencyInWeeks: Float
  """Initiative update reminders hour."""
  initiativeUpdateRemindersHour: Float!
  """Project update reminders hour."""
  projectUpdateRemindersHour: Float!
  """When it last changed in a meaningful way."""
  updatedAt: DateTime!
  """Customer count."""
  customerCount: Int!
  """User count."""
  userCount: Int!
  """Slack project channel prefix."""
  slackProjectChannelPrefix: String!
  """Git branch format."""
  gitBranchFormat: String
  """Deletion requested at."""
  deletionRequestedAt: DateTime
  """Trial starts at."""
  trialStartsAt: DateTime
  """Trial ends at."""
  trialEndsAt: DateTime
  """When it was archived; null while active."""
  archivedAt: DateTime
  """When it was created."""
  createdAt: DateTime!
  """Project statuses."""
  projectStatuses: [ProjectStatus!]!
  """Name."""
  name: String!
  """Subscription."""
  subscription: PaidSubscription
  """Url key."""
  urlKey: String!
  """Fiscal year start month."""
  fiscalYearStartMonth: Float!
  """Hipaa compliance enabled."""
  hipaaComplianceEnabled: Boolean!
  """Saml enabled."""
  samlEnabled: Boolean!
  """Scim enabled."""
  scimEnabled: Boolean!
  """Git linkback descriptions enabled."""
  gitLinkbackDescriptionsEnabled: Boolean!
  """Releases enabled."""
  releasesEnabled: Boolean!
  """Customers enabled."""
  customersEnabled: Boolean!
  """Git linkback messages enabled."""
  gitLinkbackMessagesEnabled: Boolean!
  """Git public linkback messages enabled."""
  gitPublicLinkbackMessagesEnabled: Boolean!
  """Feed enabled."""
  feedEnabled: Boolean!
  """Roadmap enabled."""
  roadmapEnabled: Boolean!
  """Pull request tour enabled."""
  pullRequestTourEnabled: Boolean!
  """Ai discussion summaries enabled."""
  aiDiscussionSummariesEnabled: Boolean!
  """Ai thread summaries enabled."""
  aiThreadSummariesEnabled: Boolean!
  """Hide non primary organizations."""
  hideNonPrimaryOrganizations: Boolean!
  """Project updates reminder frequency."""
  projectUpdatesReminderFrequency: ProjectUpdateReminderFrequency!
  """Allow members to invite."""
  allowMembersToInvite: Boolean
  """Restrict team creation to admins."""
  restrictTeamCreationToAdmins: Boolean
  """Restrict label management to admins."""
  restrictLabelManagementToAdmins: Boolean
  """Sla day count."""
  slaDayCount: SLADayCountType!
  """Suggested branch name enabled."""
  suggestedBranchNameEnabled: Boolean!
  """Default home view target id."""
  defaultHomeViewTargetId: String
}

"""Paid subscription."""
type PaidSubscription implements Node {
  """Unique identifier."""
  id: ID!
  """Collection method."""
  collectionMethod: String!
  """Cancel at."""
  cancelAt: DateTime
  """Canceled at."""
  canceledAt: DateTime
  """Next billing at."""
  nextBillingAt: DateTime
  """When it last changed in a meaningful way."""
  updatedAt: DateTime!
  """Seats maximum."""
  seatsMaximum: Float
  """Seats minimum."""
  seatsMinimum: Float
  """Seats."""
  seats: Float!
  """Type."""
  type: String!
  """Pending change type."""
  pendingChangeType: String
  """When it was archived; null while active."""
  archivedAt: DateTime
  """When it was created."""
  createdAt: DateTime!
  """Creator."""
  creator: User
}

"""Values of project update reminder frequency."""
enum ProjectUpdateReminderFrequency {
  month
  never
  twoWeeks
  week
}

"""Values of release channel."""
enum ReleaseChannel {
  beta
  development
  internal
  preRelease
  privateBeta
  public
}
`;
