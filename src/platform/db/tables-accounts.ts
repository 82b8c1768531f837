// Row types of the workspace itself and who may enter it: settings, the
// workspace row, users, API keys, feature flags and the shared limiter and
// budget counters. Re-exported by tables.ts.
import type { Generated, GeneratedAlways } from 'kysely';
import type { NullableTimestamp, Timestamp } from './column-types.js';

export interface SettingsTable {
  key: string;
  value: string;
}

export interface WorkspaceTable {
  id: Generated<number>;
  name: string;
  tagline: Generated<string>;
  accent_color: Generated<string>;
  url_key: Generated<string>;
  registration_open: Generated<boolean>;
  /** Lower-case domains self-registration is limited to; empty: any domain. */
  allowed_email_domains: Generated<string[]>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AuthThrottleTable {
  scope: string;
  key: string;
  count: Generated<number>;
  last_at: Timestamp;
  expires_at: Timestamp;
}

export interface GraphqlBudgetTable {
  user_id: string;
  /** Whose budget: 'session' (the web UI's login tokens) or 'api' (API keys); migration 0030. */
  kind: 'api' | 'session';
  window_start: Timestamp;
  requests: number;
  complexity: number;
  charged: boolean;
}

export interface FeatureFlagsTable {
  key: string;
  label: string;
  description: string;
  enabled: boolean;
  updated_at: Timestamp;
}

export type Role = 'admin' | 'member' | 'guest';
export type UserStatus = 'active' | 'suspended';

export interface UsersTable {
  id: Generated<string>;
  name: string;
  display_name: string;
  email: string;
  password_hash: string;
  role: Role;
  status: Generated<UserStatus>;
  avatar_url: string | null;
  session_epoch: Generated<number>;
  /** Whether notification digests are emailed (off: the one-click unsubscribe). */
  email_notifications: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
  /** slug(display_name, 40), generated (migration 0031): branchName reads it. */
  name_slug: GeneratedAlways<string>;
  /** initials(name), generated (migration 0032): User.initials in every door. */
  initials: GeneratedAlways<string>;
  /** avatar_color(id), generated (migration 0032): User.avatarBackgroundColor in every door. */
  avatar_color: GeneratedAlways<string>;
}

export interface ApiKeysTable {
  id: Generated<string>;
  user_id: string;
  label: string;
  key_hash: string;
  key_hint: string;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
}
