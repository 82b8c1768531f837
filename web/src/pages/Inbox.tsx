// The inbox: the caller's notifications newest first. Opening one goes to its
// issue and marks it read; each can be marked read or unread, archived or
// snoozed, and the keyboard does all of it (lib/keys.ts lists the keys).
// Loaded when first opened (router.tsx): the first screen stays small.
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { Initials } from '../components/IssueBits';
import { RelativeTime } from '../components/RelativeTime';
import { Button, ErrorMessage, Loading, PageHeader } from '../components/ui';
import { useShortcuts } from '../lib/keys';
import {
  type InboxFilter,
  type Notification,
  type NotificationChange,
  snoozeChoices,
  useInbox,
  useMarkAllRead,
  useUpdateNotification,
} from '../lib/notifications';

const FILTERS: { value: InboxFilter; label: string }[] = [
  { value: 'unread', label: 'Unread' },
  { value: 'all', label: 'All' },
  { value: 'archived', label: 'Archived' },
];
const EMPTY: Record<InboxFilter, string> = {
  unread: 'No unread notifications. You are all caught up.',
  all: 'Your inbox is empty. Assignments, mentions, comments and state changes on issues you follow show here.',
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
    default:
      return 'updated';
  }
}

export function InboxPage({
  filter,
  setFilter,
}: {
  filter: InboxFilter;
  setFilter: (f: InboxFilter) => void;
}) {
  const inbox = useInbox(filter);
  const update = useUpdateNotification();
  const readAll = useMarkAllRead();
  const navigate = useNavigate();
  const items = inbox.data?.pages.flatMap((p) => p.notifications) ?? [];
  // The row the keys act on: a ref, not state, so keys pressed faster than React renders
  // each start from the one before (and nothing on screen depends on it but DOM focus).
  const focus = useRef(-1);
  const [snoozing, setSnoozing] = useState<string | null>(null);
  const change = (n: Notification, c: NotificationChange) => update.mutate({ id: n.id, change: c });

  const focusRow = (i: number) => {
    focus.current = i;
    document.querySelector<HTMLElement>(`[data-inbox-row="${i}"]`)?.focus();
  };
  const move = (by: number) => focusRow(Math.max(0, Math.min(items.length - 1, focus.current + by)));
  // biome-ignore lint/correctness/useExhaustiveDependencies: resetting on a new filter is the point
  useEffect(() => {
    focus.current = -1;
  }, [filter]);
  // A row that went away (archived, snoozed) while it had focus leaves it on its neighbour.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change in the rows' number moves focus
  useEffect(() => {
    if (focus.current >= 0 && document.activeElement === document.body)
      focusRow(Math.min(focus.current, items.length - 1));
  }, [items.length]);

  const open = (n: Notification) => {
    if (!n.readAt) change(n, { read: true });
    void navigate({ to: '/issue/$id', params: { id: n.issue.identifier } });
  };
  const archive = (n: Notification) => change(n, { archived: !n.archivedAt });
  const focused = () => items[focus.current];
  const next = () => move(1);
  const previous = () => move(-1);
  const archiveFocused = () => {
    const n = focused();
    if (n) archive(n);
  };
  useShortcuts({
    'inbox.down': next,
    'inbox.up': previous,
    'inbox.archive': archiveFocused,
    'inbox.read': () => {
      const n = focused();
      if (n) change(n, { read: !n.readAt });
    },
    'inbox.snooze': () => {
      const n = focused();
      if (n && !n.archivedAt) setSnoozing(n.id);
    },
  });

  const unread = items.filter((n) => !n.readAt).length;
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
      {inbox.isLoading ? (
        <Loading label="Loading notifications" />
      ) : items.length === 0 ? (
        <p className="empty-state">{EMPTY[filter]}</p>
      ) : (
        <ul className="inbox-list" aria-label="Notifications">
          {items.map((n, i) => (
            <InboxRow
              key={n.id}
              n={n}
              index={i}
              onOpen={() => open(n)}
              onFocus={() => {
                focus.current = i;
              }}
              onChange={(c) => change(n, c)}
              snoozeOpen={snoozing === n.id}
              setSnoozeOpen={(o) => setSnoozing(o ? n.id : null)}
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
  );
}

function InboxRow({
  n,
  index,
  onOpen,
  onFocus,
  onChange,
  snoozeOpen,
  setSnoozeOpen,
}: {
  n: Notification;
  index: number;
  onOpen: () => void;
  onFocus: () => void;
  onChange: (c: NotificationChange) => void;
  snoozeOpen: boolean;
  setSnoozeOpen: (open: boolean) => void;
}) {
  const who = n.actor?.name ?? 'Someone';
  const snoozed = n.snoozedUntilAt && n.snoozedUntilAt > new Date().toISOString();
  return (
    <li className={`inbox-row${n.readAt ? '' : ' unread'}`} onFocus={onFocus}>
      <Link
        to="/issue/$id"
        params={{ id: n.issue.identifier }}
        className="inbox-open"
        data-inbox-row={index}
        onClick={(e) => {
          if (e.metaKey || e.ctrlKey || e.shiftKey) return;
          e.preventDefault();
          onOpen();
        }}
      >
        <span className="inbox-dot" aria-hidden="true" />
        {!n.readAt && <span className="sr-only">Unread: </span>}
        <Initials person={n.actor} />
        <span className="inbox-text">
          <span className="inbox-what">
            <strong>{who}</strong> {whatHappened(n)}
          </span>
          <span className="inbox-issue">
            <span className="ident">{n.issue.identifier}</span> {n.issue.title}
          </span>
        </span>
        <span className="inbox-time muted small">
          {snoozed ? 'Snoozed · ' : ''}
          <RelativeTime iso={n.createdAt} />
        </span>
      </Link>
      <div className="inbox-actions">
        <button
          type="button"
          className="btn btn-ghost"
          onClick={() => onChange({ read: !n.readAt })}
          aria-label={`${n.readAt ? 'Mark unread' : 'Mark read'}: ${n.issue.identifier}`}
        >
          {n.readAt ? 'Mark unread' : 'Mark read'}
        </button>
        {!n.archivedAt && (
          <SnoozeMenu
            label={n.issue.identifier}
            open={snoozeOpen}
            setOpen={setSnoozeOpen}
            onPick={(until) => onChange({ snoozedUntilAt: until.toISOString() })}
          />
        )}
        <button
          type="button"
          className="btn btn-ghost"
          onClick={() => onChange({ archived: !n.archivedAt })}
          aria-label={`${n.archivedAt ? 'Unarchive' : 'Archive'}: ${n.issue.identifier}`}
        >
          {n.archivedAt ? 'Unarchive' : 'Archive'}
        </button>
      </div>
    </li>
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
              <span className="muted small">
                {c.until.toLocaleString(undefined, { weekday: 'short', hour: 'numeric', minute: '2-digit' })}
              </span>
            </button>
          ))}
        </div>
      )}
    </span>
  );
}
