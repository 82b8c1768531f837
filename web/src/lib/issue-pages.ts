// Issue lists as the screen needs them: a short first page per list (or per
// group of a list, or per board column), more pages only as the person scrolls
// to the end of what is loaded, and a total from the REST list's cheap count.
// Changes (optimistic edits, the change stream) are put where they belong in
// every cached list instead of reading the lists again: that is what keeps a
// working day far inside the GraphQL budget (docs/ui.md, "What reading costs").
//
// A cached list is `Listed` under keys.issues.list(filter, orderBy): its rows
// in the server's order (orderBy, newest first, ties by id), the keyset cursor
// of the last page read, and the number of issues matching in all.
import { useQueries, useQuery } from '@tanstack/react-query';
import { MAX_ALIASES } from '../../../src/graphql/alias-limit';
import { MAX_COUNTED_LISTS } from '../../../src/modules/issues/count-limit';
import { graphql } from '../gql';
import type {
  BlockedIssuesQuery,
  IssueFilter,
  IssueListQuery,
  IssueRowFragment,
  PaginationOrderBy,
} from '../gql/graphql';
import { TypedDocumentString } from '../gql/graphql';
import { gql, ok, rest } from './api';
import { matchesFilter } from './issue-match';
import type { Issue, PullRequestMarker } from './issues';
import { queryClient } from './query';
import { keys } from './query-keys';
import { DONE_TYPES } from './ref';

export interface Listed {
  /** Loaded rows, in the server's order. */
  issues: Issue[];
  /** Keyset cursor after the last row read from the server. */
  after: string | null;
  /** More rows match than are loaded. */
  more: boolean;
  /** Issues matching in all. */
  total: number;
  /** When the total was counted (this browser's clock). */
  countedAt: number;
}

/** Enough rows for a screen (or a group of one); more come 100 at a time as the person scrolls. */
export const FIRST_PAGE = 25;
export const NEXT_PAGE = 100;
/**
 * A grouped list's first pages: the first groups fill the first screen, the others show their
 * first few rows and read on as they scroll into view (LoadMore). Grouped by status over five
 * teams (34 groups) that is 210 rows read for a screen of 18, where 25 a group read 850: the
 * server builds, and the browser parses, a quarter of it before the first rows show.
 */
const SCREEN_GROUPS = 2;
const LATER_GROUP_FIRST_PAGE = 5;
export const groupFirstPage = (index: number) =>
  index < SCREEN_GROUPS ? FIRST_PAGE : LATER_GROUP_FIRST_PAGE;
/** Lists shown side by side (a board's columns) each fill a screen. */
const screenEach = () => FIRST_PAGE;
/** The server's largest page: a list read again keeps up to this many of its rows. */
const MAX_PAGE = 250;
/**
 * Lists per request: the server takes one field at most MAX_ALIASES times in a
 * selection set, so a list grouped by status over five teams' workflows (25 and
 * more groups) goes as two requests, not one the server refuses.
 */
const ALIASES_PER_REQUEST = MAX_ALIASES;
/** Lists are kept current by the change stream, so they are not read again on focus or remount. */
export const LIST_FRESH_MS = 10 * 60_000;
const LIST_KEEP_MS = 30 * 60_000;
/**
 * A total counted this recently may already include a change whose event is
 * still on its way (the page and the count are two reads), so such a change is
 * counted again rather than added: events arrive well within this.
 */
const COUNT_SETTLE_MS = 10_000;

// What a row needs and nothing more: `labelIds` is a list of strings (0.1 point)
// where `labels(first: 20) { nodes { id } }` cost 23 points a row.
graphql(`
  fragment IssueRow on Issue {
    id identifier title priority estimate dueDate createdAt updatedAt
    state { id } team { id } assignee { id } project { id } cycle { id } labelIds pullRequestMarker
  }
`);

const IssueList = graphql(`
  query IssueList($first: Int, $after: String, $filter: IssueFilter, $orderBy: PaginationOrderBy) {
    issues(first: $first, after: $after, filter: $filter, orderBy: $orderBy) {
      nodes { ...IssueRow }
      pageInfo { hasNextPage endCursor }
    }
  }
`);
type Connection = IssueListQuery['issues'];

export const fromNode = (i: IssueRowFragment): Issue => ({
  id: i.id,
  identifier: i.identifier,
  title: i.title,
  priority: i.priority,
  estimate: i.estimate,
  dueDate: i.dueDate,
  createdAt: i.createdAt,
  updatedAt: i.updatedAt,
  stateId: i.state.id,
  teamId: i.team.id,
  assigneeId: i.assignee?.id ?? null,
  projectId: i.project?.id ?? null,
  cycleId: i.cycle?.id ?? null,
  labelIds: i.labelIds,
  pullRequestMarker: (i.pullRequestMarker as PullRequestMarker | null | undefined) ?? null,
});

