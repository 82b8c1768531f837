// Quick edits on the issues in hand, from the keyboard (S, A, P, L), a right
// click (the actions menu) or the command menu: one host in the frame opens a
// small menu with type-to-filter, arrows, Enter and Escape, writes the choice
// (lib/issue-edits.ts: shown at once, put back if refused) and says what it did.
import { type CSSProperties, useEffect, useId, useRef, useState } from 'react';
import { graphql } from '../gql';
import { gql } from '../lib/api';
import { type Choice, changeFor, choices, EDIT_TITLES, type EditKind, editIssues } from '../lib/issue-edits';
import type { Issue, IssueUpdateInput, LocalPatch } from '../lib/issues';
import { keyLabel, pressed, SHORTCUTS, type ShortcutId, useShortcuts } from '../lib/keys';
import { useCycles, useProjects, useRefData } from '../lib/ref';
import { useSession } from '../lib/session';
import { heldIssues } from '../lib/targets';
import { ErrorMessage } from './ui';

type Opening =
  | { what: EditKind | 'actions'; issues: readonly Issue[]; at?: { x: number; y: number } }
  | { what: 'direct'; issues: readonly Issue[]; input: IssueUpdateInput; local: LocalPatch; says: string };

const EDIT_EVENT = 'trackway:quick-edit';

/**
 * Opens a menu on these issues (the ones in hand when not given), at a point
 * (a right click) or by the focused element.
 */
export const openEdit = (
  what: EditKind | 'actions',
  issues?: readonly Issue[],
  at?: { x: number; y: number },
) =>
  window.dispatchEvent(
    new CustomEvent<Opening>(EDIT_EVENT, { detail: { what, issues: issues ?? heldIssues(), at } }),
  );

/** Writes a change with no menu (the command menu's "Assign to me"); `says` is announced. */
export const editNow = (issues: readonly Issue[], input: IssueUpdateInput, local: LocalPatch, says: string) =>
  window.dispatchEvent(
    new CustomEvent<Opening>(EDIT_EVENT, { detail: { what: 'direct', issues, input, local, says } }),
  );

const names = (issues: readonly Issue[]) =>
  issues.length === 1 ? issues[0]!.identifier : `${issues.length} issues`;

/** The frame's one host: S/A/P/L on the issues in hand, and every menu opened by openEdit. */
export function QuickEditHost() {
  const { user } = useSession();
  const [open, setOpen] = useState<(Opening & { what: EditKind | 'actions' }) | null>(null);
  const [said, setSaid] = useState('');
  const [error, setError] = useState<unknown>(null);
  const readOnly = !user || user.role === 'guest';
  const back = useRef<HTMLElement | null>(null);

  async function write(issues: readonly Issue[], input: IssueUpdateInput, local: LocalPatch, says: string) {
    setError(null);
    setSaid(says);
    try {
      await editIssues(issues, input, local);
    } catch (e) {
      setSaid(`Not saved: ${says}`);
      setError(e);
    }
  }

  useEffect(() => {
    const onOpen = (e: Event) => {
      const d = (e as CustomEvent<Opening>).detail;
      if (readOnly || d.issues.length === 0) return;
      if (d.what === 'direct') return void write(d.issues, d.input, d.local, d.says);
      back.current = document.activeElement as HTMLElement | null;
      setOpen(d);
    };
    window.addEventListener(EDIT_EVENT, onOpen);
    return () => window.removeEventListener(EDIT_EVENT, onOpen);
  });

  const key = (what: EditKind) => () => openEdit(what);
  useShortcuts({
    'edit.status': key('status'),
    'edit.assignee': key('assignee'),
    'edit.priority': key('priority'),
    'edit.labels': key('labels'),
    'edit.menu': () => openEdit('actions'),
  });

  const close = () => {
    setOpen(null);
    // Back where the keyboard was (the row, the issue), unless it moved on meanwhile.
    requestAnimationFrame(() => {
      if (back.current?.isConnected) back.current.focus();
    });
  };
  const at = open ? placeOf(open.at) : {};

  return (
    <>
      <div className="sr-only" role="status">
        {said}
      </div>
      {error ? (
        <div className="quick-edit-error">
          <ErrorMessage error={error} />
        </div>
      ) : null}
      {open?.what === 'actions' && (
        <ActionsMenu
          issues={open.issues}
          style={at}
          onClose={close}
          onChoose={(what) => setOpen({ ...open, what })}
          onAssignMe={(me) => {
            close();
            void write(
              open.issues,
              { assigneeId: me },
              { assigneeId: me },
              `${names(open.issues)} assigned to you`,
            );
          }}
        />
      )}
      {open && open.what !== 'actions' && (
        <EditMenu
          kind={open.what}
          issues={open.issues}
          style={at}
          onClose={close}
          onPick={(choice, keepOpen) => {
            if (!keepOpen) close();
            const { input, local } = changeFor(open.what as EditKind, choice, open.issues);
            const verb = open.what === 'labels' ? (choice.checked ? 'removed from' : 'added to') : 'set on';
            void write(open.issues, input, local, `${choice.label} ${verb} ${names(open.issues)}`);
          }}
        />
      )}
    </>
  );
}

