// The inbox: the caller's notifications, one row per issue or per project (its
// new updates), ordered by each one's newest event. Every action (open,
// read/unread, archive, snooze) acts on the whole group. On a wide screen a
// preview pane shows the selected group's issue, or its project's newest
// update; dwelling on it marks the group read. The keyboard does all of it
// (lib/keys.ts lists the keys).
// Loaded when first opened (router.tsx): the first screen stays small.

import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type MouseEvent, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Initials, PriorityIcon, StateIcon } from '../components/IssueBits';
import { HealthBadge } from '../components/ProjectUpdates';
import { RelativeTime } from '../components/RelativeTime';
import { Button, ErrorMessage, Loading, PageHeader } from '../components/ui';
import { ok, rest } from '../lib/api';
import { weekdayTime } from '../lib/dates';
import { pageHoldsKeyboard } from '../lib/focus';
import { useIssueDetail } from '../lib/issue-detail';
import { priorityLabel } from '../lib/issues';
import { useShortcuts } from '../lib/keys';
import { Markdown } from '../lib/markdown';
import {
  groupInbox,
  type InboxFilter,
  type InboxGroup,
  type Notification,
  type NotificationChange,
  snoozeChoices,
  useInbox,
  useMarkAllRead,
  useUpdateGroup,
} from '../lib/notifications';
import { keys } from '../lib/query-keys';
import { useRefData } from '../lib/ref';

const FILTERS: { value: InboxFilter; label: string }[] = [
  { value: 'unread', label: 'Unread' },
  { value: 'all', label: 'All' },
  { value: 'archived', label: 'Archived' },
];
const EMPTY: Record<InboxFilter, string> = {
  unread: 'No unread notifications. You are all caught up.',
  all: 'Your inbox is empty. Assignments, mentions, comments and state changes on issues you follow, and new updates of your projects, show here.',
  archived: 'Nothing archived.',
};
const STATE_WORDS: Record<string, string> = {
  completed: 'completed',
  canceled: 'canceled',
  started: 'started',
  unstarted: 'moved to Todo',
  backlog: 'moved to Backlog',
  triage: 'moved to Triage',
};

/** "assigned you", "mentioned you in a comment", … */
export function whatHappened(n: Notification): string {
  switch (n.type) {
    case 'issueAssignedToYou':
      return 'assigned you';
    case 'issueMention':
      return 'mentioned you';
    case 'issueCommentMention':
      return 'mentioned you in a comment';
    case 'issueNewComment':
      return n.parentCommentId ? 'replied to a comment' : 'commented';
    case 'issueStatusChanged':
      return STATE_WORDS[n.issueStatusType ?? ''] ?? 'changed the state';
    case 'projectUpdateCreated':
      return 'posted an update';
    default:
      return 'updated';
  }
}

/** From this width the inbox has its preview pane (the sidebar included). */
const WIDE = '(min-width: 1000px)';
/** How long a group stays selected in the preview before it counts as read: J/K skimming past reads nothing. */
export const PREVIEW_DWELL_MS = 1000;

const wideQuery = () => window.matchMedia(WIDE);
function useWide() {
  return useSyncExternalStore(
    (changed) => {
      const media = wideQuery();
      media.addEventListener('change', changed);
      return () => media.removeEventListener('change', changed);
    },
    () => wideQuery().matches,
  );
}

