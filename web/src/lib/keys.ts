// Keyboard shortcuts: one table (`SHORTCUTS`) that says which keys do what,
// where. Handlers register by the table's ids (`useShortcuts`), keys in a
// component's own onKeyDown are tested with `pressed(e, id)`, and the help
// dialog (`?`) lists the same table, so the three cannot disagree.
import { useEffect, useRef } from 'react';

/** True when a key press is meant for a text field or control, not a shortcut. */
export const typing = (e: KeyboardEvent) => {
  const t = e.target as HTMLElement | null;
  return Boolean(t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)));
};

interface Shortcut {
  id: string;
  /** The help dialog's section. */
  where: string;
  /**
   * What to press: a key as `KeyboardEvent.key` names it (letters lower-case),
   * `Shift+` before a shifted letter or arrow, `Mod+` for Ctrl or Cmd, and
   * `g i` for G then I.
   */
  keys: readonly string[];
  does: string;
  /** Also while typing in a field or with a dialog open (Ctrl/Cmd+K). */
  inFields?: boolean;
}

export const SHORTCUTS = [
  {
    id: 'app.command',
    where: 'Anywhere',
    keys: ['Mod+k'],
    does: 'Command menu: search, jump, act on the issue or selection',
    inFields: true,
  },
  { id: 'app.new', where: 'Anywhere', keys: ['c'], does: 'New issue' },
  {
    id: 'app.search',
    where: 'Anywhere',
    keys: ['/'],
    does: "Search: the page's search box, else the command menu",
  },
  { id: 'app.inbox', where: 'Anywhere', keys: ['i'], does: 'Open the inbox' },
  { id: 'app.help', where: 'Anywhere', keys: ['?'], does: 'This list' },
  { id: 'go.inbox', where: 'Go to', keys: ['g i'], does: 'Inbox' },
  { id: 'go.mine', where: 'Go to', keys: ['g m'], does: 'My issues' },
  { id: 'go.all', where: 'Go to', keys: ['g a'], does: 'All issues' },
  { id: 'go.team', where: 'Go to', keys: ['g t'], does: "Your team's issues" },
  { id: 'go.board', where: 'Go to', keys: ['g b'], does: "Your team's board" },
  { id: 'go.projects', where: 'Go to', keys: ['g p'], does: 'Projects' },
  { id: 'go.cycles', where: 'Go to', keys: ['g c'], does: 'Cycles' },
  { id: 'go.settings', where: 'Go to', keys: ['g s'], does: 'Account settings' },
  { id: 'list.down', where: 'Issue list', keys: ['j', 'ArrowDown'], does: 'Next row' },
  { id: 'list.up', where: 'Issue list', keys: ['k', 'ArrowUp'], does: 'Previous row' },
  {
    id: 'list.extendDown',
    where: 'Issue list',
    keys: ['Shift+j', 'Shift+ArrowDown'],
    does: 'Extend the selection down',
  },
  {
    id: 'list.extendUp',
    where: 'Issue list',
    keys: ['Shift+k', 'Shift+ArrowUp'],
    does: 'Extend the selection up',
  },
  { id: 'list.select', where: 'Issue list', keys: ['x', ' '], does: 'Select or unselect the focused row' },
  { id: 'list.open', where: 'Issue list', keys: ['Enter'], does: 'Open the issue' },
  { id: 'list.clear', where: 'Issue list', keys: ['Escape'], does: 'Clear the selection' },
  { id: 'list.filter', where: 'Issue list', keys: ['f'], does: 'Add a filter (type to find the field)' },
  {
    id: 'edit.status',
    where: 'Editing (focused row, selection or open issue)',
    keys: ['s'],
    does: 'Change status',
  },
  {
    id: 'edit.assignee',
    where: 'Editing (focused row, selection or open issue)',
    keys: ['a'],
    does: 'Change assignee',
  },
  {
    id: 'edit.priority',
    where: 'Editing (focused row, selection or open issue)',
    keys: ['p'],
    does: 'Change priority',
  },
  {
    id: 'edit.labels',
    where: 'Editing (focused row, selection or open issue)',
    keys: ['l'],
    does: 'Add or remove labels',
  },
  {
    id: 'edit.menu',
    where: 'Editing (focused row, selection or open issue)',
    keys: ['Shift+F10', 'ContextMenu'],
    does: 'Open the actions menu (right-click does too)',
  },
  { id: 'menu.down', where: 'In a menu', keys: ['ArrowDown'], does: 'Next choice (type to filter)' },
  { id: 'menu.up', where: 'In a menu', keys: ['ArrowUp'], does: 'Previous choice' },
  { id: 'menu.pick', where: 'In a menu', keys: ['Enter'], does: 'Choose (labels: toggle and stay open)' },
  { id: 'menu.close', where: 'In a menu', keys: ['Escape'], does: 'Close, back where you were' },
  {
    id: 'board.left',
    where: 'Board',
    keys: ['Shift+ArrowLeft'],
    does: 'Move the focused card to the previous column',
  },
  {
    id: 'board.right',
    where: 'Board',
    keys: ['Shift+ArrowRight'],
    does: 'Move the focused card to the next column',
  },
  {
    id: 'timeline.later',
    where: 'Timeline',
    keys: ['ArrowRight'],
    does: 'Move the focused project or milestone a day later',
  },
  { id: 'timeline.earlier', where: 'Timeline', keys: ['ArrowLeft'], does: 'Move it a day earlier' },
  {
    id: 'timeline.targetLater',
    where: 'Timeline',
    keys: ['Shift+ArrowRight'],
    does: "The focused project's target a day later",
  },
  {
    id: 'timeline.targetEarlier',
    where: 'Timeline',
    keys: ['Shift+ArrowLeft'],
    does: 'Its target a day earlier',
  },
  {
    id: 'timeline.startLater',
    where: 'Timeline',
    keys: ['Alt+ArrowRight'],
    does: "The focused project's start a day later",
  },
  {
    id: 'timeline.startEarlier',
    where: 'Timeline',
    keys: ['Alt+ArrowLeft'],
    does: 'Its start a day earlier',
  },
  { id: 'issue.next', where: 'Issue', keys: ['j'], does: 'Next issue of the list you came from' },
  { id: 'issue.previous', where: 'Issue', keys: ['k'], does: 'Previous issue of that list' },
  { id: 'issue.back', where: 'Issue', keys: ['Escape'], does: 'Back to the list' },
  { id: 'inbox.down', where: 'Inbox', keys: ['j', 'ArrowDown'], does: 'Next row (the preview follows)' },
  { id: 'inbox.up', where: 'Inbox', keys: ['k', 'ArrowUp'], does: 'Previous row' },
  {
    id: 'inbox.open',
    where: 'Inbox',
    keys: ['Enter'],
    does: 'Open the issue or project (and mark its notifications read)',
  },
  {
    id: 'inbox.archive',
    where: 'Inbox',
    keys: ['e', 'Backspace'],
    does: "Archive (or unarchive) the issue's or project's notifications",
  },
  { id: 'inbox.read', where: 'Inbox', keys: ['u'], does: "Mark the row's notifications read / unread" },
  { id: 'inbox.snooze', where: 'Inbox', keys: ['h'], does: "Snooze the row's notifications" },
  { id: 'triage.down', where: 'Triage', keys: ['j', 'ArrowDown'], does: 'Next issue (the preview follows)' },
  { id: 'triage.up', where: 'Triage', keys: ['k', 'ArrowUp'], does: 'Previous issue' },
  { id: 'triage.select', where: 'Triage', keys: ['x'], does: 'Select or unselect the focused issue' },
  { id: 'triage.open', where: 'Triage', keys: ['Enter'], does: 'Open the issue' },
  {
    id: 'triage.accept',
    where: 'Triage',
    keys: ['1'],
    does: 'Accept the focused issue or the selection (optionally with priority and assignee)',
  },
  { id: 'triage.decline', where: 'Triage', keys: ['2'], does: 'Decline (with an optional comment)' },
  {
    id: 'triage.duplicate',
    where: 'Triage',
    keys: ['3'],
    does: 'Mark as duplicate of an issue you search for',
  },
  { id: 'triage.snooze', where: 'Triage', keys: ['4', 'h'], does: 'Snooze until a time or date' },
  {
    id: 'triage.clear',
    where: 'Triage',
    keys: ['Escape'],
    does: 'Clear the selection (in a dialog: close it)',
  },
] as const satisfies readonly Shortcut[];

