// A team's cycle settings (modules/cycles/settings.ts): automatic cycles of
// `cycle_duration` weeks starting on `cycle_start_day` (0 Sunday .. 6
// Saturday, in the team's time zone), `cycle_cooldown` weeks apart,
// `upcoming_cycle_count` planned ahead, and whether an ended cycle's
// unfinished issues roll over to the next. The cycle worker finds the teams
// it has work for through the partial index.
export const name = 'cycle_settings';

export const up = /* sql */ `
alter table teams
  add column cycles_automatic boolean not null default false,
  add column cycle_duration integer not null default 2 check (cycle_duration between 1 and 8),
  add column cycle_cooldown integer not null default 0 check (cycle_cooldown between 0 and 4),
  add column cycle_start_day integer not null default 1 check (cycle_start_day between 0 and 6),
  add column upcoming_cycle_count integer not null default 2 check (upcoming_cycle_count between 1 and 10),
  add column cycle_rollover boolean not null default true;

create index teams_automatic_cycles on teams (id) where cycles_automatic and cycles_enabled and archived_at is null;
create index cycles_open_by_end on cycles (team_id, ends_at) where completed_at is null and archived_at is null;
`;
