// The hosted tracker's importer: reads a workspace through its GraphQL API
// with @linear/sdk's client (our own documents, so each page is one request of
// known cost rather than the SDK's lazy per-field fetches), given its server
// URL and an API key. Trackway speaks the same schema, so one Trackway
// instance imports another the same way (test/import-linear.test.ts).
//
// Cost: each document stays well under the API's complexity limit per
// request (10,000 points here and there): root lists read 100 small nodes, and
// an issue page reads PAGE issues with their first labels, comments, relations
// and attachments (about 170 points an issue); a nested list longer than its
// first page is read on by issue. A rate-limited answer waits for the time the
// server names (bounded) and asks again.
import type { StateType } from '../../platform/db/tables.js';
import {
  type ImportComment,
  ImportInputError,
  type ImportIssue,
  type ImportReference,
  type ImportSource,
  type IssuePage,
} from './model.js';

export type GraphqlRequest = (query: string, variables: Record<string, unknown>) => Promise<unknown>;

export interface LinearSourceOptions {
  /** The server's address (https://api.linear.app, or a Trackway instance's base URL); `/graphql` is added. */
  url: string;
  apiKey: string;
  /** Issues per page (default 25, at most 50: the page's cost grows with it). */
  pageSize?: number;
  /** Replaces the SDK's request (tests fail it part-way). */
  request?: GraphqlRequest;
  /** Ends the run's requests (the server is stopping). */
  signal?: AbortSignal;
}

/** How long one request may take: a server that never answers must not hold a run forever. */
const REQUEST_TIMEOUT_MS = 60_000;

const NESTED = { labels: 20, comments: 20, relations: 20, attachments: 10 };
const ROOT_PAGE = 100;
const RATE_LIMIT_TRIES = 3;
const RATE_LIMIT_WAIT_MAX_MS = 60_000;