export function InboxPage({
  filter,
  setFilter,
}: {
  filter: InboxFilter;
  setFilter: (f: InboxFilter) => void;
}) {
  const inbox = useInbox(filter);
  const update = useUpdateGroup();
  const readAll = useMarkAllRead();
  const navigate = useNavigate();
  const wide = useWide();
  const items = inbox.data?.pages.flatMap((p) => p.notifications) ?? [];
  const groups = groupInbox(items);
  const latest = useRef(groups);
  latest.current = groups;
  // The row the keys act on: a ref, not state, so keys pressed faster than React renders
  // each start from the one before. The selected group (the preview's, by its key) follows it.
  const focus = useRef(-1);
  const [selected, setSelected] = useState<string | null>(null);
  const [snoozing, setSnoozing] = useState<string | null>(null);
  const dwell = useRef<ReturnType<typeof setTimeout>>(undefined);
  // The selected group once acted on (Mark unread clicked on it, say): its dwell reads nothing.
  const actedOn = useRef<string | null>(null);
  const selectedNow = useRef<string | null>(null);
  const select = (id: string | null) => {
    if (id !== selectedNow.current) actedOn.current = null;
    selectedNow.current = id;
    setSelected(id);
  };
  const change = (g: InboxGroup, c: NotificationChange) => {
    clearTimeout(dwell.current);
    actedOn.current = g.key;
    update.mutate({ group: g, change: c });
  };

  const focusRow = (i: number) => {
    focus.current = i;
    select(latest.current[i]?.key ?? null);
    document.querySelector<HTMLElement>(`[data-inbox-row="${i}"]`)?.focus();
  };
  const move = (by: number) => focusRow(Math.max(0, Math.min(groups.length - 1, focus.current + by)));
  // biome-ignore lint/correctness/useExhaustiveDependencies: resetting on a new filter is the point
  useEffect(() => {
    focus.current = -1;
    select(null);
  }, [filter]);
  // A row that went away (archived, snoozed) while it had focus leaves it on its neighbour.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change in the rows' number moves focus
  useEffect(() => {
    if (focus.current >= 0 && pageHoldsKeyboard()) focusRow(Math.min(focus.current, groups.length - 1));
  }, [groups.length]);
  // Previewed for a moment, a group counts as read: once per selection, and not if acted on first.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new selection (or width) starts the wait, nothing else
  useEffect(() => {
    if (!wide || !selected) return;
    dwell.current = setTimeout(() => {
      const g = latest.current.find((x) => x.key === selected);
      if (g && g.unread > 0 && actedOn.current !== g.key) update.mutate({ group: g, change: { read: true } });
    }, PREVIEW_DWELL_MS);
    return () => clearTimeout(dwell.current);
  }, [selected, wide]);

  const open = (g: InboxGroup) => {
    if (g.unread > 0) change(g, { read: true });
    const place = placeOf(g);
    if (place.project)
      void navigate({ to: '/projects/$id', params: { id: place.project.id }, hash: place.hash });
    else void navigate({ to: '/issue/$id', params: { id: place.issue.identifier } });
  };
  const focused = () => groups[focus.current];
  useShortcuts({
    'inbox.down': () => move(1),
    'inbox.up': () => move(-1),
    // Enter on a row opens its issue or project; on a button or in a menu it stays that control's.
    'inbox.open': () => {
      const row = (document.activeElement as HTMLElement | null)?.dataset['inboxRow'];
      const g = row === undefined ? undefined : groups[Number(row)];
      if (!g) return false;
      open(g);
    },
    'inbox.archive': () => {
      const g = focused();
      if (g) change(g, { archived: filter !== 'archived' });
    },
    'inbox.read': () => {
      const g = focused();
      if (g) change(g, { read: g.unread > 0 });
    },
    'inbox.snooze': () => {
      const g = focused();
      if (g && filter !== 'archived') setSnoozing(g.key);
    },
  });

  const unread = items.filter((n) => !n.readAt).length;
  const preview = wide ? groups.find((g) => g.key === selected) : undefined;
  return (
    <div className="page inbox-page">
      <PageHeader title="Inbox">
        {filter !== 'archived' && (
          <Button
            onClick={() => readAll.mutate()}
            busy={readAll.isPending}
            disabled={unread === 0 && !inbox.hasNextPage}
          >
            Mark all read
          </Button>
        )}
      </PageHeader>
      <fieldset className="segmented" aria-label="Show">
        {FILTERS.map((f) => (
          <button
            key={f.value}
            type="button"
            className="btn btn-ghost"
            aria-pressed={filter === f.value}
            onClick={() => setFilter(f.value)}
          >
            {f.label}
          </button>
        ))}
      </fieldset>
      <ErrorMessage error={update.error ?? readAll.error ?? inbox.error} />
      <div className={`inbox-split${wide ? ' wide' : ''}`}>
        <div className="inbox-main">
          {inbox.isLoading ? (
            <Loading label="Loading notifications" />
          ) : groups.length === 0 ? (
            <p className="empty-state">{EMPTY[filter]}</p>
          ) : (
            <ul className="inbox-list" aria-label="Notifications">
              {groups.map((g, i) => (
                <InboxRow
                  key={g.key}
                  group={g}
                  index={i}
                  archived={filter === 'archived'}
                  selected={wide && selected === g.key}
                  onOpen={() => (wide ? focusRow(i) : open(g))}
                  onFocus={() => {
                    focus.current = i;
                    select(g.key);
                  }}
                  onChange={(c) => change(g, c)}
                  snoozeOpen={snoozing === g.key}
                  setSnoozeOpen={(o) => setSnoozing(o ? g.key : null)}
                />
              ))}
            </ul>
          )}
          {inbox.hasNextPage && (
            <Button onClick={() => void inbox.fetchNextPage()} busy={inbox.isFetchingNextPage}>
              Load more
            </Button>
          )}
        </div>
        {wide && groups.length > 0 && <Preview group={preview} />}
      </div>
    </div>
  );
}

