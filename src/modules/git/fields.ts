// The issue's pull request marker (the list's and board's compact icon,
// docs/git.md "In the list and on the board"): of the issue's live pull/merge
// request attachments, the one that matters most now and how many there are.
// As SQL over the issue row, for the read model (one sub-select per row of the
// page's one statement, through attachments' issue index) and for GraphQL's
// fallback loader.
import { type RawBuilder, sql } from 'kysely';

type Sql = RawBuilder<unknown>;

export type ChecksState = 'pending' | 'success' | 'failure';

export interface PullRequestMarker {
  /** Live pull/merge requests linked to the issue (commits are not counted). */
  count: number;
  /** The leading one's status: docs/git.md's words (draft, open, inReview, approved, merged, closed). */
  status: string;
  /** The leading one's checks on its head commit, or null when no check reported. */
  checks: ChecksState | null;
  host: string;
}

/**
 * The leading pull request: one still in play before a finished one
 * (approved, in review, open, draft, then merged, then closed), then the
 * latest changed. Null when the issue has none.
 */
export const pullRequestMarkerSql = (issue: Sql) =>
  sql<PullRequestMarker | null>`(select json_build_object(
      'count', (count(*) over ())::int,
      'status', a.metadata->>'status',
      'checks', a.metadata->'checks'->>'state',
      'host', a.source_type)
    from attachments a
    where a.issue_id = ${issue}.id and a.archived_at is null
      and a.source_type in ('github', 'gitlab', 'gitea')
      and a.metadata->>'kind' is distinct from 'commit'
    order by case a.metadata->>'status' when 'approved' then 0 when 'inReview' then 1
      when 'open' then 2 when 'draft' then 3 when 'merged' then 4 else 5 end,
      a.updated_at desc, a.id
    limit 1)`;
