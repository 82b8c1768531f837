// Git hosts (modules/git, docs/git.md): connections to GitHub, GitLab and
// Gitea/Forgejo, the repositories each connects to a team, per-team automation
// rules, and the durable queue of received webhook deliveries (the delivery id
// is unique per host, which is how replays are refused).
export const name = 'git';

export const up = /* sql */ `
create table git_connections (
  id uuid primary key default gen_random_uuid(),
  host text not null check (host in ('github', 'gitlab', 'gitea')),
  name text not null,
  -- Sealed (platform/sealed.ts): a dump does not reveal them.
  webhook_secret text not null,
  api_token text,
  -- Whose name moves issues: the admin who connected the host.
  created_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table git_repositories (
  id uuid primary key default gen_random_uuid(),
  connection_id uuid not null references git_connections (id) on delete cascade,
  host text not null,
  -- owner/name (GitLab: path_with_namespace), lower-cased.
  full_name text not null,
  team_id uuid not null references teams (id) on delete cascade,
  created_at timestamptz not null default now(),
  unique (host, full_name)
);
create index git_repositories_connection on git_repositories (connection_id);

-- One row per team, event and target branch ('' = any branch); state_id null = don't move.
create table git_automation_rules (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams (id) on delete cascade,
  event text not null check (event in ('draft', 'start', 'review', 'mergeable', 'merge')),
  target_branch text not null default '',
  state_id uuid references workflow_states (id) on delete cascade,
  unique (team_id, event, target_branch)
);

create table git_deliveries (
  id uuid primary key default gen_random_uuid(),
  host text not null,
  delivery_id text not null,
  connection_id uuid not null references git_connections (id) on delete cascade,
  event text not null,
  payload jsonb not null,
  status text not null default 'pending' check (status in ('pending', 'working', 'done', 'failed')),
  attempts integer not null default 0,
  lease_until timestamptz,
  next_attempt_at timestamptz not null default now(),
  outcome text,
  last_error text,
  received_at timestamptz not null default now(),
  processed_at timestamptz,
  unique (host, delivery_id)
);
create index git_deliveries_due on git_deliveries (next_attempt_at) where status in ('pending', 'working');
create index git_deliveries_connection on git_deliveries (connection_id, received_at desc);
`;