/** Beside the point clicked, else under the focused row, else near the top. */
function placeOf(at: { x: number; y: number } | undefined): CSSProperties {
  if (at)
    return { left: Math.min(at.x, window.innerWidth - 300), top: Math.min(at.y, window.innerHeight - 320) };
  const el = document.activeElement as HTMLElement | null;
  const r = el && el !== document.body ? el.getBoundingClientRect() : null;
  if (r && r.height < 200)
    return {
      left: Math.min(r.left + 24, window.innerWidth - 300),
      top: Math.min(r.bottom + 4, window.innerHeight - 320),
    };
  return { left: Math.max(8, window.innerWidth / 2 - 150), top: 96 };
}

/** Closes on a click outside the element. */
function useClickOutside(onOutside: () => void) {
  const box = useRef<HTMLDivElement>(null);
  const latest = useRef(onOutside);
  latest.current = onOutside;
  useEffect(() => {
    const onDown = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) latest.current();
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, []);
  return box;
}

function EditMenu({
  kind,
  issues,
  style,
  onClose,
  onPick,
}: {
  kind: EditKind;
  issues: readonly Issue[];
  style: CSSProperties;
  onClose: () => void;
  onPick: (choice: Choice, keepOpen: boolean) => void;
}) {
  const { flag } = useSession();
  const ref = useRefData().data;
  const projects = useProjects(flag('projects') && kind === 'project').data;
  const cycles = useCycles(flag('cycles') && kind === 'cycle').data;
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  // Labels stay open to toggle several: what was toggled here, over what the issues had.
  const [toggled, setToggled] = useState<Record<string, boolean>>({});
  const id = useId();
  const box = useClickOutside(onClose);
  const title = `${EDIT_TITLES[kind]} – ${names(issues)}`;
  const q = query.trim().toLowerCase();
  const all = ref ? choices(kind, issues, ref, { projects, cycles }) : [];
  const shown = all
    .map((c) => (c.value in toggled ? { ...c, checked: toggled[c.value] } : c))
    .filter((c) => !q || c.label.toLowerCase().includes(q));
  const current = Math.min(active, Math.max(0, shown.length - 1));
  const multi = kind === 'labels';

  function pick(c: Choice | undefined) {
    if (!c) return;
    if (multi) setToggled({ ...toggled, [c.value]: !c.checked });
    onPick(c, multi);
  }

  return (
    <div
      ref={box}
      className="popover quick-edit"
      role="dialog"
      aria-label={title}
      data-menu-open=""
      style={style}
    >
      <input
        className="quick-edit-input"
        role="combobox"
        aria-label={`${EDIT_TITLES[kind]}: type to filter`}
        aria-expanded="true"
        aria-controls={id}
        aria-activedescendant={shown[current] ? `${id}-${shown[current].value}` : undefined}
        placeholder={`${EDIT_TITLES[kind]}…`}
        value={query}
        // biome-ignore lint/a11y/noAutofocus: the menu opened by a key; typing filters it at once
        autoFocus
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onBlur={(e) => {
          if (!box.current?.contains(e.relatedTarget as Node)) onClose();
        }}
        onKeyDown={(e) => {
          const n = Math.max(1, shown.length);
          if (pressed(e, 'menu.down')) setActive((current + 1) % n);
          else if (pressed(e, 'menu.up')) setActive((current - 1 + n) % n);
          else if (pressed(e, 'menu.pick')) pick(shown[current]);
          else if (pressed(e, 'menu.close')) onClose();
          else if (e.key === 'Tab') onClose();
          else return;
          e.preventDefault();
          e.stopPropagation();
        }}
      />
      <div
        id={id}
        role="listbox"
        aria-label={EDIT_TITLES[kind]}
        aria-multiselectable={multi || undefined}
        className="quick-edit-list"
      >
        {shown.map((c, i) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input handles the keyboard
          <div
            key={c.value}
            id={`${id}-${c.value}`}
            role="option"
            tabIndex={-1}
            aria-selected={multi ? Boolean(c.checked) : i === current}
            className={`quick-edit-option${i === current ? ' active' : ''}`}
            onMouseMove={() => setActive(i)}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => pick(c)}
          >
            {multi && (
              <span className="check" aria-hidden="true">
                {c.checked ? '✓' : ''}
              </span>
            )}
            {c.color && <span className="dot" style={{ background: c.color }} aria-hidden="true" />}
            <span>{c.label}</span>
            {c.current && <span className="small">current</span>}
          </div>
        ))}
        {shown.length === 0 && (
          <div className="muted empty-option">
            {all.length === 0 && (kind === 'status' || kind === 'cycle')
              ? 'Choose issues of one team'
              : 'No matches'}
          </div>
        )}
      </div>
    </div>
  );
}

