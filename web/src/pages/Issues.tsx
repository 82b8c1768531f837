// An issue list: filtered, grouped, ordered and showing the properties its
// view (in the address) asks for; virtualised so thousands of rows stay
// smooth. j/k or arrows move, Enter opens. The Issues and My issues pages are
// this list; project and cycle pages show it narrowed to themselves.

import { Link, useNavigate } from '@tanstack/react-router';
import {
  memo,
  type ReactNode,
  useCallback,
  useDeferredValue,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { BulkBar } from '../components/BulkBar';
import { DisplayOptions } from '../components/DisplayOptions';
import { FilterBar, useSettledFilters } from '../components/Filters';
import { GettingStarted } from '../components/GettingStarted';
import { PullRequestMarker } from '../components/GitPanel';
import { Avatar, BlockedMarker, DueDate, LabelChips, PriorityIcon, StateIcon } from '../components/IssueBits';
import { LoadMore } from '../components/LoadMore';
import { openEdit } from '../components/QuickEdit';
import { SaveViewButton } from '../components/SaveView';
import { ErrorMessage, Loading, PageHeader } from '../components/ui';
import { VirtualList } from '../components/VirtualList';
import type { IssueFilter, PaginationOrderBy } from '../gql/graphql';
import { shortDate } from '../lib/dates';
import { pageHoldsKeyboard } from '../lib/focus';
import { compare, groupIssues, serverGroups } from '../lib/grouping';
import { groupFirstPage, readIssueListsAhead, useBlockedIds, useIssueLists } from '../lib/issue-pages';
import { type Issue, toIssueFilter } from '../lib/issues';
import { pressed, useShortcuts } from '../lib/keys';
import { isDone, type Ref, type State, useCycles, useProjects, useRefData } from '../lib/ref';
import { useSession } from '../lib/session';
import { holdIssues, rememberList } from '../lib/targets';
import { type FilterKey, isFiltered, type Property, shownProperties, type View } from '../lib/view';
import type { ViewProps } from '../router';

type Row =
  | { kind: 'group'; key: string; label: string; state?: State; count: string; collapsed: boolean }
  | { kind: 'issue'; issue: Issue }
  /** The end of what is loaded of a list that has more: on screen, it reads the next page. */
  | { kind: 'more'; key: string; filter: IssueFilter; loaded: number };

const rowKey = (r: Row) => (r.kind === 'issue' ? r.issue.id : `${r.kind}-${r.key}`);

/** My issues' tabs, as the hosted tracker has them: what is assigned to me, what I created, what I follow. */
export type MyIssuesTab = 'assigned' | 'created' | 'subscribed';
const MY_TABS: { tab: MyIssuesTab; to: string; label: string; empty: string }[] = [
  { tab: 'assigned', to: '/my-issues', label: 'Assigned', empty: 'No issues are assigned to you.' },
  { tab: 'created', to: '/my-issues/created', label: 'Created', empty: 'You have not created any issues.' },
  {
    tab: 'subscribed',
    to: '/my-issues/subscribed',
    label: 'Subscribed',
    empty: 'You are not subscribed to any issues.',
  },
];
// Module constants: IssueList keys its reads on the filter, so each tab's is one stable object.
const CREATED_BY_ME: IssueFilter = { creator: { isMe: { eq: true } } };
const SUBSCRIBED_BY_ME: IssueFilter = { subscribers: { some: { isMe: { eq: true } } } };

export function IssuesPage({ mine, ...props }: ViewProps & { mine?: MyIssuesTab }) {
  if (!mine) return <IssueList {...props} title="Issues" fixed={{}} />;
  const tab = MY_TABS.find((t) => t.tab === mine)!;
  return (
    <IssueList
      {...props}
      title="My issues"
      // Assigned is the assignee filter held fixed (it neither shows nor clears); the others narrow by a filter of their own.
      fixed={mine === 'assigned' ? { assignee: 'me' } : {}}
      {...(mine === 'created' ? { baseFilter: CREATED_BY_ME } : {})}
      {...(mine === 'subscribed' ? { baseFilter: SUBSCRIBED_BY_ME } : {})}
      empty={tab.empty}
    >
      <nav className="tabs" aria-label="My issues">
        {MY_TABS.map((t) => (
          <Link
            key={t.tab}
            to={t.to}
            // The view (filters, grouping, display) carries over from tab to tab.
            search={(prev: Record<string, unknown>) => prev}
            className={`tab${t.tab === mine ? ' active' : ''}`}
            aria-current={t.tab === mine ? 'page' : undefined}
          >
            {t.label}
          </Link>
        ))}
      </nav>
    </IssueList>
  );
}

/**
 * The list of the issues a view selects. `fixed` narrows it for good (a
 * project's page, My issues): those filters neither show nor clear.
 */
export function IssueList({
  view: urlView,
  setView,
  title,
  fixed,
  empty,
  heading = true,
  children,
  baseFilter,
  actions,
}: ViewProps & {
  title: string;
  fixed: View;
  empty?: string;
  heading?: boolean;
  children?: ReactNode;
  /** A filter the view's own filters narrow further (a saved view's). */
  baseFilter?: IssueFilter;
  /** Beside Display; without it, "Save view". */
  actions?: ReactNode;
}) {
  const { flag, user } = useSession();
  const guest = user?.role === 'guest';
  const ref = useRefData();
  const view: View = { ...urlView, ...fixed };
  const wanted = useSettledFilters(view);
  const settled = useDeferredValue(wanted);
  const order = view.order ?? 'updated';
  const by = view.group ?? 'state';
  const filterOf = (v: View) => {
    const own = toIssueFilter(v, ref.data?.viewerId);
    return baseFilter ? { and: [baseFilter, own] } : own;
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: filterOf reads only the listed values
  const filter = useMemo(() => filterOf(settled), [settled, ref.data?.viewerId, baseFilter]);
  const orderBy: PaginationOrderBy = order === 'created' ? 'createdAt' : 'updatedAt';
  // State, priority and team groups are read (and counted) one by one; the other groupings page one list.
  const groups = useMemo(
    () => (ref.data ? serverGroups(by, filter, ref.data, settled.team) : null),
    [by, filter, ref.data, settled.team],
  );
  // The list renders the new filters in a deferred render (typing stays quick), but their reads
  // start as soon as the filters change: the deferred render then finds them on their way.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `wanted` stands for the filters
  useEffect(() => {
    if (!ref.data || wanted === settled) return;
    const f = filterOf(wanted);
    const ahead = serverGroups(by, f, ref.data, wanted.team);
    readIssueListsAhead(ahead ? ahead.map((g) => g.filter) : [f], orderBy, groupFirstPage);
  }, [wanted]);
  const lists = useIssueLists(
    groups ? groups.map((g) => g.filter) : [filter],
    orderBy,
    Boolean(ref.data),
    groupFirstPage,
  );
  // Markers on rows: read once the rows are, not beside them.
  const blocked = useBlockedIds(filter, Boolean(ref.data) && lists.loaded).data?.blocked;
  const { datas, loaded, error } = lists;
  const shown = shownProperties(view);
  const projects = useProjects(flag('projects') && (by === 'project' || shown.has('project'))).data;
  const projectName = useMemo(() => new Map(projects?.map((p) => [p.id, p.name])), [projects]);
  const cycles = useCycles(flag('cycles') && by === 'cycle').data;
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  // The focused row, by key: it stays on its issue when a change moves the row to another group.
  const [focusKey, setFocusKey] = useState<string | null>(null);

  const rows = useMemo(() => {
    if (!ref.data) return [];
    const out: Row[] = [];
    const mark = (i: Issue) => (blocked?.has(i.id) ? { ...i, blocked: true } : i);
    const head = (key: string, label: string, count: string, state?: State) => {
      const isCollapsed = collapsed.has(key);
      if (by !== 'none') out.push({ kind: 'group', key, label, state, count, collapsed: isCollapsed });
      return !isCollapsed;
    };
    if (groups) {
      groups.forEach((g, n) => {
        const d = datas[n];
        if (!d || d.total === 0) return;
        if (!head(g.key, g.label, String(d.total), g.state)) return;
        for (const issue of [...d.issues].sort(compare(order)))
          out.push({ kind: 'issue', issue: mark(issue) });
        if (d.more) out.push({ kind: 'more', key: g.key, filter: g.filter, loaded: d.issues.length });
      });
    } else if (datas[0]) {
      const d = datas[0];
      for (const group of groupIssues(d.issues.map(mark), by, order, ref.data, { projects, cycles })) {
        // Only what is loaded is grouped: "12+" while more pages may add to a group.
        if (head(group.key, group.label, `${group.issues.length}${d.more ? '+' : ''}`, group.state))
          for (const issue of group.issues) out.push({ kind: 'issue', issue });
      }
      if (d.more) out.push({ kind: 'more', key: 'all', filter, loaded: d.issues.length });
    }
    return out;
  }, [datas, groups, filter, blocked, ref.data, by, order, collapsed, projects, cycles]);
  const focus = useMemo(
    () => (focusKey === null ? -1 : rows.findIndex((r) => rowKey(r) === focusKey)),
    [rows, focusKey],
  );
  const rowsNow = useRef(rows);
  rowsNow.current = rows;
  const setFocus = useCallback((index: number) => {
    const r = rowsNow.current[index];
    if (r) setFocusKey(rowKey(r));
  }, []);
  const allIssues = useMemo(() => datas.flatMap((d) => d?.issues ?? []), [datas]);

  // Selection for bulk edit: ids, and the row a Shift-click extends from.
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [anchor, setAnchor] = useState(-1);
  const select = (index: number, how: 'toggle' | 'range') => {
    const next = new Set(selected);
    if (how === 'range' && anchor >= 0) {
      const [from, to] = anchor < index ? [anchor, index] : [index, anchor];
      for (const r of rows.slice(from, to + 1))
        if (r.kind === 'issue' && !r.issue.sending) next.add(r.issue.id);
    } else {
      const r = rows[index];
      if (r?.kind !== 'issue' || r.issue.sending) return;
      if (next.has(r.issue.id)) next.delete(r.issue.id);
      else next.add(r.issue.id);
      setAnchor(index);
    }
    setSelected(next);
  };
  // A selection never holds issues the list no longer shows (filtered out, deleted).
  const selectedIssues = useMemo(() => allIssues.filter((i) => selected.has(i.id)), [allIssues, selected]);

  // The row that holds the keyboard: Tab reaches it, and only it, of the list (roving tabindex).
  const firstIssue = rows.findIndex((r) => r.kind === 'issue');
  const roving = focus >= 0 && focus < rows.length ? focus : firstIssue;
  const atRoving = rows[roving]?.kind === 'issue' ? (rows[roving] as { issue: Issue }).issue : undefined;
  // A row still being created has no id the server knows: nothing acts on it yet.
  const focusedIssue = atRoving?.sending ? undefined : atRoving;

  // j/k and arrows move between rows from anywhere on the page (not while typing); x or Space selects;
  // Shift extends the selection as it moves.
  const clearSelection = () => setSelected(new Set());
  const moveTo = (to: number) => Math.max(0, Math.min(rows.length - 1, to));
  const down = () => setFocus(moveTo(focus < 0 ? firstIssue : focus + 1));
  const up = () => setFocus(moveTo(focus < 0 ? firstIssue : focus - 1));
  const extend = (by: 1 | -1) => () => {
    if (guest || roving < 0) return;
    const to = moveTo(roving + by);
    const from = anchor >= 0 ? anchor : roving;
    const next = new Set(selected);
    const [a, b] = from < to ? [from, to] : [to, from];
    for (const r of rows.slice(a, b + 1)) if (r.kind === 'issue' && !r.issue.sending) next.add(r.issue.id);
    setAnchor(from);
    setSelected(next);
    setFocus(to);
  };
  const onRow = () => (document.activeElement as HTMLElement | null)?.closest('[data-row]') !== null;
  // The page itself holds the keyboard: nothing focused, or the page's main region (where a new page
  // or the skip button puts it). X then acts on the row that holds the list's keyboard.
  const onPage = pageHoldsKeyboard;
  useShortcuts({
    'list.down': down,
    'list.up': up,
    'list.extendDown': extend(1),
    'list.extendUp': extend(-1),
    // Space is a row's only on a row or the page: on a button it still presses the button.
    'list.select': () => {
      if (guest || roving < 0 || !(onPage() || onRow())) return false;
      select(roving, 'toggle');
      if (!onRow()) setFocus(roving);
    },
    'list.clear': () => (selected.size > 0 ? clearSelection() : false),
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: the keyboard moved to another row; its index is read now
  useEffect(() => {
    if (focus < 0) return;
    requestAnimationFrame(() => {
      // A menu opened meanwhile (S right after J) keeps the keyboard; it gives it back on closing.
      if (document.querySelector('[data-menu-open]')) return;
      document.querySelector<HTMLElement>(`[data-row="${focus}"]`)?.focus();
    });
  }, [focusKey]);
  // What S/A/P/L and the command menu act on: the selection, else the focused row.
  useEffect(() => {
    holdIssues(selectedIssues.length > 0 ? selectedIssues : focusedIssue ? [focusedIssue] : []);
  }, [selectedIssues, focusedIssue]);
  useEffect(() => () => holdIssues([]), []);
  // The list an issue page's J/K walk and its Escape comes back to.
  useEffect(() => {
    rememberList({
      href: `${window.location.pathname}${window.location.search}`,
      identifiers: rows.flatMap((r) => (r.kind === 'issue' ? [r.issue.identifier] : [])),
    });
  }, [rows]);
  /** A right click: on the selection when the row is in it, else on that row alone. */
  const selectionNow = useRef(selectedIssues);
  selectionNow.current = selectedIssues;
  const onMenu = useCallback((issue: Issue, at: { x: number; y: number }) => {
    const inSelection = selectionNow.current.some((i) => i.id === issue.id);
    openEdit('actions', inSelection ? selectionNow.current : [issue], at);
  }, []);

  const total = loaded ? datas.reduce((n, d) => n + (d?.total ?? 0), 0) : 0;
  const toggle = (key: string) => {
    const next = new Set(collapsed);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    setCollapsed(next);
  };
  return (
    // Inside a project's or cycle's page the list is a section of that page, not a page of its own.
    <div className={heading ? 'page fill' : 'fill embedded-list'}>
      {heading && <PageHeader title={title} />}
      {children}
      <div className="list-bar">
        <span className="muted" aria-live="polite">
          {loaded ? `${total} ${total === 1 ? 'issue' : 'issues'}` : ''}
        </span>
        <span className="row">
          {actions ?? <SaveViewButton view={view} filter={filter} />}
          <DisplayOptions view={view} onChange={setView} />
        </span>
      </div>
      <FilterBar view={urlView} hide={Object.keys(fixed) as FilterKey[]} onChange={setView} />
      {selectedIssues.length > 0 && <BulkBar selected={selectedIssues} onClear={clearSelection} />}
      <ErrorMessage error={error ?? ref.error} />
      {(!loaded || ref.isLoading) && !error && <Loading label="Loading issues" />}
      {loaded && total === 0 && (
        <EmptyList
          text={empty}
          filtered={isFiltered(urlView) || Boolean(urlView.q)}
          // The plain Issues page of a workspace with nothing in it yet: say what to do first.
          first={
            heading && Object.keys(fixed).length === 0 && !baseFilter && !isFiltered(urlView) && !urlView.q
          }
        />
      )}
      {ref.data && total > 0 && (
        <VirtualList
          label={title}
          className="issue-list"
          items={rows}
          rowHeight={38}
          scrollTo={focus}
          itemKey={rowKey}
          render={(r, index) =>
            r.kind === 'more' ? (
              <LoadMore filter={r.filter} orderBy={orderBy} loaded={r.loaded} />
            ) : r.kind === 'group' ? (
              <button
                type="button"
                className="group-row"
                data-row={index}
                tabIndex={index === roving ? 0 : -1}
                onFocus={() => setFocus(index)}
                aria-expanded={!r.collapsed}
                onClick={() => toggle(r.key)}
              >
                <span className="caret" aria-hidden="true">
                  {r.collapsed ? '▸' : '▾'}
                </span>
                {r.state && <StateIcon state={r.state} />}
                <span className="group-name">{r.label}</span>
                <span className="muted">{r.count}</span>
              </button>
            ) : (
              <IssueRow
                issue={r.issue}
                refData={ref.data!}
                index={index}
                tabbable={index === roving}
                onFocusRow={setFocus}
                onMenu={guest ? undefined : onMenu}
                selected={selected.has(r.issue.id)}
                onSelect={guest ? undefined : select}
                shown={shown}
                project={r.issue.projectId ? projectName.get(r.issue.projectId) : undefined}
              />
            )
          }
        />
      )}
    </div>
  );
}

function EmptyList({ filtered, text, first }: { filtered: boolean; text?: string; first: boolean }) {
  if (first) return <GettingStarted />;
  return (
    <div className="empty-state">
      <p>{filtered ? 'No issues match.' : (text ?? 'No issues yet.')}</p>
      <p className="muted">
        Press <kbd className="kbd">C</kbd> to create one.
      </p>
    </div>
  );
}

/** Memoised: while a list scrolls, rows that stay in view are not rendered again. */
const IssueRow = memo(function IssueRow({
  issue,
  refData,
  index,
  tabbable,
  onFocusRow,
  onMenu,
  selected,
  onSelect,
  shown,
  project,
}: {
  issue: Issue;
  refData: Ref;
  index: number;
  /** The list's one row in the Tab order. */
  tabbable: boolean;
  onFocusRow: (index: number) => void;
  /** Absent for guests: no actions menu. */
  onMenu: ((issue: Issue, at: { x: number; y: number }) => void) | undefined;
  selected: boolean;
  /** Absent for guests, who cannot edit: no boxes, and a click always opens. */
  onSelect: ((index: number, how: 'toggle' | 'range') => void) | undefined;
  shown: Set<Property>;
  project: string | undefined;
}) {
  const navigate = useNavigate();
  const labels = refData.labels.filter((l) => issue.labelIds.includes(l.id));
  const person = issue.assigneeId ? refData.personById.get(issue.assigneeId) : undefined;
  // Being created: shown where it will be, with nothing to open or select yet.
  if (issue.sending)
    return (
      <div className="issue-row-wrap sending" aria-busy="true">
        <div className="issue-row">
          <span className="ident">{issue.identifier}</span>
          <span className="title">{issue.title}</span>
          <span className="muted small">Sending…</span>
        </div>
      </div>
    );
  return (
    <div className={`issue-row-wrap${selected ? ' selected' : ''}`}>
      {onSelect && (
        <input
          type="checkbox"
          className="row-check"
          // X or Space selects from the row itself: the box is for the mouse.
          tabIndex={-1}
          aria-label={`Select ${issue.identifier}`}
          checked={selected}
          onChange={() => undefined}
          onClick={(e) => onSelect(index, e.shiftKey ? 'range' : 'toggle')}
        />
      )}
      <Link
        to="/issue/$id"
        params={{ id: issue.identifier }}
        className="issue-row"
        data-row={index}
        tabIndex={tabbable ? 0 : -1}
        onFocus={() => onFocusRow(index)}
        onContextMenu={(e) => {
          if (!onMenu) return;
          e.preventDefault();
          onMenu(issue, { x: e.clientX, y: e.clientY });
        }}
        onClick={(e) => {
          // Ctrl/Cmd-click selects, Shift-click selects a range: the list's way of picking many.
          if (!onSelect || !(e.shiftKey || e.ctrlKey || e.metaKey)) return;
          e.preventDefault();
          onSelect(index, e.shiftKey ? 'range' : 'toggle');
        }}
        onKeyDown={(e) => {
          if (pressed(e, 'list.open')) void navigate({ to: '/issue/$id', params: { id: issue.identifier } });
        }}
      >
        {shown.has('priority') && <PriorityIcon priority={issue.priority} />}
        {shown.has('id') && <span className="ident">{issue.identifier}</span>}
        {shown.has('state') && <StateIcon state={refData.stateById.get(issue.stateId)} />}
        <span className="title">{issue.title}</span>
        {issue.blocked && <BlockedMarker />}
        {issue.pullRequestMarker && <PullRequestMarker marker={issue.pullRequestMarker} />}
        {shown.has('labels') && <LabelChips labels={labels} />}
        {shown.has('project') && project && <span className="chip muted">{project}</span>}
        {shown.has('due') && issue.dueDate && (
          <DueDate date={issue.dueDate} done={isDone(refData.stateById.get(issue.stateId))} />
        )}
        {shown.has('created') && <span className="created muted">{shortDate(issue.createdAt)}</span>}
        {shown.has('assignee') && <Avatar person={person} />}
      </Link>
    </div>
  );
});
