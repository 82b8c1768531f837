// The one full-text search over issues: REST `q`, GraphQL `searchIssues` and
// the IssueFilter field `searchableContent` (which the UI's search box sends)
// all match `issues.search`, the tsvector a trigger keeps from the title and
// description, with this query. Words match as prefixes, accent- and
// case-folded ("Caf rep" finds "café report").
import { type Expression, type RawBuilder, sql } from 'kysely';

type Sql = RawBuilder<unknown>;

/** At most this many words of a search count; each is cut to 100 characters. */
export const SEARCH_WORDS = 32;

/**
 * A prefix tsquery over the words of `term`. Words are cut to letters and
 * digits in JS (so nothing reaches to_tsquery's syntax), then lower-cased and
 * accent-folded by PostgreSQL the way the trigger folds the indexed text.
 * Null when the term has no words.
 */
export function searchQuery(term: string): Sql | null {
  const words = term
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, SEARCH_WORDS)
    .map((w) => w.slice(0, 100));
  if (words.length === 0) return null;
  return sql`to_tsquery('simple', (
    select string_agg('''' || replace(unaccent(lower(w)), '''', '') || ''':*', ' & ')
    from regexp_split_to_table(${words.join(' ')}::text, ' ') as w))`;
}

/** SQL true for the issues under `alias` that match `query`. */
export const matchesSearch = (alias: string, query: Expression<unknown>): Sql =>
  sql`${sql.ref(`${alias}.search`)} @@ ${query}`;

/** How well an issue matches, for "best match first". */
export const searchRank = (alias: string, query: Expression<unknown>): Sql =>
  sql`ts_rank(${sql.ref(`${alias}.search`)}, ${query})`;

/** SQL true for the issues under `alias` that have a comment matching `query` (searchIssues' includeComments). */
export const commentsMatchSearch = (alias: string, query: Expression<unknown>): Sql =>
  sql`exists (select 1 from comments c where c.issue_id = ${sql.ref(`${alias}.id`)}
    and to_tsvector('simple', unaccent(lower(c.body))) @@ ${query})`;
