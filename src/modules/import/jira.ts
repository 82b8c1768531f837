// The Jira importer: reads the issues a JQL query finds through Jira's REST
// API, Cloud (v3: `/rest/api/3/search/jql` paged by nextPageToken, text in
// ADF, email + API token) or Data Center / Server (v2: `/rest/api/2/search`
// paged by startAt, wiki markup, a personal access token), and turns them into
// the import model (docs/migrate.md "From Jira" has what maps to what).
//
// Reference data comes from a first pass over the same query with a few
// fields (projects, statuses, people, labels, components, sprints, epics), so
// only what the imported issues use is created; epics outside the query that
// its issues belong to are read by key. Epics become projects, not issues.
import { createHash } from 'node:crypto';
import type { StateType } from '../../platform/db/tables.js';
import { adfToMarkdown } from './jira-adf.js';
import { wikiToMarkdown } from './jira-wiki.js';
import {
  type ImportComment,
  type ImportCycle,
  ImportInputError,
  type ImportIssue,
  type ImportReference,
  type ImportRelation,
  type ImportSource,
  type ImportUser,
  type IssuePage,
} from './model.js';

export type JiraAuth = { email: string; apiToken: string } | { pat: string };

export interface JiraSourceOptions {
  /** The site: https://acme.atlassian.net, or a Data Center's base URL (with its context path). */
  url: string;
  jql: string;
  /** Email + API token: Cloud (REST v3). A personal access token: Data Center / Server (REST v2). */
  auth: JiraAuth;
  /** Every issue into this one team (its key) instead of a team per Jira project. */
  team?: string | undefined;
  /** Issues per page (default 50, at most 100). */
  pageSize?: number;
  /** Ends the run's requests (the server is stopping). */
  signal?: AbortSignal;
}

const REQUEST_TIMEOUT_MS = 60_000;
const RATE_LIMIT_TRIES = 4;
const RATE_LIMIT_WAIT_MAX_MS = 60_000;
/** Keys per `key in (...)` query when reading epics the query's issues belong to. */
const KEYS_PER_QUERY = 50;
const SPRINT_FIELD = 'com.pyxis.greenhopper.jira:gh-sprint';
const EPIC_LINK_FIELD = 'com.pyxis.greenhopper.jira:gh-epic-link';
const TEAM_KEY = /^[A-Z][A-Z0-9]{0,6}$/;

interface JiraUser {
  accountId?: string;
  name?: string;
  key?: string;
  emailAddress?: string;
  displayName?: string;
}

interface JiraIssueType {
  name?: string;
  subtask?: boolean;
  hierarchyLevel?: number;
}

interface JiraLink {
  id: string;
  type?: { name?: string };
  outwardIssue?: { id: string; key: string };
  inwardIssue?: { id: string; key: string };
}

interface JiraComment {
  id: string;
  author?: JiraUser | null;
  body?: unknown;
  created?: string;
  updated?: string;
}

interface JiraCommentPage {
  comments?: JiraComment[];
  total?: number;
  startAt?: number;
}

export interface JiraSprint {
  id: string;
  name: string;
  state?: string | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
}

interface JiraIssue {
  id: string;
  key: string;
  fields: Record<string, unknown> & {
    summary?: string;
    description?: unknown;
    status?: { id: string; name: string; statusCategory?: { key?: string } };
    priority?: { id?: string; name?: string } | null;
    labels?: string[];
    components?: { name: string }[];
    issuetype?: JiraIssueType;
    project?: { id: string; key: string; name: string };
    parent?: { id: string; key: string; fields?: { issuetype?: JiraIssueType } };
    assignee?: JiraUser | null;
    reporter?: JiraUser | null;
    creator?: JiraUser | null;
    created?: string;
    updated?: string;
    resolutiondate?: string | null;
    statuscategorychangedate?: string | null;
    duedate?: string | null;
    issuelinks?: JiraLink[];
    comment?: JiraCommentPage;
    attachment?: { id: string; filename: string; content: string }[];
  };
}

