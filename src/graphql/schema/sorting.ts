// GraphQL SDL: sorting types.
// Names and types match the schema @linear/sdk expects; descriptions are ours.
export const sortingSdl = /* GraphQL */ `
"""Sort by assignee."""
input AssigneeSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by completed at."""
input CompletedAtSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by created at."""
input CreatedAtSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by customer count."""
input CustomerCountSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by customer important count."""
input CustomerImportantCountSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by customer revenue."""
input CustomerRevenueSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by customer."""
input CustomerSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by cycle."""
input CycleSort {
  """Current cycle first."""
  currentCycleFirst: Boolean
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by delegate."""
input DelegateSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by due date."""
input DueDateSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by estimate."""
input EstimateSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort keys for issues."""
input IssueSortInput {
  """Accumulated state updated at."""
  accumulatedStateUpdatedAt: TimeInStatusSort
  """Assignee."""
  assignee: AssigneeSort
  """Completed at."""
  completedAt: CompletedAtSort
  """When it was created."""
  createdAt: CreatedAtSort
  """Customer."""
  customer: CustomerSort
  """Customer count."""
  customerCount: CustomerCountSort
  """Customer important count."""
  customerImportantCount: CustomerImportantCountSort
  """Customer revenue."""
  customerRevenue: CustomerRevenueSort
  """Cycle."""
  cycle: CycleSort
  """Delegate."""
  delegate: DelegateSort
  """Due date."""
  dueDate: DueDateSort
  """Estimate."""
  estimate: EstimateSort
  """Label."""
  label: LabelSort
  """Label group."""
  labelGroup: LabelGroupSort
  """Link count."""
  linkCount: LinkCountSort
  """Manual."""
  manual: ManualSort
  """Milestone."""
  milestone: MilestoneSort
  """Priority."""
  priority: PrioritySort
  """Project."""
  project: ProjectSort
  """Release."""
  release: ReleaseSort
  """Root issue."""
  rootIssue: RootIssueSort
  """Sla status."""
  slaStatus: SlaStatusSort
  """Team."""
  team: TeamSort
  """Title."""
  title: TitleSort
  """When it last changed in a meaningful way."""
  updatedAt: UpdatedAtSort
  """Workflow state."""
  workflowState: WorkflowStateSort
}

"""Sort by label group."""
input LabelGroupSort {
  """Label group id."""
  labelGroupId: String!
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by label."""
input LabelSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by link count."""
input LinkCountSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by manual."""
input ManualSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by milestone."""
input MilestoneSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by priority."""
input PrioritySort {
  """No priority first."""
  noPriorityFirst: Boolean
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
  """Use priority sort order tiebreaker."""
  usePrioritySortOrderTiebreaker: Boolean
}

"""Sort by project created at."""
input ProjectCreatedAtSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by project health."""
input ProjectHealthSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by project lead."""
input ProjectLeadSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by project manual."""
input ProjectManualSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by project name."""
input ProjectNameSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by project priority."""
input ProjectPrioritySort {
  """No priority first."""
  noPriorityFirst: Boolean
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by project."""
input ProjectSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort keys for projects."""
input ProjectSortInput {
  """When it was created."""
  createdAt: ProjectCreatedAtSort
  """Health."""
  health: ProjectHealthSort
  """Lead."""
  lead: ProjectLeadSort
  """Manual."""
  manual: ProjectManualSort
  """Name."""
  name: ProjectNameSort
  """Priority."""
  priority: ProjectPrioritySort
  """Start date."""
  startDate: StartDateSort
  """Status."""
  status: ProjectStatusSort
  """Target date."""
  targetDate: TargetDateSort
  """When it last changed in a meaningful way."""
  updatedAt: ProjectUpdatedAtSort
}

"""Sort by project status."""
input ProjectStatusSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by project updated at."""
input ProjectUpdatedAtSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by release."""
input ReleaseSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by root issue."""
input RootIssueSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
  """Sort."""
  sort: IssueSortInput!
}

"""Sort by sla status."""
input SlaStatusSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by start date."""
input StartDateSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by target date."""
input TargetDateSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by team."""
input TeamSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by time in status."""
input TimeInStatusSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by title."""
input TitleSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by updated at."""
input UpdatedAtSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by user display name."""
input UserDisplayNameSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort by user name."""
input UserNameSort {
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}

"""Sort keys for users."""
input UserSortInput {
  """Display name."""
  displayName: UserDisplayNameSort
  """Name."""
  name: UserNameSort
}

"""Sort by workflow state."""
input WorkflowStateSort {
  """Closed issues ordered by recency."""
  closedIssuesOrderedByRecency: Boolean
  """Nulls."""
  nulls: PaginationNulls
  """Order."""
  order: PaginationSortOrder
}
`;
