// Project milestones: named checkpoints inside a project, each with an
// optional target date and its own issues. An issue's milestone must belong
// to the project; a composite foreign key says so in the database, so
// no write path (the service, an import, hand-written SQL) can break the rule.
// Deleting a milestone empties it from its issues (set null on that column
// only, PostgreSQL 15+); deleting the project takes its milestones with it.
export const name = 'project_milestones';

export const up = /* sql */ `
create table project_milestones (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references projects (id) on delete cascade,
  name text not null,
  description text,
  target_date date,
  sort_order double precision not null default 0,
  creator_id uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (id, project_id)
);
-- A project's milestones in their order; also serves project_id lookups.
create index project_milestones_project on project_milestones (project_id, sort_order, created_at, id);
create index project_milestones_created_at on project_milestones (created_at, id);
create index project_milestones_updated_at on project_milestones (updated_at, id);
create index project_milestones_target_date on project_milestones (target_date);
create index project_milestones_name on project_milestones (name);

alter table issues add column project_milestone_id uuid;
alter table issues add constraint issues_project_milestone_fk
  foreign key (project_milestone_id, project_id) references project_milestones (id, project_id)
  on delete set null (project_milestone_id);
create index issues_project_milestone on issues (project_milestone_id);
`;
