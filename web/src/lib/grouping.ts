// Groups and orders a loaded list of issues the way a view asks: by state,
// assignee, project, priority, cycle, team or label (an issue with two labels
// shows under both, as in other trackers), with empty groups left out.
import type { IssueFilter } from '../gql/graphql';
import type { Issue } from './issues';
import { PRIORITIES } from './issues';
import { type CycleRef, cycleName, type ProjectRef, type Ref, type State, teamScoped } from './ref';
import type { Grouping, Order } from './view';

export interface Group {
  key: string;
  label: string;
  state?: State;
  issues: Issue[];
}

const prio = (p: number) => (p === 0 ? 5 : p);
export function compare(order: Order): (a: Issue, b: Issue) => number {
  switch (order) {
    case 'priority':
      return (a, b) => prio(a.priority) - prio(b.priority) || b.updatedAt.localeCompare(a.updatedAt);
    case 'title':
      return (a, b) => a.title.localeCompare(b.title);
    case 'due':
      return (a, b) => (a.dueDate ?? '9999').localeCompare(b.dueDate ?? '9999');
    case 'created':
      return (a, b) => b.createdAt.localeCompare(a.createdAt);
    default:
      return (a, b) => b.updatedAt.localeCompare(a.updatedAt);
  }
}

interface Extra {
  projects?: ProjectRef[];
  cycles?: CycleRef[];
}

/** The groups in display order; each one's issues sorted by `order`. */
export function groupIssues(
  issues: Issue[],
  by: Grouping,
  order: Order,
  ref: Ref,
  extra: Extra = {},
): Group[] {
  const buckets = new Map<string, Issue[]>();
  const put = (key: string, i: Issue) => {
    const b = buckets.get(key);
    if (b) b.push(i);
    else buckets.set(key, [i]);
  };
  for (const i of issues) {
    if (by === 'label') {
      if (i.labelIds.length === 0) put('none', i);
      for (const l of i.labelIds) put(l, i);
    } else put(keyOf(i, by), i);
  }
  const cmp = compare(order);
  const out: Group[] = [];
  const add = (key: string, label: string, state?: State) => {
    const list = buckets.get(key);
    if (list?.length) out.push({ key, label, state, issues: list.sort(cmp) });
  };
  switch (by) {
    case 'state':
      for (const s of ref.states) add(s.id, teamScoped(ref, s.teamId, s.name), s);
      break;
    case 'assignee':
      for (const p of ref.people) add(p.id, p.name);
      add('none', 'No assignee');
      break;
    case 'project':
      for (const p of extra.projects ?? []) add(p.id, p.name);
      add('none', 'No project');
      break;
    case 'priority':
      for (const p of [1, 2, 3, 4, 0]) add(String(p), PRIORITIES.find((x) => x.value === p)!.label);
      break;
    case 'cycle':
      for (const c of extra.cycles ?? []) add(c.id, teamScoped(ref, c.teamId, cycleName(c)));
      add('none', 'No cycle');
      break;
    case 'team':
      for (const t of ref.teams) add(t.id, t.name);
      break;
    case 'label':
      for (const l of ref.labels) add(l.id, l.name);
      add('none', 'No label');
      break;
    case 'none':
      add('all', 'All issues');
      break;
  }
  // Anything the reference data does not know yet (created a moment ago) still shows.
  const shown = new Set(out.map((g) => g.key));
  for (const [key, list] of buckets)
    if (!shown.has(key)) out.push({ key, label: 'Other', issues: list.sort(cmp) });
  return out;
}

function keyOf(i: Issue, by: Grouping): string {
  switch (by) {
    case 'state':
      return i.stateId;
    case 'assignee':
      return i.assigneeId ?? 'none';
    case 'project':
      return i.projectId ?? 'none';
    case 'priority':
      return String(i.priority);
    case 'cycle':
      return i.cycleId ?? 'none';
    case 'team':
      return i.teamId;
    default:
      return 'all';
  }
}

/** A group the server pages on its own: its own filter, total and cursor. */
export interface GroupSpec {
  key: string;
  label: string;
  state?: State;
  filter: IssueFilter;
}

/**
 * The groups read from the server one by one (state, priority, team, none:
 * few and known from the reference data), each narrowing `filter`; null for
 * the groupings with many possible groups (assignee, project, cycle, label),
 * which page one list and group what is loaded.
 */
export function serverGroups(by: Grouping, filter: IssueFilter, ref: Ref, team?: string): GroupSpec[] | null {
  const narrow = (extra: IssueFilter): IssueFilter => ({ and: [filter, extra] });
  switch (by) {
    case 'state':
      return ref.states
        .filter((s) => !team || s.teamId === team)
        .map((s) => ({
          key: s.id,
          label: teamScoped(ref, s.teamId, s.name),
          state: s,
          filter: narrow({ state: { id: { eq: s.id } } }),
        }));
    case 'priority':
      return [1, 2, 3, 4, 0].map((p) => ({
        key: String(p),
        label: PRIORITIES.find((x) => x.value === p)!.label,
        filter: narrow({ priority: { eq: p } }),
      }));
    case 'team':
      return ref.teams
        .filter((t) => !team || t.id === team)
        .map((t) => ({ key: t.id, label: t.name, filter: narrow({ team: { id: { eq: t.id } } }) }));
    case 'none':
      return [{ key: 'all', label: 'All issues', filter }];
    default:
      return null;
  }
}
