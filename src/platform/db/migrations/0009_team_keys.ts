// Team management. A team may change its key, and every identifier an issue
// ever had must keep resolving (ENG-12 after ENG became CORE), so every key a
// team has held is recorded here and never passes to another team. A trigger
// records it, so every way a team is written (the service, the first start, a
// bulk SQL import) keeps the rule; a key that another team holds or held is
// refused with a unique violation, which callers already answer as a conflict.
// Teams also hold a time zone now (it was always UTC). Guests join no team
// until an admin adds them; until now every account joined every public team
// automatically and there was no way to add anyone, so every guest membership
// is such an automatic one and goes.
export const name = 'team_keys';

export const up = /* sql */ `
create table team_keys (
  key text primary key check (key ~ '^[A-Z][A-Z0-9]{0,6}$'),
  team_id uuid not null references teams (id) on delete cascade,
  created_at timestamptz not null default now()
);
create index team_keys_team on team_keys (team_id);

insert into team_keys (key, team_id) select key, id from teams;

create function teams_record_key() returns trigger language plpgsql as $$
begin
  if exists (select 1 from team_keys where key = new.key and team_id <> new.id) then
    raise exception 'team key % belongs or belonged to another team', new.key
      using errcode = 'unique_violation', constraint = 'team_keys_pkey';
  end if;
  insert into team_keys (key, team_id) values (new.key, new.id) on conflict (key) do nothing;
  return new;
end $$;
create trigger teams_record_key after insert or update of key on teams
  for each row execute function teams_record_key();

alter table teams add column timezone text not null default 'UTC';

delete from team_memberships m using users u where u.id = m.user_id and u.role = 'guest';
`;
