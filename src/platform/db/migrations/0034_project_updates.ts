// Project updates (issue 26), as the third-party schema's ProjectUpdate: a
// written status of a project with its health (on track, at risk, off track).
// Seen with their project (access.ts visibility.projectUpdate). Posting one
// sets the project's health and when it last changed (health_updated_at),
// which the Projects list shows; the project's last update is its newest
// live one, read by the (project_id, created_at, id) index.
export const name = 'project_updates';

export const up = /* sql */ `
create table project_updates (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references projects (id) on delete cascade,
  user_id uuid references users (id),
  body text not null,
  health text not null check (health in ('onTrack', 'atRisk', 'offTrack')),
  slug_id text not null default substr(md5(gen_random_uuid()::text), 1, 12),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  edited_at timestamptz,
  archived_at timestamptz
);
create index project_updates_project on project_updates (project_id, created_at, id);
create index project_updates_created on project_updates (created_at, id);
create index project_updates_user on project_updates (user_id);
alter table projects add column health_updated_at timestamptz;
`;
