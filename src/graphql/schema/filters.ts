// GraphQL SDL: filters types.
// Names and types match the schema @linear/sdk expects; descriptions are ours.
export const filtersSdl = /* GraphQL */ `
"""Conditions on a set of activities: some, every, or conditions every member meets."""
input ActivityCollectionFilter {
  """All of these conditions."""
  and: [ActivityCollectionFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Every related record matches."""
  every: ActivityFilter
  """Unique identifier."""
  id: IDComparator
  """Number of related records."""
  length: NumberComparator
  """Any of these conditions."""
  or: [ActivityCollectionFilter!]
  """At least one related record matches."""
  some: ActivityFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
  """User."""
  user: UserFilter
}

"""Conditions on activities; fields combine with AND."""
input ActivityFilter {
  """All of these conditions."""
  and: [ActivityFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Unique identifier."""
  id: IDComparator
  """Any of these conditions."""
  or: [ActivityFilter!]
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
  """User."""
  user: UserFilter
}

"""Conditions on a set of attachments: some, every, or conditions every member meets."""
input AttachmentCollectionFilter {
  """All of these conditions."""
  and: [AttachmentCollectionFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Creator."""
  creator: NullableUserFilter
  """Every related record matches."""
  every: AttachmentFilter
  """Unique identifier."""
  id: IDComparator
  """Number of related records."""
  length: NumberComparator
  """Any of these conditions."""
  or: [AttachmentCollectionFilter!]
  """At least one related record matches."""
  some: AttachmentFilter
  """Source type."""
  sourceType: SourceTypeComparator
  """Subtitle."""
  subtitle: NullableStringComparator
  """Title."""
  title: StringComparator
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
  """Address of the record."""
  url: StringComparator
}

"""Conditions on attachments; fields combine with AND."""
input AttachmentFilter {
  """All of these conditions."""
  and: [AttachmentFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Creator."""
  creator: NullableUserFilter
  """Unique identifier."""
  id: IDComparator
  """Any of these conditions."""
  or: [AttachmentFilter!]
  """Source type."""
  sourceType: SourceTypeComparator
  """Subtitle."""
  subtitle: NullableStringComparator
  """Title."""
  title: StringComparator
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
  """Address of the record."""
  url: StringComparator
}

"""Conditions on a set of comments: some, every, or conditions every member meets."""
input CommentCollectionFilter {
  """All of these conditions."""
  and: [CommentCollectionFilter!]
  """Body."""
  body: StringComparator
  """When it was created."""
  createdAt: DateComparator
  """Document content."""
  documentContent: NullableDocumentContentFilter
  """Every related record matches."""
  every: CommentFilter
  """Unique identifier."""
  id: IDComparator
  """Initiative."""
  initiative: NullableInitiativeFilter
  """Initiative update."""
  initiativeUpdate: NullableInitiativeUpdateFilter
  """Issue."""
  issue: NullableIssueFilter
  """Number of related records."""
  length: NumberComparator
  """Needs."""
  needs: CustomerNeedCollectionFilter
  """Any of these conditions."""
  or: [CommentCollectionFilter!]
  """Parent."""
  parent: NullableCommentFilter
  """Project."""
  project: NullableProjectFilter
  """Project update."""
  projectUpdate: NullableProjectUpdateFilter
  """Reactions."""
  reactions: ReactionCollectionFilter
  """At least one related record matches."""
  some: CommentFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
  """User."""
  user: UserFilter
}

"""Conditions on comments; fields combine with AND."""
input CommentFilter {
  """All of these conditions."""
  and: [CommentFilter!]
  """Body."""
  body: StringComparator
  """When it was created."""
  createdAt: DateComparator
  """Document content."""
  documentContent: NullableDocumentContentFilter
  """Unique identifier."""
  id: IDComparator
  """Initiative."""
  initiative: NullableInitiativeFilter
  """Initiative update."""
  initiativeUpdate: NullableInitiativeUpdateFilter
  """Issue."""
  issue: NullableIssueFilter
  """Needs."""
  needs: CustomerNeedCollectionFilter
  """Any of these conditions."""
  or: [CommentFilter!]
  """Parent."""
  parent: NullableCommentFilter
  """Project."""
  project: NullableProjectFilter
  """Project update."""
  projectUpdate: NullableProjectUpdateFilter
  """Reactions."""
  reactions: ReactionCollectionFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
  """User."""
  user: UserFilter
}

"""Conditions on a set of customer needs: some, every, or conditions every member meets."""
input CustomerNeedCollectionFilter {
  """All of these conditions."""
  and: [CustomerNeedCollectionFilter!]
  """Comment."""
  comment: NullableCommentFilter
  """When it was created."""
  createdAt: DateComparator
  """Customer."""
  customer: NullableCustomerFilter
  """Every related record matches."""
  every: CustomerNeedFilter
  """Unique identifier."""
  id: IDComparator
  """Issue."""
  issue: NullableIssueFilter
  """Number of related records."""
  length: NumberComparator
  """Any of these conditions."""
  or: [CustomerNeedCollectionFilter!]
  """Priority."""
  priority: NumberComparator
  """Project."""
  project: NullableProjectFilter
  """At least one related record matches."""
  some: CustomerNeedFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on customer needs; fields combine with AND."""
input CustomerNeedFilter {
  """All of these conditions."""
  and: [CustomerNeedFilter!]
  """Comment."""
  comment: NullableCommentFilter
  """When it was created."""
  createdAt: DateComparator
  """Customer."""
  customer: NullableCustomerFilter
  """Unique identifier."""
  id: IDComparator
  """Issue."""
  issue: NullableIssueFilter
  """Any of these conditions."""
  or: [CustomerNeedFilter!]
  """Priority."""
  priority: NumberComparator
  """Project."""
  project: NullableProjectFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on customer status; fields combine with AND."""
input CustomerStatusFilter {
  """All of these conditions."""
  and: [CustomerStatusFilter!]
  """Colour, as #rrggbb."""
  color: StringComparator
  """When it was created."""
  createdAt: DateComparator
  """Longer description."""
  description: StringComparator
  """Unique identifier."""
  id: IDComparator
  """Name."""
  name: StringComparator
  """Any of these conditions."""
  or: [CustomerStatusFilter!]
  """Position."""
  position: NumberComparator
  """Type."""
  type: StringComparator
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on customer tiers; fields combine with AND."""
input CustomerTierFilter {
  """All of these conditions."""
  and: [CustomerTierFilter!]
  """Colour, as #rrggbb."""
  color: StringComparator
  """When it was created."""
  createdAt: DateComparator
  """Longer description."""
  description: StringComparator
  """Display name."""
  displayName: StringComparator
  """Unique identifier."""
  id: IDComparator
  """Any of these conditions."""
  or: [CustomerTierFilter!]
  """Position."""
  position: NumberComparator
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on cycles; fields combine with AND."""
input CycleFilter {
  """All of these conditions."""
  and: [CycleFilter!]
  """Completed at."""
  completedAt: DateComparator
  """When it was created."""
  createdAt: DateComparator
  """Ends at."""
  endsAt: DateComparator
  """Unique identifier."""
  id: IDComparator
  """Inherited from id."""
  inheritedFromId: IDComparator
  """Is active."""
  isActive: BooleanComparator
  """Is future."""
  isFuture: BooleanComparator
  """Is in cooldown."""
  isInCooldown: BooleanComparator
  """Is next."""
  isNext: BooleanComparator
  """Is past."""
  isPast: BooleanComparator
  """Is previous."""
  isPrevious: BooleanComparator
  """Issues."""
  issues: IssueCollectionFilter
  """Name."""
  name: StringComparator
  """Number."""
  number: NumberComparator
  """Any of these conditions."""
  or: [CycleFilter!]
  """Starts at."""
  startsAt: DateComparator
  """Team."""
  team: TeamFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on documents; fields combine with AND."""
input DocumentFilter {
  """All of these conditions."""
  and: [DocumentFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Creator."""
  creator: UserFilter
  """Cycle."""
  cycle: CycleFilter
  """Unique identifier."""
  id: IDComparator
  """Initiative."""
  initiative: InitiativeFilter
  """Issue."""
  issue: IssueFilter
  """Any of these conditions."""
  or: [DocumentFilter!]
  """Project."""
  project: ProjectFilter
  """Release."""
  release: ReleaseFilter
  """Slug id."""
  slugId: StringComparator
  """Team."""
  team: NullableTeamFilter
  """Title."""
  title: StringComparator
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on a set of initiatives: some, every, or conditions every member meets."""
input InitiativeCollectionFilter {
  """Activity type."""
  activityType: StringComparator
  """Ancestors."""
  ancestors: InitiativeCollectionFilter
  """All of these conditions."""
  and: [InitiativeCollectionFilter!]
  """Canceled at."""
  canceledAt: NullableDateComparator
  """Completed at."""
  completedAt: NullableDateComparator
  """When it was created."""
  createdAt: DateComparator
  """Creator."""
  creator: NullableUserFilter
  """Every related record matches."""
  every: InitiativeFilter
  """Health."""
  health: StringComparator
  """Health with age."""
  healthWithAge: StringComparator
  """Unique identifier."""
  id: IDComparator
  """Initiative updates."""
  initiativeUpdates: InitiativeUpdatesCollectionFilter
  """Labels."""
  labels: InitiativeLabelCollectionFilter
  """Lead team."""
  leadTeam: NullableTeamFilter
  """Number of related records."""
  length: NumberComparator
  """Name."""
  name: StringComparator
  """Any of these conditions."""
  or: [InitiativeCollectionFilter!]
  """Owner."""
  owner: NullableUserFilter
  """Priority."""
  priority: NullableNumberComparator
  """Slug id."""
  slugId: StringComparator
  """At least one related record matches."""
  some: InitiativeFilter
  """Started at."""
  startedAt: NullableDateComparator
  """Status."""
  status: StringComparator
  """Target date."""
  targetDate: NullableDateComparator
  """Teams."""
  teams: TeamCollectionFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on initiatives; fields combine with AND."""
input InitiativeFilter {
  """Activity type."""
  activityType: StringComparator
  """Ancestors."""
  ancestors: InitiativeCollectionFilter
  """All of these conditions."""
  and: [InitiativeFilter!]
  """Canceled at."""
  canceledAt: NullableDateComparator
  """Completed at."""
  completedAt: NullableDateComparator
  """When it was created."""
  createdAt: DateComparator
  """Creator."""
  creator: NullableUserFilter
  """Health."""
  health: StringComparator
  """Health with age."""
  healthWithAge: StringComparator
  """Unique identifier."""
  id: IDComparator
  """Initiative updates."""
  initiativeUpdates: InitiativeUpdatesCollectionFilter
  """Labels."""
  labels: InitiativeLabelCollectionFilter
  """Lead team."""
  leadTeam: NullableTeamFilter
  """Name."""
  name: StringComparator
  """Any of these conditions."""
  or: [InitiativeFilter!]
  """Owner."""
  owner: NullableUserFilter
  """Priority."""
  priority: NullableNumberComparator
  """Slug id."""
  slugId: StringComparator
  """Started at."""
  startedAt: NullableDateComparator
  """Status."""
  status: StringComparator
  """Target date."""
  targetDate: NullableDateComparator
  """Teams."""
  teams: TeamCollectionFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on a set of initiative labels: some, every, or conditions every member meets."""
input InitiativeLabelCollectionFilter {
  """All of these conditions."""
  and: [InitiativeLabelCollectionFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Creator."""
  creator: NullableUserFilter
  """Every related record matches."""
  every: InitiativeLabelFilter
  """Unique identifier."""
  id: IDComparator
  """Is group."""
  isGroup: BooleanComparator
  """Number of related records."""
  length: NumberComparator
  """Name."""
  name: StringComparator
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
  """Any of these conditions."""
  or: [InitiativeLabelCollectionFilter!]
  """Parent."""
  parent: InitiativeLabelFilter
  """At least one related record matches."""
  some: InitiativeLabelCollectionFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on initiative labels; fields combine with AND."""
input InitiativeLabelFilter {
  """All of these conditions."""
  and: [InitiativeLabelFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Creator."""
  creator: NullableUserFilter
  """Unique identifier."""
  id: IDComparator
  """Is group."""
  isGroup: BooleanComparator
  """Name."""
  name: StringComparator
  """Any of these conditions."""
  or: [InitiativeLabelFilter!]
  """Parent."""
  parent: InitiativeLabelFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on a set of initiative updates: some, every, or conditions every member meets."""
input InitiativeUpdatesCollectionFilter {
  """All of these conditions."""
  and: [InitiativeUpdatesCollectionFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Every related record matches."""
  every: InitiativeUpdatesFilter
  """Unique identifier."""
  id: IDComparator
  """Number of related records."""
  length: NumberComparator
  """Any of these conditions."""
  or: [InitiativeUpdatesCollectionFilter!]
  """At least one related record matches."""
  some: InitiativeUpdatesFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on initiative updates; fields combine with AND."""
input InitiativeUpdatesFilter {
  """All of these conditions."""
  and: [InitiativeUpdatesFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Unique identifier."""
  id: IDComparator
  """Any of these conditions."""
  or: [InitiativeUpdatesFilter!]
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on a set of issues: some, every, or conditions every member meets."""
input IssueCollectionFilter {
  """Accumulated state updated at."""
  accumulatedStateUpdatedAt: NullableDateComparator
  """Activity."""
  activity: ActivityCollectionFilter
  """Added to cycle at."""
  addedToCycleAt: NullableDateComparator
  """Added to cycle period."""
  addedToCyclePeriod: CyclePeriodComparator
  """Age time."""
  ageTime: NullableDurationComparator
  """All of these conditions."""
  and: [IssueCollectionFilter!]
  """When it was archived; null while active."""
  archivedAt: NullableDateComparator
  """Assignee."""
  assignee: NullableUserFilter
  """Attachments."""
  attachments: AttachmentCollectionFilter
  """Auto archived at."""
  autoArchivedAt: NullableDateComparator
  """Auto closed at."""
  autoClosedAt: NullableDateComparator
  """Canceled at."""
  canceledAt: NullableDateComparator
  """Children."""
  children: IssueCollectionFilter
  """Comments."""
  comments: CommentCollectionFilter
  """Completed at."""
  completedAt: NullableDateComparator
  """When it was created."""
  createdAt: DateComparator
  """Creator."""
  creator: NullableUserFilter
  """Customer count."""
  customerCount: NumberComparator
  """Customer important count."""
  customerImportantCount: NumberComparator
  """Cycle."""
  cycle: NullableCycleFilter
  """Cycle time."""
  cycleTime: NullableDurationComparator
  """Delegate."""
  delegate: NullableUserFilter
  """Longer description."""
  description: NullableStringComparator
  """Due date."""
  dueDate: NullableTimelessDateComparator
  """Estimate."""
  estimate: EstimateComparator
  """Every related record matches."""
  every: IssueFilter
  """Has active agent sessions."""
  hasActiveAgentSessions: RelationExistsComparator
  """Has blocked by relations."""
  hasBlockedByRelations: RelationExistsComparator
  """Has blocking relations."""
  hasBlockingRelations: RelationExistsComparator
  """Has dismissed agent sessions."""
  hasDismissedAgentSessions: RelationExistsComparator
  """Has duplicate relations."""
  hasDuplicateRelations: RelationExistsComparator
  """Has errored agent sessions."""
  hasErroredAgentSessions: RelationExistsComparator
  """Has merged agent pull requests."""
  hasMergedAgentPullRequests: RelationExistsComparator
  """Has related relations."""
  hasRelatedRelations: RelationExistsComparator
  """Has shared users."""
  hasSharedUsers: RelationExistsComparator
  """Has suggested assignees."""
  hasSuggestedAssignees: RelationExistsComparator
  """Has suggested labels."""
  hasSuggestedLabels: RelationExistsComparator
  """Has suggested projects."""
  hasSuggestedProjects: RelationExistsComparator
  """Has suggested related issues."""
  hasSuggestedRelatedIssues: RelationExistsComparator
  """Has suggested similar issues."""
  hasSuggestedSimilarIssues: RelationExistsComparator
  """Has suggested teams."""
  hasSuggestedTeams: RelationExistsComparator
  """Unique identifier."""
  id: IssueIDComparator
  """Labels."""
  labels: IssueLabelCollectionFilter
  """Last applied template."""
  lastAppliedTemplate: NullableTemplateFilter
  """Lead time."""
  leadTime: NullableDurationComparator
  """Number of related records."""
  length: NumberComparator
  """Needs."""
  needs: CustomerNeedCollectionFilter
  """Number."""
  number: NumberComparator
  """Any of these conditions."""
  or: [IssueCollectionFilter!]
  """Parent."""
  parent: NullableIssueFilter
  """Priority."""
  priority: NullableNumberComparator
  """Project."""
  project: NullableProjectFilter
  """Project milestone."""
  projectMilestone: NullableProjectMilestoneFilter
  """Reactions."""
  reactions: ReactionCollectionFilter
  """Recurring issue template."""
  recurringIssueTemplate: NullableTemplateFilter
  """Releases."""
  releases: ReleaseCollectionFilter
  """Searchable content."""
  searchableContent: ContentComparator
  """Shared with."""
  sharedWith: UserCollectionFilter
  """Sla breaches at."""
  slaBreachesAt: NullableDateComparator
  """Sla status."""
  slaStatus: SlaStatusComparator
  """Snoozed by."""
  snoozedBy: NullableUserFilter
  """Snoozed until at."""
  snoozedUntilAt: NullableDateComparator
  """At least one related record matches."""
  some: IssueFilter
  """Source metadata."""
  sourceMetadata: SourceMetadataComparator
  """Started at."""
  startedAt: NullableDateComparator
  """State."""
  state: WorkflowStateFilter
  """Subscribers."""
  subscribers: UserCollectionFilter
  """Suggestions."""
  suggestions: IssueSuggestionCollectionFilter
  """Team."""
  team: TeamFilter
  """Title."""
  title: StringComparator
  """Triage time."""
  triageTime: NullableDurationComparator
  """Triaged at."""
  triagedAt: NullableDateComparator
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on issues; fields combine with AND."""
input IssueFilter {
  """Accumulated state updated at."""
  accumulatedStateUpdatedAt: NullableDateComparator
  """Activity."""
  activity: ActivityCollectionFilter
  """Added to cycle at."""
  addedToCycleAt: NullableDateComparator
  """Added to cycle period."""
  addedToCyclePeriod: CyclePeriodComparator
  """Age time."""
  ageTime: NullableDurationComparator
  """All of these conditions."""
  and: [IssueFilter!]
  """When it was archived; null while active."""
  archivedAt: NullableDateComparator
  """Assignee."""
  assignee: NullableUserFilter
  """Attachments."""
  attachments: AttachmentCollectionFilter
  """Auto archived at."""
  autoArchivedAt: NullableDateComparator
  """Auto closed at."""
  autoClosedAt: NullableDateComparator
  """Canceled at."""
  canceledAt: NullableDateComparator
  """Children."""
  children: IssueCollectionFilter
  """Comments."""
  comments: CommentCollectionFilter
  """Completed at."""
  completedAt: NullableDateComparator
  """When it was created."""
  createdAt: DateComparator
  """Creator."""
  creator: NullableUserFilter
  """Customer count."""
  customerCount: NumberComparator
  """Customer important count."""
  customerImportantCount: NumberComparator
  """Cycle."""
  cycle: NullableCycleFilter
  """Cycle time."""
  cycleTime: NullableDurationComparator
  """Delegate."""
  delegate: NullableUserFilter
  """Longer description."""
  description: NullableStringComparator
  """Due date."""
  dueDate: NullableTimelessDateComparator
  """Estimate."""
  estimate: EstimateComparator
  """Has active agent sessions."""
  hasActiveAgentSessions: RelationExistsComparator
  """Has blocked by relations."""
  hasBlockedByRelations: RelationExistsComparator
  """Has blocking relations."""
  hasBlockingRelations: RelationExistsComparator
  """Has dismissed agent sessions."""
  hasDismissedAgentSessions: RelationExistsComparator
  """Has duplicate relations."""
  hasDuplicateRelations: RelationExistsComparator
  """Has errored agent sessions."""
  hasErroredAgentSessions: RelationExistsComparator
  """Has merged agent pull requests."""
  hasMergedAgentPullRequests: RelationExistsComparator
  """Has related relations."""
  hasRelatedRelations: RelationExistsComparator
  """Has shared users."""
  hasSharedUsers: RelationExistsComparator
  """Has suggested assignees."""
  hasSuggestedAssignees: RelationExistsComparator
  """Has suggested labels."""
  hasSuggestedLabels: RelationExistsComparator
  """Has suggested projects."""
  hasSuggestedProjects: RelationExistsComparator
  """Has suggested related issues."""
  hasSuggestedRelatedIssues: RelationExistsComparator
  """Has suggested similar issues."""
  hasSuggestedSimilarIssues: RelationExistsComparator
  """Has suggested teams."""
  hasSuggestedTeams: RelationExistsComparator
  """Unique identifier."""
  id: IssueIDComparator
  """Labels."""
  labels: IssueLabelCollectionFilter
  """Last applied template."""
  lastAppliedTemplate: NullableTemplateFilter
  """Lead time."""
  leadTime: NullableDurationComparator
  """Needs."""
  needs: CustomerNeedCollectionFilter
  """Number."""
  number: NumberComparator
  """Any of these conditions."""
  or: [IssueFilter!]
  """Parent."""
  parent: NullableIssueFilter
  """Priority."""
  priority: NullableNumberComparator
  """Project."""
  project: NullableProjectFilter
  """Project milestone."""
  projectMilestone: NullableProjectMilestoneFilter
  """Reactions."""
  reactions: ReactionCollectionFilter
  """Recurring issue template."""
  recurringIssueTemplate: NullableTemplateFilter
  """Releases."""
  releases: ReleaseCollectionFilter
  """Searchable content."""
  searchableContent: ContentComparator
  """Shared with."""
  sharedWith: UserCollectionFilter
  """Sla breaches at."""
  slaBreachesAt: NullableDateComparator
  """Sla status."""
  slaStatus: SlaStatusComparator
  """Snoozed by."""
  snoozedBy: NullableUserFilter
  """Snoozed until at."""
  snoozedUntilAt: NullableDateComparator
  """Source metadata."""
  sourceMetadata: SourceMetadataComparator
  """Started at."""
  startedAt: NullableDateComparator
  """State."""
  state: WorkflowStateFilter
  """Subscribers."""
  subscribers: UserCollectionFilter
  """Suggestions."""
  suggestions: IssueSuggestionCollectionFilter
  """Team."""
  team: TeamFilter
  """Title."""
  title: StringComparator
  """Triage time."""
  triageTime: NullableDurationComparator
  """Triaged at."""
  triagedAt: NullableDateComparator
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on a set of issue labels: some, every, or conditions every member meets."""
input IssueLabelCollectionFilter {
  """All of these conditions."""
  and: [IssueLabelCollectionFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Creator."""
  creator: NullableUserFilter
  """Every related record matches."""
  every: IssueLabelFilter
  """Unique identifier."""
  id: IDComparator
  """Is group."""
  isGroup: BooleanComparator
  """Number of related records."""
  length: NumberComparator
  """Name."""
  name: StringComparator
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
  """Any of these conditions."""
  or: [IssueLabelCollectionFilter!]
  """Parent."""
  parent: IssueLabelFilter
  """At least one related record matches."""
  some: IssueLabelFilter
  """Team."""
  team: NullableTeamFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on issue labels; fields combine with AND."""
input IssueLabelFilter {
  """All of these conditions."""
  and: [IssueLabelFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Creator."""
  creator: NullableUserFilter
  """Unique identifier."""
  id: IDComparator
  """Is group."""
  isGroup: BooleanComparator
  """Name."""
  name: StringComparator
  """Any of these conditions."""
  or: [IssueLabelFilter!]
  """Parent."""
  parent: IssueLabelFilter
  """Team."""
  team: NullableTeamFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on a set of issue suggestions: some, every, or conditions every member meets."""
input IssueSuggestionCollectionFilter {
  """All of these conditions."""
  and: [IssueSuggestionCollectionFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Every related record matches."""
  every: IssueSuggestionFilter
  """Unique identifier."""
  id: IDComparator
  """Number of related records."""
  length: NumberComparator
  """Any of these conditions."""
  or: [IssueSuggestionCollectionFilter!]
  """At least one related record matches."""
  some: IssueSuggestionFilter
  """State."""
  state: StringComparator
  """Suggested label."""
  suggestedLabel: IssueLabelFilter
  """Suggested project."""
  suggestedProject: NullableProjectFilter
  """Suggested team."""
  suggestedTeam: NullableTeamFilter
  """Suggested user."""
  suggestedUser: NullableUserFilter
  """Type."""
  type: StringComparator
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on issue suggestions; fields combine with AND."""
input IssueSuggestionFilter {
  """All of these conditions."""
  and: [IssueSuggestionFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Unique identifier."""
  id: IDComparator
  """Any of these conditions."""
  or: [IssueSuggestionFilter!]
  """State."""
  state: StringComparator
  """Suggested label."""
  suggestedLabel: IssueLabelFilter
  """Suggested project."""
  suggestedProject: NullableProjectFilter
  """Suggested team."""
  suggestedTeam: NullableTeamFilter
  """Suggested user."""
  suggestedUser: NullableUserFilter
  """Type."""
  type: StringComparator
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on an optional comment."""
input NullableCommentFilter {
  """All of these conditions."""
  and: [NullableCommentFilter!]
  """Body."""
  body: StringComparator
  """When it was created."""
  createdAt: DateComparator
  """Document content."""
  documentContent: NullableDocumentContentFilter
  """Unique identifier."""
  id: IDComparator
  """Initiative."""
  initiative: NullableInitiativeFilter
  """Initiative update."""
  initiativeUpdate: NullableInitiativeUpdateFilter
  """Issue."""
  issue: NullableIssueFilter
  """Needs."""
  needs: CustomerNeedCollectionFilter
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
  """Any of these conditions."""
  or: [NullableCommentFilter!]
  """Parent."""
  parent: NullableCommentFilter
  """Project."""
  project: NullableProjectFilter
  """Project update."""
  projectUpdate: NullableProjectUpdateFilter
  """Reactions."""
  reactions: ReactionCollectionFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
  """User."""
  user: UserFilter
}

"""Conditions on an optional customer."""
input NullableCustomerFilter {
  """All of these conditions."""
  and: [NullableCustomerFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Domains."""
  domains: StringArrayComparator
  """External ids."""
  externalIds: StringArrayComparator
  """Unique identifier."""
  id: IDComparator
  """Name."""
  name: StringComparator
  """Needs."""
  needs: CustomerNeedCollectionFilter
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
  """Any of these conditions."""
  or: [NullableCustomerFilter!]
  """Owner."""
  owner: NullableUserFilter
  """Revenue."""
  revenue: NumberComparator
  """Size."""
  size: NumberComparator
  """Slack channel id."""
  slackChannelId: StringComparator
  """Status."""
  status: CustomerStatusFilter
  """Tier."""
  tier: CustomerTierFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on an optional cycle."""
input NullableCycleFilter {
  """All of these conditions."""
  and: [NullableCycleFilter!]
  """Completed at."""
  completedAt: DateComparator
  """When it was created."""
  createdAt: DateComparator
  """Ends at."""
  endsAt: DateComparator
  """Unique identifier."""
  id: IDComparator
  """Inherited from id."""
  inheritedFromId: IDComparator
  """Is active."""
  isActive: BooleanComparator
  """Is future."""
  isFuture: BooleanComparator
  """Is in cooldown."""
  isInCooldown: BooleanComparator
  """Is next."""
  isNext: BooleanComparator
  """Is past."""
  isPast: BooleanComparator
  """Is previous."""
  isPrevious: BooleanComparator
  """Issues."""
  issues: IssueCollectionFilter
  """Name."""
  name: StringComparator
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
  """Number."""
  number: NumberComparator
  """Any of these conditions."""
  or: [NullableCycleFilter!]
  """Starts at."""
  startsAt: DateComparator
  """Team."""
  team: TeamFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on an optional document content."""
input NullableDocumentContentFilter {
  """All of these conditions."""
  and: [NullableDocumentContentFilter!]
  """Content."""
  content: NullableStringComparator
  """When it was created."""
  createdAt: DateComparator
  """Document."""
  document: DocumentFilter
  """Unique identifier."""
  id: IDComparator
  """Initiative."""
  initiative: InitiativeFilter
  """Issue."""
  issue: IssueFilter
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
  """Any of these conditions."""
  or: [NullableDocumentContentFilter!]
  """Project."""
  project: ProjectFilter
  """Project milestone."""
  projectMilestone: ProjectMilestoneFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on an optional initiative."""
input NullableInitiativeFilter {
  """Activity type."""
  activityType: StringComparator
  """Ancestors."""
  ancestors: InitiativeCollectionFilter
  """All of these conditions."""
  and: [NullableInitiativeFilter!]
  """Canceled at."""
  canceledAt: NullableDateComparator
  """Completed at."""
  completedAt: NullableDateComparator
  """When it was created."""
  createdAt: DateComparator
  """Creator."""
  creator: NullableUserFilter
  """Health."""
  health: StringComparator
  """Health with age."""
  healthWithAge: StringComparator
  """Unique identifier."""
  id: IDComparator
  """Initiative updates."""
  initiativeUpdates: InitiativeUpdatesCollectionFilter
  """Labels."""
  labels: InitiativeLabelCollectionFilter
  """Lead team."""
  leadTeam: NullableTeamFilter
  """Name."""
  name: StringComparator
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
  """Any of these conditions."""
  or: [NullableInitiativeFilter!]
  """Owner."""
  owner: NullableUserFilter
  """Priority."""
  priority: NullableNumberComparator
  """Slug id."""
  slugId: StringComparator
  """Started at."""
  startedAt: NullableDateComparator
  """Status."""
  status: StringComparator
  """Target date."""
  targetDate: NullableDateComparator
  """Teams."""
  teams: TeamCollectionFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on an optional initiative update."""
input NullableInitiativeUpdateFilter {
  """All of these conditions."""
  and: [NullableInitiativeUpdateFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Unique identifier."""
  id: IDComparator
  """Initiative."""
  initiative: InitiativeFilter
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
  """Any of these conditions."""
  or: [NullableInitiativeUpdateFilter!]
  """Reactions."""
  reactions: ReactionCollectionFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
  """User."""
  user: UserFilter
}

"""Conditions on an optional issue."""
input NullableIssueFilter {
  """Accumulated state updated at."""
  accumulatedStateUpdatedAt: NullableDateComparator
  """Activity."""
  activity: ActivityCollectionFilter
  """Added to cycle at."""
  addedToCycleAt: NullableDateComparator
  """Added to cycle period."""
  addedToCyclePeriod: CyclePeriodComparator
  """Age time."""
  ageTime: NullableDurationComparator
  """All of these conditions."""
  and: [NullableIssueFilter!]
  """When it was archived; null while active."""
  archivedAt: NullableDateComparator
  """Assignee."""
  assignee: NullableUserFilter
  """Attachments."""
  attachments: AttachmentCollectionFilter
  """Auto archived at."""
  autoArchivedAt: NullableDateComparator
  """Auto closed at."""
  autoClosedAt: NullableDateComparator
  """Canceled at."""
  canceledAt: NullableDateComparator
  """Children."""
  children: IssueCollectionFilter
  """Comments."""
  comments: CommentCollectionFilter
  """Completed at."""
  completedAt: NullableDateComparator
  """When it was created."""
  createdAt: DateComparator
  """Creator."""
  creator: NullableUserFilter
  """Customer count."""
  customerCount: NumberComparator
  """Customer important count."""
  customerImportantCount: NumberComparator
  """Cycle."""
  cycle: NullableCycleFilter
  """Cycle time."""
  cycleTime: NullableDurationComparator
  """Delegate."""
  delegate: NullableUserFilter
  """Longer description."""
  description: NullableStringComparator
  """Due date."""
  dueDate: NullableTimelessDateComparator
  """Estimate."""
  estimate: EstimateComparator
  """Has active agent sessions."""
  hasActiveAgentSessions: RelationExistsComparator
  """Has blocked by relations."""
  hasBlockedByRelations: RelationExistsComparator
  """Has blocking relations."""
  hasBlockingRelations: RelationExistsComparator
  """Has dismissed agent sessions."""
  hasDismissedAgentSessions: RelationExistsComparator
  """Has duplicate relations."""
  hasDuplicateRelations: RelationExistsComparator
  """Has errored agent sessions."""
  hasErroredAgentSessions: RelationExistsComparator
  """Has merged agent pull requests."""
  hasMergedAgentPullRequests: RelationExistsComparator
  """Has related relations."""
  hasRelatedRelations: RelationExistsComparator
  """Has shared users."""
  hasSharedUsers: RelationExistsComparator
  """Has suggested assignees."""
  hasSuggestedAssignees: RelationExistsComparator
  """Has suggested labels."""
  hasSuggestedLabels: RelationExistsComparator
  """Has suggested projects."""
  hasSuggestedProjects: RelationExistsComparator
  """Has suggested related issues."""
  hasSuggestedRelatedIssues: RelationExistsComparator
  """Has suggested similar issues."""
  hasSuggestedSimilarIssues: RelationExistsComparator
  """Has suggested teams."""
  hasSuggestedTeams: RelationExistsComparator
  """Unique identifier."""
  id: IssueIDComparator
  """Labels."""
  labels: IssueLabelCollectionFilter
  """Last applied template."""
  lastAppliedTemplate: NullableTemplateFilter
  """Lead time."""
  leadTime: NullableDurationComparator
  """Needs."""
  needs: CustomerNeedCollectionFilter
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
  """Number."""
  number: NumberComparator
  """Any of these conditions."""
  or: [NullableIssueFilter!]
  """Parent."""
  parent: NullableIssueFilter
  """Priority."""
  priority: NullableNumberComparator
  """Project."""
  project: NullableProjectFilter
  """Project milestone."""
  projectMilestone: NullableProjectMilestoneFilter
  """Reactions."""
  reactions: ReactionCollectionFilter
  """Recurring issue template."""
  recurringIssueTemplate: NullableTemplateFilter
  """Releases."""
  releases: ReleaseCollectionFilter
  """Searchable content."""
  searchableContent: ContentComparator
  """Shared with."""
  sharedWith: UserCollectionFilter
  """Sla breaches at."""
  slaBreachesAt: NullableDateComparator
  """Sla status."""
  slaStatus: SlaStatusComparator
  """Snoozed by."""
  snoozedBy: NullableUserFilter
  """Snoozed until at."""
  snoozedUntilAt: NullableDateComparator
  """Source metadata."""
  sourceMetadata: SourceMetadataComparator
  """Started at."""
  startedAt: NullableDateComparator
  """State."""
  state: WorkflowStateFilter
  """Subscribers."""
  subscribers: UserCollectionFilter
  """Suggestions."""
  suggestions: IssueSuggestionCollectionFilter
  """Team."""
  team: TeamFilter
  """Title."""
  title: StringComparator
  """Triage time."""
  triageTime: NullableDurationComparator
  """Triaged at."""
  triagedAt: NullableDateComparator
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on an optional project."""
input NullableProjectFilter {
  """Accessible teams."""
  accessibleTeams: TeamCollectionFilter
  """Activity type."""
  activityType: StringComparator
  """All of these conditions."""
  and: [NullableProjectFilter!]
  """Canceled at."""
  canceledAt: NullableDateComparator
  """Completed at."""
  completedAt: NullableDateComparator
  """Completed project milestones."""
  completedProjectMilestones: ProjectMilestoneCollectionFilter
  """When it was created."""
  createdAt: DateComparator
  """Creator."""
  creator: UserFilter
  """Customer count."""
  customerCount: NumberComparator
  """Customer important count."""
  customerImportantCount: NumberComparator
  """Has blocked by relations."""
  hasBlockedByRelations: RelationExistsComparator
  """Has blocking relations."""
  hasBlockingRelations: RelationExistsComparator
  """Has depended on by relations."""
  hasDependedOnByRelations: RelationExistsComparator
  """Has depends on relations."""
  hasDependsOnRelations: RelationExistsComparator
  """Has related relations."""
  hasRelatedRelations: RelationExistsComparator
  """Has violated relations."""
  hasViolatedRelations: RelationExistsComparator
  """Health."""
  health: StringComparator
  """Health with age."""
  healthWithAge: StringComparator
  """Unique identifier."""
  id: IDComparator
  """Initiatives."""
  initiatives: InitiativeCollectionFilter
  """Issues."""
  issues: IssueCollectionFilter
  """Labels."""
  labels: ProjectLabelCollectionFilter
  """Last applied template."""
  lastAppliedTemplate: NullableTemplateFilter
  """Lead."""
  lead: NullableUserFilter
  """Members."""
  members: UserCollectionFilter
  """Name."""
  name: StringComparator
  """Needs."""
  needs: CustomerNeedCollectionFilter
  """Next project milestone."""
  nextProjectMilestone: ProjectMilestoneFilter
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
  """Any of these conditions."""
  or: [NullableProjectFilter!]
  """Priority."""
  priority: NullableNumberComparator
  """Project milestones."""
  projectMilestones: ProjectMilestoneCollectionFilter
  """Project updates."""
  projectUpdates: ProjectUpdatesCollectionFilter
  """Roadmaps."""
  roadmaps: RoadmapCollectionFilter
  """Searchable content."""
  searchableContent: ContentComparator
  """Slug id."""
  slugId: StringComparator
  """Start date."""
  startDate: NullableDateComparator
  """Started at."""
  startedAt: NullableDateComparator
  """State."""
  state: StringComparator
  """Status."""
  status: ProjectStatusFilter
  """Target date."""
  targetDate: NullableDateComparator
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on an optional project milestone."""
input NullableProjectMilestoneFilter {
  """All of these conditions."""
  and: [NullableProjectMilestoneFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Unique identifier."""
  id: IDComparator
  """Name."""
  name: NullableStringComparator
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
  """Any of these conditions."""
  or: [NullableProjectMilestoneFilter!]
  """Project."""
  project: NullableProjectFilter
  """Target date."""
  targetDate: NullableDateComparator
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on an optional project update."""
input NullableProjectUpdateFilter {
  """All of these conditions."""
  and: [NullableProjectUpdateFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Unique identifier."""
  id: IDComparator
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
  """Any of these conditions."""
  or: [NullableProjectUpdateFilter!]
  """Project."""
  project: ProjectFilter
  """Reactions."""
  reactions: ReactionCollectionFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
  """User."""
  user: UserFilter
}

"""Conditions on an optional team."""
input NullableTeamFilter {
  """Ancestors."""
  ancestors: TeamCollectionFilter
  """All of these conditions."""
  and: [NullableTeamFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Longer description."""
  description: NullableStringComparator
  """Unique identifier."""
  id: IDComparator
  """Issues."""
  issues: IssueCollectionFilter
  """Key."""
  key: StringComparator
  """Members."""
  members: UserCollectionFilter
  """Name."""
  name: StringComparator
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
  """Any of these conditions."""
  or: [NullableTeamFilter!]
  """Owners."""
  owners: UserCollectionFilter
  """Parent."""
  parent: NullableTeamFilter
  """Private."""
  private: BooleanComparator
  """Release pipelines."""
  releasePipelines: ReleasePipelineCollectionFilter
  """Restricted by."""
  restrictedBy: NullableTeamFilter
  """Retired at."""
  retiredAt: NullableDateComparator
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
  """Users."""
  users: UserCollectionFilter
  """Visibility."""
  visibility: TeamVisibilityComparator
}

"""Conditions on an optional template."""
input NullableTemplateFilter {
  """All of these conditions."""
  and: [NullableTemplateFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Unique identifier."""
  id: IDComparator
  """Inherited from id."""
  inheritedFromId: IDComparator
  """Name."""
  name: StringComparator
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
  """Any of these conditions."""
  or: [NullableTemplateFilter!]
  """Type."""
  type: StringComparator
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on an optional user."""
input NullableUserFilter {
  """Active."""
  active: BooleanComparator
  """Admin."""
  admin: BooleanComparator
  """All of these conditions."""
  and: [NullableUserFilter!]
  """App."""
  app: BooleanComparator
  """Assigned issues."""
  assignedIssues: IssueCollectionFilter
  """When it was created."""
  createdAt: DateComparator
  """Display name."""
  displayName: StringComparator
  """Email."""
  email: StringComparator
  """Unique identifier."""
  id: IDComparator
  """Invited."""
  invited: BooleanComparator
  """Is invited."""
  isInvited: BooleanComparator
  """Is me."""
  isMe: BooleanComparator
  """Name."""
  name: StringComparator
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
  """Any of these conditions."""
  or: [NullableUserFilter!]
  """Owner."""
  owner: BooleanComparator
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on a set of projects: some, every, or conditions every member meets."""
input ProjectCollectionFilter {
  """Accessible teams."""
  accessibleTeams: TeamCollectionFilter
  """Activity type."""
  activityType: StringComparator
  """All of these conditions."""
  and: [ProjectCollectionFilter!]
  """Canceled at."""
  canceledAt: NullableDateComparator
  """Completed at."""
  completedAt: NullableDateComparator
  """Completed project milestones."""
  completedProjectMilestones: ProjectMilestoneCollectionFilter
  """When it was created."""
  createdAt: DateComparator
  """Creator."""
  creator: UserFilter
  """Customer count."""
  customerCount: NumberComparator
  """Customer important count."""
  customerImportantCount: NumberComparator
  """Every related record matches."""
  every: ProjectFilter
  """Has blocked by relations."""
  hasBlockedByRelations: RelationExistsComparator
  """Has blocking relations."""
  hasBlockingRelations: RelationExistsComparator
  """Has depended on by relations."""
  hasDependedOnByRelations: RelationExistsComparator
  """Has depends on relations."""
  hasDependsOnRelations: RelationExistsComparator
  """Has related relations."""
  hasRelatedRelations: RelationExistsComparator
  """Has violated relations."""
  hasViolatedRelations: RelationExistsComparator
  """Health."""
  health: StringComparator
  """Health with age."""
  healthWithAge: StringComparator
  """Unique identifier."""
  id: IDComparator
  """Initiatives."""
  initiatives: InitiativeCollectionFilter
  """Issues."""
  issues: IssueCollectionFilter
  """Labels."""
  labels: ProjectLabelCollectionFilter
  """Last applied template."""
  lastAppliedTemplate: NullableTemplateFilter
  """Lead."""
  lead: NullableUserFilter
  """Number of related records."""
  length: NumberComparator
  """Members."""
  members: UserCollectionFilter
  """Name."""
  name: StringComparator
  """Needs."""
  needs: CustomerNeedCollectionFilter
  """Next project milestone."""
  nextProjectMilestone: ProjectMilestoneFilter
  """Any of these conditions."""
  or: [ProjectCollectionFilter!]
  """Priority."""
  priority: NullableNumberComparator
  """Project milestones."""
  projectMilestones: ProjectMilestoneCollectionFilter
  """Project updates."""
  projectUpdates: ProjectUpdatesCollectionFilter
  """Roadmaps."""
  roadmaps: RoadmapCollectionFilter
  """Searchable content."""
  searchableContent: ContentComparator
  """Slug id."""
  slugId: StringComparator
  """At least one related record matches."""
  some: ProjectFilter
  """Start date."""
  startDate: NullableDateComparator
  """Started at."""
  startedAt: NullableDateComparator
  """State."""
  state: StringComparator
  """Status."""
  status: ProjectStatusFilter
  """Target date."""
  targetDate: NullableDateComparator
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on projects; fields combine with AND."""
input ProjectFilter {
  """Accessible teams."""
  accessibleTeams: TeamCollectionFilter
  """Activity type."""
  activityType: StringComparator
  """All of these conditions."""
  and: [ProjectFilter!]
  """Canceled at."""
  canceledAt: NullableDateComparator
  """Completed at."""
  completedAt: NullableDateComparator
  """Completed project milestones."""
  completedProjectMilestones: ProjectMilestoneCollectionFilter
  """When it was created."""
  createdAt: DateComparator
  """Creator."""
  creator: UserFilter
  """Customer count."""
  customerCount: NumberComparator
  """Customer important count."""
  customerImportantCount: NumberComparator
  """Has blocked by relations."""
  hasBlockedByRelations: RelationExistsComparator
  """Has blocking relations."""
  hasBlockingRelations: RelationExistsComparator
  """Has depended on by relations."""
  hasDependedOnByRelations: RelationExistsComparator
  """Has depends on relations."""
  hasDependsOnRelations: RelationExistsComparator
  """Has related relations."""
  hasRelatedRelations: RelationExistsComparator
  """Has violated relations."""
  hasViolatedRelations: RelationExistsComparator
  """Health."""
  health: StringComparator
  """Health with age."""
  healthWithAge: StringComparator
  """Unique identifier."""
  id: IDComparator
  """Initiatives."""
  initiatives: InitiativeCollectionFilter
  """Issues."""
  issues: IssueCollectionFilter
  """Labels."""
  labels: ProjectLabelCollectionFilter
  """Last applied template."""
  lastAppliedTemplate: NullableTemplateFilter
  """Lead."""
  lead: NullableUserFilter
  """Members."""
  members: UserCollectionFilter
  """Name."""
  name: StringComparator
  """Needs."""
  needs: CustomerNeedCollectionFilter
  """Next project milestone."""
  nextProjectMilestone: ProjectMilestoneFilter
  """Any of these conditions."""
  or: [ProjectFilter!]
  """Priority."""
  priority: NullableNumberComparator
  """Project milestones."""
  projectMilestones: ProjectMilestoneCollectionFilter
  """Project updates."""
  projectUpdates: ProjectUpdatesCollectionFilter
  """Roadmaps."""
  roadmaps: RoadmapCollectionFilter
  """Searchable content."""
  searchableContent: ContentComparator
  """Slug id."""
  slugId: StringComparator
  """Start date."""
  startDate: NullableDateComparator
  """Started at."""
  startedAt: NullableDateComparator
  """State."""
  state: StringComparator
  """Status."""
  status: ProjectStatusFilter
  """Target date."""
  targetDate: NullableDateComparator
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on a set of project labels: some, every, or conditions every member meets."""
input ProjectLabelCollectionFilter {
  """All of these conditions."""
  and: [ProjectLabelCollectionFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Creator."""
  creator: NullableUserFilter
  """Every related record matches."""
  every: ProjectLabelFilter
  """Unique identifier."""
  id: IDComparator
  """Is group."""
  isGroup: BooleanComparator
  """Number of related records."""
  length: NumberComparator
  """Name."""
  name: StringComparator
  """Whether the value is (true) or is not (false) absent."""
  null: Boolean
  """Any of these conditions."""
  or: [ProjectLabelCollectionFilter!]
  """Parent."""
  parent: ProjectLabelFilter
  """At least one related record matches."""
  some: ProjectLabelCollectionFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on project labels; fields combine with AND."""
input ProjectLabelFilter {
  """All of these conditions."""
  and: [ProjectLabelFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Creator."""
  creator: NullableUserFilter
  """Unique identifier."""
  id: IDComparator
  """Is group."""
  isGroup: BooleanComparator
  """Name."""
  name: StringComparator
  """Any of these conditions."""
  or: [ProjectLabelFilter!]
  """Parent."""
  parent: ProjectLabelFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on a set of project milestones: some, every, or conditions every member meets."""
input ProjectMilestoneCollectionFilter {
  """All of these conditions."""
  and: [ProjectMilestoneCollectionFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Every related record matches."""
  every: ProjectMilestoneFilter
  """Unique identifier."""
  id: IDComparator
  """Number of related records."""
  length: NumberComparator
  """Name."""
  name: NullableStringComparator
  """Any of these conditions."""
  or: [ProjectMilestoneCollectionFilter!]
  """Project."""
  project: NullableProjectFilter
  """At least one related record matches."""
  some: ProjectMilestoneFilter
  """Target date."""
  targetDate: NullableDateComparator
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on project milestones; fields combine with AND."""
input ProjectMilestoneFilter {
  """All of these conditions."""
  and: [ProjectMilestoneFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Unique identifier."""
  id: IDComparator
  """Name."""
  name: NullableStringComparator
  """Any of these conditions."""
  or: [ProjectMilestoneFilter!]
  """Project."""
  project: NullableProjectFilter
  """Target date."""
  targetDate: NullableDateComparator
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on project status; fields combine with AND."""
input ProjectStatusFilter {
  """All of these conditions."""
  and: [ProjectStatusFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Longer description."""
  description: StringComparator
  """Unique identifier."""
  id: IDComparator
  """Name."""
  name: StringComparator
  """Any of these conditions."""
  or: [ProjectStatusFilter!]
  """Position."""
  position: NumberComparator
  """Projects."""
  projects: ProjectCollectionFilter
  """Type."""
  type: StringComparator
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on a set of project updates: some, every, or conditions every member meets."""
input ProjectUpdatesCollectionFilter {
  """All of these conditions."""
  and: [ProjectUpdatesCollectionFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Every related record matches."""
  every: ProjectUpdatesFilter
  """Health."""
  health: StringComparator
  """Unique identifier."""
  id: IDComparator
  """Number of related records."""
  length: NumberComparator
  """Any of these conditions."""
  or: [ProjectUpdatesCollectionFilter!]
  """At least one related record matches."""
  some: ProjectUpdatesFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on project updates; fields combine with AND."""
input ProjectUpdatesFilter {
  """All of these conditions."""
  and: [ProjectUpdatesFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Health."""
  health: StringComparator
  """Unique identifier."""
  id: IDComparator
  """Any of these conditions."""
  or: [ProjectUpdatesFilter!]
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on a set of reactions: some, every, or conditions every member meets."""
input ReactionCollectionFilter {
  """All of these conditions."""
  and: [ReactionCollectionFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Custom emoji id."""
  customEmojiId: IDComparator
  """Emoji."""
  emoji: StringComparator
  """Every related record matches."""
  every: ReactionFilter
  """Unique identifier."""
  id: IDComparator
  """Number of related records."""
  length: NumberComparator
  """Any of these conditions."""
  or: [ReactionCollectionFilter!]
  """At least one related record matches."""
  some: ReactionFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on reactions; fields combine with AND."""
input ReactionFilter {
  """All of these conditions."""
  and: [ReactionFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Custom emoji id."""
  customEmojiId: IDComparator
  """Emoji."""
  emoji: StringComparator
  """Unique identifier."""
  id: IDComparator
  """Any of these conditions."""
  or: [ReactionFilter!]
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on a set of releases: some, every, or conditions every member meets."""
input ReleaseCollectionFilter {
  """All of these conditions."""
  and: [ReleaseCollectionFilter!]
  """Completed at."""
  completedAt: NullableDateComparator
  """When it was created."""
  createdAt: DateComparator
  """Every related record matches."""
  every: ReleaseFilter
  """Has release notes."""
  hasReleaseNotes: BooleanComparator
  """Unique identifier."""
  id: IDComparator
  """Number of related records."""
  length: NumberComparator
  """Name."""
  name: StringComparator
  """Any of these conditions."""
  or: [ReleaseCollectionFilter!]
  """Pipeline."""
  pipeline: ReleasePipelineFilter
  """At least one related record matches."""
  some: ReleaseFilter
  """Stage."""
  stage: ReleaseStageFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
  """Version."""
  version: StringComparator
}

"""Conditions on releases; fields combine with AND."""
input ReleaseFilter {
  """All of these conditions."""
  and: [ReleaseFilter!]
  """Completed at."""
  completedAt: NullableDateComparator
  """When it was created."""
  createdAt: DateComparator
  """Has release notes."""
  hasReleaseNotes: BooleanComparator
  """Unique identifier."""
  id: IDComparator
  """Name."""
  name: StringComparator
  """Any of these conditions."""
  or: [ReleaseFilter!]
  """Pipeline."""
  pipeline: ReleasePipelineFilter
  """Stage."""
  stage: ReleaseStageFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
  """Version."""
  version: StringComparator
}

"""Conditions on a set of release pipelines: some, every, or conditions every member meets."""
input ReleasePipelineCollectionFilter {
  """All of these conditions."""
  and: [ReleasePipelineCollectionFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Every related record matches."""
  every: ReleasePipelineFilter
  """Unique identifier."""
  id: IDComparator
  """Is production."""
  isProduction: BooleanComparator
  """Number of related records."""
  length: NumberComparator
  """Name."""
  name: StringComparator
  """Any of these conditions."""
  or: [ReleasePipelineCollectionFilter!]
  """At least one related record matches."""
  some: ReleasePipelineFilter
  """Teams."""
  teams: TeamCollectionFilter
  """Type."""
  type: ReleasePipelineTypeComparator
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on release pipelines; fields combine with AND."""
input ReleasePipelineFilter {
  """All of these conditions."""
  and: [ReleasePipelineFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Unique identifier."""
  id: IDComparator
  """Is production."""
  isProduction: BooleanComparator
  """Name."""
  name: StringComparator
  """Any of these conditions."""
  or: [ReleasePipelineFilter!]
  """Teams."""
  teams: TeamCollectionFilter
  """Type."""
  type: ReleasePipelineTypeComparator
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on release stages; fields combine with AND."""
input ReleaseStageFilter {
  """All of these conditions."""
  and: [ReleaseStageFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Unique identifier."""
  id: IDComparator
  """Name."""
  name: StringComparator
  """Any of these conditions."""
  or: [ReleaseStageFilter!]
  """Type."""
  type: ReleaseStageTypeComparator
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on a set of roadmaps: some, every, or conditions every member meets."""
input RoadmapCollectionFilter {
  """All of these conditions."""
  and: [RoadmapCollectionFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Creator."""
  creator: UserFilter
  """Every related record matches."""
  every: RoadmapFilter
  """Unique identifier."""
  id: IDComparator
  """Number of related records."""
  length: NumberComparator
  """Name."""
  name: StringComparator
  """Any of these conditions."""
  or: [RoadmapCollectionFilter!]
  """Slug id."""
  slugId: StringComparator
  """At least one related record matches."""
  some: RoadmapFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on roadmaps; fields combine with AND."""
input RoadmapFilter {
  """All of these conditions."""
  and: [RoadmapFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Creator."""
  creator: UserFilter
  """Unique identifier."""
  id: IDComparator
  """Name."""
  name: StringComparator
  """Any of these conditions."""
  or: [RoadmapFilter!]
  """Slug id."""
  slugId: StringComparator
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on a set of teams: some, every, or conditions every member meets."""
input TeamCollectionFilter {
  """Ancestors."""
  ancestors: TeamCollectionFilter
  """All of these conditions."""
  and: [TeamCollectionFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Every related record matches."""
  every: TeamFilter
  """Unique identifier."""
  id: IDComparator
  """Number of related records."""
  length: NumberComparator
  """Any of these conditions."""
  or: [TeamCollectionFilter!]
  """Parent."""
  parent: NullableTeamFilter
  """At least one related record matches."""
  some: TeamFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on teams; fields combine with AND."""
input TeamFilter {
  """Ancestors."""
  ancestors: TeamCollectionFilter
  """All of these conditions."""
  and: [TeamFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Longer description."""
  description: NullableStringComparator
  """Unique identifier."""
  id: IDComparator
  """Issues."""
  issues: IssueCollectionFilter
  """Key."""
  key: StringComparator
  """Members."""
  members: UserCollectionFilter
  """Name."""
  name: StringComparator
  """Any of these conditions."""
  or: [TeamFilter!]
  """Owners."""
  owners: UserCollectionFilter
  """Parent."""
  parent: NullableTeamFilter
  """Private."""
  private: BooleanComparator
  """Release pipelines."""
  releasePipelines: ReleasePipelineCollectionFilter
  """Restricted by."""
  restrictedBy: NullableTeamFilter
  """Retired at."""
  retiredAt: NullableDateComparator
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
  """Users."""
  users: UserCollectionFilter
  """Visibility."""
  visibility: TeamVisibilityComparator
}

"""Conditions on a set of users: some, every, or conditions every member meets."""
input UserCollectionFilter {
  """Active."""
  active: BooleanComparator
  """Admin."""
  admin: BooleanComparator
  """All of these conditions."""
  and: [UserCollectionFilter!]
  """App."""
  app: BooleanComparator
  """Assigned issues."""
  assignedIssues: IssueCollectionFilter
  """When it was created."""
  createdAt: DateComparator
  """Display name."""
  displayName: StringComparator
  """Email."""
  email: StringComparator
  """Every related record matches."""
  every: UserFilter
  """Unique identifier."""
  id: IDComparator
  """Invited."""
  invited: BooleanComparator
  """Is invited."""
  isInvited: BooleanComparator
  """Is me."""
  isMe: BooleanComparator
  """Number of related records."""
  length: NumberComparator
  """Name."""
  name: StringComparator
  """Any of these conditions."""
  or: [UserCollectionFilter!]
  """Owner."""
  owner: BooleanComparator
  """At least one related record matches."""
  some: UserFilter
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on users; fields combine with AND."""
input UserFilter {
  """Active."""
  active: BooleanComparator
  """Admin."""
  admin: BooleanComparator
  """All of these conditions."""
  and: [UserFilter!]
  """App."""
  app: BooleanComparator
  """Assigned issues."""
  assignedIssues: IssueCollectionFilter
  """When it was created."""
  createdAt: DateComparator
  """Display name."""
  displayName: StringComparator
  """Email."""
  email: StringComparator
  """Unique identifier."""
  id: IDComparator
  """Invited."""
  invited: BooleanComparator
  """Is invited."""
  isInvited: BooleanComparator
  """Is me."""
  isMe: BooleanComparator
  """Name."""
  name: StringComparator
  """Any of these conditions."""
  or: [UserFilter!]
  """Owner."""
  owner: BooleanComparator
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}

"""Conditions on workflow states; fields combine with AND."""
input WorkflowStateFilter {
  """All of these conditions."""
  and: [WorkflowStateFilter!]
  """When it was created."""
  createdAt: DateComparator
  """Longer description."""
  description: StringComparator
  """Unique identifier."""
  id: IDComparator
  """Issues."""
  issues: IssueCollectionFilter
  """Name."""
  name: StringComparator
  """Any of these conditions."""
  or: [WorkflowStateFilter!]
  """Position."""
  position: NumberComparator
  """Team."""
  team: TeamFilter
  """Type."""
  type: StringComparator
  """When it last changed in a meaningful way."""
  updatedAt: DateComparator
}
`;
