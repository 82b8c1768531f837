// Routes and the signed-in shell: sidebar, global shortcuts, dialogs.
import { type ReactNode, useEffect, useState } from 'react';
import { CommandMenu } from './components/CommandMenu';
import { CreateIssueDialog } from './components/CreateIssue';
import { Kbd } from './components/ui';
import { typing } from './lib/keys';
import { Link, match, Redirect, useLocation } from './lib/router';
import { useSession } from './lib/session';
import { AdminBranding, AdminFlags, AdminUsers } from './pages/Admin';
import { AdminTeam } from './pages/AdminTeam';
import { AdminLabels, AdminTeams } from './pages/AdminTeams';
import { AdminWebhooks } from './pages/AdminWebhooks';
import { AuthPage } from './pages/Auth';
import { BoardPage } from './pages/Board';
import { CyclesPage } from './pages/Cycles';
import { IssuePage } from './pages/Issue';
import { IssuesPage } from './pages/Issues';
import { ProjectsPage } from './pages/Projects';
import { AccountSettings, ApiKeys } from './pages/Settings';

export function App() {
  const { user } = useSession();
  const { path } = useLocation();
  if (path === '/login' || path === '/register') {
    if (user) return <Redirect to="/issues" />;
    return <AuthPage mode={path === '/login' ? 'login' : 'register'} />;
  }
  if (!user) return <Redirect to="/login" />;
  return <Shell path={path} />;
}

function route(path: string, flag: (k: string) => boolean, isAdmin: boolean): ReactNode {
  if (path === '/' || path === '') return <Redirect to="/issues" />;
  if (path === '/issues') return <IssuesPage />;
  if (path === '/board') return <BoardPage />;
  const issue = match('/issue/:id', path);
  if (issue) return <IssuePage id={issue.id!} />;
  if (path === '/projects' && flag('projects')) return <ProjectsPage />;
  if (path === '/cycles' && flag('cycles')) return <CyclesPage />;
  if (path === '/settings/account') return <AccountSettings />;
  if (path === '/settings/api-keys') return <ApiKeys />;
  if (isAdmin) {
    if (path === '/admin/users') return <AdminUsers />;
    if (path === '/admin/flags') return <AdminFlags />;
    if (path === '/admin/branding') return <AdminBranding />;
    if (path === '/admin/webhooks') return <AdminWebhooks />;
    if (path === '/admin/teams') return <AdminTeams />;
    if (path === '/admin/labels') return <AdminLabels />;
    const team = match('/admin/teams/:id', path);
    if (team) return <AdminTeam key={team.id} id={team.id!} />;
  }
  return (
    <div className="page">
      <h1>Not found</h1>
      <p className="muted">
        Nothing here. <Link to="/issues">Go to issues</Link>
      </p>
    </div>
  );
}

function Shell({ path }: { path: string }) {
  const { user, config, flag, signOut } = useSession();
  const [creating, setCreating] = useState(false);
  const [commandOpen, setCommandOpen] = useState(false);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.metaKey || e.ctrlKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setCommandOpen((o) => !o);
        return;
      }
      if (typing(e) || e.metaKey || e.ctrlKey || e.altKey) return;
      if (document.querySelector('dialog[open]')) return;
      if (e.key === 'c' || e.key === 'C') {
        e.preventDefault();
        setCreating(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const isAdmin = user?.role === 'admin';
  const nav = (to: string, label: string, extra?: ReactNode) => (
    <Link
      to={to}
      className={`nav-item${path === to ? ' active' : ''}`}
      aria-current={path === to ? 'page' : undefined}
    >
      {label}
      {extra}
    </Link>
  );

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <aside className="sidebar" aria-label="Sidebar">
        <div className="ws">
          <span className="logo" aria-hidden="true" />
          <span className="ws-name">{config?.workspace.name ?? 'Trackway'}</span>
        </div>
        <button type="button" className="btn btn-primary new-issue" onClick={() => setCreating(true)}>
          New issue <Kbd>C</Kbd>
        </button>
        <button type="button" className="search-btn" onClick={() => setCommandOpen(true)}>
          Search or jump to… <Kbd>Ctrl K</Kbd>
        </button>
        <nav aria-label="Main">
          <div className="nav-group">Workspace</div>
          {nav('/issues', 'Issues')}
          {nav('/board', 'Board')}
          {flag('projects') && nav('/projects', 'Projects')}
          {flag('cycles') && nav('/cycles', 'Cycles')}
          <div className="nav-group">Settings</div>
          {nav('/settings/account', 'Account')}
          {nav('/settings/api-keys', 'API keys')}
          {isAdmin && (
            <>
              <div className="nav-group">Administration</div>
              {nav('/admin/users', 'Users')}
              {nav('/admin/teams', 'Teams')}
              {nav('/admin/labels', 'Labels')}
              {nav('/admin/flags', 'Feature flags')}
              {nav('/admin/branding', 'Branding')}
              {nav('/admin/webhooks', 'Webhooks')}
            </>
          )}
        </nav>
        <div className="me">
          <span className="avatar" aria-hidden="true">
            {user?.name.slice(0, 1).toUpperCase()}
          </span>
          <span className="me-name" title={user?.email}>
            {user?.name}
          </span>
          <button type="button" className="btn btn-ghost" onClick={signOut}>
            Sign out
          </button>
        </div>
      </aside>
      <main id="main" className="main" tabIndex={-1}>
        {route(path, flag, isAdmin)}
      </main>
      {creating && <CreateIssueDialog onClose={() => setCreating(false)} />}
      {commandOpen && (
        <CommandMenu onClose={() => setCommandOpen(false)} onCreate={() => setCreating(true)} />
      )}
    </div>
  );
}
