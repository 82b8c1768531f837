// Every address the app answers, on TanStack Router. Issue lists and the board
// keep their whole view in the query string (lib/view.ts), so a view is a link.
import {
  createRootRoute,
  createRoute,
  createRouter,
  Link,
  Outlet,
  parseSearchWith,
  redirect,
  stringifySearchWith,
  useNavigate,
  useRouterState,
} from '@tanstack/react-router';
import { type ComponentType, lazy, type ReactNode, Suspense, useEffect, useMemo, useState } from 'react';
import { ConnectionStatus } from './components/ConnectionStatus';
import { Shell } from './components/Shell';
import { Loading, PageHeader } from './components/ui';
import { SessionProvider, useSession } from './lib/session';
import { parseView, type View } from './lib/view';
import { AdminAudit } from './pages/AdminAudit';
import { AuthPage, SsoComplete } from './pages/Auth';
import { AuthorizedApps } from './pages/AuthorizedApps';
import { BoardPage } from './pages/Board';
import { CyclePage } from './pages/Cycle';
import { CyclesPage } from './pages/Cycles';
import { IssuePage } from './pages/Issue';
import { IssuesPage } from './pages/Issues';
import { OAuthConsent } from './pages/OAuthConsent';
import { ForgotPasswordPage, ResetPasswordPage } from './pages/PasswordReset';
import { ProjectPage } from './pages/Project';
import { ProjectsPage, type ProjectsSearch, parseProjectsSearch } from './pages/Projects';
import { SavedViewPage } from './pages/SavedView';
import { Sessions } from './pages/Sessions';
import { AccountSettings, ApiKeys } from './pages/Settings';

const rootRoute = createRootRoute({
  component: () => (
    <>
      <SessionProvider>
        <Outlet />
      </SessionProvider>
      <ConnectionStatus />
    </>
  ),
  notFoundComponent: NotFound,
});

const authSearch = (s: Record<string, unknown>): { next?: string; sso_error?: string } => ({
  // Only a path on this site: never a link that signs in and then leaves.
  ...(typeof s['next'] === 'string' && /^\/(?![/\\])/.test(s['next']) ? { next: s['next'] } : {}),
  // Why single sign-on sent the person back (a word from the server; unknown ones read as a failure).
  ...(typeof s['sso_error'] === 'string' ? { sso_error: s['sso_error'].slice(0, 40) } : {}),
});

/**
 * Replaces the address once, with the target it was first rendered with. While
 * the navigation is pending the old page stays mounted and already reads the
 * new location, so a target built from it (`next=<here>`) would change on every
 * render and redirect again, nesting `next` without end.
 */
function Redirect({ to, search }: { to: string; search?: Record<string, string> }) {
  const navigate = useNavigate();
  const [target] = useState(() => ({ to, search }));
  useEffect(() => {
    void navigate({ ...target, replace: true });
  }, [navigate, target]);
  return null;
}

function PublicOnly({ children, next }: { children: ReactNode; next?: string }) {
  const { user } = useSession();
  return user ? <Redirect to={next ?? '/issues'} /> : children;
}

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  validateSearch: authSearch,
  component: function Login() {
    const { next, sso_error } = loginRoute.useSearch();
    return (
      <PublicOnly next={next}>
        <AuthPage mode="login" next={next} ssoError={sso_error} />
      </PublicOnly>
    );
  },
});
// Where single sign-on comes back to: the session is taken from the server, then on to where the person started.
const ssoCompleteRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sso/complete',
  component: SsoComplete,
});
const registerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/register',
  component: () => (
    <PublicOnly>
      <AuthPage mode="register" />
    </PublicOnly>
  ),
});

const forgotRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/forgot-password',
  component: () => (
    <PublicOnly>
      <ForgotPasswordPage />
    </PublicOnly>
  ),
});
// Reached from the emailed link; open to anyone holding it, signed in or not.
const resetRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/reset-password',
  validateSearch: (s: Record<string, unknown>): { token: string } => ({
    token: typeof s['token'] === 'string' ? s['token'].slice(0, 200) : '',
  }),
  component: function Reset() {
    return <ResetPasswordPage token={resetRoute.useSearch().token} />;
  },
});

/** The signed-in app: anyone else goes to sign-in, and comes back here after. */
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  component: function SignedIn() {
    const { user } = useSession();
    const href = useRouterState({ select: (s) => s.location.href });
    const path = useRouterState({ select: (s) => s.location.pathname });
    if (!user) return <Redirect to="/login" search={{ next: href }} />;
    return (
      <Shell path={path}>
        <Outlet />
      </Shell>
    );
  },
});

const indexRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/issues' });
  },
});

/**
 * The view of the address. The router hands a page the raw query keys beside
 * what validateSearch made of them, so an old `?priority=1` would stay beside
 * its `f` twin: parsed again here, a page sees only the view's own keys.
 */
function useView(search: unknown): View {
  const key = JSON.stringify(search);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the search
  return useMemo(() => parseView(search as Record<string, unknown>), [key]);
}

