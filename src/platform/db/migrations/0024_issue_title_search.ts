// The title's words as their own small tsvector, beside `search` (title and
// description). Search ranking reads it for every match: `search` is about
// 1.2 KB and mostly TOASTed, so ranking every match by it cost a TOAST read
// per match (15 ms for the 3,118 matches of a two-word search at 100,000
// issues), while this one stays in the row (docs/rest-issues.md, "Search").
// The fill rewrites every issue row once: about a minute at 100,000 issues on
// a busy two-core machine, inside the migration's transaction.
export const name = 'issue_title_search';

export const up = /* sql */ `
alter table issues add column search_title tsvector not null default ''::tsvector;

create or replace function issues_search_update() returns trigger language plpgsql as $$
begin
  new.search_title := setweight(to_tsvector('simple', unaccent(lower(coalesce(new.title, '')))), 'A');
  new.search :=
    new.search_title ||
    setweight(to_tsvector('simple', unaccent(lower(coalesce(new.description, '')))), 'B');
  return new;
end $$;

update issues set search_title = setweight(to_tsvector('simple', unaccent(lower(title))), 'A');
`;