// ---------- reading ----------

interface FirstPageRequest {
  filter: IssueFilter;
  orderBy: PaginationOrderBy;
  first: number;
  resolve: (c: Connection) => void;
  reject: (e: unknown) => void;
}
let waiting: FirstPageRequest[] = [];

/**
 * First pages asked for in the same tick (the groups of a list, the columns
 * of a board) go as one request, one alias per list: one request against the
 * hourly request budget instead of one per group.
 */
function firstPage(filter: IssueFilter, orderBy: PaginationOrderBy, first: number): Promise<Connection> {
  return new Promise((resolve, reject) => {
    waiting.push({ filter, orderBy, first, resolve, reject });
    if (waiting.length === 1) setTimeout(flushFirstPages, 0);
  });
}

function flushFirstPages() {
  const all = waiting;
  waiting = [];
  for (let i = 0; i < all.length; i += ALIASES_PER_REQUEST)
    void sendFirstPages(all.slice(i, i + ALIASES_PER_REQUEST));
}

async function sendFirstPages(batch: FirstPageRequest[]) {
  // Built here because the number of aliases varies; the row selection is the typed fragment's.
  const vars: Record<string, unknown> = {};
  const decls: string[] = [];
  const fields: string[] = [];
  batch.forEach((r, i) => {
    decls.push(`$f${i}: IssueFilter, $o${i}: PaginationOrderBy, $n${i}: Int`);
    fields.push(
      `l${i}: issues(first: $n${i}, filter: $f${i}, orderBy: $o${i}) { nodes { ...IssueRow } pageInfo { hasNextPage endCursor } }`,
    );
    Object.assign(vars, { [`f${i}`]: r.filter, [`o${i}`]: r.orderBy, [`n${i}`]: r.first });
  });
  const doc = new TypedDocumentString<Record<string, Connection>, Record<string, unknown>>(
    `query IssueListPages(${decls.join(', ')}) { ${fields.join(' ')} }\n${rowFragment}`,
  );
  try {
    const d = await gql(doc, vars);
    batch.forEach((r, i) => {
      const c = d[`l${i}`];
      if (c) r.resolve(c);
      else r.reject(new Error('The list was missing from the answer.'));
    });
  } catch (e) {
    for (const r of batch) r.reject(e);
  }
}
/** The fragment's text, as codegen emits it with every document that spreads it. */
const rowFragment = IssueList.toString().slice(IssueList.toString().indexOf('fragment IssueRow'));

interface CountRequest {
  filter: IssueFilter;
  resolve: (n: number) => void;
  reject: (e: unknown) => void;
}
let counting: CountRequest[] = [];

/**
 * How many issues match: counts asked for in the same tick (a list's groups,
 * a board's columns) go as one request, one statement on the server, each the
 * count the REST list's `pageInfo.total` would give.
 */
export function countIssues(filter: IssueFilter): Promise<number> {
  return new Promise((resolve, reject) => {
    counting.push({ filter, resolve, reject });
    if (counting.length === 1) setTimeout(flushCounts, 0);
  });
}

function flushCounts() {
  const all = counting;
  counting = [];
  for (let i = 0; i < all.length; i += MAX_COUNTED_LISTS) {
    const batch = all.slice(i, i + MAX_COUNTED_LISTS);
    ok(rest.POST('/api/issues/counts', { body: { filters: batch.map((r) => r.filter) } })).then(
      ({ counts }) => {
        for (const [j, r] of batch.entries()) r.resolve(counts[j] ?? 0);
      },
      (e) => {
        for (const r of batch) r.reject(e);
      },
    );
  }
}

/** A list read (again): as many rows as it had loaded, at least a first page of `first` rows. */
async function readList(filter: IssueFilter, orderBy: PaginationOrderBy, first: number): Promise<Listed> {
  const had = queryClient.getQueryData<Listed>(keys.issues.list(filter, orderBy))?.issues.length ?? 0;
  // The count goes beside the page rather than after it: one round trip for a whole screen.
  const counted = countIssues(filter);
  counted.catch(() => undefined);
  const c = await firstPage(filter, orderBy, Math.min(MAX_PAGE, Math.max(first, had)));
  const issues = c.nodes.map(fromNode);
  const more = c.pageInfo.hasNextPage;
  return {
    issues,
    after: c.pageInfo.endCursor ?? null,
    more,
    // A list that fits its first page counts itself.
    total: more ? Math.max(await counted, issues.length) : issues.length,
    countedAt: Date.now(),
  };
}

