// Single-key shortcuts: one rule for when a key is a shortcut, and one list of
// them that the help dialog (`?`) shows, so the two cannot disagree.
import { useEffect, useRef } from 'react';

/** True when a key press is meant for a text field or control, not a shortcut. */
export const typing = (e: KeyboardEvent) => {
  const t = e.target as HTMLElement | null;
  return Boolean(t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)));
};

/** A plain key press outside fields and dialogs, with no modifier but Shift. */
const isShortcut = (e: KeyboardEvent) =>
  !typing(e) && !e.metaKey && !e.ctrlKey && !e.altKey && !document.querySelector('dialog[open]');

export const SHORTCUTS: { where: string; keys: string; does: string }[] = [
  { where: 'Anywhere', keys: 'Ctrl K', does: 'Search or jump to…' },
  { where: 'Anywhere', keys: 'C', does: 'New issue' },
  { where: 'Anywhere', keys: 'I', does: 'Open the inbox' },
  { where: 'Anywhere', keys: '?', does: 'This list' },
  { where: 'Issue list', keys: 'J / K', does: 'Next / previous issue' },
  { where: 'Issue list', keys: 'Enter', does: 'Open the issue' },
  { where: 'Issue list', keys: 'X', does: 'Select the focused issue' },
  { where: 'Inbox', keys: 'J / K', does: 'Next / previous notification' },
  { where: 'Inbox', keys: 'Enter', does: 'Open its issue (and mark it read)' },
  { where: 'Inbox', keys: 'E / Backspace', does: 'Archive (or unarchive)' },
  { where: 'Inbox', keys: 'U', does: 'Mark read / unread' },
  { where: 'Inbox', keys: 'H', does: 'Snooze' },
  { where: 'Board', keys: 'Shift ← / →', does: 'Move the focused card to the next column' },
  { where: 'Issue', keys: 'S', does: 'Change state' },
  { where: 'Issue', keys: 'P', does: 'Change priority' },
  { where: 'Issue', keys: 'A', does: 'Change assignee' },
  { where: 'Issue', keys: 'L', does: 'Change labels' },
];

/** Calls `handlers[key]` for a shortcut key (lower-cased; `?` as is) while mounted. */
export function useShortcuts(handlers: Record<string, () => void>) {
  const current = useRef(handlers);
  current.current = handlers;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!isShortcut(e)) return;
      const run = current.current[e.key.length === 1 ? e.key.toLowerCase() : e.key];
      if (!run) return;
      e.preventDefault();
      run();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/** Opens the New issue dialog from anywhere in the app (the frame listens; see Shell). */
export const NEW_ISSUE_EVENT = 'trackway:new-issue';
export const openNewIssue = () => window.dispatchEvent(new Event(NEW_ISSUE_EVENT));
