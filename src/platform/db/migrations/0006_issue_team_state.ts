// The board and most filtered lists ask for one team's issues in one state,
// newest first. Without this, PostgreSQL counts and pages them from the
// per-team index and filters state row by row (70 ms vs 0.9 ms at 100k issues).
export const name = 'issue_team_state';

export const up = /* sql */ `
create index issues_live_team_state_created on issues (team_id, state_id, created_at desc, id desc)
  where archived_at is null;
`;
