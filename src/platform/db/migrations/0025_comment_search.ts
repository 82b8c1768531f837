// Comment text indexed for search and for text filters (issue 24, finding 1).
// searchIssues(includeComments) used to build a tsvector from every comment of
// every candidate issue at query time, and comment-body filters ran ILIKE over
// every comment of every issue: a guest's 200 comments of 77 KB stalled the
// server. Now:
// - comment_search holds each comment's tsvector, kept by a trigger in the
//   same transaction as the comment (as issues.search is), under a GIN index.
//   A side table rather than a column of comments: comment reads select whole
//   rows (t.*), and a tsvector there would be read, and sent, with each one.
// - trigram GIN indexes serve LIKE/ILIKE filters on the large text columns,
//   comment bodies and issue descriptions (titles have had one since 0001).
// - The planner cannot see TOASTed text: 200 comments of 77 KB fill a few
//   heap pages, so a sequential scan looks cheapest and reads (and tests)
//   every body. The lookups therefore run in functions whose SET clause turns
//   sequential scans off, so they take the index whatever the statistics
//   (PGlite runs no autovacuum, so its statistics may never be gathered).
// The fill reads every comment once, inside the migration's transaction.
export const name = 'comment_search';

export const up = /* sql */ `
create table comment_search (
  comment_id uuid primary key references comments (id) on delete cascade,
  -- The comment's issue, so a search reads this table and its index alone.
  issue_id uuid not null,
  search tsvector not null
);

-- A deleted comment (kept for its replies) has no words.
create function comments_search_update() returns trigger language plpgsql as $$
begin
  insert into comment_search (comment_id, issue_id, search)
    values (new.id, new.issue_id, case when new.deleted_at is null
      then to_tsvector('simple', unaccent(lower(new.body))) else ''::tsvector end)
    on conflict (comment_id) do update set issue_id = excluded.issue_id, search = excluded.search;
  return null;
end $$;
create trigger comments_search after insert or update of body, issue_id, deleted_at on comments
  for each row execute function comments_search_update();

insert into comment_search (comment_id, issue_id, search)
  select id, issue_id, case when deleted_at is null
    then to_tsvector('simple', unaccent(lower(body))) else ''::tsvector end
  from comments;

create index comment_search_gin on comment_search using gin (search);
create index comments_body_trgm on comments using gin (body gin_trgm_ops);
create index issues_description_trgm on issues using gin (description gin_trgm_ops);

-- The issues with a comment matching a search (searchIssues' includeComments).
create function comment_search_issues(query tsquery) returns setof uuid
  language sql stable set enable_seqscan = off
  as $$ select s.issue_id from comment_search s where s.search @@ query $$;

-- Ids of the rows whose long text column matches: target and op are fixed
-- strings of the filter compiler, checked here again; the text is a parameter.
create function long_text_matches(target text, op text, pattern text) returns setof uuid
  language plpgsql stable set enable_seqscan = off
  as $$
begin
  if target not in ('comments.body', 'issues.description') or op not in ('like', 'ilike', '=') then
    raise exception 'long_text_matches: % %', target, op;
  end if;
  return query execute format('select id from %s where %s %s $1',
    split_part(target, '.', 1), split_part(target, '.', 2), op) using pattern;
end $$;
`;
