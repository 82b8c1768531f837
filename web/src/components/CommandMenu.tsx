// Ctrl/Cmd-K: jump to a page or an issue, or act on the issues in hand (the
// list's selection or focused row, or the open issue), by typing.
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useId, useState } from 'react';
import { graphql } from '../gql';
import { gql } from '../lib/api';
import { EDIT_TITLES, type EditKind } from '../lib/issue-edits';
import { type Issue, searchFilters } from '../lib/issues';
import { useRefData } from '../lib/ref';
import { useSession } from '../lib/session';
import { heldIssues } from '../lib/targets';
import { myTriageTeams } from '../lib/triage';
import { useSavedViews } from '../lib/views';
import { branchNames, copyText, editNow, issueLink, openEdit } from './QuickEdit';
import { Dialog } from './ui';

interface Command {
  id: string;
  label: string;
  hint?: string;
  run: () => void;
}

export function CommandMenu({
  onClose,
  onCreate,
}: {
  onClose: () => void;
  onCreate: (teamId?: string) => void;
}) {
  const { user, flag, signOut } = useSession();
  const ref = useRefData().data;
  const views = useSavedViews().data ?? [];
  // Taken once, as the menu opens: what the page had in hand then.
  const [held] = useState(heldIssues);
  const guest = user?.role === 'guest';
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [found, setFound] = useState<{ id: string; identifier: string; title: string }[]>([]);
  const listId = useId();

  const navigate = useNavigate();
  const go = (to: string) => () => void navigate({ to });
  const base: Command[] = [
    ...(guest ? [] : issueCommands(held, ref?.viewerId, flag)),
    ...(guest ? [] : [{ id: 'new', label: 'Create new issue', hint: 'C', run: () => onCreate() }]),
    ...(guest || !ref || ref.teams.length < 2
      ? []
      : ref.teams.map((t) => ({
          id: `new-${t.id}`,
          label: `Create issue in ${t.name}`,
          hint: t.key,
          run: () => onCreate(t.id),
        }))),
    { id: 'inbox', label: 'Go to Inbox', hint: 'G I', run: go('/inbox') },
    { id: 'mine', label: 'Go to My issues', hint: 'G M', run: go('/my-issues') },
    { id: 'issues', label: 'Go to Issues', hint: 'G A', run: go('/issues') },
    ...(ref?.teams ?? []).map((t) => ({
      id: `team-${t.id}`,
      label: `Go to team ${t.name}`,
      hint: t.key,
      run: () => void navigate({ to: '/issues', search: { team: t.id } }),
    })),
    ...myTriageTeams(ref).map((t) => ({
      id: `triage-${t.id}`,
      label: `Go to Triage · ${t.key}`,
      hint: t.name,
      run: () => void navigate({ to: '/team/$key/triage', params: { key: t.key } }),
    })),
    ...views.map((v) => ({
      id: `view-${v.id}`,
      label: `Go to view ${v.name}`,
      hint: 'View',
      run: () => void navigate({ to: '/views/$id', params: { id: v.id } }),
    })),
    { id: 'board', label: 'Go to Board', run: go('/board') },
    ...(flag('projects') ? [{ id: 'projects', label: 'Go to Projects', run: go('/projects') }] : []),
    ...(flag('cycles') ? [{ id: 'cycles', label: 'Go to Cycles', run: go('/cycles') }] : []),
    { id: 'account', label: 'Open account settings', run: go('/settings/account') },
    { id: 'keys', label: 'Manage API keys', run: go('/settings/api-keys') },
    { id: 'sessions', label: 'Manage sessions (sign out other devices)', run: go('/settings/sessions') },
    ...(user?.role === 'admin'
      ? [
          { id: 'users', label: 'Administer users', run: go('/admin/users') },
          { id: 'flags', label: 'Feature flags', run: go('/admin/flags') },
          { id: 'branding', label: 'Workspace branding', run: go('/admin/branding') },
          { id: 'webhooks', label: 'Webhooks', run: go('/admin/webhooks') },
        ]
      : []),
    { id: 'signout', label: 'Sign out', run: signOut },
  ];

  useEffect(() => {
    const q = query.trim();
    if (q.length < 2) {
      setFound([]);
      return;
    }
    let cancelled = false;
    const timer = setTimeout(() => {
      const filter = { or: searchFilters(q) };
      gql(
        graphql(
          `query CommandSearch($filter: IssueFilter) { issues(first: 8, filter: $filter) { nodes { id identifier title } } }`,
        ),
        { filter },
      )
        .then((d) => !cancelled && setFound(d.issues.nodes))
        .catch(() => !cancelled && setFound([]));
    }, 150);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [query]);

  const q = query.trim().toLowerCase();
  const commands: Command[] = [
    ...base.filter((c) => !q || c.label.toLowerCase().includes(q)),
    ...found.map((i) => ({
      id: `issue-${i.id}`,
      label: `${i.identifier} ${i.title}`,
      hint: 'Issue',
      run: go(`/issue/${i.identifier}`),
    })),
  ];
  const current = Math.min(active, Math.max(0, commands.length - 1));

  function run(c: Command | undefined) {
    if (!c) return;
    onClose();
    c.run();
  }

  return (
    <Dialog title="Command menu" onClose={onClose}>
      <div className="command">
        <label className="command-label" htmlFor={`${listId}-input`}>
          Type a command or search issues
        </label>
        <input
          id={`${listId}-input`}
          className="command-input"
          role="combobox"
          aria-expanded="true"
          aria-controls={listId}
          aria-activedescendant={commands[current] ? `${listId}-${commands[current].id}` : undefined}
          placeholder="Go to board, ENG-12, checkout…"
          value={query}
          autoFocus
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') {
              e.preventDefault();
              setActive((current + 1) % Math.max(1, commands.length));
            } else if (e.key === 'ArrowUp') {
              e.preventDefault();
              setActive((current - 1 + commands.length) % Math.max(1, commands.length));
            } else if (e.key === 'Enter') {
              e.preventDefault();
              run(commands[current]);
            }
          }}
        />
        <div id={listId} role="listbox" aria-label="Commands" className="command-list">
          {commands.map((c, i) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input handles the keyboard
            <div
              key={c.id}
              tabIndex={-1}
              id={`${listId}-${c.id}`}
              role="option"
              aria-selected={i === current}
              className={i === current ? 'active' : ''}
              onMouseMove={() => setActive(i)}
              onClick={() => run(c)}
            >
              <span>{c.label}</span>
              {c.hint && <span className="muted small">{c.hint}</span>}
            </div>
          ))}
          {commands.length === 0 && <div className="muted empty-option">No matches</div>}
        </div>
      </div>
    </Dialog>
  );
}