/** Starts reading lists a screen is about to show (the same reads, cached under the same keys). */
export function readIssueListsAhead(
  filters: IssueFilter[],
  orderBy: PaginationOrderBy,
  firstOf: (index: number) => number = screenEach,
) {
  for (const [index, filter] of filters.entries())
    void queryClient.prefetchQuery({
      queryKey: keys.issues.list(filter, orderBy),
      queryFn: () => readList(filter, orderBy, firstOf(index)),
      staleTime: LIST_FRESH_MS,
      gcTime: LIST_KEEP_MS,
    });
}

/**
 * The lists (groups, columns) a screen shows, each read on its own and kept current; `firstOf`
 * gives the first page of the list at an index (groupFirstPage for a list's groups).
 */
export function useIssueLists(
  filters: IssueFilter[],
  orderBy: PaginationOrderBy,
  enabled: boolean,
  firstOf: (index: number) => number = screenEach,
) {
  return useQueries({
    queries: filters.map((filter, index) => ({
      queryKey: keys.issues.list(filter, orderBy),
      queryFn: () => readList(filter, orderBy, firstOf(index)),
      enabled,
      staleTime: LIST_FRESH_MS,
      gcTime: LIST_KEEP_MS,
      refetchOnWindowFocus: false,
    })),
    // One value that changes only when a list's data does (structurally shared), for the screens' memos.
    combine: (results) => ({
      datas: results.map((r) => r.data),
      loaded: results.every((r) => r.data),
      error: results.find((r) => r.error)?.error ?? null,
    }),
  });
}

const loadingMore = new Set<string>();

/** Reads the next page of a list, when the person has scrolled to the end of what is loaded. */
export async function loadMore(filter: IssueFilter, orderBy: PaginationOrderBy) {
  const key = keys.issues.list(filter, orderBy);
  const id = JSON.stringify(key);
  const had = queryClient.getQueryData<Listed>(key);
  if (!had?.more || loadingMore.has(id)) return;
  loadingMore.add(id);
  try {
    const c = (await gql(IssueList, { first: NEXT_PAGE, after: had.after, filter, orderBy })).issues;
    queryClient.setQueryData<Listed>(key, (now) => {
      // Read again meanwhile (a new cursor): this page belongs to the old reading.
      if (!now || now.after !== had.after) return now;
      const known = new Set(now.issues.map((i) => i.id));
      return {
        ...now,
        issues: [...now.issues, ...c.nodes.map(fromNode).filter((i) => !known.has(i.id))],
        after: c.pageInfo.endCursor ?? now.after,
        more: c.pageInfo.hasNextPage,
      };
    });
  } finally {
    loadingMore.delete(id);
  }
}

// ---------- blocked markers ----------

