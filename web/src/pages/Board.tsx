// The board: one column per workflow state of a team; dragging a card (or
// Shift+Arrow on a focused card) moves the issue to that state at once.

import { Link } from '@tanstack/react-router';
import { type DragEvent, useEffect, useMemo, useState } from 'react';
import { DisplayOptions } from '../components/DisplayOptions';
import { FilterBar, useSettledFilters } from '../components/Filters';
import { PullRequestMarker } from '../components/GitPanel';
import { Avatar, BlockedMarker, LabelChips, PriorityIcon, StateIcon } from '../components/IssueBits';
import { LoadMore } from '../components/LoadMore';
import { openEdit } from '../components/QuickEdit';
import { ErrorMessage, Loading, PageHeader } from '../components/ui';
import { VirtualList } from '../components/VirtualList';
import type { IssueFilter, PaginationOrderBy } from '../gql/graphql';
import { useAction } from '../lib/action';
import { defaultTeam, rememberTeam } from '../lib/default-team';
import { compare } from '../lib/grouping';
import { useBlockedIds, useIssueLists } from '../lib/issue-pages';
import { type Issue, toIssueFilter, updateIssue } from '../lib/issues';
import { pressed } from '../lib/keys';
import { type Ref, type State, useRefData } from '../lib/ref';
import { useSession } from '../lib/session';
import { holdIssues } from '../lib/targets';
import { withoutFields } from '../lib/view';
import type { ViewProps } from '../router';

