// Live and archived issue counts per team, kept by triggers in the same
// transaction as every write that changes them, so `pageInfo.total` of an
// unfiltered or team-only issue list is a sum over a few rows instead of a
// count of every issue (docs/rest-issues.md, "Totals").
//
// Triggers rather than the service: bulk SQL (imports, the bench's seed), a
// cascade and every service path (create, batch, team move, archive, delete)
// are covered alike. Inserts and deletes are counted per statement from the
// transition table (one upsert for 10,000 imported rows); an update only when
// it moves an issue between teams or in or out of the archive.
//
// Deadlocks: a statement takes its count rows in team id order, and only these
// triggers lock them, so two moves in opposite directions queue instead of
// deadlocking (the `teams` row that numbering locks is another table).
export const name = 'issue_counts';

export const up = /* sql */ `
create table team_issue_counts (
  team_id uuid primary key references teams (id) on delete cascade,
  live integer not null default 0,
  archived integer not null default 0
);

insert into team_issue_counts (team_id, live, archived)
  select t.id,
    count(i.id) filter (where i.archived_at is null),
    count(i.id) filter (where i.archived_at is not null)
  from teams t left join issues i on i.team_id = t.id
  group by t.id;

create function issue_counts_inserted() returns trigger language plpgsql as $$
begin
  insert into team_issue_counts as c (team_id, live, archived)
    select team_id, count(*) filter (where archived_at is null), count(*) filter (where archived_at is not null)
    from issue_counts_new group by team_id order by team_id
  on conflict (team_id) do update set live = c.live + excluded.live, archived = c.archived + excluded.archived;
  return null;
end $$;

create function issue_counts_deleted() returns trigger language plpgsql as $$
begin
  insert into team_issue_counts as c (team_id, live, archived)
    select team_id, -count(*) filter (where archived_at is null), -count(*) filter (where archived_at is not null)
    from issue_counts_old group by team_id order by team_id
  on conflict (team_id) do update set live = c.live + excluded.live, archived = c.archived + excluded.archived;
  return null;
end $$;

create function issue_counts_moved() returns trigger language plpgsql as $$
begin
  insert into team_issue_counts as c (team_id, live, archived)
    select team_id, sum(live), sum(archived) from (values
      (old.team_id, -(old.archived_at is null)::int, -(old.archived_at is not null)::int),
      (new.team_id, (new.archived_at is null)::int, (new.archived_at is not null)::int)
    ) d (team_id, live, archived)
    group by team_id order by team_id
  on conflict (team_id) do update set live = c.live + excluded.live, archived = c.archived + excluded.archived;
  return null;
end $$;

create trigger issue_counts_inserted after insert on issues
  referencing new table as issue_counts_new
  for each statement execute function issue_counts_inserted();
create trigger issue_counts_deleted after delete on issues
  referencing old table as issue_counts_old
  for each statement execute function issue_counts_deleted();
create trigger issue_counts_moved after update of team_id, archived_at on issues
  for each row when (old.team_id is distinct from new.team_id
    or (old.archived_at is null) is distinct from (new.archived_at is null))
  execute function issue_counts_moved();
`;
