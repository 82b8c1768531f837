// Links between two issues: one blocks the other, one duplicates the other,
// or they are related or similar. A row is directional (issue_id -> related
// issue); "blocked by" is a `blocks` row read from the other end, so there is
// never a second row to keep in step. The unique constraint keeps a pair from
// being linked twice the same way, and its leading column serves lookups from
// the source issue; the second index serves lookups from the target (inverse
// relations, "blocked by" filters).
export const name = 'issue_relations';

export const up = /* sql */ `
create table issue_relations (
  id uuid primary key default gen_random_uuid(),
  issue_id uuid not null references issues (id) on delete cascade,
  related_issue_id uuid not null references issues (id) on delete cascade,
  type text not null check (type in ('blocks', 'duplicate', 'related', 'similar')),
  creator_id uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint issue_relations_not_self check (issue_id <> related_issue_id),
  constraint issue_relations_pair unique (issue_id, related_issue_id, type)
);
create index issue_relations_related on issue_relations (related_issue_id, type);
create index issue_relations_created_at on issue_relations (created_at desc, id desc);
create index issue_relations_updated_at on issue_relations (updated_at desc, id desc);
`;
