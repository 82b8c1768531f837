// GraphQL SDL: root types.
// Names and types match the schema @linear/sdk expects; descriptions are ours.
import { pageArgs } from './page-args.js';

export const rootSdl = /* GraphQL */ `
"""Entry points for changing data. Payloads report success and the latest sync id."""
type Mutation {
  """Attachment create."""
  attachmentCreate(
    "The values to write." input: AttachmentCreateInput!
  ): AttachmentPayload!
  """Attachment delete."""
  attachmentDelete(
    "Id of the record." id: String!
  ): DeletePayload!
  """Attachment update."""
  attachmentUpdate(
    "Id of the record." id: String!
    "The values to write." input: AttachmentUpdateInput!
  ): AttachmentPayload!
  """Comment create."""
  commentCreate(
    "The values to write." input: CommentCreateInput!
  ): CommentPayload!
  """Comment delete."""
  commentDelete(
    "Id of the record." id: String!
  ): DeletePayload!
  """Comment update."""
  commentUpdate(
    "Id of the record." id: String!
    "The values to write." input: CommentUpdateInput!
    skipEditedAt: Boolean
  ): CommentPayload!
  """Cycle create."""
  cycleCreate(
    "The values to write." input: CycleCreateInput!
  ): CyclePayload!
  """Cycle update."""
  cycleUpdate(
    "Id of the record." id: String!
    "The values to write." input: CycleUpdateInput!
  ): CyclePayload!
  """File upload."""
  fileUpload(
    contentType: String!
    filename: String!
    makePublic: Boolean
    metaData: JSON
    size: Int!
  ): UploadPayload!
  """Issue archive."""
  issueArchive(
    "Id of the record." id: String!
    trash: Boolean
  ): IssueArchivePayload!
  """Issue create."""
  issueCreate(
    "The values to write." input: IssueCreateInput!
  ): IssuePayload!
  """Issue delete."""
  issueDelete(
    "Id of the record." id: String!
    permanentlyDelete: Boolean
  ): IssueArchivePayload!
  """Issue label create."""
  issueLabelCreate(
    "The values to write." input: IssueLabelCreateInput!
    replaceTeamLabels: Boolean
  ): IssueLabelPayload!
  """Issue label delete."""
  issueLabelDelete(
    "Id of the record." id: String!
  ): DeletePayload!
  """Issue label update."""
  issueLabelUpdate(
    "Id of the record." id: String!
    "The values to write." input: IssueLabelUpdateInput!
    replaceTeamLabels: Boolean
  ): IssueLabelPayload!
  """Issue unarchive."""
  issueUnarchive(
    "Id of the record." id: String!
  ): IssueArchivePayload!
  """Issue update."""
  issueUpdate(
    "Id of the record." id: String!
    "The values to write." input: IssueUpdateInput!
  ): IssuePayload!
  """Project create."""
  projectCreate(
    "The values to write." input: ProjectCreateInput!
    slackChannelName: String
    projectDraftId: String
    aiConversationId: String
  ): ProjectPayload!
  """Project delete."""
  projectDelete(
    "Id of the record." id: String!
  ): ProjectArchivePayload!
  """Project update."""
  projectUpdate(
    "Id of the record." id: String!
    "The values to write." input: ProjectUpdateInput!
  ): ProjectPayload!
  """Webhook create."""
  webhookCreate(
    "The values to write." input: WebhookCreateInput!
  ): WebhookPayload!
  """Webhook delete."""
  webhookDelete(
    "Id of the record." id: String!
  ): DeletePayload!
  """Webhook update."""
  webhookUpdate(
    "Id of the record." id: String!
    "The values to write." input: WebhookUpdateInput!
  ): WebhookPayload!
}

"""Entry points for reading."""
type Query {
  """Attachment."""
  attachment(
    "Id of the record." id: String!
  ): Attachment!
  """Attachments."""
  attachments(
${pageArgs('AttachmentFilter')}
  ): AttachmentConnection!
  """Comment."""
  comment(
    hash: String
    "Id of the record." id: String
  ): Comment!
  """Comments."""
  comments(
${pageArgs('CommentFilter')}
  ): CommentConnection!
  """Cycle."""
  cycle(
    "Id of the record." id: String!
  ): Cycle!
  """Cycles."""
  cycles(
${pageArgs('CycleFilter')}
  ): CycleConnection!
  """Issue."""
  issue(
    "Id of the record." id: String!
  ): Issue!
  """Issues whose title or description match the words of query (the one full-text search), as a connection; kept for clients written before searchIssues."""
  issueSearch(
${pageArgs('IssueFilter', ['"Words to match (prefixes; accents and case ignored)." query: String'])}
  ): IssueConnection! @deprecated(reason: "Use searchIssues.")
  """Issue label."""
  issueLabel(
    "Id of the record." id: String!
  ): IssueLabel!
  """Issue labels."""
  issueLabels(
${pageArgs('IssueLabelFilter')}
  ): IssueLabelConnection!
  """Issues."""
  issues(
${pageArgs('IssueFilter', ['sort: [IssueSortInput!]'])}
  ): IssueConnection!
  """Organization."""
  organization: Organization!
  """Project."""
  project(
    "Id of the record." id: String!
  ): Project!
  """Projects."""
  projects(
${pageArgs('ProjectFilter', ['sort: [ProjectSortInput!]'])}
  ): ProjectConnection!
  """Search issues."""
  searchIssues(
${pageArgs('IssueFilter', ['includeComments: Boolean', 'teamId: String', 'term: String!'])}
  ): IssueSearchPayload!
  """Team."""
  team(
    "Id of the record." id: String!
  ): Team!
  """Teams."""
  teams(
${pageArgs('TeamFilter')}
  ): TeamConnection!
  """User."""
  user(
    "Id of the record." id: String!
  ): User!
  """Users."""
  users(
${pageArgs('UserFilter', ['includeDisabled: Boolean', 'sort: [UserSortInput!]'])}
  ): UserConnection!
  """Viewer."""
  viewer: User!
  """Webhook."""
  webhook(
    "Id of the record." id: String!
  ): Webhook!
  """Webhooks."""
  webhooks(
${pageArgs(null)}
  ): WebhookConnection!
  """Workflow state."""
  workflowState(
    "Id of the record." id: String!
  ): WorkflowState!
  """Workflow states."""
  workflowStates(
${pageArgs('WorkflowStateFilter')}
  ): WorkflowStateConnection!
}
`;
