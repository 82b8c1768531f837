// The triage queue (docs/triage.md): a team setting that sends issues from
// outside the team to its triage state, and an issue's snooze, which hides it
// from the queue until a moment passes (Linear's Issue.snoozedUntilAt and
// snoozedBy). The queue reads a team's triage issues through
// issues_live_team_state_created; the snoozed ones are few, so a partial index
// finds them for the "snoozed until" filter.
export const name = 'triage';

export const up = /* sql */ `
alter table teams add column triage_enabled boolean not null default false;

alter table issues
  add column snoozed_until_at timestamptz,
  add column snoozed_by_id uuid references users (id) on delete set null;

create index issues_snoozed on issues (snoozed_until_at) where snoozed_until_at is not null;
create index issues_snoozed_by on issues (snoozed_by_id) where snoozed_by_id is not null;
`;