interface SearchPage {
  issues?: JiraIssue[];
  /** Cloud. */
  nextPageToken?: string | null;
  isLast?: boolean;
  /** Data Center. */
  startAt?: number;
  total?: number;
}

/** A Jira request that failed: the status and what Jira said. */
export class JiraError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason);
    });
  });

/** Retry-After in seconds or as an HTTP date, in milliseconds; bounded. */
export function retryAfterMs(header: string | null): number {
  if (!header) return 1000;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : new Date(header).getTime() - Date.now();
  return Math.min(RATE_LIMIT_WAIT_MAX_MS, Math.max(0, Number.isFinite(ms) ? ms : 1000));
}

/** Jira's timestamps (`2024-03-01T10:15:30.000+0000`) as ISO 8601 UTC; undefined when not a date. */
export function jiraDate(v: unknown): string | undefined {
  if (typeof v !== 'string' || v === '') return undefined;
  const d = new Date(v.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** A Jira project key as a team key here: letters and digits, at most 7, starting with a letter. */
export function teamKeyOf(projectKey: string): string {
  const k = projectKey.toUpperCase().replace(/[^A-Z0-9]/g, '');
  const key = (/^[A-Z]/.test(k) ? k : `J${k}`).slice(0, 7);
  return key || 'JIRA';
}

/** The person's email; Cloud hides it unless their profile shows it, then a placeholder address names them. */
export function emailOf(u: JiraUser | null | undefined): string | null {
  if (!u) return null;
  if (u.emailAddress?.includes('@')) return u.emailAddress.toLowerCase();
  const id = (u.accountId ?? u.key ?? u.name ?? '').toLowerCase().replace(/[^a-z0-9._-]/g, '-');
  return id ? `${id}@jira.invalid` : null;
}

/** Jira's priority names (the defaults and the older ones) as 1 urgent ... 4 low; 0 for none. */
export function priorityOf(p: { id?: string; name?: string } | null | undefined): number {
  const name = p?.name?.toLowerCase() ?? '';
  if (/highest|blocker|critical|urgent/.test(name)) return 1;
  if (/high|major/.test(name)) return 2;
  if (/medium|normal/.test(name)) return 3;
  if (/low|minor|trivial/.test(name)) return 4;
  const id = Number(p?.id);
  return id >= 1 && id <= 5 ? Math.min(4, id) : 0;
}

/** A status as a state type: by its category, with backlog and cancellation told apart by name. */
export function stateTypeOf(status: { name: string; statusCategory?: { key?: string } }): StateType {
  const name = status.name.toLowerCase();
  switch (status.statusCategory?.key) {
    case 'done':
      return /cancel|won.?t|reject|declin|abandon|invalid|duplicate/.test(name) ? 'canceled' : 'completed';
    case 'indeterminate':
      return 'started';
    default:
      return /backlog|triage|icebox/.test(name) ? 'backlog' : 'unstarted';
  }
}

/** A link type as a relation type here. */
export function relationTypeOf(linkType: string | undefined): string {
  const name = linkType?.toLowerCase() ?? '';
  if (name.includes('block')) return 'blocks';
  if (name.includes('duplicat')) return 'duplicate';
  return 'related';
}

/**
 * A sprint as the sprint field holds it: an object on Cloud and recent Data
 * Center, on older servers the text of a Java object
 * (`com.atlassian.greenhopper.service.sprint.Sprint@1f[id=3,rapidViewId=1,state=CLOSED,name=Sprint 3,startDate=...]`).
 */
export function sprintOf(v: unknown): JiraSprint | null {
  if (typeof v === 'object' && v !== null) {
    const s = v as Record<string, unknown>;
    if (s.id === undefined || typeof s.name !== 'string') return null;
    return {
      id: String(s.id),
      name: s.name,
      state: typeof s.state === 'string' ? s.state : undefined,
      startDate: jiraDate(s.startDate),
      endDate: jiraDate(s.endDate),
    };
  }
  if (typeof v !== 'string') return null;
  const body = v.match(/\[(.*)\]$/s)?.[1];
  if (!body) return null;
  const attrs = new Map<string, string>();
  // Values may hold commas (a name, a goal): a key starts only where `,word=` does.
  for (const m of body.matchAll(/(?:^|,)(\w+)=(.*?)(?=,\w+=|$)/gs)) attrs.set(m[1]!, m[2]!);
  const id = attrs.get('id');
  const name = attrs.get('name');
  if (!id || name === undefined) return null;
  const date = (k: string) => (attrs.get(k) === '<null>' ? undefined : jiraDate(attrs.get(k)));
  return { id, name, state: attrs.get('state'), startDate: date('startDate'), endDate: date('endDate') };
}

/** What both Jira sources (REST and the XML export) read before the issues, as the import model: epics are projects. */
export function jiraReference(r: {
  users: ImportUser[];
  teams: Map<string, { teamKey: string; name: string }>;
  states: Map<string, { teamRef: string; name: string; type: StateType | undefined }>;
  labels: Map<string, { teamRef: string; name: string }>;
  /** By epic key: its summary (or key) and the teams whose issues are in it. */
  epics: Map<string, { name: string; teamRefs: Set<string> }>;
  cycles?: ImportCycle[];
}): ImportReference {
  return {
    users: r.users,
    teams: [...r.teams].map(([key, t]) => ({ key, ...t })),
    states: [...r.states].map(([key, s]) => ({ key, ...s })),
    labels: [...r.labels].map(([key, l]) => ({ key, ...l })),
    projects: [...r.epics].map(([key, e]) => ({
      key: `epic:${key}`,
      name: e.name.replace(/\s+/g, ' ').trim().slice(0, 255) || key,
      teamRefs: [...e.teamRefs],
    })),
    milestones: [],
    cycles: r.cycles ?? [],
  };
}

const isEpicType = (t: JiraIssueType | undefined) =>
  !!t && !t.subtask && (t.hierarchyLevel === 1 || t.name?.toLowerCase() === 'epic');

function withoutCredentials(base: string): string {
  try {
    const url = new URL(base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    return url.toString().replace(/\/+$/, '');
  } catch {
    throw new ImportInputError('url is not a valid http(s) URL');
  }
}

export function jiraSource(opts: JiraSourceOptions): ImportSource {
  const base = withoutCredentials(opts.url);
  const cloud = 'email' in opts.auth;
  const api = `${base}/rest/api/${cloud ? 3 : 2}`;
  const pageSize = Math.min(100, Math.max(1, opts.pageSize ?? 50));
  const jql = opts.jql.trim();
  if (!jql) throw new ImportInputError('jql is required (e.g. project = ABC)');
  // Creation order keeps pages stable while people go on working, and puts parents first.
  const ordered = /\border\s+by\b/i.test(jql) ? jql : `${jql} ORDER BY created ASC`;
  const oneTeam = opts.team?.trim().toUpperCase();
  if (oneTeam !== undefined && !TEAM_KEY.test(oneTeam))
    throw new ImportInputError('team must be a team key: a letter, then up to 6 letters or digits');
  const authorization =
    'email' in opts.auth
      ? `Basic ${Buffer.from(`${opts.auth.email}:${opts.auth.apiToken}`).toString('base64')}`
      : `Bearer ${opts.auth.pat}`;
  // A cursor names its query: a run resumed with another query starts over (records keep it idempotent).
  const queryTag = createHash('sha256').update(ordered).digest('hex').slice(0, 8);

  async function get<T>(path: string, params: Record<string, string | number | undefined> = {}): Promise<T> {
    const url = new URL(path.startsWith('http') ? path : `${api}${path}`);
    for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, String(v));
    for (let attempt = 1; ; attempt++) {
      const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
      const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
      const res = await fetch(url, {
        headers: { authorization, accept: 'application/json' },
        redirect: 'error',
        signal,
      });
      if ((res.status === 429 || res.status === 503) && attempt < RATE_LIMIT_TRIES) {
        await res.body?.cancel();
        await sleep(retryAfterMs(res.headers.get('retry-after')), opts.signal);
        continue;
      }
      if (!res.ok) {
        const text = await res.text().catch(() => '');
        let said = text.slice(0, 300);
        try {
          const body = JSON.parse(text) as { errorMessages?: string[]; errors?: Record<string, string> };
          said = [...(body.errorMessages ?? []), ...Object.values(body.errors ?? {})].join('; ') || said;
        } catch {
          // Not JSON (a proxy's page): its start says enough.
        }
        throw new JiraError(res.status, `Jira answered ${res.status} to ${url.pathname}: ${said}`);
      }
      return (await res.json()) as T;
    }
  }

  // The sprint and epic-link fields are custom fields whose ids differ per site.
  let custom: Promise<{ sprint?: string | undefined; epicLink?: string | undefined }> | undefined;
  const customFields = () => {
    custom ??= get<{ id: string; schema?: { custom?: string } }[]>('/field').then((fields) => ({
      sprint: fields.find((f) => f.schema?.custom === SPRINT_FIELD)?.id,
      epicLink: fields.find((f) => f.schema?.custom === EPIC_LINK_FIELD)?.id,
    }));
    return custom;
  };

  /** One page of the search: its issues and the next page's token (Cloud) or offset (Data Center). */
  async function search(query: string, fields: string[], token: string | null) {
    if (cloud) {
      const page = await get<SearchPage>('/search/jql', {
        jql: query,
        fields: fields.join(','),
        maxResults: pageSize,
        nextPageToken: token ?? undefined,
      });
      const next = page.isLast === true ? null : (page.nextPageToken ?? null);
      return { issues: page.issues ?? [], next };
    }
    const startAt = token === null ? 0 : Number.parseInt(token, 10) || 0;
    const page = await get<SearchPage>('/search', {
      jql: query,
      fields: fields.join(','),
      startAt,
      maxResults: pageSize,
    });
    const issues = page.issues ?? [];
    const reached = startAt + issues.length;
    return { issues, next: issues.length > 0 && reached < (page.total ?? 0) ? String(reached) : null };
  }

  const teamRefOf = (i: JiraIssue) => `team:${oneTeam ?? teamKeyOf(i.fields.project?.key ?? 'JIRA')}`;
  const text = (v: unknown) => (cloud ? adfToMarkdown(v) : wikiToMarkdown(typeof v === 'string' ? v : ''));

  /** The project (epic key) and parent (issue id) an issue hangs from. */
  function placeOf(i: JiraIssue, epicLink: string | undefined) {
    const p = i.fields.parent;
    const link = epicLink ? i.fields[epicLink] : undefined;
    if (p && isEpicType(p.fields?.issuetype)) return { epic: p.key, parent: null };
    return { epic: typeof link === 'string' && link ? link : null, parent: p?.id ?? null };
  }

  /** The sprint an issue is in now: the active one, else the latest started. */
  function sprintOfIssue(i: JiraIssue, field: string | undefined): JiraSprint | null {
    const raw = field ? i.fields[field] : undefined;
    const sprints = (Array.isArray(raw) ? raw : [])
      .map(sprintOf)
      .filter((s): s is JiraSprint => !!s?.startDate && !!s.endDate);
    return (
      sprints.find((s) => s.state?.toLowerCase() === 'active') ??
      sprints.sort((a, b) => b.startDate!.localeCompare(a.startDate!))[0] ??
      null
    );
  }

  async function restOfComments(i: JiraIssue): Promise<JiraComment[]> {
    const first = i.fields.comment;
    const out = [...(first?.comments ?? [])];
    while (first && out.length < (first.total ?? 0)) {
      const page = await get<JiraCommentPage>(`/issue/${encodeURIComponent(i.id)}/comment`, {
        startAt: out.length,
        maxResults: 100,
      });
      if (!page.comments?.length) break;
      out.push(...page.comments);
    }
    return out;
  }

  async function toIssue(
    i: JiraIssue,
    f: { sprint?: string | undefined; epicLink?: string | undefined },
  ): Promise<ImportIssue> {
    const teamRef = teamRefOf(i);
    const status = i.fields.status;
    const type = status ? stateTypeOf(status) : undefined;
    const place = placeOf(i, f.epicLink);
    const sprint = sprintOfIssue(i, f.sprint);
    const resolved = jiraDate(i.fields.resolutiondate);
    const names = [...(i.fields.labels ?? []), ...(i.fields.components ?? []).map((c) => c.name)];
    const comments = await restOfComments(i);
    const relations: ImportRelation[] = [];
    for (const l of i.fields.issuelinks ?? []) {
      // Each link shows on both its issues; it is written from its outward side only.
      if (l.outwardIssue)
        relations.push({
          key: `link:${l.id}`,
          type: relationTypeOf(l.type?.name),
          relatedRef: l.outwardIssue.id,
        });
    }
    return {
      key: i.id,
      identifier: i.key,
      url: `${base}/browse/${encodeURIComponent(i.key)}`,
      teamRef,
      title: (i.fields.summary ?? i.key).replace(/\s+/g, ' ').trim() || i.key,
      description: text(i.fields.description) || null,
      stateRef: status ? `status:${status.id}:${teamRef}` : null,
      priority: priorityOf(i.fields.priority),
      dueDate: i.fields.duedate ?? null,
      assigneeEmail: emailOf(i.fields.assignee),
      creatorEmail: emailOf(i.fields.reporter ?? i.fields.creator),
      labelRefs: names.map((n) => `label:${teamRef}:${n.toLowerCase()}`),
      projectRef: place.epic ? `epic:${place.epic}` : null,
      cycleRef: sprint ? `sprint:${sprint.id}:${teamRef}` : null,
      parentRef: place.parent,
      createdAt: jiraDate(i.fields.created),
      updatedAt: jiraDate(i.fields.updated),
      startedAt: type === 'started' ? (jiraDate(i.fields.statuscategorychangedate) ?? null) : null,
      completedAt:
        type === 'completed' ? (resolved ?? jiraDate(i.fields.statuscategorychangedate) ?? null) : null,
      canceledAt:
        type === 'canceled' ? (resolved ?? jiraDate(i.fields.statuscategorychangedate) ?? null) : null,
      comments: comments.map(
        (c): ImportComment => ({
          key: `comment:${c.id}`,
          authorEmail: emailOf(c.author),
          authorName: c.author?.displayName ?? null,
          body: text(c.body),
          createdAt: jiraDate(c.created),
          updatedAt: jiraDate(c.updated),
        }),
      ),
      relations,
      attachments: (i.fields.attachment ?? []).map((a) => ({
        key: `attachment:${a.id}`,
        title: a.filename,
        subtitle: 'Jira attachment',
        url: a.content,
        file: true,
        filename: a.filename,
      })),
    };
  }

  const site = new URL(base).origin;
  /** The query's issues (epics are projects), counted by the reference pass: the run's total. */
  let counted: number | null = null;
  return {
    kind: 'jira',
    name: `jira:${base}`,
    label: 'Jira',
    // Attachments' content is read with the site's credentials; a redirect elsewhere (Cloud's media
    // service) carries its own token and gets none of ours.
    files: {
      isFile: () => false,
      headers: (url): Record<string, string> => (url.origin === site ? { authorization } : {}),
    },
    async reference(): Promise<ImportReference> {
      const f = await customFields();
      const fields = [
        'project',
        'status',
        'issuetype',
        'parent',
        'assignee',
        'reporter',
        'creator',
        'labels',
        'components',
        'summary',
        ...(f.sprint ? [f.sprint] : []),
        ...(f.epicLink ? [f.epicLink] : []),
      ];
      const users = new Map<string, string | undefined>();
      const teams = new Map<string, { teamKey: string; name: string }>();
      const states = new Map<string, { teamRef: string; name: string; type: StateType }>();
      const labels = new Map<string, { teamRef: string; name: string }>();
      const cycles = new Map<string, { teamRef: string; sprint: JiraSprint }>();
      const epics = new Map<string, { name: string; teamRefs: Set<string>; description?: string }>();
      const wanted = new Map<string, Set<string>>();
      const person = (u: JiraUser | null | undefined) => {
        const email = emailOf(u);
        if (email && !users.get(email)) users.set(email, u?.displayName);
      };
      let token: string | null = null;
      let issueCount = 0;
      do {
        const page = await search(ordered, fields, token);
        for (const i of page.issues) {
          const teamRef = teamRefOf(i);
          const project = i.fields.project;
          if (!teams.has(teamRef))
            teams.set(teamRef, {
              teamKey: teamRef.slice('team:'.length),
              name: oneTeam ?? project?.name ?? project?.key ?? 'Jira',
            });
          if (isEpicType(i.fields.issuetype)) {
            const e = epics.get(i.key) ?? { name: i.fields.summary ?? i.key, teamRefs: new Set<string>() };
            e.name = i.fields.summary ?? i.key;
            e.teamRefs.add(teamRef);
            epics.set(i.key, e);
            continue;
          }
          issueCount++;
          const s = i.fields.status;
          if (s) states.set(`status:${s.id}:${teamRef}`, { teamRef, name: s.name, type: stateTypeOf(s) });
          for (const u of [i.fields.assignee, i.fields.reporter, i.fields.creator]) person(u);
          for (const n of [...(i.fields.labels ?? []), ...(i.fields.components ?? []).map((c) => c.name)])
            labels.set(`label:${teamRef}:${n.toLowerCase()}`, { teamRef, name: n });
          const sprint = sprintOfIssue(i, f.sprint);
          if (sprint) cycles.set(`sprint:${sprint.id}:${teamRef}`, { teamRef, sprint });
          const { epic } = placeOf(i, f.epicLink);
          if (epic) wanted.set(epic, (wanted.get(epic) ?? new Set()).add(teamRef));
        }
        token = page.next;
      } while (token);
      counted = issueCount;

      // Epics the issues belong to that the query left out: read by key.
      const missing = [...wanted.keys()].filter((k) => !epics.has(k));
      for (let n = 0; n < missing.length; n += KEYS_PER_QUERY) {
        const keys = missing.slice(n, n + KEYS_PER_QUERY);
        let t: string | null = null;
        do {
          const page = await search(`key in (${keys.map((k) => `"${k}"`).join(',')})`, ['summary'], t);
          for (const i of page.issues)
            epics.set(i.key, { name: i.fields.summary ?? i.key, teamRefs: new Set() });
          t = page.next;
        } while (t);
      }
      for (const [key, refs] of wanted) for (const r of refs) epics.get(key)?.teamRefs.add(r);

      // An epic no issue of the query belongs to is still a project: the query named it.
      return jiraReference({
        users: [...users].map(([email, name]) => ({ email, name })),
        teams,
        states,
        labels,
        epics,
        cycles: [...cycles].map(([key, c]) => ({
          key,
          teamRef: c.teamRef,
          name: c.sprint.name.slice(0, 255),
          startsAt: c.sprint.startDate!,
          endsAt: c.sprint.endDate!,
        })),
      });
    },
    async *issues(cursor: string | null): AsyncIterable<IssuePage> {
      const f = await customFields();
      const fields = [
        'summary',
        'description',
        'status',
        'priority',
        'labels',
        'components',
        'issuetype',
        'project',
        'parent',
        'assignee',
        'reporter',
        'creator',
        'created',
        'updated',
        'resolutiondate',
        'statuscategorychangedate',
        'duedate',
        'issuelinks',
        'comment',
        'attachment',
        ...(f.sprint ? [f.sprint] : []),
        ...(f.epicLink ? [f.epicLink] : []),
      ];
      const [tag, ...rest] = (cursor ?? '').split(':');
      let token: string | null = tag === queryTag && rest.length ? rest.join(':') : null;
      do {
        const page = await search(ordered, fields, token);
        const issues: ImportIssue[] = [];
        for (const i of page.issues) if (!isEpicType(i.fields.issuetype)) issues.push(await toIssue(i, f));
        token = page.next;
        yield {
          issues,
          next: token === null ? null : `${queryTag}:${token}`,
          ...(counted === null ? {} : { total: { count: counted, unit: 'issue' as const } }),
        };
      } while (token);
    },
  };
}
