// Ids that clients chose for the issues and comments they created (Linear's
// IssueCreateInput.id and CommentCreateInput.id), so that a create sent again
// (the web UI's offline queue replaying a write whose answer was lost) is
// recognised as the same create: the primary key here is what makes two
// concurrent creates with one id give one record. A row outlives its record,
// so an id whose issue or comment was deleted is not given out again.
export const name = 'client_ids';

export const up = /* sql */ `
create table client_ids (
  id uuid primary key,
  kind text not null check (kind in ('issue', 'comment')),
  actor_id uuid not null references users (id) on delete cascade,
  created_at timestamptz not null default now()
);
`;