export type ShortcutId = (typeof SHORTCUTS)[number]['id'];
/** A handler that returns false leaves the key alone (Space on a button stays a click). */
type Handlers = Partial<Record<ShortcutId, () => unknown>>;

const BY_ID = new Map<string, Shortcut>(SHORTCUTS.map((s) => [s.id, s]));
const NAMES: Record<string, string> = {
  ' ': 'Space',
  ArrowDown: '↓',
  ArrowUp: '↑',
  ArrowLeft: '←',
  ArrowRight: '→',
  Mod: 'Ctrl/⌘',
  Alt: 'Alt/⌥',
  ContextMenu: 'Menu',
};

/** How the help dialog writes a key: `g i` as "G then I", `Mod+k` as "Ctrl/⌘ K". */
export const keyLabel = (key: string) =>
  key
    .split(' ')
    .map((step) =>
      step
        .split('+')
        .map((part) => NAMES[part] ?? (part.length === 1 ? part.toUpperCase() : part))
        .join(' '),
    )
    .join(' then ');

/** The key a press stands for in the table's notation (without the G prefix); Alt counts on arrows only (the timeline's). */
export function keyOf(
  e: KeyboardEvent | { key: string; shiftKey: boolean; ctrlKey: boolean; metaKey: boolean; altKey?: boolean },
) {
  const single = e.key.length === 1;
  const base = single ? e.key.toLowerCase() : e.key;
  // Shift matters for letters and arrows; `?` is already the shifted key.
  const shifted =
    e.shiftKey && ((single && /[a-z]/i.test(e.key)) || e.key.startsWith('Arrow') || e.key === 'F10');
  const alt = e.altKey && e.key.startsWith('Arrow');
  return `${e.ctrlKey || e.metaKey ? 'Mod+' : ''}${alt ? 'Alt+' : ''}${shifted ? 'Shift+' : ''}${base}`;
}

