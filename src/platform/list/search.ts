// The one full-text search over issues: REST `q`, GraphQL `searchIssues` and
// the IssueFilter field `searchableContent` (which the UI's search box sends)
// all match `issues.search`, the tsvector a trigger keeps from the title and
// description, with this query. Words match as prefixes, accent- and
// case-folded ("Caf rep" finds "café report").
import { type Expression, type RawBuilder, sql } from 'kysely';
import { pageBound } from './window.js';

type Sql = RawBuilder<unknown>;

/** At most this many words of a search count; each is cut to 100 characters. */
export const SEARCH_WORDS = 32;

/**
 * A prefix tsquery over the words of `term`. Words are cut to letters and
 * digits in JS (so nothing reaches to_tsquery's syntax), then lower-cased and
 * accent-folded by PostgreSQL the way the trigger folds the indexed text.
 * PostgreSQL's parser reads a key like `ENG-12` in text as the word `eng` and
 * the signed number `-12`, so a run of digits right after a hyphen also
 * matches its signed form: `ENG-12` finds the text "see ENG-12" (and an
 * imported issue's original key, docs/migrate.md). Words joined by `/` (a
 * GitHub key's `owner/repo`) are one word in the parser's eyes, so they match
 * either as that one word or as their parts.
 * Null when the term has no words.
 */
export function searchQuery(term: string): Sql | null {
  const words = [...term.matchAll(/(-?)([\p{L}\p{N}]+(?:\/[\p{L}\p{N}]+)*)/gu)]
    .slice(0, SEARCH_WORDS)
    .map(([, dash, w]) => (dash && /^[0-9]+$/.test(w!) ? '-' : '') + w!.slice(0, 100));
  if (words.length === 0) return null;
  return sql`to_tsquery('simple', (
    select string_agg(case when left(w, 1) = '-'
      then '(''' || substr(w, 2) || ''':* | ''' || w || ''':*)'
      when position('/' in w) > 0 then (select '(''' || x || ''':* | ''' || replace(x, '/', ''':* & ''') || ''':*)'
        from (select replace(unaccent(lower(w)), '''', '') as x) as path)
      else '''' || replace(unaccent(lower(w)), '''', '') || ''':*' end, ' & ')
    from regexp_split_to_table(${words.join(' ')}::text, ' ') as w))`;
}

/** SQL true for the issues under `alias` that match `query`. */
export const matchesSearch = (alias: string, query: Expression<unknown>): Sql =>
  sql`${sql.ref(`${alias}.search`)} @@ ${query}`;

/**
 * How many of the best title matches are ranked again by their whole text:
 * the first four pages of 50. Past them the title decides, then age.
 */
export const RERANKED = 200;

/**
 * The matches of a ranked search (the issues under `where`), best first, as
 * rows of (id, total, pos, text_rank): pos is the place by the title's rank
 * (ts_rank over `search_title`, a small vector kept in the row) and then
 * newest first; the first RERANKED of them also get `text_rank`, ts_rank
 * over title and description, which orders them (rankedOrder). Ranking every
 * match by the whole text read each one's TOASTed `search` vector; this reads
 * RERANKED of them. `total` counts every match in the same scan.
 */
export function rankedMatches(
  where: Expression<unknown>,
  query: Expression<unknown>,
  limit: number,
  offset: number,
): Sql {
  return sql`select * from (
      select m.id, m.total, m.pos, case when m.pos <= ${RERANKED}
        then (select ts_rank(r.search, ${query}) from issues r where r.id = m.id) end as text_rank
      from (select issues.id, count(*) over () as total, row_number() over (
          order by ts_rank(issues.search_title, ${query}) desc, issues.created_at desc, issues.id desc) as pos
        from issues where ${where}) m) ranked
    order by ${rankedOrder('ranked')} limit ${pageBound(limit)}${offset ? sql` offset ${offset}` : sql``}`;
}

/** The order of rankedMatches' rows under `alias`. */
export const rankedOrder = (alias: string): Sql => {
  const pos = sql.ref(`${alias}.pos`);
  return sql`${pos} <= ${RERANKED} desc, ${sql.ref(`${alias}.text_rank`)} desc nulls last, ${pos}`;
};

/**
 * SQL true for the issues under `alias` that have a comment matching `query`
 * (searchIssues' includeComments). Comment vectors are kept by a trigger in
 * comment_search (migration 0025, empty for deleted comments) under a GIN
 * index; comment_search_issues reads that index (sequential scans off), once
 * per statement, and the issues are probed against its result as a hash.
 */
export const commentsMatchSearch = (alias: string, query: Expression<unknown>): Sql =>
  sql`${sql.ref(`${alias}.id`)} in (select m from comment_search_issues(${query}) as m)`;
