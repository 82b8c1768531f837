// Back-link comments (modules/git/backlinks.ts, docs/git.md "Back-links"): a
// connection's API base URL and its switch, and one row per pull request and
// issue it links, which is both the queue of comments to post and the memory
// of what was posted (unique, so a pull request gets one comment per issue).
export const name = 'git_backlinks';

export const up = /* sql */ `
alter table git_connections
  add column api_base_url text,
  add column backlinks boolean not null default true;

create table git_backlinks (
  id uuid primary key default gen_random_uuid(),
  connection_id uuid not null references git_connections (id) on delete cascade,
  pull_url text not null,
  issue_id uuid not null references issues (id) on delete cascade,
  -- Where the host's API finds the pull request: owner/name as the host spells
  -- it (GitLab: the project's numeric id), and its number (GitLab: iid).
  api_repo text not null,
  number integer not null,
  -- True only when the payload said the repository is private.
  repo_private boolean not null default false,
  status text not null default 'pending' check (status in ('pending', 'working', 'posted', 'failed')),
  attempts integer not null default 0,
  lease_until timestamptz,
  next_attempt_at timestamptz not null default now(),
  last_error text,
  comment_id text,
  created_at timestamptz not null default now(),
  posted_at timestamptz,
  unique (connection_id, pull_url, issue_id)
);
create index git_backlinks_due on git_backlinks (next_attempt_at) where status in ('pending', 'working');
create index git_backlinks_issue on git_backlinks (issue_id);
`;
