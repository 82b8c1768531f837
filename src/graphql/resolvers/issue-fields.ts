// The Issue type's relation fields and the full-text search query.
import { branchName } from '../../modules/issues/fields.js';
import { issueSearchConditions } from '../../modules/issues/queries.js';
import { getWorkspace } from '../../modules/workspace/service.js';
import type { IssueRow } from '../../platform/db/tables.js';
import { searchQuery } from '../../platform/list/search.js';
import type { ResolverMap } from '../build-schema.js';
import { lists as L, type ListArgs, listConnection, nested } from '../connections.js';
import type { GqlContext } from '../context.js';
import { node } from '../nodes.js';
import { botActor } from './bot-actor.js';
import { belongsTo } from './helpers.js';
import { findTeamRow } from './lookups.js';

/** The workspace's branch format, read once per request however many issues ask. */
const branchFormats = new WeakMap<GqlContext, Promise<string>>();
function branchFormatOf(g: GqlContext): Promise<string> {
  let format = branchFormats.get(g);
  if (!format) {
    format = getWorkspace(g.db).then((w) => w.git_branch_format);
    branchFormats.set(g, format);
  }
  return format;
}

export function issueFields(): ResolverMap[string] {
  return {
    team: belongsTo('team', 'team_id', node.team),
    state: belongsTo('state', 'state_id', node.state),
    assignee: belongsTo('user', 'assignee_id', node.user),
    creator: belongsTo('user', 'creator_id', node.user),
    snoozedBy: belongsTo('user', 'snoozed_by_id', node.user),
    botActor: botActor((r: IssueRow) => r.creator_id),
    project: belongsTo('project', 'project_id', node.project),
    cycle: belongsTo('cycle', 'cycle_id', node.cycle),
    parent: belongsTo('issue', 'parent_id', node.issue),
    labelIds: (src, _a, g) => g.loaders.issueLabelIds.load(src.id),
    previousIdentifiers: (src, _a, g) => g.loaders.previousIdentifiers.load(src.id),
    pullRequestMarker: (src, _a, g) => g.loaders.pullRequestMarkers.load(src.id),
    // Named after the assignee, else the creator, if the caller sees them (fields.ts branchOwnerSql):
    // the user loader applies the same visibility rule.
    branchName: async (src, _a, g) => {
      const userId = src.row.assignee_id ?? src.row.creator_id;
      const [user, format] = await Promise.all([
        userId ? g.loaders.user.load(userId) : null,
        branchFormatOf(g),
      ]);
      return branchName(format, user?.display_name ?? null, src.row);
    },
    comments: nested(L.comments, 'issue.comments'),
    children: nested(L.issues, 'issue.children'),
    attachments: nested(L.attachments, 'issue.attachments'),
    history: nested(L.history, 'issue.history'),
    labels: nested(L.labels, 'issue.labels'),
    subscribers: nested(L.users, 'issue.subscribers'),
  };
}

/** Full-text search over title and description (word prefixes, accent- and case-folded). */
export async function searchIssues(
  g: GqlContext,
  a: ListArgs & { term: string; teamId?: string | null; includeComments?: boolean | null },
) {
  // The one search (platform/list/search.ts), as REST `q` and the filter field use it.
  const query = searchQuery(a.term);
  if (!query) {
    return {
      nodes: [],
      edges: [],
      pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
      totalCount: 0,
    };
  }
  const teamId = a.teamId ? (await findTeamRow(g, a.teamId)).id : undefined;
  const where = issueSearchConditions(query, a.includeComments === true, teamId);
  // The page and its total in one statement (one pooled connection, once).
  const conn = await listConnection(g, L.issues, a, where, true);
  return {
    ...conn,
    // Search results carry match metadata; we record none.
    nodes: conn.nodes.map((n) => Object.assign(n as object, { metadata: {} })),
    totalCount: conn.totalCount ?? 0,
  };
}