/** Whether a key press (in a component's own onKeyDown) is this shortcut. */
export const pressed = (
  e: { key: string; shiftKey: boolean; ctrlKey: boolean; metaKey: boolean; altKey?: boolean },
  id: ShortcutId,
) => (BY_ID.get(id)?.keys ?? []).includes(keyOf(e));

// One window listener for every registered set of handlers; the newest set that
// handles a key wins (a page's keys over the frame's).
const registered: { current: Handlers }[] = [];
/** When G was pressed: the next key within this time is a "go to". */
let gAt = 0;
const G_WINDOW_MS = 1500;

function onKey(e: KeyboardEvent) {
  if (e.defaultPrevented || e.altKey) return;
  const key = keyOf(e);
  const calm = !typing(e) && !document.querySelector('dialog[open], [data-menu-open]');
  const pendingG = Date.now() - gAt < G_WINDOW_MS;
  gAt = 0;
  const wanted = pendingG && calm ? `g ${key}` : key;
  const matching = SHORTCUTS.filter(
    (s) => (s.keys as readonly string[]).includes(wanted) && (calm || ('inFields' in s && s.inFields)),
  );
  if (!calm && matching.length === 0) return;
  if (calm && (e.ctrlKey || e.metaKey) && matching.length === 0) return;
  for (let n = registered.length - 1; n >= 0; n--) {
    const handlers = registered[n]!.current;
    const hit = matching.find((s) => handlers[s.id]);
    if (hit) {
      if (handlers[hit.id]!() !== false) e.preventDefault();
      return;
    }
  }
  if (calm && key === 'g' && !pendingG) gAt = Date.now();
}

/** Runs `handlers[id]` when a key of that shortcut is pressed, while mounted. */
export function useShortcuts(handlers: Handlers) {
  const current = useRef(handlers);
  current.current = handlers;
  useEffect(() => {
    const entry = current;
    registered.push(entry);
    if (registered.length === 1) window.addEventListener('keydown', onKey);
    return () => {
      registered.splice(registered.indexOf(entry), 1);
      if (registered.length === 0) window.removeEventListener('keydown', onKey);
    };
  }, []);
}

/** Opens the New issue dialog from anywhere in the app, in a team if given (the frame listens; see Shell). */
export const NEW_ISSUE_EVENT = 'trackway:new-issue';
export const openNewIssue = (teamId?: string) =>
  window.dispatchEvent(new CustomEvent(NEW_ISSUE_EVENT, { detail: { teamId } }));