/** A page whose view lives in the query string: reads it, and writes changes back (replacing history). */
function viewRoute(
  path: '/issues' | '/my-issues' | '/my-issues/created' | '/my-issues/subscribed' | '/board',
  render: (p: ViewProps) => ReactNode,
) {
  const route = createRoute({
    getParentRoute: () => appRoute,
    path,
    validateSearch: parseView,
    component: function ViewPage() {
      const view = useView(route.useSearch());
      const navigate = useNavigate();
      const setView = (next: View) => void navigate({ to: path, search: parseView(next), replace: true });
      return render({ view, setView });
    },
  });
  return route;
}
export interface ViewProps {
  view: View;
  setView: (v: View) => void;
}

const issuesRoute = viewRoute('/issues', (p) => <IssuesPage {...p} />);
const myIssuesRoute = viewRoute('/my-issues', (p) => <IssuesPage {...p} mine="assigned" />);
const myCreatedRoute = viewRoute('/my-issues/created', (p) => <IssuesPage {...p} mine="created" />);
const mySubscribedRoute = viewRoute('/my-issues/subscribed', (p) => <IssuesPage {...p} mine="subscribed" />);
const boardRoute = viewRoute('/board', (p) => <BoardPage {...p} />);

// `/issue/ENG-4/<slug>` is the address the API hands out as an issue's `url`; the slug is decoration.
const issueRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/issue/$id',
  component: () => <IssuePage id={issueRoute.useParams().id} />,
});
const issueSlugRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/issue/$id/$slug',
  component: () => <IssuePage id={issueSlugRoute.useParams().id} />,
});

function Flagged({ flag, children }: { flag: string; children: ReactNode }) {
  return useSession().flag(flag) ? children : <NotFound />;
}
const projectsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/projects',
  validateSearch: parseProjectsSearch,
  component: function Projects() {
    const search = projectsRoute.useSearch() as ProjectsSearch;
    const navigate = useNavigate();
    return (
      <Flagged flag="projects">
        <ProjectsPage
          search={search}
          setSearch={(next) => void navigate({ to: '/projects', search: next, replace: true })}
        />
      </Flagged>
    );
  },
});
/** A project's or cycle's page: its issue list keeps its view in the query string too. */
function ownerRoute(
  path: '/projects/$id' | '/cycles/$id' | '/views/$id',
  flag: string | null,
  Page: (p: ViewProps & { id: string }) => ReactNode,
) {
  const route = createRoute({
    getParentRoute: () => appRoute,
    path,
    validateSearch: parseView,
    component: function OwnerPage() {
      const { id } = route.useParams() as { id: string };
      const view = useView(route.useSearch());
      const navigate = useNavigate();
      const setView = (next: View) =>
        void navigate({ to: path, params: { id }, search: parseView(next), replace: true });
      const page = <Page key={id} id={id} view={view} setView={setView} />;
      return flag ? <Flagged flag={flag}>{page}</Flagged> : page;
    },
  });
  return route;
}
const projectRoute = ownerRoute('/projects/$id', 'projects', ProjectPage);
const savedViewRoute = ownerRoute('/views/$id', null, SavedViewPage);
const cycleRoute = ownerRoute('/cycles/$id', 'cycles', CyclePage);

const cyclesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/cycles',
  component: () => (
    <Flagged flag="cycles">
      <CyclesPage />
    </Flagged>
  ),
});

const page = (path: string, component: () => ReactNode) =>
  createRoute({ getParentRoute: () => appRoute, path, component });

// Administration is code of its own, loaded when an admin first opens it: the
// first screen everyone else loads stays smaller.
const adminPage = <K extends string>(
  load: () => Promise<Record<K, ComponentType<{ id?: string }>>>,
  name: K,
) => lazy(() => load().then((m) => ({ default: m[name] })));
const AdminUsers = adminPage(() => import('./pages/Admin'), 'AdminUsers');
const AdminFlags = adminPage(() => import('./pages/Admin'), 'AdminFlags');
const AdminBranding = adminPage(() => import('./pages/Admin'), 'AdminBranding');
const AdminWebhooks = adminPage(() => import('./pages/AdminWebhooks'), 'AdminWebhooks');
const AdminScim = adminPage(() => import('./pages/AdminScim'), 'AdminScim');
const AdminOAuthApps = adminPage(() => import('./pages/AdminOAuthApps'), 'AdminOAuthApps');
const AdminGit = adminPage(() => import('./pages/AdminGit'), 'AdminGit');
const AdminImports = adminPage(() => import('./pages/AdminImports'), 'AdminImports');
const AdminBackups = adminPage(() => import('./pages/AdminBackups'), 'AdminBackups');
const AdminSso = adminPage(() => import('./pages/AdminSso'), 'AdminSso');
const AdminTeams = adminPage(() => import('./pages/AdminTeams'), 'AdminTeams');
const AdminLabels = adminPage(() => import('./pages/AdminTeams'), 'AdminLabels');
const AdminTeam = lazy(() => import('./pages/AdminTeam').then((m) => ({ default: m.AdminTeam })));

