// Indexes for issue lists: the default list hides archived issues and shows
// the newest first, overall or per team; archived_at is filtered on by every list.
export const name = 'issue_lists';

export const up = /* sql */ `
create index issues_live_created on issues (created_at desc, id desc) where archived_at is null;
create index issues_live_team_created on issues (team_id, created_at desc, id desc) where archived_at is null;
create index issues_archived_at on issues (archived_at) where archived_at is not null;
`;