function InboxRow({
  group,
  index,
  archived,
  selected,
  onOpen,
  onFocus,
  onChange,
  snoozeOpen,
  setSnoozeOpen,
}: {
  group: InboxGroup;
  index: number;
  /** Shown in the Archived filter: its actions unarchive. */
  archived: boolean;
  selected: boolean;
  onOpen: () => void;
  onFocus: () => void;
  onChange: (c: NotificationChange) => void;
  snoozeOpen: boolean;
  setSnoozeOpen: (open: boolean) => void;
}) {
  const { unread } = group;
  const newest = group.events[0]!;
  const place = placeOf(group);
  const who = newest.actor?.name ?? 'Someone';
  const now = new Date().toISOString();
  const snoozed = group.events.some((n) => n.snoozedUntilAt && n.snoozedUntilAt > now);
  const label = labelOf(group);
  const onClick = (e: MouseEvent) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    onOpen();
  };
  const body = (
    <>
      <span className="inbox-dot" aria-hidden="true" />
      <Initials person={newest.actor} />
      <span className="inbox-text">
        {place.project ? (
          <span className="inbox-issue">
            <span className="ident">Project</span> {place.project.name}
          </span>
        ) : (
          <span className="inbox-issue">
            <span className="ident">{place.issue.identifier}</span> {place.issue.title}
          </span>
        )}
        <span className="inbox-what">
          <strong>{who}</strong> {whatHappened(newest)}
          {newest.projectUpdate && (
            <>
              {' '}
              <HealthBadge health={newest.projectUpdate.health} />
            </>
          )}
        </span>
        {newest.projectUpdate?.bodyPreview && (
          <span className="inbox-excerpt muted small">{plainPreview(newest.projectUpdate.bodyPreview)}</span>
        )}
      </span>
      {unread > 0 && <span className="inbox-new">{unread} new</span>}
      <span className="inbox-time muted small">
        {snoozed ? 'Snoozed · ' : ''}
        <RelativeTime iso={newest.createdAt} />
      </span>
    </>
  );
  const link = {
    className: 'inbox-open',
    'data-inbox-row': index,
    'aria-current': selected ? ('true' as const) : undefined,
    onClick,
  };
  return (
    <li className={`inbox-row${unread > 0 ? ' unread' : ''}${selected ? ' selected' : ''}`} onFocus={onFocus}>
      {place.project ? (
        <Link to="/projects/$id" params={{ id: place.project.id }} hash={place.hash} {...link}>
          {body}
        </Link>
      ) : (
        <Link to="/issue/$id" params={{ id: place.issue.identifier }} {...link}>
          {body}
        </Link>
      )}
      <div className="inbox-actions">
        <button
          type="button"
          className="btn btn-ghost"
          onClick={() => onChange({ read: unread > 0 })}
          aria-label={`${unread > 0 ? 'Mark read' : 'Mark unread'}: ${label}`}
        >
          {unread > 0 ? 'Mark read' : 'Mark unread'}
        </button>
        {!archived && (
          <SnoozeMenu
            label={label}
            open={snoozeOpen}
            setOpen={setSnoozeOpen}
            onPick={(until) => onChange({ snoozedUntilAt: until.toISOString() })}
          />
        )}
        <button
          type="button"
          className="btn btn-ghost"
          onClick={() => onChange({ archived: !archived })}
          aria-label={`${archived ? 'Unarchive' : 'Archive'}: ${label}`}
        >
          {archived ? 'Unarchive' : 'Archive'}
        </button>
      </div>
    </li>
  );
}

