// The issue list behind REST's GET /api/issues: its parameters folded into
// the shared filter grammar, visibility, totals and keyset or offset paging.
import { canSeeTeam } from '../../platform/access.js';
import type { Actor, AppContext } from '../../platform/context.js';
import { invalidField } from '../../platform/errors.js';
import { issueEntity } from '../../platform/list/entities.js';
import { compileFilter } from '../../platform/list/filter.js';
import { searchQuery } from '../../platform/list/search.js';
import { windowOf } from '../../platform/list/window.js';
import type { RestView } from '../../platform/read/rest.js';
import { teamAccess } from '../teams/access.js';
import { isUuid } from '../teams/ids.js';
import { resolveTeamId } from '../teams/queries.js';
import { MAX_COUNTED_LISTS } from './count-limit.js';
import { ISSUE_VIEW } from './present.js';
import * as q from './queries.js';

/** Exact-match list parameters; ids must be uuids. null means "is not set". */
export interface IssueFilters {
  /** Team id or key (current or former). */
  teamId?: string;
  stateId?: string;
  assigneeId?: string | null;
  projectId?: string | null;
  projectMilestoneId?: string | null;
  cycleId?: string | null;
  /** The parent issue's id: its sub-issues (null: top-level issues). */
  parentId?: string | null;
  priority?: number;
  labelId?: string;
}

export interface ListIssuesOptions {
  /** Exact-match filters, folded into the filter tree (paramsFilter). */
  filters?: IssueFilters;
  /** Full-text search over title and description (prefix match per word, accent/case-folded). */
  q?: string;
  /** Default: newest first (createdAt desc), or best match first when q is given. */
  sort?: q.IssueSort;
  order?: 'asc' | 'desc';
  /** 1..MAX_PAGE (250), default 50: checked by the list runner's window. */
  limit?: number;
  offset?: number;
  /**
   * A cursor from a previous page's nextCursor: the page after it. Works with
   * every sort in either order; not with a ranked search (q without a sort),
   * nor with offset.
   */
  after?: string;
  includeArchived?: boolean;
  /** A filter in the GraphQL IssueFilter grammar, ANDed with the rest. */
  filter?: Record<string, unknown>;
}

const FILTER_IDS = [
  'stateId',
  'assigneeId',
  'projectId',
  'projectMilestoneId',
  'cycleId',
  'parentId',
  'labelId',
] as const;

/** A relation by id, or "not set" for null. */
const byId = (id: string | null) => (id === null ? { null: true } : { id: { eq: id } });

/**
 * The REST list parameters as the filter tree GraphQL filters are (the one
 * grammar, compiled by platform/list/filter.ts): `stateId=X` is
 * `{ state: { id: { eq: X } } }`, `assigneeId=null` is `{ assignee: { null: true } }`,
 * `q` is `{ searchableContent: { contains: q } }`.
 */
function paramsFilter(f: IssueFilters & { teamId?: string }, q: string | undefined): Record<string, unknown> {
  const tree: Record<string, unknown> = {};
  if (f.teamId !== undefined) tree.team = byId(f.teamId);
  if (f.stateId !== undefined) tree.state = byId(f.stateId);
  if (f.assigneeId !== undefined) tree.assignee = byId(f.assigneeId);
  if (f.projectId !== undefined) tree.project = byId(f.projectId);
  if (f.cycleId !== undefined) tree.cycle = byId(f.cycleId);
  if (f.projectMilestoneId !== undefined) tree.projectMilestone = byId(f.projectMilestoneId);
  if (f.parentId !== undefined) tree.parent = byId(f.parentId);
  if (f.priority !== undefined) tree.priority = { eq: f.priority };
  if (f.labelId !== undefined) tree.labels = { some: { id: { eq: f.labelId } } };
  if (q !== undefined) tree.searchableContent = { contains: q };
  return tree;
}

