// An issue list: filtered, grouped, ordered and showing the properties its
// view (in the address) asks for; virtualised so thousands of rows stay
// smooth. j/k or arrows move, Enter opens. The Issues and My issues pages are
// this list; project and cycle pages show it narrowed to themselves.
import { Link, useNavigate } from '@tanstack/react-router';
import { type ReactNode, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { DisplayOptions } from '../components/DisplayOptions';
import { FilterBar, useSettledFilters } from '../components/Filters';
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
import { type Group, groupIssues } from '../lib/grouping';
import { type Issue, toIssueFilter, useIssueList } from '../lib/issues';
import { typing } from '../lib/keys';
import { type Ref, useCycles, useProjects, useRefData } from '../lib/ref';
import { useSession } from '../lib/session';
import { type FilterKey, isFiltered, type Property, shownProperties, type View } from '../lib/view';
import type { ViewProps } from '../router';

type Row = { kind: 'group'; group: Group; collapsed: boolean } | { kind: 'issue'; issue: Issue };

export function IssuesPage({ mine = false, ...props }: ViewProps & { mine?: boolean }) {
  return (
    <IssueList
      {...props}
      title={mine ? 'My issues' : 'Issues'}
      fixed={mine ? { assignee: 'me' } : {}}
      empty={mine ? 'No issues are assigned to you.' : undefined}
    />
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
}: ViewProps & { title: string; fixed: View; empty?: string; heading?: boolean; children?: ReactNode }) {
  const { flag } = useSession();
  const ref = useRefData();
  const view: View = { ...urlView, ...fixed };
  const settled = useDeferredValue(useSettledFilters(view));
  const order = view.order ?? 'updated';
  const by = view.group ?? 'state';
  const filter = useMemo(() => toIssueFilter(settled, ref.data?.viewerId), [settled, ref.data?.viewerId]);
  const list = useIssueList(filter, order === 'created' ? 'createdAt' : 'updatedAt', Boolean(ref.data));
  const shown = shownProperties(view);
  const projects = useProjects(flag('projects') && (by === 'project' || shown.has('project'))).data;
  const projectName = useMemo(() => new Map(projects?.map((p) => [p.id, p.name])), [projects]);
  const cycles = useCycles(flag('cycles') && by === 'cycle').data;
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const [focus, setFocus] = useState(-1);

  const rows = useMemo(() => {
    if (!list.issues || !ref.data) return [];
    const out: Row[] = [];
    for (const group of groupIssues(list.issues, by, order, ref.data, { projects, cycles })) {
      const isCollapsed = collapsed.has(group.key);
      if (by !== 'none') out.push({ kind: 'group', group, collapsed: isCollapsed });
      if (!isCollapsed) for (const issue of group.issues) out.push({ kind: 'issue', issue });
    }
    return out;
  }, [list.issues, ref.data, by, order, collapsed, projects, cycles]);

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
  const toggle = (key: string) => {
    const next = new Set(collapsed);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    setCollapsed(next);
  };
  return (
    <div className="page fill">
      {heading && <PageHeader title={title} />}
      {children}
      <div className="list-bar">
        <span className="muted" aria-live="polite">
          {list.issues ? `${total}${list.done ? '' : '+'} ${total === 1 ? 'issue' : 'issues'}` : ''}
        </span>
        <DisplayOptions view={view} onChange={setView} />
      </div>
      <FilterBar view={urlView} hide={Object.keys(fixed) as FilterKey[]} onChange={setView} />
      <ErrorMessage error={list.error ?? ref.error} />
      {(list.isLoading || ref.isLoading) && <Loading label="Loading issues" />}
      {list.issues && total === 0 && (
        <EmptyList text={empty} filtered={isFiltered(urlView) || Boolean(urlView.q)} />
      )}
      {ref.data && total > 0 && (
        <VirtualList
          label={title}
          className="issue-list"
          items={rows}
          rowHeight={38}
          scrollTo={focus}
          itemKey={(r) => (r.kind === 'group' ? `g-${r.group.key}` : `${r.issue.id}`)}
          render={(r, index) =>
            r.kind === 'group' ? (
              <button
                type="button"
                className="group-row"
                data-row={index}
                aria-expanded={!r.collapsed}
                onClick={() => toggle(r.group.key)}
              >
                <span className="caret" aria-hidden="true">
                  {r.collapsed ? '▸' : '▾'}
                </span>
                {r.group.state && <StateIcon state={r.group.state} />}
                <span className="group-name">{r.group.label}</span>
                <span className="muted">{r.group.issues.length}</span>
              </button>
            ) : (
              <IssueRow
                issue={r.issue}
                refData={ref.data!}
                index={index}
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

function EmptyList({ filtered, text }: { filtered: boolean; text?: string }) {
  return (
    <div className="empty-state">
      <p>{filtered ? 'No issues match.' : (text ?? 'No issues yet.')}</p>
      <p className="muted">
        Press <kbd className="kbd">C</kbd> to create one.
      </p>
    </div>
  );
}

function IssueRow({
  issue,
  refData,
  index,
  shown,
  project,
}: {
  issue: Issue;
  refData: Ref;
  index: number;
  shown: Set<Property>;
  project: string | undefined;
}) {
  const navigate = useNavigate();
  const labels = refData.labels.filter((l) => issue.labelIds.includes(l.id));
  const person = issue.assigneeId ? refData.personById.get(issue.assigneeId) : undefined;
  return (
    <Link
      to="/issue/$id"
      params={{ id: issue.identifier }}
      className="issue-row"
      data-row={index}
      onKeyDown={(e) => {
        if (e.key === 'Enter') void navigate({ to: '/issue/$id', params: { id: issue.identifier } });
      }}
    >
      {shown.has('priority') && <PriorityIcon priority={issue.priority} />}
      {shown.has('id') && <span className="ident">{issue.identifier}</span>}
      {shown.has('state') && <StateIcon state={refData.stateById.get(issue.stateId)} />}
      <span className="title">{issue.title}</span>
      {issue.blocked && <BlockedMarker />}
      {shown.has('labels') && <LabelChips labels={labels} />}
      {shown.has('project') && project && <span className="chip muted">{project}</span>}
      {shown.has('due') && issue.dueDate && <span className="due">{shortDate(issue.dueDate)}</span>}
      {shown.has('created') && <span className="created muted">{shortDate(issue.createdAt)}</span>}
      {shown.has('assignee') && <Avatar person={person} />}
    </Link>
  );
}