const Blocked = graphql(`
  query BlockedIssues($first: Int, $after: String, $filter: IssueFilter) {
    issues(first: $first, after: $after, filter: $filter) {
      nodes { id inverseRelations(first: 20) { nodes { type issue { id state { type } } } } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);
/** 25 issues with 20 inverse relations each: about 1,100 points a request. */
const BLOCKED_PAGE = 25;

export interface BlockedSet {
  /** Issues waiting on an unresolved blocker. */
  blocked: Set<string>;
  /** Every blocker seen: a change to one of them is the only issue change that can move a marker. */
  blockers: Set<string>;
}

/**
 * The issues matching `filter` that wait on an unresolved blocker. The server
 * narrows to issues with any blocker, so this reads only those, beside the
 * list: a page of the list never pays for relations.
 */
export function useBlockedIds(filter: IssueFilter, enabled: boolean) {
  return useQuery({
    queryKey: keys.issues.blocked(filter),
    enabled,
    staleTime: LIST_FRESH_MS,
    refetchOnWindowFocus: false,
    queryFn: async (): Promise<BlockedSet> => {
      const out: BlockedSet = { blocked: new Set(), blockers: new Set() };
      let after: string | null = null;
      for (;;) {
        const d: BlockedIssuesQuery = await gql(Blocked, {
          first: BLOCKED_PAGE,
          after,
          filter: { and: [filter, { hasBlockedByRelations: { eq: true } }] },
        });
        for (const n of d.issues.nodes) {
          for (const r of n.inverseRelations.nodes) {
            if (r.type !== 'blocks') continue;
            out.blockers.add(r.issue.id);
            if (!DONE_TYPES.has(r.issue.state.type)) out.blocked.add(n.id);
          }
        }
        if (!d.issues.pageInfo.hasNextPage || !d.issues.pageInfo.endCursor) return out;
        after = d.issues.pageInfo.endCursor;
      }
    },
  });
}

/** Blocked markers that depend on one of these issues (as a blocker) are read again. */
export function refreshBlockedBy(ids: Iterable<string>) {
  const changed = new Set(ids);
  void queryClient.invalidateQueries({
    queryKey: keys.issues.allBlocked,
    predicate: (q) => {
      const d = q.state.data as BlockedSet | undefined;
      return !d || [...changed].some((id) => d.blockers.has(id));
    },
  });
}

// ---------- putting changes in place ----------

type Snapshot = [readonly unknown[], Listed | undefined][];

export const snapshotLists = (): Snapshot =>
  queryClient.getQueriesData<Listed>({ queryKey: keys.issues.lists });
export const restoreLists = (s: Snapshot) => {
  for (const [key, data] of s) queryClient.setQueryData(key, data);
};

/** The issue as some cached list has it now, if any does. */
export function cachedIssue(id: string): Issue | undefined {
  for (const [, data] of snapshotLists()) {
    const found = data?.issues.find((i) => i.id === id);
    if (found) return found;
  }
  return undefined;
}

const before = (orderBy: PaginationOrderBy) => (a: Issue, b: Issue) => {
  const ka = orderBy === 'createdAt' ? a.createdAt : a.updatedAt;
  const kb = orderBy === 'createdAt' ? b.createdAt : b.updatedAt;
  return ka !== kb ? ka > kb : a.id > b.id;
};

export interface Placement {
  id: string;
  /** The issue now; null when it is gone (deleted, archived, out of the reader's sight). */
  now: Issue | null;
  /** What it was: an Issue, null when it did not exist (just created), undefined when unknown. */
  was: Issue | null | undefined;
}

/**
 * Puts each change where it belongs in every cached list: replaced, moved,
 * inserted at its place in the loaded rows (or left to a later page when it
 * sorts after them), or removed; totals follow. A list whose filter cannot be
 * judged here is read again, and a total that cannot be known (an issue never
 * loaded may have matched before) is counted again: both cheap and rare.
 */
export function placeIssues(changes: Placement[]) {
  const reread: (readonly unknown[])[] = [];
  const recount: { key: readonly unknown[]; filter: IssueFilter }[] = [];
  for (const [key, data] of snapshotLists()) {
    if (!data) continue;
    const filter = key[2] as IssueFilter;
    const orderBy = key[3] as PaginationOrderBy;
    let issues = data.issues;
    let total = data.total;
    let unknownTotal = false;
    let cannotTell = false;
    const settling = data.more && Date.now() - data.countedAt < COUNT_SETTLE_MS;
    for (const c of changes) {
      const at = issues.findIndex((i) => i.id === c.id);
      const matchesNow = c.now ? matchesFilter(filter, c.now) : false;
      const matchedBefore =
        at >= 0
          ? true
          : c.was === null
            ? false
            : c.was
              ? matchesFilter(filter, c.was)
              : data.more
                ? undefined
                : false;
      if (matchesNow === undefined) {
        cannotTell = true;
        break;
      }
      if (at >= 0) issues = issues.filter((_, i) => i !== at);
      if (matchesNow && c.now) {
        const now = c.now;
        const pos = issues.findIndex((i) => before(orderBy)(now, i));
        // After every loaded row: it belongs to a page not read yet, unless the list is complete.
        if (pos >= 0) issues = [...issues.slice(0, pos), now, ...issues.slice(pos)];
        else if (!data.more) issues = [...issues, now];
      }
      const delta = matchedBefore === undefined ? undefined : (matchesNow ? 1 : 0) - (matchedBefore ? 1 : 0);
      if (delta === undefined || (delta !== 0 && settling)) unknownTotal = true;
      else total += delta;
    }
    if (cannotTell) {
      reread.push(key);
      continue;
    }
    // A count about to be taken settles from now: a change placed before its answer is counted again.
    const countedAt = unknownTotal ? Date.now() : data.countedAt;
    if (issues !== data.issues || total !== data.total || unknownTotal)
      queryClient.setQueryData<Listed>(key, {
        ...data,
        issues,
        total: Math.max(total, issues.length),
        countedAt,
      });
    if (unknownTotal) recount.push({ key, filter });
  }
  for (const key of reread) void queryClient.invalidateQueries({ queryKey: key, exact: true });
  for (const { key, filter } of recount)
    void countIssues(filter)
      .then((total) =>
        queryClient.setQueryData<Listed>(key, (d) =>
          d ? { ...d, total: Math.max(total, d.issues.length), countedAt: Date.now() } : d,
        ),
      )
      .catch(() => undefined);
}
