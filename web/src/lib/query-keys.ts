// Every key of the query cache, in one place. Pages read under these keys and
// live.ts and the mutations invalidate or patch by their prefixes, so the two
// cannot drift apart: a key is always built here, never written as a literal
// (test/web-data-layer.test.ts fails on a `queryKey: [` anywhere else).
// Each group's `all` is the prefix of every key below it.
import type { IssueFilter, PaginationOrderBy } from '../gql/graphql.js';

export const keys = {
  /** A pending OAuth authorization on the consent page (pages/OAuthConsent.tsx). */
  oauthInteraction: (uid: string) => ['oauthInteraction', uid] as const,

  /** The workspace's public configuration (GET /api/config). */
  config: ['config'] as const,

  /** Reference data: teams, states, labels, people; projects; cycles (lib/ref.ts). */
  ref: {
    all: ['ref'] as const,
    core: ['ref', 'core'] as const,
    projects: ['ref', 'projects'] as const,
    cycles: ['ref', 'cycles'] as const,
  },

  issues: {
    all: ['issues'] as const,
    /** Every cached list page (lib/issue-pages.ts). */
    lists: ['issues', 'list'] as const,
    list: (filter: IssueFilter, orderBy: PaginationOrderBy) => ['issues', 'list', filter, orderBy] as const,
    details: ['issues', 'detail'] as const,
    /** The issue page, by id or identifier: live.ts matches it by either. */
    detail: (idOrIdentifier: string) => ['issues', 'detail', idOrIdentifier] as const,
    history: (id: string) => ['issues', 'history', id] as const,
    children: (id: string) => ['issues', 'children', id] as const,
    allRelations: ['issues', 'relations'] as const,
    relations: (id: string) => ['issues', 'relations', id] as const,
    allBlocked: ['issues', 'blocked'] as const,
    /** The triage page's search for a duplicate's original (pages/Triage.tsx). */
    originalSearch: (q: string) => ['issues', 'original-search', q] as const,
    blocked: (filter: IssueFilter) => ['issues', 'blocked', filter] as const,
  },

  projects: {
    all: ['projects'] as const,
    list: ['projects', 'list'] as const,
    /** The timeline: every project with its dates, teams, latest health and milestones (lib/roadmap.ts). */
    roadmap: ['projects', 'roadmap'] as const,
    detail: (id: string) => ['projects', 'detail', id] as const,
    /** Under `all`, so every project change refreshes the burn-up too. */
    progress: (id: string) => ['projects', 'progress', id] as const,
    /** A project's updates (components/ProjectUpdates.tsx), under `all`: an update changes the project's health. */
    updates: (id: string) => ['projects', 'updates', id] as const,
    /** One update by its id (the inbox's preview of a project's row), under `all` as well. */
    update: (id: string) => ['projects', 'update', id] as const,
  },

  /** A project's milestones (components/Milestones.tsx), refreshed by its own writes. */
  milestones: (projectId: string | null) => ['milestones', projectId] as const,

  cycles: {
    all: ['cycles'] as const,
    list: ['cycles', 'list'] as const,
    detail: (id: string) => ['cycles', 'detail', id] as const,
    progress: (id: string) => ['cycles', 'progress', id] as const,
  },

  views: {
    all: ['views'] as const,
    list: ['views', 'list'] as const,
    detail: (id: string) => ['views', 'detail', id] as const,
  },

  notifications: {
    all: ['notifications'] as const,
    count: ['notifications', 'count'] as const,
    lists: ['notifications', 'list'] as const,
    list: (filter: string) => ['notifications', 'list', filter] as const,
    subscription: (issueId: string) => ['notifications', 'subscription', issueId] as const,
  },

  me: {
    preferences: ['me', 'preferences'] as const,
    apiKeys: ['me', 'api-keys'] as const,
    sessions: ['me', 'sessions'] as const,
    oauthApps: ['me', 'oauth-apps'] as const,
  },

  /** Teams' triage queues and the sidebar's counts (lib/triage.ts); any issue change refreshes them. */
  triage: {
    all: ['triage'] as const,
    queue: (teamId: string) => ['triage', 'queue', teamId] as const,
    allCounts: ['triage', 'counts'] as const,
    counts: (teamIds: readonly string[]) => ['triage', 'counts', ...teamIds] as const,
  },

  /** Team administration (lib/teams.ts); any change there refreshes `ref` too. */
  teamAdmin: {
    all: ['team-admin'] as const,
    list: ['team-admin', 'list'] as const,
    team: (id: string) => ['team-admin', 'team', id] as const,
    members: (teamId: string | undefined) => ['team-admin', 'members', teamId] as const,
    states: (teamId: string | undefined) => ['team-admin', 'states', teamId] as const,
    labels: (teamId: string | null) => ['team-admin', 'labels', teamId ?? 'workspace'] as const,
    users: ['team-admin', 'users'] as const,
  },

  admin: {
    users: ['admin', 'users'] as const,
    flags: ['admin', 'flags'] as const,
    registration: ['admin', 'registration'] as const,
    webhooks: ['admin', 'webhooks'] as const,
    scimTokens: ['admin', 'scim-tokens'] as const,
    oauthApps: ['admin', 'oauth-apps'] as const,
    oauth: ['admin', 'oauth'] as const,
    git: ['admin', 'git'] as const,
    imports: ['admin', 'imports'] as const,
    importRun: (id: string) => ['admin', 'imports', id] as const,
    backupSettings: ['admin', 'backups', 'settings'] as const,
    backupRuns: ['admin', 'backups', 'runs'] as const,
    gitDeliveries: ['admin', 'git', 'deliveries'] as const,
    gitSettings: ['admin', 'git', 'settings'] as const,
    gitAutomation: (teamId: string) => ['admin', 'git', 'automation', teamId] as const,
    sso: ['admin', 'sso'] as const,
    auditTypes: ['admin', 'audit-types'] as const,
    audit: (type: string, from: string, q: string, ip: string) =>
      ['admin', 'audit', type, from, q, ip] as const,
    deliveries: (hookId: string) => ['admin', 'webhooks', 'deliveries', hookId] as const,
  },
};
