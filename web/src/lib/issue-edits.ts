// The quick edits the keyboard, the right-click menu and the command menu make
// on the issues in hand: what each offers, and how a choice is written. Every
// edit shows at once in every cached list and on an open issue page, and is put
// back if the server refuses (lib/issues.ts updateIssue / updateIssues).
import {
  type Issue,
  type IssueUpdateInput,
  type LocalPatch,
  PRIORITIES,
  updateIssue,
  updateIssues,
} from './issues';
import { queryClient } from './query';
import { keys } from './query-keys';
import { type CycleRef, cycleName, labelsFor, type ProjectRef, type Ref } from './ref';

export type EditKind = 'status' | 'assignee' | 'priority' | 'labels' | 'project' | 'cycle';

export const EDIT_TITLES: Record<EditKind, string> = {
  status: 'Change status',
  assignee: 'Assign to',
  priority: 'Set priority',
  labels: 'Labels',
  project: 'Move to project',
  cycle: 'Move to cycle',
};

export interface Choice {
  value: string;
  label: string;
  /** For labels: whether every issue in hand has it (a choice then removes it). */
  checked?: boolean;
  /** The current value of every issue in hand. */
  current?: boolean;
  color?: string;
}

// Ids are UUIDs, so this word cannot be one.
const NONE = 'none';
const orNull = (v: string) => (v === NONE ? null : v);
const oneTeam = (issues: readonly Issue[]) => {
  const teams = new Set(issues.map((i) => i.teamId));
  return teams.size === 1 ? [...teams][0] : undefined;
};
const allAre = (issues: readonly Issue[], has: (i: Issue) => boolean) =>
  issues.length > 0 && issues.every(has);

/** What a menu of this kind offers for these issues; states and cycles only when they share a team. */
export function choices(
  kind: EditKind,
  issues: readonly Issue[],
  ref: Ref,
  extra: { projects?: ProjectRef[]; cycles?: CycleRef[] } = {},
): Choice[] {
  const team = oneTeam(issues);
  switch (kind) {
    case 'status':
      return (team ? (ref.teamById.get(team)?.states ?? []) : []).map((s) => ({
        value: s.id,
        label: s.name,
        color: s.color,
        current: allAre(issues, (i) => i.stateId === s.id),
      }));
    case 'assignee': {
      const me = ref.personById.get(ref.viewerId);
      const people = me ? [me, ...ref.people.filter((p) => p.id !== me.id)] : ref.people;
      return [
        { value: NONE, label: 'No assignee', current: allAre(issues, (i) => !i.assigneeId) },
        ...people.map((p) => ({
          value: p.id,
          label: p.id === ref.viewerId ? `${p.name} (me)` : p.name,
          current: allAre(issues, (i) => i.assigneeId === p.id),
        })),
      ];
    }
    case 'priority':
      return PRIORITIES.map((p) => ({
        value: String(p.value),
        label: p.label,
        current: allAre(issues, (i) => i.priority === p.value),
      }));
    case 'labels':
      return labelsFor(
        ref,
        issues.map((i) => i.teamId),
      ).map((l) => ({
        value: l.id,
        label: l.name,
        color: l.color,
        checked: allAre(issues, (i) => i.labelIds.includes(l.id)),
      }));
    case 'project':
      return [
        { value: NONE, label: 'No project', current: allAre(issues, (i) => !i.projectId) },
        ...(extra.projects ?? []).map((p) => ({
          value: p.id,
          label: p.name,
          current: allAre(issues, (i) => i.projectId === p.id),
        })),
      ];
    case 'cycle':
      return team
        ? [
            { value: NONE, label: 'No cycle', current: allAre(issues, (i) => !i.cycleId) },
            ...(extra.cycles ?? [])
              .filter((c) => c.teamId === team && (c.isActive || c.isFuture))
              .map((c) => ({
                value: c.id,
                label: cycleName(c),
                current: allAre(issues, (i) => i.cycleId === c.id),
              })),
          ]
        : [];
  }
}

/** The write a choice makes, and how it looks on a row. */
export function changeFor(
  kind: EditKind,
  choice: Choice,
  issues: readonly Issue[],
): { input: IssueUpdateInput; local: LocalPatch } {
  const v = choice.value;
  switch (kind) {
    case 'status':
      return { input: { stateId: v }, local: { stateId: v } };
    case 'assignee':
      return { input: { assigneeId: orNull(v) }, local: { assigneeId: orNull(v) } };
    case 'priority':
      return { input: { priority: Number(v) }, local: { priority: Number(v) } };
    case 'project':
      return { input: { projectId: orNull(v) }, local: { projectId: orNull(v) } };
    case 'cycle':
      return { input: { cycleId: orNull(v) }, local: { cycleId: orNull(v) } };
    case 'labels': {
      // A label all of them have comes off; otherwise it goes on those without it.
      const remove = choice.checked ?? false;
      const local = (i: Issue) => ({
        labelIds: remove ? i.labelIds.filter((l) => l !== v) : [...new Set([...i.labelIds, v])],
      });
      const one = issues.length === 1 ? issues[0] : undefined;
      return {
        input: one
          ? { labelIds: local(one).labelIds }
          : remove
            ? { removedLabelIds: [v] }
            : { addedLabelIds: [v] },
        local,
      };
    }
  }
}

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
