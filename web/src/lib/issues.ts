// Issues: the row a list shows, a view's filters as an IssueFilter, and
// mutations that show their effect at once in every cached list (put in place
// by lib/issue-pages.ts, never by reading the lists again) and roll it back if
// the server refuses.

import type { PullRequestMarker } from '../../../src/modules/git/fields';
import { graphql } from '../gql';
import type { IssueCreateInput, IssueFilter, IssueUpdateInput } from '../gql/graphql';
import { gql } from './api';
import { decodeFilters, type Filter, filtersToIssueFilter, fromSingleValues, uniqueFilters } from './filters';
import {
  cachedIssue,
  fromNode,
  type Placement,
  placeIssues,
  refreshBlockedBy,
  restoreLists,
  snapshotLists,
} from './issue-pages';
import { invalidate, queryClient } from './query';
import { keys } from './query-keys';
import type { View } from './view';
import { isQueued } from './write-queue';

export type { PullRequestMarker };

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
  /** Its linked pull requests in short (the list's read); absent on a row made here before the server answered. */
  pullRequestMarker?: PullRequestMarker | null;
  /** Waits on a blocking issue that is neither completed nor canceled. */
  blocked?: boolean;
  /** Created here and not yet answered by the server: shown at once, not yet openable. */
  sending?: boolean;
}

export { PRIORITIES, priorityLabel } from '../../../src/modules/issues/priorities';

/**
 * A view's filters as a GraphQL IssueFilter; `me` stands for the viewer. The
 * single-value keys (a page's fixed filters, the team) and the builder's
 * filters are one list of filters (lib/filters.ts).
 */
