// GraphQL SDL: root types.
// Names and types match the schema @linear/sdk expects; descriptions are ours.
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
    "Cursor after which the page starts." after: String
    "Cursor before which the page ends." before: String
    "Conditions the records must meet." filter: AttachmentFilter
    "Page size from the start (default 50, at most 250)." first: Int
    "Include archived records." includeArchived: Boolean
    "Page size from the end (at most 250)." last: Int
    "Sort key; newest first." orderBy: PaginationOrderBy
  ): AttachmentConnection!
  """Comment."""
  comment(
    hash: String
    "Id of the record." id: String
  ): Comment!
  """Comments."""
  comments(
    "Cursor after which the page starts." after: String
    "Cursor before which the page ends." before: String
    "Conditions the records must meet." filter: CommentFilter
    "Page size from the start (default 50, at most 250)." first: Int
    "Include archived records." includeArchived: Boolean
    "Page size from the end (at most 250)." last: Int
    "Sort key; newest first." orderBy: PaginationOrderBy
  ): CommentConnection!
  """Cycle."""
  cycle(
    "Id of the record." id: String!
  ): Cycle!
  """Cycles."""
  cycles(
    "Cursor after which the page starts." after: String
    "Cursor before which the page ends." before: String
    "Conditions the records must meet." filter: CycleFilter
    "Page size from the start (default 50, at most 250)." first: Int
    "Include archived records." includeArchived: Boolean
    "Page size from the end (at most 250)." last: Int
    "Sort key; newest first." orderBy: PaginationOrderBy
  ): CycleConnection!
  """Issue."""
  issue(
    "Id of the record." id: String!
  ): Issue!
  """Issue label."""
  issueLabel(
    "Id of the record." id: String!
  ): IssueLabel!
  """Issue labels."""
  issueLabels(
    "Cursor after which the page starts." after: String
    "Cursor before which the page ends." before: String
    "Conditions the records must meet." filter: IssueLabelFilter
    "Page size from the start (default 50, at most 250)." first: Int
    "Include archived records." includeArchived: Boolean
    "Page size from the end (at most 250)." last: Int
    "Sort key; newest first." orderBy: PaginationOrderBy
  ): IssueLabelConnection!
  """Issues."""
  issues(
    "Cursor after which the page starts." after: String
    "Cursor before which the page ends." before: String
    "Conditions the records must meet." filter: IssueFilter
    "Page size from the start (default 50, at most 250)." first: Int
    "Include archived records." includeArchived: Boolean
    "Page size from the end (at most 250)." last: Int
    "Sort key; newest first." orderBy: PaginationOrderBy
    sort: [IssueSortInput!]
  ): IssueConnection!
  """Organization."""
  organization: Organization!
  """Project."""
  project(
    "Id of the record." id: String!
  ): Project!
  """Projects."""
  projects(
    "Cursor after which the page starts." after: String
    "Cursor before which the page ends." before: String
    "Conditions the records must meet." filter: ProjectFilter
    "Page size from the start (default 50, at most 250)." first: Int
    "Include archived records." includeArchived: Boolean
    "Page size from the end (at most 250)." last: Int
    "Sort key; newest first." orderBy: PaginationOrderBy
    sort: [ProjectSortInput!]
  ): ProjectConnection!
  """Search issues."""
  searchIssues(
    "Cursor after which the page starts." after: String
    "Cursor before which the page ends." before: String
    "Conditions the records must meet." filter: IssueFilter
    "Page size from the start (default 50, at most 250)." first: Int
    "Include archived records." includeArchived: Boolean
    includeComments: Boolean
    "Page size from the end (at most 250)." last: Int
    "Sort key; newest first." orderBy: PaginationOrderBy
    teamId: String
    term: String!
  ): IssueSearchPayload!
  """Team."""
  team(
    "Id of the record." id: String!
  ): Team!
  """Teams."""
  teams(
    "Cursor after which the page starts." after: String
    "Cursor before which the page ends." before: String
    "Conditions the records must meet." filter: TeamFilter
    "Page size from the start (default 50, at most 250)." first: Int
    "Include archived records." includeArchived: Boolean
    "Page size from the end (at most 250)." last: Int
    "Sort key; newest first." orderBy: PaginationOrderBy
  ): TeamConnection!
  """User."""
  user(
    "Id of the record." id: String!
  ): User!
  """Users."""
  users(
    "Cursor after which the page starts." after: String
    "Cursor before which the page ends." before: String
    "Conditions the records must meet." filter: UserFilter
    "Page size from the start (default 50, at most 250)." first: Int
    "Include archived records." includeArchived: Boolean
    includeDisabled: Boolean
    "Page size from the end (at most 250)." last: Int
    "Sort key; newest first." orderBy: PaginationOrderBy
    sort: [UserSortInput!]
  ): UserConnection!
  """Viewer."""
  viewer: User!
  """Webhook."""
  webhook(
    "Id of the record." id: String!
  ): Webhook!
  """Webhooks."""
  webhooks(
    "Cursor after which the page starts." after: String
    "Cursor before which the page ends." before: String
    "Page size from the start (default 50, at most 250)." first: Int
    "Include archived records." includeArchived: Boolean
    "Page size from the end (at most 250)." last: Int
    "Sort key; newest first." orderBy: PaginationOrderBy
  ): WebhookConnection!
  """Workflow state."""
  workflowState(
    "Id of the record." id: String!
  ): WorkflowState!
  """Workflow states."""
  workflowStates(
    "Cursor after which the page starts." after: String
    "Cursor before which the page ends." before: String
    "Conditions the records must meet." filter: WorkflowStateFilter
    "Page size from the start (default 50, at most 250)." first: Int
    "Include archived records." includeArchived: Boolean
    "Page size from the end (at most 250)." last: Int
    "Sort key; newest first." orderBy: PaginationOrderBy
  ): WorkflowStateConnection!
}
`;