export function BoardPage({ view, setView }: ViewProps) {
  const ref = useRefData();
  const [announce, setAnnounce] = useState('');
  const [dragOver, setDragOver] = useState<string | null>(null);
  const readOnly = useSession().user?.role === 'guest';
  // The team in the address, else the person's own (last used, else their first membership).
  const team = ref.data?.teams.find((t) => t.id === view.team) ?? defaultTeam(ref.data);
  // A focused card is what S/A/P/L and the command menu act on.
  useEffect(() => () => holdIssues([]), []);
  const settled = useSettledFilters(view);
  // One team's columns: its issues, whatever their state.
  const filter = useMemo(
    () =>
      toIssueFilter(
        { ...withoutFields(settled, ['state', 'team']), state: undefined, team: team?.id },
        ref.data?.viewerId,
      ),
    [settled, team?.id, ref.data?.viewerId],
  );
  const order = view.order ?? 'priority';
  const orderBy: PaginationOrderBy = order === 'created' ? 'createdAt' : 'updatedAt';
  // Each column is a list of its own: a first page, a total, more cards as it scrolls.
  const columnFilters = useMemo(
    () => (team?.states ?? []).map((s): IssueFilter => ({ and: [filter, { state: { id: { eq: s.id } } }] })),
    [team, filter],
  );
  const lists = useIssueLists(columnFilters, orderBy, Boolean(team));
  // Markers on cards: read once the cards are, not beside them.
  const blocked = useBlockedIds(filter, Boolean(team) && lists.loaded).data?.blocked;
  const { datas, loaded, error: listError } = lists;

  const columns = useMemo(() => {
    const map = new Map<string, { cards: Card[]; total: number }>();
    (team?.states ?? []).forEach((s, n) => {
      const d = datas[n];
      const cards: Card[] = [...(d?.issues ?? [])]
        .sort(compare(order))
        .map((i) => (blocked?.has(i.id) ? { ...i, blocked: true } : i));
      if (d?.more) cards.push({ more: true, filter: columnFilters[n]!, loaded: d.issues.length });
      map.set(s.id, { cards, total: d?.total ?? 0 });
    });
    return map;
  }, [datas, team, order, blocked, columnFilters]);
  const findIssue = (id: string) => datas.flatMap((d) => d?.issues ?? []).find((i) => i.id === id);

  // The card moves in every list at once and goes back if the server refuses (lib/issues.ts updateIssue).
  const moving = useAction(({ issue, state }: { issue: Issue; state: State }) =>
    updateIssue(issue.id, { stateId: state.id }, { stateId: state.id }),
  );
  const error = moving.error;

  async function move(issue: Issue, state: State) {
    if (issue.stateId === state.id) return;
    setAnnounce(`${issue.identifier} moved to ${state.name}`);
    if (!(await moving.run({ issue, state }))) setAnnounce(`Could not move ${issue.identifier}`);
  }

  function onDrop(e: DragEvent, state: State) {
    e.preventDefault();
    setDragOver(null);
    const id = e.dataTransfer.getData('text/x-issue-id');
    const issue = findIssue(id);
    if (issue) void move(issue, state);
  }

  return (
    <div className="page fill">
      <PageHeader title="Board">
        <DisplayOptions view={view} onChange={setView} grouping={false} defaultOrder="priority" />
        {ref.data && ref.data.teams.length > 1 && (
          <label className="filter">
            <span className="filter-label">Team</span>
            <select
              value={team?.id ?? ''}
              onChange={(e) => {
                rememberTeam(e.target.value);
                setView({ ...view, team: e.target.value, state: undefined });
              }}
            >
              {ref.data.teams.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <span className="muted hint-keys">
          Drag cards, or focus one and press <kbd className="kbd">Shift</kbd>+<kbd className="kbd">←</kbd>/
          <kbd className="kbd">→</kbd>
        </span>
      </PageHeader>
      {/* The board is one team's: its selector is the one above, not a filter. */}
      <FilterBar
        view={{ ...view, team: undefined }}
        onChange={(v) => setView({ ...v, team: view.team })}
        showState={false}
        hide={['team']}
      />
      <ErrorMessage error={error ?? listError ?? ref.error} />
      <div className="sr-only" aria-live="assertive">
        {announce}
      </div>
      {(!loaded || ref.isLoading) && !listError && <Loading label="Loading board" />}
      {ref.data && loaded && team && (
        <div className="board">
          {team.states.map((state, si) => {
            const { cards, total } = columns.get(state.id) ?? { cards: [], total: 0 };
            return (
              <section
                key={state.id}
                className={`column${dragOver === state.id ? ' drag-over' : ''}`}
                aria-label={state.name}
                onDragOver={(e) => {
                  e.preventDefault();
                  e.dataTransfer.dropEffect = 'move';
                  if (dragOver !== state.id) setDragOver(state.id);
                }}
                onDragLeave={(e) => {
                  if (!e.currentTarget.contains(e.relatedTarget as Node)) setDragOver(null);
                }}
                onDrop={(e) => onDrop(e, state)}
              >
                <header className="column-head">
                  <StateIcon state={state} />
                  <h2>{state.name}</h2>
                  <span className="muted">{total}</span>
                </header>
                <VirtualList
                  label={`${state.name} issues`}
                  className="column-body"
                  items={cards}
                  rowHeight={92}
                  overscan={4}
                  itemKey={(i) => ('more' in i ? 'more' : i.id)}
                  render={(issue) =>
                    'more' in issue ? (
                      <LoadMore filter={issue.filter} orderBy={orderBy} loaded={issue.loaded} />
                    ) : issue.sending ? (
                      <div className="card-issue" aria-busy="true">
                        <div className="card-title">{issue.title}</div>
                        <div className="muted small">Sending…</div>
                      </div>
                    ) : (
                      <IssueCard
                        issue={issue}
                        refData={ref.data!}
                        movable={!readOnly}
                        onMenu={readOnly ? undefined : (at) => openEdit('actions', [issue], at)}
                        onMove={(dir) => {
                          const next = team.states[si + dir];
                          if (next) void move(issue, next);
                        }}
                      />
                    )
                  }
                />
              </section>
            );
          })}
        </div>
      )}
    </div>
  );
}

type Card = Issue | { more: true; filter: IssueFilter; loaded: number };

function IssueCard({
  issue,
  refData,
  movable,
  onMove,
  onMenu,
}: {
  issue: Issue;
  refData: Ref;
  /** Guests read the board: their cards neither drag nor move by keyboard. */
  movable: boolean;
  onMenu: ((at: { x: number; y: number }) => void) | undefined;
  onMove: (dir: -1 | 1) => void;
}) {
  const labels = refData.labels.filter((l) => issue.labelIds.includes(l.id));
  const person = refData.people.find((p) => p.id === issue.assigneeId);
  return (
    <Link
      to={`/issue/${issue.identifier}`}
      className="card-issue"
      draggable={movable}
      aria-label={`${issue.identifier} ${issue.title}${issue.blocked ? ', blocked' : ''}`}
      onDragStart={(e) => {
        e.dataTransfer.setData('text/x-issue-id', issue.id);
        e.dataTransfer.effectAllowed = 'move';
      }}
      onFocus={() => holdIssues([issue])}
      onContextMenu={(e) => {
        if (!onMenu) return;
        e.preventDefault();
        onMenu({ x: e.clientX, y: e.clientY });
      }}
      onKeyDown={(e) => {
        const dir = pressed(e, 'board.right') ? 1 : pressed(e, 'board.left') ? -1 : 0;
        if (movable && dir) {
          e.preventDefault();
          onMove(dir);
        }
      }}
    >
      <div className="card-top">
        <span className="ident">{issue.identifier}</span>
        <Avatar person={person} />
      </div>
      <div className="card-title">{issue.title}</div>
      <div className="card-meta">
        <PriorityIcon priority={issue.priority} />
        {issue.blocked && <BlockedMarker />}
        {issue.pullRequestMarker && <PullRequestMarker marker={issue.pullRequestMarker} />}
        <LabelChips labels={labels} />
      </div>
    </Link>
  );
}