export function toIssueFilter(v: View, viewerId: string | undefined): IssueFilter {
  const filters: Filter[] = uniqueFilters([
    ...(v.team ? [{ field: 'team' as const, op: 'is' as const, values: [v.team] }] : []),
    ...fromSingleValues(v),
    ...decodeFilters(v.f),
  ]);
  const f = filtersToIssueFilter(filters, viewerId) as IssueFilter;
  const q = v.q?.trim();
  if (!q) return f;
  return f.or ? { and: [f, { or: searchFilters(q) }] } : { ...f, or: searchFilters(q) };
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

// ---------- mutations ----------

/** After a change whose effect on lists cannot be computed here (a relation made an issue a duplicate). */
export function refreshIssues() {
  void invalidate(keys.issues.all);
  void invalidate(keys.cycles.all);
  void invalidate(keys.projects.all);
}

/** The issue's own page, activity and sub-issues: what shows one issue rather than a list. */
export function refreshIssuePages(ids: Iterable<string>, kinds = ['detail', 'history', 'children']) {
  const wanted = new Set(ids);
  void queryClient.invalidateQueries({
    predicate: (q) => {
      const [root, kind, id] = q.queryKey as unknown[];
      if (root !== keys.issues.all[0] || !kinds.includes(String(kind))) return false;
      if (wanted.has(String(id))) return true;
      // Sub-issues are listed under their parent's id; one that changed (or left) is in the list.
      if (kind === 'children')
        return (
          (q.state.data as { children?: { id: string }[] } | undefined)?.children?.some((n) =>
            wanted.has(n.id),
          ) ?? true
        );
      const d = q.state.data as { id?: string; identifier?: string } | undefined | null;
      return d ? wanted.has(d.id ?? '') || wanted.has(d.identifier ?? '') : false;
    },
  });
}

const IssueNodes = graphql(`
  query IssueNodes($ids: [ID!]!, $first: Int) {
    issues(first: $first, filter: { id: { in: $ids } }) { nodes { ...IssueRow parent { id } } }
  }
`);
/** The server's largest page. */
const NODES_PAGE = 250;

/**
 * Reads these issues (changed elsewhere, or just created here) and puts each
 * where it belongs in every cached list; one missing from the answer is gone
 * from the reader's sight and leaves every list. `created` are new: they were
 * in no list before.
 */
export async function placeChanged(
  ids: string[],
  created: ReadonlySet<string> = new Set(),
): Promise<string[]> {
  const parents: string[] = [];
  for (let i = 0; i < ids.length; i += NODES_PAGE) {
    const chunk = ids.slice(i, i + NODES_PAGE);
    // `first` as small as the answer can be: the cost is priced on it.
    const nodes = (await gql(IssueNodes, { ids: chunk, first: chunk.length })).issues.nodes;
    const fresh = new Map(nodes.map((n) => [n.id, fromNode(n)]));
    for (const n of nodes) if (n.parent) parents.push(n.parent.id);
    placeIssues(
      chunk.map(
        (id): Placement => ({
          id,
          now: fresh.get(id) ?? null,
          was: created.has(id) ? null : cachedIssue(id),
        }),
      ),
    );
    refreshBlockedBy(chunk);
  }
  return parents;
}

const CreateIssue = graphql(`
  mutation CreateIssue($input: IssueCreateInput!) {
    issueCreate(input: $input) { success issue { id identifier } }
  }
`);

export type { IssueCreateInput, IssueUpdateInput };

/** How the fields of an edit are named to a person (the offline status lists waiting edits by them). */
const FIELD_WORDS: Record<string, string> = {
  stateId: 'status',
  assigneeId: 'assignee',
  priority: 'priority',
  labelIds: 'labels',
  addedLabelIds: 'labels',
  removedLabelIds: 'labels',
  projectId: 'project',
  projectMilestoneId: 'milestone',
  cycleId: 'cycle',
  dueDate: 'due date',
  estimate: 'estimate',
  title: 'title',
  description: 'description',
  parentId: 'parent',
};

/** The identifier (ENG-3) of an issue the page has cached, in a list or on its page. */
export function identifierOf(id: string): string | undefined {
  const row = cachedIssue(id);
  if (row) return row.identifier;
  for (const [, d] of queryClient.getQueriesData<{ id?: string; identifier?: string } | null>({
    queryKey: keys.issues.details,
  }))
    if (d?.id === id && d.identifier) return d.identifier;
  return undefined;
}

/** "ENG-3: status, priority": an edit as the offline status lists it. */
export function editLabel(ids: readonly string[], input: IssueUpdateInput): string {
  const fields = [...new Set(Object.keys(input).map((k) => FIELD_WORDS[k] ?? k))].join(', ');
  const first = ids[0] ? (identifierOf(ids[0]) ?? 'an issue') : 'an issue';
  const who = ids.length > 1 ? `${ids.length} issues` : first;
  return `${who}: ${fields}`;
}

/**
 * Creates an issue. Its id is chosen here, before sending: the draft row and
 * the saved issue share it, and a create sent again (write-queue.ts, when its
 * answer was lost) answers the issue it made rather than making a second one.
 * `draft` is how it looks in a list until the server answers: it shows at
 * once, marked as sending, wherever it belongs, and is replaced by the saved
 * issue when the answer comes (or goes if refused).
 */
export async function createIssue(input: IssueCreateInput, draft?: Omit<Issue, 'id' | 'sending'>) {
  const id = input.id ?? crypto.randomUUID();
  const placeholder = draft ? { ...draft, id, sending: true } : undefined;
  if (placeholder) placeIssues([{ id, now: placeholder, was: null }]);
  const gone = () => placeholder && placeIssues([{ id, now: null, was: placeholder }]);
  let issue: { id: string; identifier: string };
  try {
    issue = (await gql(CreateIssue, { input: { ...input, id } }, { offline: `New issue: ${input.title}` }))
      .issueCreate.issue!;
  } catch (e) {
    // Kept to send later: the draft stays in the lists, marked as sending, until then.
    if (!isQueued(e)) gone();
    throw e;
  }
  // Shown in this person's lists at once in place of the draft, which is what was there before
  // (the change stream would bring it a moment later); if it cannot be read now, the draft goes.
  void placeChanged([issue.id], placeholder ? undefined : new Set([issue.id])).catch(() => gone());
  if (input.parentId) refreshIssuePages([input.parentId], ['children']);
  return issue;
}

const UpdateIssue = graphql(`
  mutation UpdateIssue($id: String!, $input: IssueUpdateInput!) {
    issueUpdate(id: $id, input: $input) { success }
  }
`);

/** How a change looks on a row: the same for every row, or worked out per row (labels added to each). */
export type LocalPatch = Partial<Issue> | ((was: Issue) => Partial<Issue>);

/** Shows `patch` in every cached list (moving rows between groups and columns); returns what to put back. */
function patchLists(ids: readonly string[], patch: LocalPatch) {
  const before = snapshotLists();
  const changes: Placement[] = [];
  for (const id of ids) {
    const was = cachedIssue(id);
    if (was)
      changes.push({ id, was, now: { ...was, ...(typeof patch === 'function' ? patch(was) : patch) } });
  }
  placeIssues(changes);
  return before;
}

/**
 * Changes an issue. `local` is how the change looks in a list row: it shows at
 * once everywhere the issue is listed and is put back if the server refuses.
 * The change stream then brings the saved row (with its new `updatedAt`).
 */
export async function updateIssue(id: string, input: IssueUpdateInput, local?: LocalPatch) {
  await queryClient.cancelQueries({ queryKey: keys.issues.lists });
  const before = local ? patchLists([id], local) : [];
  try {
    await gql(UpdateIssue, { id, input }, { offline: editLabel([id], input) });
  } catch (e) {
    // A write kept to send later is shown as made until the server answers it.
    if (isQueued(e)) return;
    restoreLists(before);
    throw e;
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
 * the saved ones read again, so what shows is what was saved.
 */
export async function updateIssues(ids: string[], input: IssueUpdateInput, local?: LocalPatch) {
  await queryClient.cancelQueries({ queryKey: keys.issues.lists });
  const before = local ? patchLists(ids, local) : [];
  let saved = 0;
  const offline = editLabel(ids, input);
  try {
    for (; saved < ids.length; saved += BATCH)
      await gql(UpdateIssues, { ids: ids.slice(saved, saved + BATCH), input }, { offline });
  } catch (e) {
    // Kept to send later (this batch and, in order behind it, the rest): shown as made meanwhile.
    if (isQueued(e)) {
      for (saved += BATCH; saved < ids.length; saved += BATCH)
        await gql(UpdateIssues, { ids: ids.slice(saved, saved + BATCH), input }, { offline }).catch(
          () => undefined,
        );
      return;
    }
    restoreLists(before);
    if (saved > 0) void placeChanged(ids.slice(0, saved)).catch(() => undefined);
    throw e;
  }
}

const DeleteIssue = graphql(`
  mutation DeleteIssue($id: String!) {
    issueDelete(id: $id) { success }
  }
`);
export async function deleteIssue(id: string) {
  await gql(DeleteIssue, { id });
  placeIssues([{ id, now: null, was: cachedIssue(id) }]);
}
