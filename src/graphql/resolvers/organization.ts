// The Organization object: the workspace row, counts over what the caller
// sees, and the settings this service fixes.
import { countVisibleIssues } from '../../modules/issues/queries.js';
import { getWorkspace } from '../../modules/workspace/service.js';
import { listSource } from '../../platform/list/query.js';
import { listTotal } from '../../platform/list/runner.js';
import { tableRows } from '../../platform/list/sources.js';
import { lists as L } from '../connections.js';
import type { GqlContext } from '../context.js';
import { PROJECT_STATUSES, projectStatusNode } from '../nodes.js';

/** A stable id for the workspace (it is a singleton row without a uuid). */
function organizationId(g: GqlContext): string {
  const h = g.app.deriveKey('organization-id').toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export async function organization(g: GqlContext) {
  const w = await getWorkspace(g.db);
  // Counted over what the caller sees: users with the list's own conditions.
  const scope = { access: await g.access(), now: g.now, actorId: g.actor.id };
  const [users, issues] = await Promise.all([
    listTotal(
      g.db,
      listSource({
        ...scope,
        entity: L.users.entity,
        scope: L.users.scope({}),
        from: tableRows(L.users.table),
        archivable: false,
      }),
    ),
    countVisibleIssues(g.db, scope.access),
  ]);
  return {
    id: organizationId(g),
    name: w.name,
    urlKey: w.url_key,
    createdAt: w.created_at,
    updatedAt: w.updated_at,
    userCount: users,
    createdIssueCount: issues,
    allowedAuthServices: ['email'],
    projectStatuses: PROJECT_STATUSES.map((s) => projectStatusNode(s, w.created_at)),
    releaseChannel: 'public',
    projectUpdateRemindersDay: 'Friday',
    initiativeUpdateRemindersDay: 'Friday',
    projectUpdatesReminderFrequency: 'never',
    slaDayCount: 'all',
    pullRequestIssueMode: 'none',
    gitBranchFormat: w.git_branch_format,
    fiscalYearStartMonth: 0,
    roadmapEnabled: false,
  };
}
