// The issue list: grouped by workflow state, filtered, searched and sorted,
// virtualised so thousands of rows stay smooth. j/k or arrows move, Enter opens.
import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { FilterBar, loadFilters, saveFilters, useSettledFilters } from '../components/Filters';
import {
  Avatar,
  BlockedMarker,
  LabelChips,
  PriorityIcon,
  StateIcon,
  shortDate,
} from '../components/IssueBits';
import { ErrorMessage, Loading, PageHeader } from '../components/ui';
import { VirtualList } from '../components/VirtualList';
import { typing } from '../lib/keys';
import { Link, navigate } from '../lib/router';
import { type Issue, type IssueFilters, type Ref, type State, useIssueList, useRefData } from '../lib/work';

type Sort = 'updated' | 'created' | 'priority' | 'title' | 'due';
type Row =
  | { kind: 'group'; state: State; count: number; collapsed: boolean; teamKey: string | undefined }
  | { kind: 'issue'; issue: Issue };

const SORTS: { value: Sort; label: string }[] = [
  { value: 'updated', label: 'Last updated' },
  { value: 'created', label: 'Created' },
  { value: 'priority', label: 'Priority' },
  { value: 'title', label: 'Title' },
  { value: 'due', label: 'Due date' },
];

function compare(sort: Sort) {
  const prio = (p: number) => (p === 0 ? 5 : p);
  switch (sort) {
    case 'priority':
      return (a: Issue, b: Issue) =>
        prio(a.priority) - prio(b.priority) || b.updatedAt.localeCompare(a.updatedAt);
    case 'title':
      return (a: Issue, b: Issue) => a.title.localeCompare(b.title);
    case 'due':
      return (a: Issue, b: Issue) => (a.dueDate ?? '9999').localeCompare(b.dueDate ?? '9999');
    case 'created':
      return (a: Issue, b: Issue) => b.createdAt.localeCompare(a.createdAt);
    default:
      return (a: Issue, b: Issue) => b.updatedAt.localeCompare(a.updatedAt);
  }
}

export function IssuesPage() {
  const [filters, setFilters] = useState<IssueFilters>(() => loadFilters('filters:list'));
  const [sort, setSort] = useState<Sort>(() => (sessionStorage.getItem('sort:list') as Sort) || 'updated');
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const [focus, setFocus] = useState(-1);
  const deferred = useDeferredValue(useSettledFilters(filters));
  const ref = useRefData();
  const list = useIssueList(deferred, sort === 'created' ? 'createdAt' : 'updatedAt');

  useEffect(() => saveFilters('filters:list', filters), [filters]);
  useEffect(() => sessionStorage.setItem('sort:list', sort), [sort]);

  const rows = useMemo(
    () => (list.issues && ref.data ? buildRows(list.issues, ref.data, sort, collapsed) : []),
    [list.issues, ref.data, sort, collapsed],
  );

  // j/k and arrows move between rows from anywhere on the page (not while typing).
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (typing(e) || e.metaKey || e.ctrlKey || e.altKey || document.querySelector('dialog[open]')) return;
      if (e.key === 'ArrowDown' || e.key === 'j') {
        e.preventDefault();
        setFocus((f) => Math.min(rows.length - 1, f + 1));
      } else if (e.key === 'ArrowUp' || e.key === 'k') {
        e.preventDefault();
        setFocus((f) => Math.max(0, f - 1));
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [rows.length]);
  useEffect(() => {
    if (focus < 0) return;
    requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-row="${focus}"]`)?.focus());
  }, [focus]);

  const total = list.issues?.length ?? 0;
  return (
    <div className="page fill">
      <PageHeader title="Issues">
        <span className="muted" aria-live="polite">
          {list.issues ? `${total}${list.done ? '' : '+'} ${total === 1 ? 'issue' : 'issues'}` : ''}
        </span>
        <label className="filter">
          <span className="filter-label">Sort</span>
          <select value={sort} onChange={(e) => setSort(e.target.value as Sort)}>
            {SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
      </PageHeader>
      <FilterBar filters={filters} onChange={setFilters} />
      <ErrorMessage error={list.error ?? ref.error} />
      {(list.loading || ref.loading) && <Loading label="Loading issues" />}
      {list.issues && total === 0 && (
        <div className="empty-state">
          <p>No issues match.</p>
          <p className="muted">
            Press <kbd className="kbd">C</kbd> to create one.
          </p>
        </div>
      )}
      {ref.data && total > 0 && (
        <VirtualList
          label="Issues"
          className="issue-list"
          items={rows}
          rowHeight={38}
          scrollTo={focus}
          itemKey={(r) => (r.kind === 'group' ? `g-${r.state.id}` : r.issue.id)}
          render={(r, index) =>
            r.kind === 'group' ? (
              <button
                type="button"
                className="group-row"
                data-row={index}
                aria-expanded={!r.collapsed}
                onClick={() => {
                  const next = new Set(collapsed);
                  if (next.has(r.state.id)) next.delete(r.state.id);
                  else next.add(r.state.id);
                  setCollapsed(next);
                }}
              >
                <span className="caret" aria-hidden="true">
                  {r.collapsed ? '▸' : '▾'}
                </span>
                <StateIcon state={r.state} />
                <span className="group-name">
                  {r.teamKey ? `${r.teamKey} · ${r.state.name}` : r.state.name}
                </span>
                <span className="muted">{r.count}</span>
              </button>
            ) : (
              <IssueRow issue={r.issue} refData={ref.data!} index={index} />
            )
          }
        />
      )}
    </div>
  );
}

function buildRows(issues: Issue[], ref: Ref, sort: Sort, collapsed: Set<string>): Row[] {
  const byState = new Map<string, Issue[]>();
  for (const i of issues) {
    const list = byState.get(i.stateId);
    if (list) list.push(i);
    else byState.set(i.stateId, [i]);
  }
  const rows: Row[] = [];
  const cmp = compare(sort);
  // Every team has its own "Backlog": name the team once the list spans several.
  const several = new Set(issues.map((i) => i.teamId)).size > 1;
  const keyOf = new Map(ref.teams.map((t) => [t.id, t.key]));
  for (const state of ref.states) {
    const group = byState.get(state.id);
    if (!group?.length) continue;
    const isCollapsed = collapsed.has(state.id);
    rows.push({
      kind: 'group',
      state,
      count: group.length,
      collapsed: isCollapsed,
      teamKey: several ? keyOf.get(state.teamId) : undefined,
    });
    if (!isCollapsed) for (const issue of group.sort(cmp)) rows.push({ kind: 'issue', issue });
  }
  return rows;
}

function IssueRow({ issue, refData, index }: { issue: Issue; refData: Ref; index: number }) {
  const labels = refData.labels.filter((l) => issue.labelIds.includes(l.id));
  const person = refData.people.find((p) => p.id === issue.assigneeId);
  return (
    <Link
      to={`/issue/${issue.identifier}`}
      className="issue-row"
      data-row={index}
      onKeyDown={(e) => {
        if (e.key === 'Enter') navigate(`/issue/${issue.identifier}`);
      }}
    >
      <PriorityIcon priority={issue.priority} />
      <span className="ident">{issue.identifier}</span>
      <StateIcon state={refData.stateById.get(issue.stateId)} />
      <span className="title">{issue.title}</span>
      {issue.blocked && <BlockedMarker />}
      <LabelChips labels={labels} />
      {issue.dueDate && <span className="due">{shortDate(issue.dueDate)}</span>}
      <span className="created muted">{shortDate(issue.createdAt)}</span>
      <Avatar person={person} />
    </Link>
  );
}
