// What the filter builder offers and how a chip reads: field names, operator
// words, each field's values from the reference data, relative date words.
import type { PickOption } from '../components/PickMenu';
import { DATE_CHOICES, FIELD_KIND, type Field, type Filter, FLAG_VALUES, type Op } from './filters';
import { PRIORITIES } from './issues';
import { type CycleRef, cycleName, labelsFor, type ProjectRef, type Ref, teamScoped } from './ref';

export const FIELD_LABELS: Record<Field, string> = {
  team: 'Team',
  state: 'Status',
  assignee: 'Assignee',
  creator: 'Creator',
  priority: 'Priority',
  label: 'Labels',
  project: 'Project',
  cycle: 'Cycle',
  estimate: 'Estimate',
  due: 'Due date',
  created: 'Created',
  updated: 'Updated',
  subIssues: 'Sub-issues',
  blocked: 'Blocking relations',
};

export const OP_LABELS: Record<Op, string> = {
  is: 'is',
  isNot: 'is not',
  anyOf: 'is any of',
  noneOf: 'is none of',
  empty: 'is empty',
};

/** The estimates offered: the points scales' usual values (any whole number up to 999 is accepted). */
const ESTIMATES = [0, 1, 2, 3, 4, 5, 8, 13, 21];

const FLAG_LABELS: Record<string, string> = {
  parent: 'Has sub-issues',
  child: 'Is a sub-issue',
  blocked: 'Blocked by an issue',
  blocking: 'Blocking an issue',
};

const UNITS: Record<string, [string, string]> = {
  D: ['day', 'days'],
  W: ['week', 'weeks'],
  M: ['month', 'months'],
};

/** "Overdue", "In the next 7 days", "In the last 2 weeks", "More than 1 month ago", "Today". */
export function dateWordLabel(word: string): string {
  if (word === 'overdue') return 'Overdue';
  const m = /^(next|last|before)-P(\d+)([DWM])$/.exec(word);
  if (!m) return word;
  const n = Number(m[2]);
  if (m[1] === 'next' && n === 0) return 'Today';
  const span = n === 1 ? `the ${UNITS[m[3]!]![0]}` : `${n} ${UNITS[m[3]!]![1]}`;
  if (m[1] === 'next') return `In the next ${n === 1 ? UNITS[m[3]!]![0] : span}`;
  if (m[1] === 'last') return `In the last ${n === 1 ? UNITS[m[3]!]![0] : span}`;
  return `More than ${n} ${UNITS[m[3]!]![n === 1 ? 0 : 1]} ago`;
}

interface Lists {
  ref: Ref | undefined;
  projects: ProjectRef[] | undefined;
  cycles: CycleRef[] | undefined;
  /** The teams the filters narrow to: states, cycles and labels are theirs (and the workspace's labels). */
  teams: string[];
}

/** The values a field offers. */
export function valueOptions(field: Field, { ref, projects, cycles, teams }: Lists): PickOption[] {
  const inTeams = (teamId: string) => teams.length === 0 || teams.includes(teamId);
  const teamNote = (teamId: string | null) =>
    teamId && (ref?.teams.length ?? 0) > 1 && teams.length !== 1 ? ref?.teamById.get(teamId)?.key : undefined;
  switch (field) {
    case 'team':
      return (ref?.teams ?? []).map((t) => ({ value: t.id, label: t.name }));
    case 'state':
      return (ref?.states ?? [])
        .filter((s) => inTeams(s.teamId))
        .map((s) => ({ value: s.id, label: s.name, color: s.color, note: teamNote(s.teamId) }));
    case 'assignee':
    case 'creator':
      return [
        { value: 'me', label: 'Me' },
        ...(ref?.people ?? [])
          .filter((p) => p.id !== ref?.viewerId)
          .map((p) => ({ value: p.id, label: p.name })),
      ];
    case 'priority':
      return PRIORITIES.map((p) => ({ value: String(p.value), label: p.label }));
    case 'label': {
      // One team: its labels and the workspace's, as an issue of it may carry; else every label, team named.
      const labels = ref ? (teams.length === 1 ? labelsFor(ref, teams) : ref.labels) : [];
      return labels
        .filter((l) => l.teamId === null || inTeams(l.teamId))
        .map((l) => ({ value: l.id, label: l.name, color: l.color, note: teamNote(l.teamId) }));
    }
    case 'project':
      return (projects ?? []).map((p) => ({ value: p.id, label: p.name }));
    case 'cycle':
      return (cycles ?? [])
        .filter((c) => inTeams(c.teamId))
        .map((c) => ({ value: c.id, label: cycleName(c), note: teamNote(c.teamId) }));
    case 'estimate':
      return ESTIMATES.map((n) => ({ value: String(n), label: `${n} ${n === 1 ? 'point' : 'points'}` }));
    case 'due':
    case 'created':
    case 'updated':
      return DATE_CHOICES[field].map((w) => ({ value: w, label: dateWordLabel(w) }));
    case 'subIssues':
    case 'blocked':
      return FLAG_VALUES[field].map((v) => ({ value: v, label: FLAG_LABELS[v]! }));
  }
}

/** A value's name on a chip; one the lists do not know (gone, or not yet loaded) reads as such. */
export function valueLabel(field: Field, value: string, lists: Lists): string {
  if (FIELD_KIND[field] === 'date') return dateWordLabel(value);
  if (FIELD_KIND[field] === 'flag') return FLAG_LABELS[value] ?? value;
  const known = valueOptions(field, { ...lists, teams: [] }).find((o) => o.value === value);
  if (!known) return field === 'state' && lists.ref ? 'Unknown status' : '…';
  if (field === 'state' || field === 'cycle') {
    const teamId =
      field === 'state'
        ? lists.ref?.stateById.get(value)?.teamId
        : lists.cycles?.find((c) => c.id === value)?.teamId;
    return teamId ? teamScoped(lists.ref, teamId, known.label) : known.label;
  }
  return known.label;
}

/** The chip's words after the field: "is any of Todo, In Progress", "is empty". */
export function chipSummary(f: Filter, lists: Lists): string {
  const values = f.values.map((v) => valueLabel(f.field, v, lists));
  const shown =
    values.length > 2 ? `${values.length} ${FIELD_LABELS[f.field].toLowerCase()}` : values.join(', ');
  return shown;
}