function AdminOnly({ children }: { children: ReactNode }) {
  if (useSession().user?.role !== 'admin') return <NotFound />;
  return <Suspense fallback={<Loading label="Loading" />}>{children}</Suspense>;
}
const admin = (path: string, Page: ComponentType) =>
  page(path, () => (
    <AdminOnly>
      <Page />
    </AdminOnly>
  ));

const adminTeamRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/admin/teams/$id',
  component: function Team() {
    const { id } = adminTeamRoute.useParams();
    return (
      <AdminOnly>
        <AdminTeam key={id} id={id} />
      </AdminOnly>
    );
  },
});

// The inbox is loaded when first opened; `?show=all|archived` (unread by default) keeps the filter in the address.
const Inbox = lazy(() => import('./pages/Inbox').then((m) => ({ default: m.InboxPage })));
const inboxRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/inbox',
  validateSearch: (s: Record<string, unknown>): { show?: 'all' | 'archived' } =>
    s['show'] === 'all' || s['show'] === 'archived' ? { show: s['show'] } : {},
  component: function InboxRoute() {
    const { show } = inboxRoute.useSearch();
    const navigate = useNavigate();
    return (
      <Suspense fallback={<Loading label="Loading" />}>
        <Inbox
          filter={show ?? 'unread'}
          setFilter={(f) =>
            void navigate({ to: '/inbox', search: f === 'unread' ? {} : { show: f }, replace: true })
          }
        />
      </Suspense>
    );
  },
});

// A team's triage queue (docs/triage.md), loaded when first opened.
const Triage = lazy(() => import('./pages/Triage').then((m) => ({ default: m.TriagePage })));
const triageRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/team/$key/triage',
  component: function TriageRoute() {
    const { key } = triageRoute.useParams();
    return (
      <Suspense fallback={<Loading label="Loading" />}>
        <Triage teamKey={key} />
      </Suspense>
    );
  },
});

// A team's settings for its owners (the cycle settings), loaded when first opened.
const TeamSettings = lazy(() =>
  import('./pages/TeamSettings').then((m) => ({ default: m.TeamSettingsPage })),
);
const teamSettingsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/team/$key/settings',
  component: function TeamSettingsRoute() {
    const { key } = teamSettingsRoute.useParams();
    return (
      <Suspense fallback={<Loading label="Loading" />}>
        <TeamSettings teamKey={key} />
      </Suspense>
    );
  },
});

/** An OAuth app's authorization request (docs/agents.md); signing in first comes back here. */
const oauthConsentRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/oauth/consent/$uid',
  component: function Consent() {
    return <OAuthConsent uid={oauthConsentRoute.useParams().uid} />;
  },
});

const routeTree = rootRoute.addChildren([
  loginRoute,
  ssoCompleteRoute,
  registerRoute,
  forgotRoute,
  resetRoute,
  appRoute.addChildren([
    indexRoute,
    oauthConsentRoute,
    inboxRoute,
    triageRoute,
    teamSettingsRoute,
    issuesRoute,
    myIssuesRoute,
    myCreatedRoute,
    mySubscribedRoute,
    boardRoute,
    issueRoute,
    issueSlugRoute,
    projectsRoute,
    projectRoute,
    cyclesRoute,
    cycleRoute,
    savedViewRoute,
    page('/settings/account', AccountSettings),
    page('/settings/api-keys', ApiKeys),
    page('/settings/sessions', Sessions),
    page('/settings/apps', AuthorizedApps),
    admin('/admin/users', AdminUsers),
    admin('/admin/flags', AdminFlags),
    admin('/admin/branding', AdminBranding),
    admin('/admin/webhooks', AdminWebhooks),
    admin('/admin/audit', AdminAudit),
    admin('/admin/scim', AdminScim),
    admin('/admin/oauth-apps', AdminOAuthApps),
    admin('/admin/git', AdminGit),
    admin('/admin/imports', AdminImports),
    admin('/admin/backups', AdminBackups),
    admin('/admin/sso', AdminSso),
    admin('/admin/teams', AdminTeams),
    admin('/admin/labels', AdminLabels),
    adminTeamRoute,
  ]),
]);

export const router = createRouter({
  routeTree,
  // No preloading on hover: routes have no loaders and no code of their own to fetch, and a
  // list scrolled under a resting pointer would otherwise start a preload per row it passes.
  defaultPreload: false,
  scrollRestoration: true,
  // Every search value we keep is a plain string (ids, words, `1` for a priority): the
  // default JSON encoding would write `priority=%221%22` into links people share.
  parseSearch: parseSearchWith((v) => v),
  stringifySearch: stringifySearchWith((v) => String(v)),
});

function NotFound() {
  return (
    <div className="page">
      <PageHeader title="Not found" />
      <p className="muted">
        Nothing here. <Link to="/issues">Go to issues</Link>
      </p>
    </div>
  );
}
