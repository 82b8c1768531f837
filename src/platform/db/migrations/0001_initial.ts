// The whole data model. Every column a client filters or sorts on has an index;
// ids are uuids generated in SQL; timestamps are timestamptz in UTC.
export const name = 'initial';

export const up = /* sql */ `
create extension if not exists unaccent;
create extension if not exists pg_trgm;

-- Increasing change counter: GraphQL payloads report it as lastSyncId.
create sequence sync_id_seq;

create table settings (
  key text primary key,
  value text not null
);

create table workspace (
  id smallint primary key default 1 check (id = 1),
  name text not null,
  tagline text not null default '',
  accent_color text not null default '#5e6ad2' check (accent_color ~ '^#[0-9a-f]{6}$'),
  url_key text not null default 'trackway',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table feature_flags (
  key text primary key,
  label text not null,
  description text not null,
  enabled boolean not null,
  updated_at timestamptz not null default now()
);

create table users (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  display_name text not null,
  email text not null,
  password_hash text not null,
  role text not null check (role in ('admin', 'member', 'guest')),
  status text not null default 'active' check (status in ('active', 'suspended')),
  avatar_url text,
  -- Bumped on password change: tokens carry it, older tokens stop working.
  session_epoch integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Deleted users stay as a name on what they wrote; they cannot sign in.
  deleted_at timestamptz
);
create unique index users_email_live on users (lower(email)) where deleted_at is null;
create index users_role_status on users (role, status) where deleted_at is null;
create index users_created_at on users (created_at, id);
create index users_updated_at on users (updated_at, id);

create table api_keys (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  label text not null,
  -- sha256 of the key: keys are 256 random bits, so a fast hash is safe here.
  key_hash text not null unique,
  key_hint text not null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz
);
create index api_keys_user on api_keys (user_id, created_at);

create table teams (
  id uuid primary key default gen_random_uuid(),
  key text not null check (key ~ '^[A-Z][A-Z0-9]{0,6}$'),
  name text not null,
  description text,
  color text,
  icon text,
  private boolean not null default false,
  -- Next issue and cycle numbers, taken under the team row's lock.
  issue_count integer not null default 0,
  cycle_count integer not null default 0,
  cycles_enabled boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  archived_at timestamptz
);
create unique index teams_key on teams (key);
create index teams_created_at on teams (created_at, id);
create index teams_updated_at on teams (updated_at, id);

create table team_memberships (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  owner boolean not null default false,
  sort_order double precision not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  archived_at timestamptz,
  unique (team_id, user_id)
);
create index team_memberships_user on team_memberships (user_id);

create table workflow_states (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams (id) on delete cascade,
  name text not null,
  type text not null check (type in ('triage', 'backlog', 'unstarted', 'started', 'completed', 'canceled')),
  color text not null,
  description text,
  position double precision not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  archived_at timestamptz
);
create index workflow_states_team on workflow_states (team_id, position);
create index workflow_states_type on workflow_states (type);
create index workflow_states_created_at on workflow_states (created_at, id);

create table labels (
  id uuid primary key default gen_random_uuid(),
  team_id uuid references teams (id) on delete cascade,
  parent_id uuid references labels (id) on delete set null,
  name text not null,
  description text,
  color text not null,
  is_group boolean not null default false,
  creator_id uuid references users (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  archived_at timestamptz
);
-- A name is unique within its team, and among workspace-wide labels.
create unique index labels_name on labels (coalesce(team_id, '00000000-0000-0000-0000-000000000000'::uuid), lower(name))
  where archived_at is null;
create index labels_team on labels (team_id);
create index labels_parent on labels (parent_id);
create index labels_created_at on labels (created_at, id);

create table projects (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  description text not null default '',
  content text,
  slug_id text not null,
  status text not null default 'planned'
    check (status in ('backlog', 'planned', 'started', 'paused', 'completed', 'canceled')),
  health text check (health in ('onTrack', 'atRisk', 'offTrack')),
  lead_id uuid references users (id) on delete set null,
  creator_id uuid references users (id),
  start_date date,
  target_date date,
  color text not null default '#5e6ad2',
  icon text,
  sort_order double precision not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  started_at timestamptz,
  completed_at timestamptz,
  canceled_at timestamptz,
  archived_at timestamptz
);
create unique index projects_slug on projects (slug_id);
create index projects_status on projects (status);
create index projects_lead on projects (lead_id);
create index projects_created_at on projects (created_at, id);
create index projects_updated_at on projects (updated_at, id);

create table project_members (
  project_id uuid not null references projects (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  primary key (project_id, user_id)
);
create index project_members_user on project_members (user_id);

create table project_teams (
  project_id uuid not null references projects (id) on delete cascade,
  team_id uuid not null references teams (id) on delete cascade,
  primary key (project_id, team_id)
);
create index project_teams_team on project_teams (team_id);

create table cycles (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams (id) on delete cascade,
  number integer not null,
  name text,
  description text,
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  completed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  archived_at timestamptz,
  check (ends_at > starts_at),
  unique (team_id, number)
);
create index cycles_dates on cycles (starts_at, ends_at);
create index cycles_created_at on cycles (created_at, id);
create index cycles_updated_at on cycles (updated_at, id);

create table issues (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams (id),
  number integer not null,
  identifier text not null,
  title text not null,
  description text,
  priority smallint not null default 0 check (priority between 0 and 4),
  estimate double precision,
  due_date date,
  state_id uuid not null references workflow_states (id),
  assignee_id uuid references users (id) on delete set null,
  creator_id uuid references users (id),
  project_id uuid references projects (id) on delete set null,
  cycle_id uuid references cycles (id) on delete set null,
  parent_id uuid references issues (id) on delete set null,
  sort_order double precision not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  started_at timestamptz,
  completed_at timestamptz,
  canceled_at timestamptz,
  archived_at timestamptz,
  search tsvector not null default ''::tsvector,
  unique (team_id, number)
);
create unique index issues_identifier on issues (identifier);
create index issues_team_created on issues (team_id, created_at desc, id desc);
create index issues_state on issues (state_id);
create index issues_assignee on issues (assignee_id);
create index issues_creator on issues (creator_id);
create index issues_project on issues (project_id);
create index issues_cycle on issues (cycle_id);
create index issues_parent on issues (parent_id);
create index issues_priority on issues (priority);
create index issues_due_date on issues (due_date);
create index issues_created_at on issues (created_at desc, id desc);
create index issues_updated_at on issues (updated_at desc, id desc);
create index issues_search on issues using gin (search);
create index issues_title_trgm on issues using gin (title gin_trgm_ops);

-- Search text is accent- and case-folded by PostgreSQL itself, so bulk SQL
-- imports are searchable too. Title words weigh more than description words.
create function issues_search_update() returns trigger language plpgsql as $$
begin
  new.search :=
    setweight(to_tsvector('simple', unaccent(lower(coalesce(new.title, '')))), 'A') ||
    setweight(to_tsvector('simple', unaccent(lower(coalesce(new.description, '')))), 'B');
  return new;
end $$;
create trigger issues_search before insert or update of title, description on issues
  for each row execute function issues_search_update();

-- Every identifier an issue has had: moving teams must not break old links.
create table issue_identifiers (
  identifier text primary key,
  issue_id uuid not null references issues (id) on delete cascade
);
create index issue_identifiers_issue on issue_identifiers (issue_id);

create table issue_labels (
  issue_id uuid not null references issues (id) on delete cascade,
  label_id uuid not null references labels (id) on delete cascade,
  primary key (issue_id, label_id)
);
create index issue_labels_label on issue_labels (label_id);

create table issue_subscribers (
  issue_id uuid not null references issues (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  primary key (issue_id, user_id)
);
create index issue_subscribers_user on issue_subscribers (user_id);

-- One row per issue change: who changed what from what to what.
create table issue_history (
  id uuid primary key default gen_random_uuid(),
  issue_id uuid not null references issues (id) on delete cascade,
  actor_id uuid references users (id),
  changes jsonb not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index issue_history_issue on issue_history (issue_id, created_at);

create table comments (
  id uuid primary key default gen_random_uuid(),
  issue_id uuid not null references issues (id) on delete cascade,
  user_id uuid references users (id),
  parent_id uuid references comments (id) on delete cascade,
  body text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  edited_at timestamptz,
  resolved_at timestamptz,
  archived_at timestamptz
);
create index comments_issue on comments (issue_id, created_at, id);
create index comments_user on comments (user_id);
create index comments_parent on comments (parent_id);
create index comments_created_at on comments (created_at desc, id desc);
create index comments_updated_at on comments (updated_at desc, id desc);

create table files (
  id uuid primary key default gen_random_uuid(),
  uploader_id uuid references users (id) on delete set null,
  filename text not null,
  content_type text not null,
  size bigint not null check (size >= 0),
  storage_key text not null,
  -- 'pending' between a two-step upload's grant and its PUT.
  status text not null default 'complete' check (status in ('pending', 'complete')),
  created_at timestamptz not null default now()
);
create index files_uploader on files (uploader_id);

create table attachments (
  id uuid primary key default gen_random_uuid(),
  issue_id uuid not null references issues (id) on delete cascade,
  creator_id uuid references users (id) on delete set null,
  title text not null,
  subtitle text,
  url text not null,
  metadata jsonb not null default '{}'::jsonb,
  source_type text,
  group_by_source boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  archived_at timestamptz
);
create index attachments_issue on attachments (issue_id, created_at);
create index attachments_url on attachments (url);
create index attachments_created_at on attachments (created_at desc, id desc);

create table webhooks (
  id uuid primary key default gen_random_uuid(),
  url text not null,
  label text,
  secret text not null,
  enabled boolean not null default true,
  resource_types text[] not null default '{}',
  team_id uuid references teams (id) on delete cascade,
  all_public_teams boolean not null default true,
  creator_id uuid references users (id) on delete set null,
  -- Set when the endpoint starts failing; cleared by any success.
  failing_since timestamptz,
  disabled_reason text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  archived_at timestamptz
);
create index webhooks_enabled on webhooks (enabled);
create index webhooks_created_at on webhooks (created_at, id);

-- Transactional outbox: written in the same transaction as the change.
create table webhook_events (
  id bigserial primary key,
  type text not null,
  action text not null,
  payload jsonb not null,
  created_at timestamptz not null default now()
);

create table webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  webhook_id uuid not null references webhooks (id) on delete cascade,
  event_id bigint not null references webhook_events (id) on delete cascade,
  status text not null default 'pending' check (status in ('pending', 'delivering', 'succeeded', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  lease_until timestamptz,
  last_error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (webhook_id, event_id)
);
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status in ('pending', 'delivering');
create index webhook_deliveries_webhook on webhook_deliveries (webhook_id, event_id);

create table webhook_attempts (
  id uuid primary key default gen_random_uuid(),
  delivery_id uuid not null references webhook_deliveries (id) on delete cascade,
  started_at timestamptz not null,
  duration_ms integer not null,
  status_code integer,
  error text,
  response_body text
);
create index webhook_attempts_delivery on webhook_attempts (delivery_id, started_at);
`;
