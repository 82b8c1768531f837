// The signed-in frame: sidebar, global shortcuts, dialogs; the page goes in `children`.

import { Link, useNavigate } from '@tanstack/react-router';
import { type ReactNode, useEffect, useState } from 'react';
import { defaultTeam } from '../lib/default-team';
import { keepKeyboardOnPage } from '../lib/focus';
import { NEW_ISSUE_EVENT, useShortcuts } from '../lib/keys';
import { useLiveUpdates } from '../lib/live';
import { useUnreadCount } from '../lib/notifications';
import { ensureRef, useRefData } from '../lib/ref';
import { useSession } from '../lib/session';
import { setTheme, useTheme } from '../lib/theme';
import { myTriageTeams, useTriageCounts } from '../lib/triage';
import { useSavedViews } from '../lib/views';
import { CommandMenu } from './CommandMenu';
import { CreateIssueDialog } from './CreateIssue';
import { Initials } from './IssueBits';
import { QuickEditHost } from './QuickEdit';
import { ShortcutHelp } from './ShortcutHelp';
import { Kbd } from './ui';

export function Shell({ path, children }: { path: string; children: ReactNode }) {
  const { user, config, flag, signOut } = useSession();
  // The New issue dialog, open with the team it starts in (undefined: the person's own).
  const [creating, setCreating] = useState<false | { teamId?: string }>(false);
  const [commandOpen, setCommandOpen] = useState(false);
  // On a narrow screen the sidebar is a drawer; it closes when the page changes.
  const [drawer, setDrawer] = useState(false);
  const { dark } = useTheme();
  const views = useSavedViews().data ?? [];
  // biome-ignore lint/correctness/useExhaustiveDependencies: closing on every change of page is the point
  useEffect(() => setDrawer(false), [path]);
  // A new page keeps the keyboard on screen: on its main region unless the page (or a dialog) took it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: every change of page is the point
  useEffect(() => {
    const frame = requestAnimationFrame(keepKeyboardOnPage);
    return () => cancelAnimationFrame(frame);
  }, [path]);

  const [help, setHelp] = useState(false);
  // Everyone's changes, as they happen, for as long as someone is signed in here.
  useLiveUpdates(Boolean(user));
  // Guests read and comment: nothing offers them what they cannot do.
  const guest = user?.role === 'guest';
  const navigate = useNavigate();
  const go = (to: string, search?: Record<string, string>) => () => void navigate({ to, search });
  const myTeam = async () => defaultTeam(await ensureRef().catch(() => undefined))?.id;
  useShortcuts({
    'app.command': () => setCommandOpen((o) => !o),
    'app.new': () => !guest && setCreating({}),
    'app.inbox': go('/inbox'),
    'app.help': () => setHelp(true),
    // The page's own search box when it has one (lists, boards), else the command menu's.
    'app.search': () => {
      const box = document.querySelector<HTMLInputElement>('main input[type=search]');
      if (box) box.focus();
      else setCommandOpen(true);
    },
    'go.inbox': go('/inbox'),
    'go.mine': go('/my-issues'),
    'go.all': go('/issues'),
    'go.team': async () => {
      const team = await myTeam();
      void navigate({ to: '/issues', search: team ? { team } : {} });
    },
    'go.board': async () => {
      const team = await myTeam();
      void navigate({ to: '/board', search: team ? { team } : {} });
    },
    ...(flag('projects') ? { 'go.projects': go('/projects') } : {}),
    ...(flag('cycles') ? { 'go.cycles': go('/cycles') } : {}),
    'go.settings': go('/settings/account'),
  });
  const unread = useUnreadCount(Boolean(user)).data ?? 0;
  // The triage queues of the person's teams that triage, each with its waiting count once known.
  const ref = useRefData().data;
  const triageTeams = myTriageTeams(ref);
  const triageCounts = useTriageCounts(triageTeams.map((t) => t.id)).data;
  // The teams the person owns: their cycle settings are the owners' to change (pages/TeamSettings.tsx).
  const ownedTeams = guest ? [] : (ref?.teams ?? []).filter((t) => ref?.ownedTeamIds.includes(t.id));
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setDrawer(false);
    };
    const onNewIssue = (e: Event) =>
      setCreating({ teamId: (e as CustomEvent<{ teamId?: string } | null>).detail?.teamId });
    window.addEventListener('keydown', onKey);
    window.addEventListener(NEW_ISSUE_EVENT, onNewIssue);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener(NEW_ISSUE_EVENT, onNewIssue);
    };
  }, []);

  const isAdmin = user?.role === 'admin';
  // A section's own pages (My issues' tabs) keep its item lit.
  const here = (to: string) => path === to || path.startsWith(`${to}/`);
  const nav = (to: string, label: string, extra?: ReactNode) => (
    <Link
      to={to}
      className={`nav-item${here(to) ? ' active' : ''}`}
      aria-current={here(to) ? 'page' : undefined}
    >
      {label}
      {extra}
    </Link>
  );

  return (
    <div className={`shell${drawer ? ' drawer-open' : ''}`}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <button
        type="button"
        className="skip-link"
        onClick={() =>
          // The list's row that holds the keyboard (roving tabindex), else the page.
          (
            document.querySelector<HTMLElement>('main [data-row][tabindex="0"]') ??
            document.querySelector<HTMLElement>('main#main')
          )?.focus()
        }
      >
        Skip to the first issue
      </button>
      <header className="topbar">
        <button
          type="button"
          className="btn btn-ghost"
          aria-expanded={drawer}
          aria-controls="sidebar"
          onClick={() => setDrawer((d) => !d)}
        >
          Menu
          {unread > 0 && <span className="menu-dot" aria-hidden="true" />}
        </button>
        <span className="ws-name">{config?.workspace.name ?? 'Trackway'}</span>
        <button type="button" className="btn btn-ghost" onClick={() => setCommandOpen(true)}>
          Search
        </button>
      </header>
      {drawer && (
        <button
          type="button"
          className="drawer-backdrop"
          aria-label="Close menu"
          tabIndex={-1}
          onClick={() => setDrawer(false)}
        />
      )}
      <aside className="sidebar" id="sidebar" aria-label="Sidebar">
        <div className="ws">
          <span className="logo" aria-hidden="true" />
          <span className="ws-name">{config?.workspace.name ?? 'Trackway'}</span>
        </div>
        {!guest && (
          <button type="button" className="btn btn-primary new-issue" onClick={() => setCreating({})}>
            New issue <Kbd>C</Kbd>
          </button>
        )}
        <button type="button" className="search-btn" onClick={() => setCommandOpen(true)}>
          Search or jump to… <Kbd>Ctrl K</Kbd>
        </button>
        <nav aria-label="Main">
          {nav(
            '/inbox',
            'Inbox',
            unread > 0 && (
              <span className="nav-count">
                {unread > 99 ? '99+' : unread}
                <span className="sr-only"> unread</span>
              </span>
            ),
          )}
          {triageTeams.length > 0 && <div className="nav-group">Triage</div>}
          {triageTeams.map((t) =>
            nav(
              `/team/${t.key}/triage`,
              `Triage · ${t.key}`,
              triageCounts?.[t.id] ? (
                <span className="nav-count">
                  {triageCounts[t.id]! > 99 ? '99+' : triageCounts[t.id]}
                  <span className="sr-only"> waiting</span>
                </span>
              ) : null,
            ),
          )}
          <div className="nav-group">Workspace</div>
          {nav('/issues', 'Issues')}
          {nav('/my-issues', 'My issues')}
          {nav('/board', 'Board')}
          {flag('projects') && nav('/projects', 'Projects')}
          {flag('cycles') && nav('/cycles', 'Cycles')}
          {views.length > 0 && <div className="nav-group">Views</div>}
          {views.map((v) => (
            <Link
              key={v.id}
              to="/views/$id"
              params={{ id: v.id }}
              className={`nav-item${path === `/views/${v.id}` ? ' active' : ''}`}
              aria-current={path === `/views/${v.id}` ? 'page' : undefined}
            >
              <span className="nav-label">{v.name}</span>
              {v.shared && <span className="muted small">shared</span>}
            </Link>
          ))}
          <div className="nav-group">Settings</div>
          {nav('/settings/account', 'Account')}
          {nav('/settings/api-keys', 'API keys')}
          {nav('/settings/sessions', 'Sessions')}
          {nav('/settings/apps', 'Authorized apps')}
          {ownedTeams.map((t) => nav(`/team/${t.key}/settings`, `Team settings · ${t.key}`))}
          {isAdmin && (
            <>
              <div className="nav-group">Administration</div>
              {nav('/admin/users', 'Users')}
              {nav('/admin/teams', 'Teams')}
              {nav('/admin/labels', 'Labels')}
              {nav('/admin/flags', 'Feature flags')}
              {nav('/admin/branding', 'Branding')}
              {nav('/admin/webhooks', 'Webhooks')}
              {nav('/admin/audit', 'Audit log')}
              {nav('/admin/sso', 'Single sign-on')}
              {nav('/admin/scim', 'Provisioning (SCIM)')}
              {nav('/admin/oauth-apps', 'OAuth apps')}
              {nav('/admin/git', 'Git')}
              {nav('/admin/imports', 'Imports')}
              {nav('/admin/backups', 'Backups')}
            </>
          )}
        </nav>
        <div className="me">
          <Initials person={user} />
          <span className="me-name" title={user?.email}>
            {user?.name}
          </span>
          <button
            type="button"
            className="btn btn-ghost icon-btn"
            aria-label={dark ? 'Use light theme' : 'Use dark theme'}
            title={dark ? 'Use light theme' : 'Use dark theme'}
            onClick={() => setTheme(dark ? 'light' : 'dark')}
          >
            <span aria-hidden="true">{dark ? '☀' : '☾'}</span>
          </button>
          <button type="button" className="btn btn-ghost" onClick={signOut}>
            Sign out
          </button>
        </div>
      </aside>
      <main id="main" className="main" tabIndex={-1}>
        {children}
      </main>
      {creating && <CreateIssueDialog teamId={creating.teamId} onClose={() => setCreating(false)} />}
      <QuickEditHost />
      {help && <ShortcutHelp onClose={() => setHelp(false)} />}
      {commandOpen && (
        <CommandMenu onClose={() => setCommandOpen(false)} onCreate={(teamId) => setCreating({ teamId })} />
      )}
    </div>
  );
}
