// Row types of what leaves the workspace or arrives as bytes: stored files,
// webhooks and their event outbox, outgoing mail and password-reset tokens.
// Re-exported by tables.ts, which holds the DB interface over every table.
import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './column-types.js';

export interface FilesTable {
  id: Generated<string>;
  uploader_id: string | null;
  filename: string;
  content_type: string;
  size: number;
  storage_key: string;
  status: Generated<'pending' | 'complete'>;
  created_at: Timestamp;
}

/** Stored bytes under FILE_STORAGE=postgres (migration 0014). */
export interface FileChunksTable {
  storage_key: string;
  chunk_index: number;
  data: Uint8Array;
  /** Set while the upload is arriving (under a key of its own); null once published. */
  pending_since: Date | null;
}

export interface WebhooksTable {
  id: Generated<string>;
  url: string;
  label: string | null;
  secret: string;
  enabled: Generated<boolean>;
  resource_types: Generated<string[]>;
  team_id: string | null;
  all_public_teams: Generated<boolean>;
  creator_id: string | null;
  failing_since: NullableTimestamp;
  disabled_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  archived_at: NullableTimestamp;
}

export interface WebhookEventsTable {
  id: Generated<number>;
  type: string;
  action: string;
  payload: ColumnType<Record<string, unknown>, string, string>;
  created_at: Timestamp;
  /** Who may see it (migration 0013, platform/access.ts canSeeEvent); null on older events: admins only. */
  scope: EventScopeKind | null;
  team_ids: ColumnType<string[], string[] | undefined, string[]>;
  /** The one person a 'user' event is for (migration 0019); null for every other scope. */
  user_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export type EventScopeKind = 'teams' | 'project' | 'workspace' | 'user';

export type DeliveryStatus = 'pending' | 'delivering' | 'succeeded' | 'failed';

export interface WebhookDeliveriesTable {
  id: Generated<string>;
  webhook_id: string;
  event_id: number;
  status: Generated<DeliveryStatus>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  lease_until: NullableTimestamp;
  last_error: string | null;
  /** Attempts made before the current retry schedule began (migration 0004). */
  retry_offset: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookAttemptsTable {
  id: Generated<string>;
  delivery_id: string;
  started_at: Timestamp;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_body: string | null;
}

export type MailKind = 'password_reset' | 'notification_digest';
export type MailStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'dropped';

export interface OutgoingMailTable {
  id: Generated<string>;
  kind: MailKind;
  to_user_id: string | null;
  to_address: string;
  payload: Generated<unknown>;
  dedupe_key: string | null;
  status: Generated<MailStatus>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  lease_until: Date | null;
  sent_at: Date | null;
  last_error: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface MailNotificationItemsTable {
  id: Generated<number>;
  user_id: string;
  /** The issue or (migration 0066) the project the line is about: one of the two. */
  issue_id: string | null;
  project_id: Generated<string | null>;
  kind: string;
  text: string;
  actor_id: string | null;
  created_at: Generated<Date>;
  mail_id: string | null;
}

export interface PasswordResetTokensTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: Generated<Date>;
}
