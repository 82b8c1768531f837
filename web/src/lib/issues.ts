// Issues through GraphQL and the query cache: whole lists loaded page by page
// (the list and board group and sort them on the client), and mutations that
// show their effect at once and roll it back if the server refuses.
import { type InfiniteData, keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { graphql } from '../gql';
import type {
  BlockedIssuesQuery,
  IssueCreateInput,
  IssueFilter,
  IssueListQuery,
  IssueUpdateInput,
  PaginationOrderBy,
} from '../gql/graphql';
import { gql } from './api';
import { invalidate, queryClient } from './query';
import type { View } from './view';

export interface Issue {
  id: string;
  identifier: string;
  title: string;
  priority: number;
  estimate: number | null;
  dueDate: string | null;
  createdAt: string;
  updatedAt: string;
  stateId: string;
  teamId: string;
  assigneeId: string | null;
  projectId: string | null;
  cycleId: string | null;
  labelIds: string[];
  /** Waits on a blocking issue that is neither completed nor canceled. */
  blocked?: boolean;
}

export const PRIORITIES = [
  { value: 0, label: 'No priority' },
  { value: 1, label: 'Urgent' },
  { value: 2, label: 'High' },
  { value: 3, label: 'Medium' },
  { value: 4, label: 'Low' },
];
export const priorityLabel = (p: number) => PRIORITIES.find((x) => x.value === p)?.label ?? 'No priority';

const IssueList = graphql(`
  query IssueList($first: Int, $after: String, $filter: IssueFilter, $orderBy: PaginationOrderBy) {
    issues(first: $first, after: $after, filter: $filter, orderBy: $orderBy) {
      nodes {
        id identifier title priority estimate dueDate createdAt updatedAt
        state { id } team { id } assignee { id } project { id } cycle { id }
        labels(first: 20) { nodes { id } }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
`);
type Page = IssueListQuery;
type Node = Page['issues']['nodes'][number];

const fromNode = (i: Node): Issue => ({
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
  labelIds: i.labels.nodes.map((l) => l.id),
});

/** A view's filters as a GraphQL IssueFilter; `me` stands for the viewer. */
export function toIssueFilter(v: View, viewerId: string | undefined): IssueFilter {
  const f: IssueFilter = {};
  if (v.team) f.team = { id: { eq: v.team } };
  if (v.state) f.state = { id: { eq: v.state } };
  if (v.assignee === 'none') f.assignee = { null: true };
  else if (v.assignee) f.assignee = { id: { eq: v.assignee === 'me' ? (viewerId ?? '') : v.assignee } };
  if (v.label) f.labels = { some: { id: { eq: v.label } } };
  if (v.priority && /^[0-4]$/.test(v.priority)) f.priority = { eq: Number(v.priority) };
  if (v.project === 'none') f.project = { null: true };
  else if (v.project) f.project = { id: { eq: v.project } };
  if (v.cycle === 'none') f.cycle = { null: true };
  else if (v.cycle) f.cycle = { id: { eq: v.cycle } };
  const q = v.q?.trim();
  if (q) f.or = searchFilters(q);
  return f;
}

/**
 * The server's one full-text search (word prefixes in the title and
 * description, accent- and case-folded), or the issue an identifier names.
 */
export function searchFilters(q: string): IssueFilter[] {
  const id = /^([a-z][a-z0-9]*)-(\d+)$/i.exec(q);
  return [
    { searchableContent: { contains: q } },
    ...(id ? [{ team: { key: { eq: id[1]!.toUpperCase() } }, number: { eq: Number(id[2]) } }] : []),
  ];
}

const PAGE = 250;
const listKey = (filter: IssueFilter, orderBy: PaginationOrderBy) => ['issues', 'list', filter, orderBy];

/** Every issue matching `filter`: the first page shows at once, the rest follow by themselves. */
export function useIssueList(filter: IssueFilter, orderBy: PaginationOrderBy, enabled = true) {
  const q = useInfiniteQuery({
    queryKey: listKey(filter, orderBy),
    queryFn: ({ pageParam }) => gql(IssueList, { first: PAGE, after: pageParam, filter, orderBy }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.issues.pageInfo.hasNextPage ? last.issues.pageInfo.endCursor : null),
    // A new filter keeps the old list on screen until its first page arrives.
    placeholderData: keepPreviousData,
    enabled,
  });
  const { hasNextPage, isFetchingNextPage, isError, fetchNextPage } = q;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, isError, fetchNextPage]);
  const blocked = useBlockedIds(filter, enabled);
  const issues = useMemo(
    () =>
      q.data?.pages.flatMap((p) =>
        p.issues.nodes.map((n) => ({ ...fromNode(n), blocked: blocked.data?.has(n.id) ?? false })),
      ),
    [q.data, blocked.data],
  );
  return { issues, done: !hasNextPage && !q.isFetching, error: q.error, isLoading: q.isLoading };
}

