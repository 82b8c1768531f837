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
  /** The template of every issue's branchName (issues/branch-format.ts, migration 0057). */
  git_branch_format: Generated<string>;
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
/** 'app': an OAuth app's own user (migration 0053), which acts for people who authorized it with actor=app. */
export type UserStatus = 'active' | 'suspended' | 'app';

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
  /** The identity provider's id for the account (SCIM externalId, migration 0044). */
  external_id: Generated<string | null>;
  /** The OAuth client whose own user this is (status 'app', migration 0053). */
  app_client_id: Generated<string | null>;
}

/** A SCIM provisioning token (migration 0044; modules/scim). Only its hash is kept. */
export interface ScimTokensTable {
  id: Generated<string>;
  label: string;
  token_hash: string;
  token_hint: string;
  created_by: string | null;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
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

/** One sign-in session (migration 0042; modules/sessions): the `sid` of its login tokens. */
export interface SessionsTable {
  id: Generated<string>;
  user_id: string;
  created_at: Timestamp;
  last_used_at: Timestamp;
  ip: string;
  user_agent: string | null;
  method: string;
  ended_at: NullableTimestamp;
  ended_by: string | null;
}

/** Which account an identity at an OpenID provider signs in as (migration 0046; modules/sso). */
export interface UserIdentitiesTable {
  id: Generated<string>;
  user_id: string;
  issuer: string;
  subject: string;
  email: string;
  created_at: Generated<Timestamp>;
  last_sign_in_at: Generated<Timestamp>;
}

/** One model of the OAuth authorization server, as oidc-provider's adapter stores it (migration 0049; modules/oauth). */
export interface OauthStoreTable {
  model: string;
  id: string;
  payload: unknown;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  expires_at: Date | null;
  consumed_at: Date | null;
}

/** A client an admin registered (migration 0050; the client itself is an oauth_store row). */
/** A grant given with actor=app (migration 0053): its tokens act as the app's own user. */
export interface OauthAppActorGrantsTable {
  grant_id: string;
  app_user_id: string;
  created_at: Generated<Date>;
}

export interface OauthAdminAppsTable {
  client_id: string;
  registered_by: string | null;
  registered_at: Generated<Date>;
}

/** One entry of the audit log (migration 0041; modules/audit). Append-only. */
export interface AuditEntriesTable {
  id: Generated<string>;
  created_at: Timestamp;
  type: string;
  actor_kind: 'user' | 'apiKey' | 'scim' | 'sso' | 'system' | 'anonymous';
  actor_id: string | null;
  actor_label: Generated<string>;
  ip: string | null;
  user_agent: string | null;
  entity_type: string | null;
  entity_id: string | null;
  entity_label: string | null;
  before: unknown | null;
  after: unknown | null;
  metadata: Generated<unknown>;
}