interface Connection<T> {
  nodes: T[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

const PAGE_INFO = 'pageInfo { hasNextPage endCursor }';

const COMMENT = 'id body createdAt updatedAt user { email name } parent { id }';
const RELATION = 'id type relatedIssue { id }';
const ATTACHMENT = 'id title subtitle url';

const ISSUE = `
  id identifier url title description priority estimate dueDate
  createdAt updatedAt startedAt completedAt canceledAt
  team { id } state { id } assignee { email } creator { email } parent { id }
  project { id } projectMilestone { id } cycle { id }
  labels(first: ${NESTED.labels}) { nodes { id } ${PAGE_INFO} }
  comments(first: ${NESTED.comments}) { nodes { ${COMMENT} } ${PAGE_INFO} }
  relations(first: ${NESTED.relations}) { nodes { ${RELATION} } ${PAGE_INFO} }
  attachments(first: ${NESTED.attachments}) { nodes { ${ATTACHMENT} } ${PAGE_INFO} }`;

interface LinearIssue {
  id: string;
  identifier: string;
  url: string | null;
  title: string;
  description: string | null;
  priority: number | null;
  estimate: number | null;
  dueDate: string | null;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  completedAt: string | null;
  canceledAt: string | null;
  team: { id: string };
  state: { id: string } | null;
  assignee: { email: string } | null;
  creator: { email: string } | null;
  parent: { id: string } | null;
  project: { id: string } | null;
  projectMilestone: { id: string } | null;
  cycle: { id: string } | null;
  labels: Connection<{ id: string }>;
  comments: Connection<LinearComment>;
  relations: Connection<{ id: string; type: string; relatedIssue: { id: string } | null }>;
  attachments: Connection<{ id: string; title: string; subtitle: string | null; url: string }>;
}

interface LinearComment {
  id: string;
  body: string;
  createdAt: string;
  updatedAt: string;
  user: { email: string; name: string } | null;
  parent: { id: string } | null;
}

/** The server's address as runs and the audit log name it: user and password left out. */
function withoutCredentials(base: string): string {
  try {
    const url = new URL(base);
    url.username = '';
    url.password = '';
    return url.toString().replace(/\/+$/, '');
  } catch {
    throw new ImportInputError('url is not a valid URL');
  }
}

const LINEAR_UPLOADS = 'uploads.linear.app';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * @linear/sdk, loaded by the first Linear import rather than with the server: its one module is
 * 6.5 MB of source that V8 keeps, with what it compiles, in every process for its whole life
 * (docs/benchmarks.md, "Issue 25, fourth stop").
 */
const linearSdk = () => import('@linear/sdk');

export function linearSource(opts: LinearSourceOptions): ImportSource {
  const base = opts.url.replace(/\/+$/, '').replace(/\/graphql$/, '');
  const pageSize = Math.min(50, Math.max(1, opts.pageSize ?? 25));
  // A client per request: the SDK passes its options to fetch, so each request gets its own deadline.
  const clientOf = async () => {
    const { LinearClient } = await linearSdk();
    const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
    return new LinearClient({ apiKey: opts.apiKey, apiUrl: `${base}/graphql`, signal });
  };
  const send: GraphqlRequest =
    opts.request ??
    (async (query, variables) => (await (await clientOf()).client.rawRequest(query, variables)).data);

  async function request<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return (await send(query, variables)) as T;
      } catch (err) {
        const { RatelimitedLinearError } = await linearSdk();
        if (!(err instanceof RatelimitedLinearError) || attempt >= RATE_LIMIT_TRIES) throw err;
        const wait = Math.min(RATE_LIMIT_WAIT_MAX_MS, ((err.retryAfter ?? 1) || 1) * 1000);
        await sleep(wait);
      }
    }
  }

  /** Every node of a root list, ROOT_PAGE at a time. */
  async function all<T>(field: string, selection: string): Promise<T[]> {
    const out: T[] = [];
    let after: string | null = null;
    do {
      const data: Record<string, Connection<T>> = await request(
        `query Page($after: String) { ${field}(first: ${ROOT_PAGE}, after: $after) { nodes { ${selection} } ${PAGE_INFO} } }`,
        { after },
      );
      const page = data[field]!;
      out.push(...page.nodes);
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
    } while (after);
    return out;
  }

  /**
   * How many issues the source holds: the sum of its teams' issueCount (the
   * issues list counts none). Null when the server does not answer it: the
   * run goes on without a total rather than fail for it.
   */
  async function issueTotal(): Promise<number | null> {
    try {
      const teams = await all<{ issueCount?: unknown }>('teams', 'issueCount');
      let sum = 0;
      for (const t of teams) {
        if (typeof t.issueCount !== 'number' || !Number.isInteger(t.issueCount)) return null;
        sum += t.issueCount;
      }
      return sum;
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      return null;
    }
  }

  // Linear keeps uploads on uploads.linear.app, read with the API key as it is; another
  // Trackway serves them as /api/files/<id> of its own origin, read with the key as a bearer.
  const origin = new URL(base).origin;
  const isFile = (url: URL) =>
    url.hostname === LINEAR_UPLOADS || (url.origin === origin && url.pathname.startsWith('/api/files/'));
  const isSourceFile = (raw: string) => {
    try {
      return isFile(new URL(raw));
    } catch {
      return false;
    }
  };

  /** The rest of an issue's nested list after its first page. */
  async function rest<T>(issueId: string, field: string, selection: string, first: Connection<T>) {
    const out = [...first.nodes];
    let after = first.pageInfo.hasNextPage ? first.pageInfo.endCursor : null;
    while (after) {
      const data: { issue: Record<string, Connection<T>> } = await request(
        `query More($id: String!, $after: String) { issue(id: $id) { ${field}(first: 50, after: $after) { nodes { ${selection} } ${PAGE_INFO} } } }`,
        { id: issueId, after },
      );
      const page = data.issue[field]!;
      out.push(...page.nodes);
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
    }
    return out;
  }

  async function toIssue(i: LinearIssue): Promise<ImportIssue> {
    const labels = await rest(i.id, 'labels', 'id', i.labels);
    const comments = await rest<LinearComment>(i.id, 'comments', COMMENT, i.comments);
    const relations = await rest(i.id, 'relations', RELATION, i.relations);
    const attachments = await rest(i.id, 'attachments', ATTACHMENT, i.attachments);
    return {
      key: i.id,
      identifier: i.identifier,
      url: i.url,
      teamRef: i.team.id,
      title: i.title,
      description: i.description,
      stateRef: i.state?.id ?? null,
      priority: i.priority,
      estimate: i.estimate,
      dueDate: i.dueDate,
      assigneeEmail: i.assignee?.email ?? null,
      creatorEmail: i.creator?.email ?? null,
      labelRefs: labels.map((l) => l.id),
      projectRef: i.project?.id ?? null,
      milestoneRef: i.projectMilestone?.id ?? null,
      cycleRef: i.cycle?.id ?? null,
      parentRef: i.parent?.id ?? null,
      createdAt: i.createdAt,
      updatedAt: i.updatedAt,
      startedAt: i.startedAt,
      completedAt: i.completedAt,
      canceledAt: i.canceledAt,
      comments: comments.map(
        (c): ImportComment => ({
          key: c.id,
          authorEmail: c.user?.email ?? null,
          authorName: c.user?.name ?? null,
          body: c.body,
          createdAt: c.createdAt,
          updatedAt: c.updatedAt,
          parentRef: c.parent?.id ?? null,
        }),
      ),
      relations: relations
        .filter((r) => r.relatedIssue)
        .map((r) => ({ key: r.id, type: r.type, relatedRef: r.relatedIssue!.id })),
      // An attachment whose URL is one of the source's files carries that file: it is copied, and the
      // attachment then carries our copy (not a link back to the source beside an "Imported file").
      attachments: attachments.map((a) => ({
        key: a.id,
        title: a.title,
        subtitle: a.subtitle,
        url: a.url,
        ...(isSourceFile(a.url) ? { file: true } : {}),
      })),
    };
  }

  return {
    kind: 'linear',
    name: `linear:${withoutCredentials(base)}`,
    label: 'Linear',
    files: {
      isFile,
      headers: (url): Record<string, string> =>
        url.hostname === LINEAR_UPLOADS && url.protocol === 'https:'
          ? { authorization: opts.apiKey }
          : url.origin === origin
            ? { authorization: `Bearer ${opts.apiKey}` }
            : {},
    },
    async reference(): Promise<ImportReference> {
      const users = await all<{ email: string; name: string }>('users', 'email name');
      const teams = await all<{ id: string; key: string; name: string }>('teams', 'id key name');
      const states = await all<{
        id: string;
        name: string;
        type: string;
        color: string;
        team: { id: string };
      }>('workflowStates', 'id name type color team { id }');
      const labels = await all<{ id: string; name: string; color: string; team: { id: string } | null }>(
        'issueLabels',
        'id name color team { id }',
      );
      const projects = await all<{
        id: string;
        name: string;
        description: string;
        teams: { nodes: { id: string }[] };
      }>('projects', 'id name description teams(first: 10) { nodes { id } }');
      const milestones = await all<{
        id: string;
        name: string;
        targetDate: string | null;
        project: { id: string };
      }>('projectMilestones', 'id name targetDate project { id }');
      const cycles = await all<{
        id: string;
        name: string | null;
        startsAt: string;
        endsAt: string;
        team: { id: string };
      }>('cycles', 'id name startsAt endsAt team { id }');
      return {
        users: users.map((u) => ({ email: u.email, name: u.name })),
        teams: teams.map((t) => ({ key: t.id, teamKey: t.key, name: t.name })),
        states: states.map((s) => ({
          key: s.id,
          teamRef: s.team.id,
          name: s.name,
          type: s.type as StateType,
          color: s.color,
        })),
        labels: labels.map((l) => ({ key: l.id, teamRef: l.team?.id ?? null, name: l.name, color: l.color })),
        projects: projects.map((p) => ({
          key: p.id,
          name: p.name,
          description: p.description,
          teamRefs: p.teams.nodes.map((t) => t.id),
        })),
        milestones: milestones.map((m) => ({
          key: m.id,
          projectRef: m.project.id,
          name: m.name,
          targetDate: m.targetDate,
        })),
        cycles: cycles.map((c) => ({
          key: c.id,
          teamRef: c.team.id,
          name: c.name,
          startsAt: c.startsAt,
          endsAt: c.endsAt,
        })),
      };
    },
    async *issues(cursor: string | null): AsyncIterable<IssuePage> {
      const total = await issueTotal();
      let after = cursor;
      for (;;) {
        const data: { issues: Connection<LinearIssue> } = await request(
          `query Issues($first: Int!, $after: String) { issues(first: $first, after: $after, orderBy: createdAt) { nodes { ${ISSUE} } ${PAGE_INFO} } }`,
          { first: pageSize, after },
        );
        const issues: ImportIssue[] = [];
        for (const i of data.issues.nodes) issues.push(await toIssue(i));
        const next = data.issues.pageInfo.hasNextPage ? data.issues.pageInfo.endCursor : null;
        yield {
          issues,
          next,
          ...(total === null ? {} : { total: { count: total, unit: 'issue' as const } }),
        };
        if (!next) return;
        after = next;
      }
    },
  };
}