const Blocked = graphql(`
  query BlockedIssues($first: Int, $after: String, $filter: IssueFilter) {
    issues(first: $first, after: $after, filter: $filter) {
      nodes { id inverseRelations(first: 50) { nodes { type issue { state { type } } } } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);
/** Blocked issues per request: with 50 inverse relations each, this stays under the query cost limit. */
const BLOCKED_PAGE = 50;
const DONE_TYPES = new Set(['completed', 'canceled']);

/**
 * Ids of the issues matching `filter` that wait on an unresolved blocker. The
 * server narrows to issues with any blocker, so this reads only those, beside
 * the list: a page of the list never pays for relations.
 */
function useBlockedIds(filter: IssueFilter, enabled: boolean) {
  return useQuery({
    queryKey: ['issues', 'blocked', filter],
    enabled,
    queryFn: async () => {
      const ids = new Set<string>();
      let after: string | null = null;
      for (;;) {
        const d: BlockedIssuesQuery = await gql(Blocked, {
          first: BLOCKED_PAGE,
          after,
          filter: { and: [filter, { hasBlockedByRelations: { eq: true } }] },
        });
        for (const n of d.issues.nodes) {
          if (
            n.inverseRelations.nodes.some((r) => r.type === 'blocks' && !DONE_TYPES.has(r.issue.state.type))
          )
            ids.add(n.id);
        }
        if (!d.issues.pageInfo.hasNextPage || !d.issues.pageInfo.endCursor) return ids;
        after = d.issues.pageInfo.endCursor;
      }
    },
  });
}

// ---------- mutations ----------

/** After any change to issues: lists, pages and the counts shown on projects and cycles. */
export function refreshIssues() {
  void invalidate('issues');
  void invalidate('cycles');
  void invalidate('projects');
}

const CreateIssue = graphql(`
  mutation CreateIssue($input: IssueCreateInput!) {
    issueCreate(input: $input) { success issue { id identifier } }
  }
`);

export type { IssueCreateInput, IssueUpdateInput };

export async function createIssue(input: IssueCreateInput) {
  const d = await gql(CreateIssue, { input });
  refreshIssues();
  return d.issueCreate.issue!;
}

const UpdateIssue = graphql(`
  mutation UpdateIssue($id: String!, $input: IssueUpdateInput!) {
    issueUpdate(id: $id, input: $input) { success }
  }
`);

type Lists = [readonly unknown[], InfiniteData<Page> | undefined][];

/** Replaces rows in every cached list (and board): `next` returns the row to keep. */
function mapListedNodes(next: (n: Node) => Node) {
  queryClient.setQueriesData<InfiniteData<Page>>({ queryKey: ['issues', 'list'] }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((p) => ({ ...p, issues: { ...p.issues, nodes: p.issues.nodes.map(next) } })),
        }
      : data,
  );
}

/** Applies `patch` to the issues in every cached list; returns what to put back. */
function patchLists(ids: ReadonlySet<string>, patch: Partial<Issue>): Lists {
  const before = queryClient.getQueriesData<InfiniteData<Page>>({ queryKey: ['issues', 'list'] });
  mapListedNodes((n) => (ids.has(n.id) ? toNode(n, patch) : n));
  return before;
}

const IssueNodes = graphql(`
  query IssueNodes($ids: [ID!]!) {
    issues(first: 250, filter: { id: { in: $ids } }) {
      nodes {
        id identifier title priority estimate dueDate createdAt updatedAt
        state { id } team { id } assignee { id } project { id } cycle { id }
        labels(first: 20) { nodes { id } }
      }
    }
  }
`);

/**
 * Reads these issues again and puts them in place in every cached list (a
 * change made elsewhere). False when one of them is out of the caller's sight
 * now: then only a fresh list can say where things stand.
 */
export async function refreshListed(ids: string[]): Promise<boolean> {
  const nodes = (await gql(IssueNodes, { ids })).issues.nodes;
  const fresh = new Map(nodes.map((n) => [n.id, n]));
  mapListedNodes((n) => fresh.get(n.id) ?? n);
  return nodes.length === ids.length;
}

const ref = (v: string | null | undefined) => (v ? { id: v } : null);
function toNode(n: Node, p: Partial<Issue>): Node {
  return {
    ...n,
    ...(p.title !== undefined && { title: p.title }),
    ...(p.priority !== undefined && { priority: p.priority }),
    ...(p.estimate !== undefined && { estimate: p.estimate }),
    ...(p.dueDate !== undefined && { dueDate: p.dueDate }),
    ...(p.stateId !== undefined && { state: { id: p.stateId } }),
    ...(p.assigneeId !== undefined && { assignee: ref(p.assigneeId) }),
    ...(p.projectId !== undefined && { project: ref(p.projectId) }),
    ...(p.cycleId !== undefined && { cycle: ref(p.cycleId) }),
    ...(p.labelIds !== undefined && { labels: { nodes: p.labelIds.map((id) => ({ id })) } }),
  };
}

/**
 * Changes an issue. `local` is how the change looks in a list row: it shows at
 * once everywhere the issue is listed and is put back if the server refuses.
 */
export async function updateIssue(id: string, input: IssueUpdateInput, local?: Partial<Issue>) {
  await queryClient.cancelQueries({ queryKey: ['issues', 'list'] });
  const before = local ? patchLists(new Set([id]), local) : [];
  try {
    await gql(UpdateIssue, { id, input });
  } catch (e) {
    for (const [key, data] of before) queryClient.setQueryData(key, data);
    throw e;
  } finally {
    refreshIssues();
  }
}

const UpdateIssues = graphql(`
  mutation UpdateIssues($ids: [UUID!]!, $input: IssueUpdateInput!) {
    issueBatchUpdate(ids: $ids, input: $input) { success }
  }
`);
/** The server's limit on one batch: each batch is one transaction, all or none. */
const BATCH = 50;

/**
 * Applies one change to many issues, shown at once in every list. Batches of 50
 * go one after another; if the server refuses one, every row is put back and
 * the lists reloaded, so what shows is what was saved.
 */
export async function updateIssues(ids: string[], input: IssueUpdateInput, local?: Partial<Issue>) {
  await queryClient.cancelQueries({ queryKey: ['issues', 'list'] });
  const before = local ? patchLists(new Set(ids), local) : [];
  try {
    for (let i = 0; i < ids.length; i += BATCH)
      await gql(UpdateIssues, { ids: ids.slice(i, i + BATCH), input });
  } catch (e) {
    for (const [key, data] of before) queryClient.setQueryData(key, data);
    throw e;
  } finally {
    refreshIssues();
  }
}

const DeleteIssue = graphql(`
  mutation DeleteIssue($id: String!) {
    issueDelete(id: $id) { success }
  }
`);
export async function deleteIssue(id: string) {
  await gql(DeleteIssue, { id });
  refreshIssues();
}
