// Row types of the git hosts' tables (migration 0048, modules/git).
// Re-exported by tables.ts, which holds the DB interface over every table.
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { NullableTimestamp, Timestamp } from './column-types.js';

export type GitHost = 'github' | 'gitlab' | 'gitea';
export type GitAutomationEvent = 'draft' | 'start' | 'review' | 'mergeable' | 'merge';

export interface GitConnectionsTable {
  id: Generated<string>;
  host: GitHost;
  name: string;
  /** Sealed with the 'git-secrets' key (platform/sealed.ts). */
  webhook_secret: string;
  api_token: string | null;
  /** The host's API root (migration 0051); null: the host's public default. */
  api_base_url: string | null;
  backlinks: Generated<boolean>;
  /** A GitHub App's id, sealed private key (PEM) and installation id (migration 0058); null without an App. */
  app_id: Generated<string | null>;
  app_private_key: Generated<string | null>;
  /** null: looked up per repository (GET /repos/{owner}/{repo}/installation). */
  app_installation_id: Generated<string | null>;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface GitRepositoriesTable {
  id: Generated<string>;
  connection_id: string;
  host: GitHost;
  full_name: string;
  team_id: string;
  created_at: Timestamp;
}

export interface GitAutomationRulesTable {
  id: Generated<string>;
  team_id: string;
  event: GitAutomationEvent;
  /** '' = any target branch. */
  target_branch: Generated<string>;
  state_id: string | null;
}

export interface GitDeliveriesTable {
  id: Generated<string>;
  host: GitHost;
  delivery_id: string;
  connection_id: string;
  event: string;
  payload: ColumnType<unknown, string, string>;
  status: Generated<'pending' | 'working' | 'done' | 'failed'>;
  attempts: Generated<number>;
  lease_until: NullableTimestamp;
  next_attempt_at: Timestamp;
  outcome: string | null;
  last_error: string | null;
  received_at: Timestamp;
  processed_at: NullableTimestamp;
}

export interface GitBacklinksTable {
  id: Generated<string>;
  connection_id: string;
  pull_url: string;
  issue_id: string;
  api_repo: string;
  number: number;
  repo_private: Generated<boolean>;
  status: Generated<'pending' | 'working' | 'posted' | 'failed'>;
  attempts: Generated<number>;
  lease_until: NullableTimestamp;
  next_attempt_at: Timestamp;
  last_error: string | null;
  comment_id: string | null;
  created_at: Timestamp;
  posted_at: NullableTimestamp;
}

export type GitConnectionRow = Selectable<GitConnectionsTable>;
export type GitRepositoryRow = Selectable<GitRepositoriesTable>;
export type GitDeliveryRow = Selectable<GitDeliveriesTable>;
