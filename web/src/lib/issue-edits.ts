// The quick edits the keyboard, the right-click menu and the command menu make
// on the issues in hand: what each offers, and how a choice is written. Every
// edit shows at once in every cached list and on an open issue page, and is put
// back if the server refuses (lib/issues.ts updateIssue / updateIssues).
import { type Issue, type IssueUpdateInput, type LocalPatch, updateIssue, updateIssues } from './issues';
import { queryClient } from './query';
import { keys } from './query-keys';

export { type Choice, changeFor, choices, EDIT_TITLES, type EditKind } from './issue-edit-choices';

type Detail = {
  id: string;
  state: { id: string };
  assignee: { id: string } | null;
  project: { id: string } | null;
  cycle: { id: string } | null;
  projectMilestone?: { id: string } | null;
  priority: number;
  labelIds: string[];
};

/** The open issue page's copy, changed as a row would be. */
function detailPatch(d: Detail, row: Partial<Issue>): Detail {
  const ref = (id: string | null | undefined) => (id ? { id } : null);
  return {
    ...d,
    ...(row.stateId !== undefined && { state: { id: row.stateId } }),
    ...(row.assigneeId !== undefined && { assignee: ref(row.assigneeId) }),
    ...(row.projectId !== undefined && { project: ref(row.projectId), projectMilestone: null }),
    ...(row.cycleId !== undefined && { cycle: ref(row.cycleId) }),
    ...(row.priority !== undefined && { priority: row.priority }),
    ...(row.labelIds !== undefined && { labelIds: row.labelIds }),
  };
}

/**
 * Writes one change to these issues: one issueUpdate for one issue, batches
 * (issueBatchUpdate) for more. Shown at once in the lists and on an open
 * issue page; all of it put back if the server refuses.
 */
export async function editIssues(issues: readonly Issue[], input: IssueUpdateInput, local: LocalPatch) {
  const ids = new Set(issues.map((i) => i.id));
  const rowOf = new Map(issues.map((i) => [i.id, i]));
  await queryClient.cancelQueries({ queryKey: keys.issues.details });
  const pages = queryClient
    .getQueriesData<Detail | null>({ queryKey: keys.issues.details })
    .filter(([, d]) => d && ids.has(d.id));
  for (const [key, d] of pages) {
    const row = rowOf.get(d!.id)!;
    queryClient.setQueryData(key, detailPatch(d!, typeof local === 'function' ? local(row) : local));
  }
  try {
    const one = issues.length === 1 ? issues[0] : undefined;
    if (one) await updateIssue(one.id, input, local);
    else await updateIssues([...ids], input, local);
  } catch (e) {
    for (const [key, d] of pages) queryClient.setQueryData(key, d);
    throw e;
  }
}

/** An issue page's data as a list row, so the same edits apply to it. */
export function rowOfDetail(d: {
  id: string;
  identifier: string;
  title: string;
  priority: number;
  estimate?: number | null;
  dueDate?: string | null;
  createdAt: string;
  state: { id: string };
  team: { id: string };
  assignee: { id: string } | null;
  project: { id: string } | null;
  cycle: { id: string } | null;
  labelIds: string[];
}): Issue {
  return {
    id: d.id,
    identifier: d.identifier,
    title: d.title,
    priority: d.priority,
    estimate: d.estimate ?? null,
    dueDate: d.dueDate ?? null,
    createdAt: d.createdAt,
    updatedAt: d.createdAt,
    stateId: d.state.id,
    teamId: d.team.id,
    assigneeId: d.assignee?.id ?? null,
    projectId: d.project?.id ?? null,
    cycleId: d.cycle?.id ?? null,
    labelIds: d.labelIds,
  };
}