const MENU: { what: EditKind; shortcut: ShortcutId }[] = [
  { what: 'status', shortcut: 'edit.status' },
  { what: 'assignee', shortcut: 'edit.assignee' },
  { what: 'priority', shortcut: 'edit.priority' },
  { what: 'labels', shortcut: 'edit.labels' },
];
const hint = (id: ShortcutId) => keyLabel(SHORTCUTS.find((s) => s.id === id)!.keys[0]);

/** The right-click menu: a menu of menus, plus the commonest one-step action. */
function ActionsMenu({
  issues,
  style,
  onClose,
  onChoose,
  onAssignMe,
}: {
  issues: readonly Issue[];
  style: CSSProperties;
  onClose: () => void;
  onChoose: (what: EditKind) => void;
  onAssignMe: (me: string) => void;
}) {
  const me = useRefData().data?.viewerId;
  const box = useClickOutside(onClose);
  const [copied, setCopied] = useState('');
  const items: { label: string; hint?: string; run: () => void }[] = [
    ...MENU.map((m) => ({
      label: `${EDIT_TITLES[m.what]}…`,
      hint: hint(m.shortcut),
      run: () => onChoose(m.what),
    })),
    ...(me ? [{ label: 'Assign to me', run: () => onAssignMe(me) }] : []),
    {
      label: issues.length === 1 ? 'Copy link' : 'Copy links',
      run: () => {
        void copyText(issues.map((i) => issueLink(i.identifier)).join('\n')).then(() => {
          setCopied('Copied');
          onClose();
        });
      },
    },
  ];
  useEffect(() => {
    box.current?.querySelector<HTMLElement>('[role=menuitem]')?.focus();
  }, [box]);
  const move = (step: number) => {
    const all = [...(box.current?.querySelectorAll<HTMLElement>('[role=menuitem]') ?? [])];
    const at = all.indexOf(document.activeElement as HTMLElement);
    all[(at + step + all.length) % all.length]?.focus();
  };
  return (
    <div
      ref={box}
      className="popover quick-edit"
      role="menu"
      aria-label={`Actions – ${names(issues)}`}
      data-menu-open=""
      style={style}
      tabIndex={-1}
      onKeyDown={(e) => {
        if (pressed(e, 'menu.down')) move(1);
        else if (pressed(e, 'menu.up')) move(-1);
        else if (pressed(e, 'menu.close') || e.key === 'Tab') onClose();
        else return;
        e.preventDefault();
        e.stopPropagation();
      }}
    >
      {items.map((item) => (
        <button
          key={item.label}
          type="button"
          role="menuitem"
          tabIndex={-1}
          className="quick-edit-option"
          onClick={item.run}
        >
          <span>{item.label}</span>
          {item.hint && <kbd className="kbd">{item.hint}</kbd>}
        </button>
      ))}
      <span className="sr-only" role="status">
        {copied}
      </span>
    </div>
  );
}

export const issueLink = (identifier: string) => `${window.location.origin}/issue/${identifier}`;

export async function copyText(text: string) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // No clipboard permission (an insecure origin): the old way, through a selection.
    const area = document.createElement('textarea');
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
}

const BranchNames = graphql(`
  query BranchNames($ids: [ID!]!, $first: Int) {
    issues(first: $first, filter: { id: { in: $ids } }) { nodes { id branchName } }
  }
`);
/** The git branch names the API gives these issues, one per line. */
export async function branchNames(issues: readonly Issue[]) {
  const d = await gql(BranchNames, { ids: issues.map((i) => i.id), first: issues.length });
  return d.issues.nodes.map((n) => n.branchName).join('\n');
}
