// Emoji reactions on issues and comments (issue 26), as the third-party
// schema's Reaction. Every reaction carries its issue: a comment's reaction
// the comment's issue (which a comment never changes), so one rule decides who
// sees a reaction, the (access.ts visibility.reaction), and an issue
// moved to another team takes its reactions with it.
//
// One reaction per person, emoji and target: the issue itself (comment_id
// null) or one of its comments. The two partial unique indexes say so and
// serve the reads of a target's reactions, in the order they were given.
export const name = 'reactions';

export const up = /* sql */ `
create table reactions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  issue_id uuid not null references issues (id) on delete cascade,
  comment_id uuid references comments (id) on delete cascade,
  emoji text not null check (char_length(emoji) between 1 and 32),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index reactions_on_issue on reactions (issue_id, user_id, emoji) where comment_id is null;
create unique index reactions_on_comment on reactions (comment_id, user_id, emoji) where comment_id is not null;
create index reactions_target_order on reactions (coalesce(comment_id, issue_id), created_at, id);
create index reactions_user on reactions (user_id);
`;