/** What can be done to the issues in hand, labelled with the issue or the count. */
function issueCommands(
  issues: readonly Issue[],
  me: string | undefined,
  flag: (name: string) => boolean,
): Command[] {
  if (issues.length === 0) return [];
  const what = issues.length === 1 ? issues[0]!.identifier : `${issues.length} selected issues`;
  const menu = (kind: EditKind, hint?: string): Command => ({
    id: `edit-${kind}`,
    label: `${EDIT_TITLES[kind]}… (${what})`,
    hint,
    // Once the command menu has closed and given the focus back, or the new menu would lose it at once.
    run: () => requestAnimationFrame(() => openEdit(kind, issues)),
  });
  return [
    menu('status', 'S'),
    ...(me
      ? [
          {
            id: 'assign-me',
            label: `Assign to me (${what})`,
            run: () => editNow(issues, { assigneeId: me }, { assigneeId: me }, `${what} assigned to you`),
          },
        ]
      : []),
    {
      id: 'unassign',
      label: `Unassign (${what})`,
      run: () => editNow(issues, { assigneeId: null }, { assigneeId: null }, `${what} unassigned`),
    },
    menu('assignee', 'A'),
    menu('priority', 'P'),
    menu('labels', 'L'),
    ...(flag('projects') ? [menu('project')] : []),
    ...(flag('cycles') ? [menu('cycle')] : []),
    {
      id: 'copy-link',
      label: `Copy link (${what})`,
      run: () => void copyText(issues.map((i) => issueLink(i.identifier)).join('\n')),
    },
    {
      id: 'copy-branch',
      label: `Copy git branch name (${what})`,
      run: () => void branchNames(issues).then(copyText),
    },
  ];
}
