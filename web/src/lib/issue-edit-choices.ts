// What a quick edit offers and what it writes (issue 26), kept free of the
// app's modules so that the server's tests check it against the server
// (test/web-quick-edits.test.ts). lib/issue-edits.ts writes it.
import { PRIORITIES } from '../../../src/modules/issues/priorities.js';

/** What a quick edit reads of an issue (a list row has all of it). */
export interface EditableIssue {
  id: string;
  teamId: string;
  stateId: string;
  assigneeId: string | null;
  priority: number;
  labelIds: string[];
  projectId: string | null;
  cycleId: string | null;
}
/** What a quick edit reads of the reference data (lib/ref.ts `Ref`). */
export interface EditRef {
  teamById: Map<string, { states: { id: string; name: string; color: string }[] }>;
  people: { id: string; name: string }[];
  personById: Map<string, { id: string; name: string }>;
  labels: { id: string; name: string; color: string; teamId: string | null }[];
  viewerId: string;
}
/** The write, in the API's IssueUpdateInput words. */
export interface EditInput {
  stateId?: string;
  assigneeId?: string | null;
  priority?: number;
  projectId?: string | null;
  cycleId?: string | null;
  labelIds?: string[];
  addedLabelIds?: string[];
  removedLabelIds?: string[];
}
type Row = EditableIssue;
export type RowPatch = Partial<Row> | ((was: Row) => Partial<Row>);

/**
 * The labels issues of these teams may carry: the workspace's, and the team's
 * own when they are all of one team (another team's label is refused).
 */
export const labelsFor = <L extends { teamId: string | null }>(
  ref: { labels: L[] },
  teamIds: Iterable<string>,
) => {
  const teams = new Set(teamIds);
  const only = teams.size === 1 ? [...teams][0] : undefined;
  return ref.labels.filter((l) => l.teamId === null || l.teamId === only);
};

const cycleLabel = (c: { name: string | null; number: number }) => c.name || `Cycle ${c.number}`;

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
const oneTeam = (issues: readonly Row[]) => {
  const teams = new Set(issues.map((i) => i.teamId));
  return teams.size === 1 ? [...teams][0] : undefined;
};
const allAre = (issues: readonly Row[], has: (i: Row) => boolean) => issues.length > 0 && issues.every(has);

/** What a menu of this kind offers for these issues; states and cycles only when they share a team. */
export function choices(
  kind: EditKind,
  issues: readonly Row[],
  ref: EditRef,
  extra: {
    projects?: { id: string; name: string }[];
    cycles?: {
      id: string;
      name: string | null;
      number: number;
      teamId: string;
      isActive: boolean;
      isFuture: boolean;
    }[];
  } = {},
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
                label: cycleLabel(c),
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
  issues: readonly Row[],
): { input: EditInput; local: RowPatch } {
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
      const local = (i: Row) => ({
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
