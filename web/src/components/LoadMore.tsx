// The end of a list's or a board column's loaded rows: rendered only when
// scrolled near (the virtual list), it reads the next page, and again each
// time a page arrives while it is still in view.
import { useEffect } from 'react';
import type { IssueFilter, PaginationOrderBy } from '../gql/graphql';
import { loadMore } from '../lib/issue-pages';

export function LoadMore({
  filter,
  orderBy,
  loaded,
}: {
  filter: IssueFilter;
  orderBy: PaginationOrderBy;
  loaded: number;
}) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page loaded while still in view reads the next
  useEffect(() => {
    void loadMore(filter, orderBy).catch(() => undefined);
  }, [filter, orderBy, loaded]);
  return (
    <div className="more-row muted" aria-busy="true">
      Loading more…
    </div>
  );
}