/** An issue's row or a project's, as the row and the preview show it; `hash` points the project's page at the update. */
type Place =
  | { issue: NonNullable<InboxGroup['issue']>; project: null }
  | { issue: null; project: NonNullable<InboxGroup['project']>; hash: string | undefined };

function placeOf(g: InboxGroup): Place {
  if (g.project) {
    const update = g.events[0]?.projectUpdateId;
    return { issue: null, project: g.project, hash: update ? `update-${update}` : undefined };
  }
  return { issue: g.issue!, project: null };
}

/** How the row's buttons name it: the issue's identifier, or the project's name. */
const labelOf = (g: InboxGroup) => (g.project ? g.project.name : (g.issue?.identifier ?? ''));

/** An update's preview as one line of text: Markdown's marks left out. */
const plainPreview = (text: string) =>
  text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[#*_`>~]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** The selected group beside the list: its issue, or its project's newest update; and the group's events. */
function Preview({ group }: { group: InboxGroup | undefined }) {
  if (!group)
    return (
      <section className="inbox-preview empty" aria-label="Preview">
        <p className="muted">Select a notification (J/K or click) to see its issue or project update here.</p>
      </section>
    );
  const place = placeOf(group);
  return place.project ? (
    <ProjectPreview group={group} project={place.project} hash={place.hash} />
  ) : (
    <IssuePreview group={group} issue={place.issue} />
  );
}

/** An issue's properties and description. */
function IssuePreview({ group, issue: row }: { group: InboxGroup; issue: NonNullable<InboxGroup['issue']> }) {
  const detail = useIssueDetail(row.identifier, true);
  const ref = useRefData().data;
  const issue = detail.data;
  const state = issue ? ref?.stateById.get(issue.state.id) : undefined;
  const assignee = issue?.assignee ? ref?.personById.get(issue.assignee.id) : undefined;
  return (
    <section className="inbox-preview" aria-label={`Preview: ${row.identifier}`}>
      <div className="inbox-preview-head">
        <span className="ident muted">{row.identifier}</span>
        <Link to="/issue/$id" params={{ id: row.identifier }} className="btn btn-ghost">
          Open issue
        </Link>
      </div>
      <h2 className="inbox-preview-title">{issue?.title ?? row.title}</h2>
      {detail.isLoading ? (
        <Loading label="Loading issue" />
      ) : !issue ? (
        <ErrorMessage error={detail.error ?? 'Issue not found'} />
      ) : (
        <>
          <dl className="inbox-preview-props">
            <div>
              <dt>State</dt>
              <dd>
                <StateIcon state={state} /> {state?.name ?? 'Unknown'}
              </dd>
            </div>
            <div>
              <dt>Assignee</dt>
              <dd>{assignee?.name ?? 'No assignee'}</dd>
            </div>
            <div>
              <dt>Priority</dt>
              <dd>
                <PriorityIcon priority={issue.priority} /> {priorityLabel(issue.priority)}
              </dd>
            </div>
          </dl>
          {issue.description ? (
            <Markdown source={issue.description} />
          ) : (
            <p className="muted">No description.</p>
          )}
        </>
      )}
      <PreviewEvents group={group} />
    </section>
  );
}

/** A project's newest update in the group: its health, author and text, and the way to the project. */
function ProjectPreview({
  group,
  project,
  hash,
}: {
  group: InboxGroup;
  project: NonNullable<InboxGroup['project']>;
  hash: string | undefined;
}) {
  const updateId = group.events[0]?.projectUpdateId ?? '';
  const q = useQuery({
    queryKey: keys.projects.update(updateId),
    queryFn: () => ok(rest.GET('/api/project-updates/{id}', { params: { path: { id: updateId } } })),
    enabled: updateId !== '',
  });
  const update = q.data?.projectUpdate;
  return (
    <section className="inbox-preview" aria-label={`Preview: ${project.name}`}>
      <div className="inbox-preview-head">
        <span className="ident muted">Project update</span>
        <Link to="/projects/$id" params={{ id: project.id }} hash={hash} className="btn btn-ghost">
          Open project
        </Link>
      </div>
      <h2 className="inbox-preview-title">{project.name}</h2>
      {q.isLoading ? (
        <Loading label="Loading update" />
      ) : !update ? (
        <ErrorMessage error={q.error ?? 'Update not found'} />
      ) : (
        <article className="project-update">
          <div className="comment-head">
            <HealthBadge health={update.health} />
            <strong>{update.user?.name ?? 'Someone'}</strong>
            <span className="muted small">
              <RelativeTime iso={update.createdAt} />
              {update.editedAt ? ' (edited)' : ''}
            </span>
          </div>
          {update.body ? <Markdown source={update.body} /> : <p className="muted">No text.</p>}
        </article>
      )}
      <PreviewEvents group={group} />
    </section>
  );
}

/** The group's notifications, newest first, read ones dimmed. */
function PreviewEvents({ group }: { group: InboxGroup }) {
  return (
    <>
      <h3 className="inbox-preview-events-title">In your inbox</h3>
      <ul className="inbox-preview-events">
        {group.events.map((n) => (
          <li key={n.id} className={n.readAt ? 'read' : undefined}>
            {!n.readAt && <span className="sr-only">Unread: </span>}
            <strong className="who">{n.actor?.name ?? 'Someone'}</strong> {whatHappened(n)}{' '}
            <span className="muted small">
              <RelativeTime iso={n.createdAt} />
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

/** "Snooze" and its menu of times; arrows move, Escape closes and gives focus back. */
function SnoozeMenu({
  label,
  open,
  setOpen,
  onPick,
}: {
  label: string;
  open: boolean;
  setOpen: (o: boolean) => void;
  onPick: (until: Date) => void;
}) {
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (open) menu.current?.querySelector<HTMLElement>('[role=menuitem]')?.focus();
  }, [open]);
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  return (
    <span className="snooze">
      <button
        ref={button}
        type="button"
        className="btn btn-ghost"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={`Snooze: ${label}`}
        onClick={() => setOpen(!open)}
      >
        Snooze
      </button>
      {open && (
        <div
          ref={menu}
          className="menu"
          role="menu"
          aria-label={`Snooze ${label} until`}
          onKeyDown={(e) => {
            const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role=menuitem]') ?? [])];
            const at = items.indexOf(document.activeElement as HTMLElement);
            if (e.key === 'Escape') {
              e.stopPropagation();
              close();
            } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              e.stopPropagation();
              const next = (at + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length;
              items[next]?.focus();
            }
          }}
          onBlur={(e) => {
            if (!menu.current?.contains(e.relatedTarget as Node) && e.relatedTarget !== button.current)
              setOpen(false);
          }}
        >
          {snoozeChoices().map((c) => (
            <button
              key={c.label}
              type="button"
              role="menuitem"
              className="menu-item"
              onClick={() => {
                onPick(c.until);
                setOpen(false);
              }}
            >
              {c.label}
              <span className="muted small">{weekdayTime(c.until)}</span>
            </button>
          ))}
        </div>
      )}
    </span>
  );
}