/** The list's query: parameters checked and folded into conditions with the caller's visibility. */
async function listQuery(ctx: AppContext, actor: Actor, opts: ListIssuesOptions) {
  const access = await teamAccess(ctx.db, actor);
  const search = opts.q ? searchQuery(opts.q) : null;
  const order = opts.order ?? 'desc';
  // The list runner's window: limit, offset and the `after` cursor checked once, against the list's order.
  const keyset = q.issueOrder({ sort: opts.sort, order, search });
  const {
    limit,
    offset,
    cursor: after,
  } = windowOf({ limit: opts.limit, offset: opts.offset, after: opts.after }, keyset);
  const filters: IssueFilters = { ...(opts.filters ?? {}) };
  for (const key of FILTER_IDS) {
    const v = filters[key];
    if (v !== undefined && v !== null && !isUuid(v)) throw invalidField(key, 'must be a uuid');
  }
  if (filters.teamId !== undefined) {
    const teamId = await resolveTeamId(ctx.db, filters.teamId);
    if (!teamId || !canSeeTeam(access, teamId)) throw invalidField('teamId', 'no team with this id or key');
    filters.teamId = teamId;
  }
  const filterCtx = { now: new Date(), actorId: actor.id, access };
  // Two trees, compiled alike: errors in the filter parameter name its own path.
  const where = q.issueListWhere(
    [
      compileFilter(issueEntity, 'issues', paramsFilter(filters, opts.q), filterCtx, 'query'),
      ...(opts.filter ? [compileFilter(issueEntity, 'issues', opts.filter, filterCtx)] : []),
    ],
    opts.includeArchived ?? false,
    access,
  );
  // A list of every issue the caller sees, of one team's, or of one state's (a board column, of
  // one team or all), totals from the kept counts.
  const unfiltered =
    !search &&
    !opts.filter &&
    Object.entries(filters).every(([k, v]) => (k === 'teamId' || k === 'stateId') && typeof v === 'string');
  const total = unfiltered
    ? q.keptTotal(access, filters.teamId, opts.includeArchived ?? false, filters.stateId)
    : undefined;
  const query: q.ListQuery = {
    where,
    search,
    limit,
    offset,
    keyset,
    after,
    access,
    total,
  };
  return query;
}

/**
 * How many issues the caller sees under each filter (the filter tree of the
 * list's `filter` parameter), in one statement: a list's groups or a board's
 * columns counted at once. Each count is the one the list's `pageInfo.total` gives.
 */
export async function countIssueLists(
  ctx: AppContext,
  actor: Actor,
  filters: Record<string, unknown>[],
): Promise<number[]> {
  if (filters.length === 0 || filters.length > MAX_COUNTED_LISTS)
    throw invalidField('filters', `must hold 1 to ${MAX_COUNTED_LISTS} filters`);
  const access = await teamAccess(ctx.db, actor);
  const filterCtx = { now: new Date(), actorId: actor.id, access };
  const wheres = filters.map((f, i) =>
    q.issueListWhere([compileFilter(issueEntity, 'issues', f, filterCtx, `filters[${i}]`)], false, access),
  );
  return q.countEach(ctx.db, wheres);
}

/**
 * A page as REST sends it, `{"issues":[...],"pageInfo":{...}}`, each
 * issue's JSON built by PostgreSQL from the read model (platform/read) and
 * never parsed here.
 */
export async function listIssuesJson(
  ctx: AppContext,
  actor: Actor,
  opts: ListIssuesOptions = {},
): Promise<string> {
  const { issues, pageInfo } = await listIssuesAs(ctx, actor, opts, ISSUE_VIEW);
  return `{"issues":[${issues.join(',')}],"pageInfo":${JSON.stringify(pageInfo)}}`;
}

/** The same list, each issue's JSON text as `view` shows it (REST's ISSUE_VIEW, or MCP's shorter one). */
export async function listIssuesAs(ctx: AppContext, actor: Actor, opts: ListIssuesOptions, view: RestView) {
  const query = await listQuery(ctx, actor, opts);
  const read = { access: query.access, viewerId: actor.id, publicUrl: ctx.config.publicUrl, now: new Date() };
  const { issues, total, nextCursor } = await q.listIssueJsonPage(ctx.db, query, read, view);
  return { issues, pageInfo: { total, limit: query.limit, offset: query.offset, nextCursor } };
}
