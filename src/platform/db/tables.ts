// Row types of every table, as Kysely sees them. Keep in step with migrations/.
import type { ColumnType, Generated, GeneratedAlways, Insertable, Selectable, Updateable } from 'kysely';

import type { DateString, NullableTimestamp, Timestamp } from './column-types.js';
import type {
  ApiKeysTable,
  AuditEntriesTable,
  AuthThrottleTable,
  FeatureFlagsTable,
  GraphqlBudgetTable,
  OauthAdminAppsTable,
  OauthAppActorGrantsTable,
  OauthStoreTable,
  ScimTokensTable,
  SessionsTable,
  SettingsTable,
  UserIdentitiesTable,
  UsersTable,
  WorkspaceTable,
} from './tables-accounts.js';
import type {
  GitAutomationRulesTable,
  GitBacklinksTable,
  GitConnectionsTable,
  GitDeliveriesTable,
  GitRepositoriesTable,
} from './tables-git.js';
import type {
  BackupRunsTable,
  ImportPendingTable,
  ImportRecordsTable,
  ImportRunsTable,
} from './tables-import.js';
import type {
  FileChunksTable,
  FilesTable,
  MailNotificationItemsTable,
  OutgoingMailTable,
  PasswordResetTokensTable,
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhookEventsTable,
  WebhooksTable,
} from './tables-outbound.js';

export * from './tables-accounts.js';
export * from './tables-git.js';
export * from './tables-outbound.js';

export interface TeamsTable {
  id: Generated<string>;
  key: string;
  name: string;
  description: string | null;
  color: string | null;
  icon: string | null;
  private: Generated<boolean>;
  issue_count: Generated<number>;
  cycle_count: Generated<number>;
  cycles_enabled: Generated<boolean>;
  /** Issues from outside the team land in its triage state (migration 0062, docs/triage.md). */
  triage_enabled: Generated<boolean>;
  timezone: Generated<string>;
  /** Cycle settings (migration 0061, modules/cycles/settings.ts). */
  cycles_automatic: Generated<boolean>;
  cycle_duration: Generated<number>;
  cycle_cooldown: Generated<number>;
  cycle_start_day: Generated<number>;
  upcoming_cycle_count: Generated<number>;
  cycle_rollover: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
  archived_at: NullableTimestamp;
  /** The identity provider's id for a team provisioned as a SCIM Group (migration 0044). */
  external_id: Generated<string | null>;
}

/** Issues per team, kept by triggers (migration 0023): what unfiltered lists total. */
export interface TeamIssueCountsTable {
  team_id: string;
  live: number;
  archived: number;
}

export interface StateIssueCountsTable {
  team_id: string;
  state_id: string;
  live: number;
  archived: number;
}

/** Every key a team has held, its current one included; never passed to another team. */
export interface TeamKeysTable {
  key: string;
  team_id: string;
  created_at: Timestamp;
}

export interface TeamMembershipsTable {
  id: Generated<string>;
  team_id: string;
  user_id: string;
  owner: Generated<boolean>;
  sort_order: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  archived_at: NullableTimestamp;
}

export type StateType = 'triage' | 'backlog' | 'unstarted' | 'started' | 'completed' | 'canceled';

export interface WorkflowStatesTable {
  id: Generated<string>;
  team_id: string;
  name: string;
  type: StateType;
  color: string;
  description: string | null;
  position: number;
  created_at: Timestamp;
  updated_at: Timestamp;
  archived_at: NullableTimestamp;
}

export interface LabelsTable {
  id: Generated<string>;
  team_id: string | null;
  parent_id: string | null;
  name: string;
  description: string | null;
  color: string;
  is_group: Generated<boolean>;
  creator_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  archived_at: NullableTimestamp;
}

export const PROJECT_STATUSES = ['backlog', 'planned', 'started', 'paused', 'completed', 'canceled'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];
export type ProjectHealth = 'onTrack' | 'atRisk' | 'offTrack';

export interface ProjectsTable {
  id: Generated<string>;
  name: string;
  description: Generated<string>;
  content: string | null;
  slug_id: string;
  status: Generated<ProjectStatus>;
  health: ProjectHealth | null;
  /** When the last project update set the health (migration 0034). */
  health_updated_at: NullableTimestamp;
  lead_id: string | null;
  creator_id: string | null;
  start_date: DateString | null;
  target_date: DateString | null;
  color: Generated<string>;
  icon: string | null;
  sort_order: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  started_at: NullableTimestamp;
  completed_at: NullableTimestamp;
  canceled_at: NullableTimestamp;
  archived_at: NullableTimestamp;
}

export interface ProjectMembersTable {
  project_id: string;
  user_id: string;
}

export interface ProjectTeamsTable {
  project_id: string;
  team_id: string;
}

