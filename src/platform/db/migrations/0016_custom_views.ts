// Saved views ("custom views"): a named issue filter plus display settings.
// A view is personal (shared = false: its owner's alone) or shared with a
// team (team_id) or, without a team, with the workspace. filter_data is an
// IssueFilter, checked by the filter compiler before it is stored; display is
// the UI's own settings, checked against a closed shape (modules/views/display.ts).
// Deleting the team takes its views; a user is never deleted (soft delete),
// so owner_id always names a row.
export const name = 'custom_views';

export const up = /* sql */ `
create table custom_views (
  id uuid primary key default gen_random_uuid(),
  slug_id text not null,
  name text not null,
  description text,
  icon text,
  color text,
  filter_data jsonb not null default '{}'::jsonb,
  display jsonb not null default '{}'::jsonb,
  shared boolean not null default false,
  owner_id uuid not null references users (id),
  creator_id uuid not null references users (id),
  team_id uuid references teams (id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  archived_at timestamptz
);
create unique index custom_views_slug on custom_views (slug_id);
-- Everyone's list starts from "mine or shared": the owner's views, newest first...
create index custom_views_owner on custom_views (owner_id, created_at, id);
-- ...and the shared ones, by team (null: the workspace's).
create index custom_views_shared_team on custom_views (team_id, created_at, id) where shared;
-- Keyset pages by either order (GraphQL orderBy createdAt | updatedAt).
create index custom_views_created_at on custom_views (created_at, id);
create index custom_views_updated_at on custom_views (updated_at, id);
-- Filter fields of CustomViewFilter that are not covered above.
create index custom_views_name on custom_views (name);
create index custom_views_creator on custom_views (creator_id);
`;
