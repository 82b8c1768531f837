// Live and archived issue counts per team and workflow state, kept by the same
// triggers as the per-team counts (migration 0023), so the total of a board
// column (a REST list of one state, of one team or of every team the caller
// sees) is a sum over a few rows instead of a count of the column's issues: a
// third of the page statement's time at 100,000 issues (docs/benchmarks.md,
// "Issue 25, fourth stop").
//
// Keyed by the issue's own team and state, so a list of a team and a state of
// another team totals 0 as its rows do, whatever wrote the issue. The trigger
// functions keep their names and now also count by state; an update is
// counted when it moves an issue between teams or states or in or out of the
// archive. Rows are taken in the order team counts, then state counts, each
// by key, in every function, so concurrent writers queue instead of
// deadlocking.
export const name = 'state_issue_counts';

export const up = /* sql */ `
create table state_issue_counts (
  team_id uuid not null references teams (id) on delete cascade,
  state_id uuid not null references workflow_states (id) on delete cascade,
  live integer not null default 0,
  archived integer not null default 0,
  primary key (team_id, state_id)
);
create index state_issue_counts_state on state_issue_counts (state_id);

insert into state_issue_counts (team_id, state_id, live, archived)
  select team_id, state_id, count(*) filter (where archived_at is null), count(*) filter (where archived_at is not null)
  from issues group by team_id, state_id;

create or replace function issue_counts_inserted() returns trigger language plpgsql as $$
begin
  insert into team_issue_counts as c (team_id, live, archived)
    select team_id, count(*) filter (where archived_at is null), count(*) filter (where archived_at is not null)
    from issue_counts_new group by team_id order by team_id
  on conflict (team_id) do update set live = c.live + excluded.live, archived = c.archived + excluded.archived;
  insert into state_issue_counts as c (team_id, state_id, live, archived)
    select team_id, state_id, count(*) filter (where archived_at is null), count(*) filter (where archived_at is not null)
    from issue_counts_new group by team_id, state_id order by team_id, state_id
  on conflict (team_id, state_id) do update set live = c.live + excluded.live, archived = c.archived + excluded.archived;
  return null;
end $$;

create or replace function issue_counts_deleted() returns trigger language plpgsql as $$
begin
  insert into team_issue_counts as c (team_id, live, archived)
    select team_id, -count(*) filter (where archived_at is null), -count(*) filter (where archived_at is not null)
    from issue_counts_old group by team_id order by team_id
  on conflict (team_id) do update set live = c.live + excluded.live, archived = c.archived + excluded.archived;
  -- A state deleted in the same statement (its team's cascade) has no row left to count down.
  insert into state_issue_counts as c (team_id, state_id, live, archived)
    select o.team_id, o.state_id, -count(*) filter (where o.archived_at is null), -count(*) filter (where o.archived_at is not null)
    from issue_counts_old o
    where exists (select 1 from workflow_states s where s.id = o.state_id)
    group by o.team_id, o.state_id order by o.team_id, o.state_id
  on conflict (team_id, state_id) do update set live = c.live + excluded.live, archived = c.archived + excluded.archived;
  return null;
end $$;

create or replace function issue_counts_moved() returns trigger language plpgsql as $$
begin
  if old.team_id is distinct from new.team_id
    or (old.archived_at is null) is distinct from (new.archived_at is null) then
    insert into team_issue_counts as c (team_id, live, archived)
      select team_id, sum(live), sum(archived) from (values
        (old.team_id, -(old.archived_at is null)::int, -(old.archived_at is not null)::int),
        (new.team_id, (new.archived_at is null)::int, (new.archived_at is not null)::int)
      ) d (team_id, live, archived)
      group by team_id order by team_id
    on conflict (team_id) do update set live = c.live + excluded.live, archived = c.archived + excluded.archived;
  end if;
  insert into state_issue_counts as c (team_id, state_id, live, archived)
    select team_id, state_id, sum(live), sum(archived) from (values
      (old.team_id, old.state_id, -(old.archived_at is null)::int, -(old.archived_at is not null)::int),
      (new.team_id, new.state_id, (new.archived_at is null)::int, (new.archived_at is not null)::int)
    ) d (team_id, state_id, live, archived)
    group by team_id, state_id order by team_id, state_id
  on conflict (team_id, state_id) do update set live = c.live + excluded.live, archived = c.archived + excluded.archived;
  return null;
end $$;

drop trigger issue_counts_moved on issues;
create trigger issue_counts_moved after update of team_id, state_id, archived_at on issues
  for each row when (old.team_id is distinct from new.team_id
    or old.state_id is distinct from new.state_id
    or (old.archived_at is null) is distinct from (new.archived_at is null))
  execute function issue_counts_moved();
`;
