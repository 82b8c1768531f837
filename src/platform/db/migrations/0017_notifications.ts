// The inbox: one row per notification a user receives about an issue. Written
// in the transaction of the change that causes it (modules/notifications/notify.ts).
// type holds the third-party NotificationType strings (issueAssignedToYou,
// issueMention, issueCommentMention, issueNewComment, issueStatusChanged).
// An issue or comment deleted takes its notifications with it; who may read
// one is decided again at read time (the team must still be visible).
export const name = 'notifications';

export const up = /* sql */ `
create table notifications (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  type text not null,
  issue_id uuid not null references issues (id) on delete cascade,
  comment_id uuid references comments (id) on delete cascade,
  parent_comment_id uuid references comments (id) on delete set null,
  actor_id uuid references users (id),
  -- For issueStatusChanged: the type of the state the issue moved to.
  issue_status_type text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  read_at timestamptz,
  archived_at timestamptz,
  snoozed_until_at timestamptz
);
-- The inbox page: a user's live or archived notifications, newest first (keyset on created_at, id).
create index notifications_inbox on notifications (user_id, (archived_at is not null), created_at desc, id desc);
-- The unread count: a user's unread, unarchived rows.
create index notifications_unread on notifications (user_id) where read_at is null and archived_at is null;
create index notifications_issue on notifications (issue_id);
create index notifications_comment on notifications (comment_id) where comment_id is not null;
create index notifications_parent_comment on notifications (parent_comment_id) where parent_comment_id is not null;
-- Mentions resolve @name against display names, case-insensitively.
create index users_display_name_lower on users (lower(display_name)) where deleted_at is null;
`;