export interface ProjectMilestonesTable {
  id: Generated<string>;
  project_id: string;
  name: string;
  description: string | null;
  target_date: DateString | null;
  sort_order: Generated<number>;
  creator_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CustomViewsTable {
  id: Generated<string>;
  slug_id: string;
  name: string;
  description: string | null;
  icon: string | null;
  color: string | null;
  /** An IssueFilter; written as JSON text, read back parsed. */
  filter_data: ColumnType<Record<string, unknown>, string, string>;
  display: ColumnType<Record<string, unknown>, string, string>;
  shared: boolean;
  owner_id: string;
  creator_id: string;
  team_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  archived_at: NullableTimestamp;
}

export interface NotificationsTable {
  id: Generated<string>;
  user_id: string;
  type: string;
  /** The issue it is about; null for a project's (migration 0066: one of the two is set). */
  issue_id: string | null;
  /** The project it is about (projectUpdateCreated). */
  project_id: Generated<string | null>;
  project_update_id: Generated<string | null>;
  comment_id: string | null;
  parent_comment_id: string | null;
  actor_id: string | null;
  issue_status_type: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  read_at: NullableTimestamp;
  archived_at: NullableTimestamp;
  snoozed_until_at: NullableTimestamp;
}

export interface CyclesTable {
  id: Generated<string>;
  team_id: string;
  number: number;
  name: string | null;
  description: string | null;
  starts_at: Timestamp;
  ends_at: Timestamp;
  completed_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  archived_at: NullableTimestamp;
}

export interface IssuesTable {
  id: Generated<string>;
  team_id: string;
  number: number;
  identifier: string;
  title: string;
  description: string | null;
  priority: Generated<number>;
  estimate: number | null;
  due_date: DateString | null;
  state_id: string;
  assignee_id: string | null;
  creator_id: string | null;
  project_id: string | null;
  cycle_id: string | null;
  parent_id: string | null;
  /** A milestone of the issue's own project (a composite foreign key holds it to project_id). */
  project_milestone_id: Generated<string | null>;
  sort_order: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  started_at: NullableTimestamp;
  completed_at: NullableTimestamp;
  canceled_at: NullableTimestamp;
  archived_at: NullableTimestamp;
  /** Hidden from the triage queue until then (migration 0062). */
  snoozed_until_at: NullableTimestamp;
  snoozed_by_id: Generated<string | null>;
  /** Maintained by a trigger; never written by the application. */
  search: Generated<string>;
  /** The title's part of `search`, kept by the same trigger: ranking reads it (migration 0024). */
  search_title: Generated<string>;
  /** slug(title, 40), generated (migration 0031): url and branchName read it. */
  title_slug: GeneratedAlways<string>;
}

export interface IssueIdentifiersTable {
  identifier: string;
  issue_id: string;
}

export interface IssueLabelsTable {
  issue_id: string;
  label_id: string;
}

export interface IssueSubscribersTable {
  issue_id: string;
  user_id: string;
}

export interface IssueHistoryTable {
  id: Generated<string>;
  issue_id: string;
  actor_id: string | null;
  changes: ColumnType<Record<string, unknown>, string, string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CommentsTable {
  id: Generated<string>;
  issue_id: string;
  user_id: string | null;
  parent_id: string | null;
  body: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  edited_at: NullableTimestamp;
  resolved_at: NullableTimestamp;
  archived_at: NullableTimestamp;
  /** Set on a deleted comment kept for its replies (body and author cleared). */
  deleted_at: NullableTimestamp;
}

/** Each comment's search vector, kept by a trigger (migration 0025). */
export interface CommentSearchTable {
  comment_id: string;
  issue_id: string;
  search: string;
}

export interface AttachmentsTable {
  id: Generated<string>;
  issue_id: string;
  creator_id: string | null;
  title: string;
  subtitle: string | null;
  url: string;
  metadata: ColumnType<Record<string, unknown>, string | undefined, string>;
  source_type: string | null;
  group_by_source: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
  archived_at: NullableTimestamp;
  /**
   * The uploaded file it carries: set by the service only when url is our own
   * download URL of a file the attacher may read (migration 0027).
   */
  file_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Migration 0011: a directional link between two issues. */
export interface IssueRelationsTable {
  id: Generated<string>;
  issue_id: string;
  related_issue_id: string;
  type: 'blocks' | 'duplicate' | 'related' | 'similar';
  creator_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** An id a client chose for an issue or comment it created, kept after the record goes (migration 0065). */
export interface ClientIdsTable {
  id: string;
  kind: 'issue' | 'comment';
  /** Who created it: only they may send the create again. */
  actor_id: string;
  created_at: Timestamp;
}

/** An emoji reaction on an issue (comment_id null) or on one of its comments (migration 0033). */
export interface ReactionsTable {
  id: Generated<string>;
  user_id: string;
  issue_id: string;
  comment_id: string | null;
  emoji: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A written status of a project with its health (migration 0034). */
export interface ProjectUpdatesTable {
  id: Generated<string>;
  project_id: string;
  user_id: string | null;
  body: string;
  health: ProjectHealth;
  slug_id: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  edited_at: NullableTimestamp;
  archived_at: NullableTimestamp;
}

export interface DB {
  settings: SettingsTable;
  workspace: WorkspaceTable;
  auth_throttle: AuthThrottleTable;
  graphql_budget: GraphqlBudgetTable;
  feature_flags: FeatureFlagsTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  scim_tokens: ScimTokensTable;
  user_identities: UserIdentitiesTable;
  oauth_store: OauthStoreTable;
  oauth_admin_apps: OauthAdminAppsTable;
  oauth_app_actor_grants: OauthAppActorGrantsTable;
  teams: TeamsTable;
  team_keys: TeamKeysTable;
  team_issue_counts: TeamIssueCountsTable;
  state_issue_counts: StateIssueCountsTable;
  team_memberships: TeamMembershipsTable;
  workflow_states: WorkflowStatesTable;
  labels: LabelsTable;
  projects: ProjectsTable;
  project_members: ProjectMembersTable;
  project_teams: ProjectTeamsTable;
  project_milestones: ProjectMilestonesTable;
  project_updates: ProjectUpdatesTable;
  custom_views: CustomViewsTable;
  notifications: NotificationsTable;
  cycles: CyclesTable;
  issues: IssuesTable;
  issue_identifiers: IssueIdentifiersTable;
  issue_labels: IssueLabelsTable;
  issue_subscribers: IssueSubscribersTable;
  issue_history: IssueHistoryTable;
  comments: CommentsTable;
  comment_search: CommentSearchTable;
  reactions: ReactionsTable;
  files: FilesTable;
  file_chunks: FileChunksTable;
  attachments: AttachmentsTable;
  issue_relations: IssueRelationsTable;
  client_ids: ClientIdsTable;
  webhooks: WebhooksTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  outgoing_mail: OutgoingMailTable;
  mail_notification_items: MailNotificationItemsTable;
  password_reset_tokens: PasswordResetTokensTable;
  audit_entries: AuditEntriesTable;
  sessions: SessionsTable;
  git_connections: GitConnectionsTable;
  git_repositories: GitRepositoriesTable;
  git_automation_rules: GitAutomationRulesTable;
  git_deliveries: GitDeliveriesTable;
  git_backlinks: GitBacklinksTable;
  import_runs: ImportRunsTable;
  import_records: ImportRecordsTable;
  import_pending: ImportPendingTable;
  backup_runs: BackupRunsTable;
}

export type UserRow = Omit<Selectable<UsersTable>, 'name_slug'>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type TeamRow = Selectable<TeamsTable>;
export type TeamMembershipRow = Selectable<TeamMembershipsTable>;
export type StateRow = Selectable<WorkflowStatesTable>;
export type LabelRow = Selectable<LabelsTable>;
export type ProjectRow = Selectable<ProjectsTable>;
export type CycleRow = Selectable<CyclesTable>;
export type MilestoneRow = Selectable<ProjectMilestonesTable>;
export type ProjectUpdateRow = Selectable<ProjectUpdatesTable>;
export type CustomViewRow = Selectable<CustomViewsTable>;
export type NotificationRow = Selectable<NotificationsTable>;
/** An issue as the application reads it: every column but the search tsvectors. */
export type IssueRow = Omit<Selectable<IssuesTable>, 'search' | 'search_title' | 'title_slug'>;

/**
 * The columns of IssueRow. Readers list them instead of `*`: the search
 * tsvector is about 1 KB a row, and printing and parsing it is wasted work.
 */
export const ISSUE_COLUMNS = [
  'id',
  'team_id',
  'number',
  'identifier',
  'title',
  'description',
  'priority',
  'estimate',
  'due_date',
  'state_id',
  'assignee_id',
  'creator_id',
  'project_id',
  'cycle_id',
  'parent_id',
  'project_milestone_id',
  'sort_order',
  'created_at',
  'updated_at',
  'started_at',
  'completed_at',
  'canceled_at',
  'archived_at',
  'snoozed_until_at',
  'snoozed_by_id',
] as const satisfies readonly (keyof IssueRow)[];
export type CommentRow = Selectable<CommentsTable>;
export type ReactionRow = Selectable<ReactionsTable>;
export type FileRow = Selectable<FilesTable>;
export type AttachmentRow = Selectable<AttachmentsTable>;
export type IssueRelationRow = Selectable<IssueRelationsTable>;
export type WebhookRow = Selectable<WebhooksTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type SessionRow = Selectable<SessionsTable>;
export type ScimTokenRow = Selectable<ScimTokensTable>;
export type FlagRow = Selectable<FeatureFlagsTable>;
export type WorkspaceRow = Selectable<WorkspaceTable>;
