import { assertFeature } from '../../modules/flags/service.js';
import { findMembershipById } from '../../modules/teams/queries.js';
import { assertAdmin } from '../../modules/users/policy.js';
import { findWebhookRow } from '../../modules/webhooks/queries.js';
import type { CommentRow, CycleRow, LabelRow, StateRow, UserRow } from '../../platform/db/tables.js';
import { notFound } from '../../platform/errors.js';
import type { Resolver, ResolverMap } from '../build-schema.js';
import { type ListArgs, listConnection, lists, nested } from '../connections.js';
import type { GqlContext } from '../context.js';
import { attachmentNode, node, webhookNode } from '../nodes.js';
import { botActor } from './bot-actor.js';
import { belongsTo, mustLoad } from './helpers.js';
import { issueFields, searchIssues } from './issue-fields.js';
import { findIssueRow, findProjectRow, findTeamRow } from './lookups.js';
import { organization } from './organization.js';

const projectsOn = (g: GqlContext) => assertFeature(g.db, 'projects', 'projects');
const cyclesOn = (g: GqlContext) => assertFeature(g.db, 'cycles', 'cycles');

const L = lists;

export const readResolvers: ResolverMap = {
  Query: {
    viewer: async (_s, _a, g) => node.user(await mustLoad<UserRow>(g, 'user', g.viewerId, 'User'), g),
    organization: (_s, _a, g) => organization(g),
    issue: async (_s, a: { id: string }, g) => node.issue(await findIssueRow(g, a.id), g),
    issues: (_s, a: ListArgs, g) => listConnection(g, L.issues, a),
    // The older name of the search, over the one full-text search (the filter field searchableContent).
    issueSearch: (_s, a: ListArgs & { query?: string | null }, g) =>
      listConnection(g, L.issues, {
        ...a,
        filter: a.query
          ? { and: [{ searchableContent: { contains: a.query } }, ...(a.filter ? [a.filter] : [])] }
          : a.filter,
      }),
    searchIssues: (
      _s,
      a: ListArgs & { term: string; teamId?: string | null; includeComments?: boolean | null },
      g,
    ) => searchIssues(g, a),
    comment: async (_s, a: { id?: string | null }, g) => {
      if (!a.id) throw notFound('Comment');
      return node.comment(await mustLoad<CommentRow>(g, 'comment', a.id, 'Comment'));
    },
    comments: (_s, a: ListArgs, g) => listConnection(g, L.comments, a),
    project: async (_s, a: { id: string }, g) => {
      await projectsOn(g);
      return node.project(await findProjectRow(g, a.id), g);
    },
    projects: async (_s, a: ListArgs, g) => {
      await projectsOn(g);
      return listConnection(g, L.projects, a);
    },
    cycle: async (_s, a: { id: string }, g) => {
      await cyclesOn(g);
      return node.cycle(await mustLoad<CycleRow>(g, 'cycle', a.id, 'Cycle'), g);
    },
    cycles: async (_s, a: ListArgs, g) => {
      await cyclesOn(g);
      return listConnection(g, L.cycles, a);
    },
    team: async (_s, a: { id: string }, g) => node.team(await findTeamRow(g, a.id)),
    teams: (_s, a: ListArgs, g) => listConnection(g, L.teams, a),
    workflowState: async (_s, a: { id: string }, g) =>
      node.state(await mustLoad<StateRow>(g, 'state', a.id, 'Workflow state')),
    workflowStates: (_s, a: ListArgs, g) => listConnection(g, L.states, a),
    issueLabel: async (_s, a: { id: string }, g) =>
      node.label(await mustLoad<LabelRow>(g, 'label', a.id, 'Label')),
    issueLabels: (_s, a: ListArgs, g) => listConnection(g, L.labels, a),
    user: async (_s, a: { id: string }, g) => {
      const row = await mustLoad<UserRow>(g, 'user', a.id, 'User');
      if (row.deleted_at) throw notFound('User');
      return node.user(row, g);
    },
    users: (_s, a: ListArgs, g) => listConnection(g, L.users, a),
    attachment: async (_s, a: { id: string }, g) => {
      await assertFeature(g.db, 'attachments', 'attachments');
      return attachmentNode(await mustLoad(g, 'attachment', a.id, 'Attachment'));
    },
    attachments: async (_s, a: ListArgs, g) => {
      await assertFeature(g.db, 'attachments', 'attachments');
      return listConnection(g, L.attachments, a);
    },
    webhook: async (_s, a: { id: string }, g) => {
      assertAdmin(g.actor);
      const row = await findWebhookRow(g.db, a.id);
      if (!row) throw notFound('Webhook');
      return webhookNode(row);
    },
    webhooks: (_s, a: ListArgs, g) => {
      assertAdmin(g.actor);
      return listConnection(g, L.webhooks, a);
    },
  },

  Issue: issueFields(),
  IssueSearchResult: { ...issueFields(), metadata: () => ({}) },

  User: {
    assignedIssues: nested(L.issues, 'user.assignedIssues'),
    createdIssues: nested(L.issues, 'user.createdIssues'),
    teams: nested(L.teams, 'user.teams'),
    createdIssueCount: (src, _a, g) => g.loaders.createdIssueCounts.load(src.id),
    teamMemberships: nested(L.memberships, 'user.teamMemberships'),
  },

  Team: {
    issues: nested(L.issues, 'team.issues'),
    states: nested(L.states, 'team.states'),
    labels: nested(L.labels, 'team.labels'),
    cycles: async (src, a, g, info) => {
      await cyclesOn(g);
      return teamCycles(src, a, g, info);
    },
    members: nested(L.users, 'team.members'),
    memberships: nested(L.memberships, 'team.memberships'),
    projects: async (src, a, g, info) => {
      await projectsOn(g);
      return teamProjects(src, a, g, info);
    },
    webhooks: (src, a, g, info) => {
      assertAdmin(g.actor);
      return teamWebhooks(src, a, g, info);
    },
    issueCount: async (src, a: { includeArchived?: boolean | null }, g) => {
      const c = await g.loaders.teamIssueCounts.load(src.id);
      return a.includeArchived ? c.all : c.live;
    },
    activeCycle: async (src, _a, g) => {
      if (!src.row.cycles_enabled) return null;
      const cycles = await g.loaders.teamCycles.load(src.id);
      const active = cycles.find((c) => c.starts_at <= g.now && c.ends_at > g.now);
      return active ? node.cycle((await g.loaders.cycle.load(active.id))!, g) : null;
    },
    defaultIssueState: async (src, _a, g) => {
      const states = await g.loaders.teamStates.load(src.id);
      const s = states.find((x) => x.type === 'backlog') ?? states[0];
      return s ? node.state(s) : null;
    },
    // The state issues from outside the team land in while triage is on (docs/triage.md).
    triageIssueState: async (src, _a, g) => {
      if (!src.row.triage_enabled) return null;
      const s = (await g.loaders.teamStates.load(src.id)).find((x) => x.type === 'triage');
      return s ? node.state(s) : null;
    },
    markedAsDuplicateWorkflowState: async (src, _a, g) => {
      const states = await g.loaders.teamStates.load(src.id);
      const s = states.find((x) => x.type === 'canceled' && /duplicate/i.test(x.name));
      return s ? node.state(s) : null;
    },
    viewerMembership: async (src, _a, g) => {
      const mine = await g.loaders.memberships.load(g.actor.id);
      const m = mine.find((x) => x.team_id === src.id);
      if (!m) return null;
      const row = await findMembershipById(g.db, m.id);
      return row ? node.membership(row) : null;
    },
    viewerCanLeave: async (src, _a, g) =>
      (await g.loaders.memberships.load(g.actor.id)).some((m) => m.team_id === src.id),
    viewerCanJoin: async (src, _a, g) =>
      !src.row.private && !(await g.loaders.memberships.load(g.actor.id)).some((m) => m.team_id === src.id),
  },

  TeamMembership: {
    team: belongsTo('team', (r) => r.team_id, node.team),
    user: belongsTo('user', (r) => r.user_id, node.user),
  },

  WorkflowState: {
    issues: nested(L.issues, 'state.issues'),
    team: belongsTo('team', (r) => r.team_id, node.team),
  },

  IssueLabel: {
    issues: nested(L.issues, 'label.issues'),
    children: nested(L.labels, 'label.children'),
    parent: belongsTo('label', (r) => r.parent_id, node.label),
    team: belongsTo('team', (r) => r.team_id, node.team),
    creator: belongsTo('user', (r) => r.creator_id, node.user),
  },

  Project: {
    issues: nested(L.issues, 'project.issues'),
    members: nested(L.users, 'project.members'),
    teams: nested(L.teams, 'project.teams'),
    lead: belongsTo('user', (r) => r.lead_id, node.user),
    progress: async (src, _a, g) => (await g.loaders.projectProgress.load(src.id)).progress,
    // Scope is counted in issues (no estimates here).
    scope: async (src, _a, g) => (await g.loaders.projectProgress.load(src.id)).issueCount,
    creator: belongsTo('user', (r) => r.creator_id, node.user),
  },

  Cycle: {
    issues: nested(L.issues, 'cycle.issues'),
    team: belongsTo('team', (r) => r.team_id, node.team),
    progress: async (src, _a, g) => (await g.loaders.cycleProgress.load(src.id)).progress,
    isNext: async (src, _a, g) => {
      const future = (await g.loaders.teamCycles.load(src.row.team_id)).filter((c) => c.starts_at > g.now);
      future.sort((a, b) => a.starts_at.getTime() - b.starts_at.getTime());
      return future[0]?.id === src.id;
    },
    isPrevious: async (src, _a, g) => {
      const past = (await g.loaders.teamCycles.load(src.row.team_id)).filter((c) => c.ends_at <= g.now);
      past.sort((a, b) => b.ends_at.getTime() - a.ends_at.getTime());
      return past[0]?.id === src.id;
    },
  },

  Comment: {
    children: nested(L.comments, 'comment.children'),
    issue: belongsTo('issue', (r) => r.issue_id, node.issue),
    parent: belongsTo('comment', (r) => r.parent_id, node.comment),
    user: belongsTo('user', (r) => r.user_id, node.user),
    botActor: botActor((r: CommentRow) => r.user_id),
    url: async (src, _a, g) => {
      const issue = await g.loaders.issue.load(src.row.issue_id);
      return issue ? `${node.issue(issue, g).url}#comment-${src.id}` : '';
    },
  },

  Attachment: {
    issue: belongsTo('issue', (r) => r.issue_id, node.issue),
    creator: belongsTo('user', (r) => r.creator_id, node.user),
  },

  Webhook: {
    team: belongsTo('team', (r) => r.team_id, node.team),
    creator: belongsTo('user', (r) => r.creator_id, node.user),
  },

  IssueHistory: {
    issue: belongsTo('issue', (r) => r.issue_id, node.issue),
    actor: belongsTo('user', (r) => r.actor_id, node.user),
    botActor: botActor((r: { actor_id: string | null }) => r.actor_id),
    ...historyRelation('State', 'stateId', 'state', node.state),
    ...historyRelation('Assignee', 'assigneeId', 'user', node.user),
    ...historyRelation('Team', 'teamId', 'team', node.team),
    ...historyRelation('Project', 'projectId', 'project', node.project),
    ...historyRelation('Cycle', 'cycleId', 'cycle', node.cycle),
    ...historyRelation('Parent', 'parentId', 'issue', node.issue),
    addedLabels: (src, _a, g) => labelsById(g, src.addedLabelIds),
    removedLabels: (src, _a, g) => labelsById(g, src.removedLabelIds),
    addedLabelIds: async (src, _a, g) => (await labelsById(g, src.addedLabelIds))?.map((l) => l.id) ?? null,
    removedLabelIds: async (src, _a, g) =>
      (await labelsById(g, src.removedLabelIds))?.map((l) => l.id) ?? null,
  },

  Organization: {
    users: (_s, a: ListArgs, g) => listConnection(g, L.users, a),
    teams: (_s, a: ListArgs, g) => listConnection(g, L.teams, a),
    labels: (_s, a: ListArgs, g) => listConnection(g, L.labels, a),
  },
};

const teamCycles = nested(L.cycles, 'team.cycles');
const teamProjects = nested(L.projects, 'team.projects');
const teamWebhooks = nested(L.webhooks, 'team.webhooks');

/**
 * fromX/toX relations of a history entry, read from its recorded change, and
 * their fromXId/toXId: an id the caller may not see (a team left behind by a
 * move, a guest's unseen assignee) answers null, as its relation does.
 */
function historyRelation<R>(
  name: string,
  field: string,
  loader: Parameters<typeof belongsTo>[0],
  toNode: (row: R, g: GqlContext) => unknown,
): ResolverMap[string] {
  const change = (r: { changes?: Record<string, { from?: string; to?: string }> }) => r.changes?.[field];
  const seenId =
    (side: 'from' | 'to'): Resolver =>
    async (src, _a, g) => {
      const id = change(src.row)?.[side];
      return typeof id === 'string' && (await g.loaders[loader].load(id)) ? id : null;
    };
  return {
    [`from${name}`]: belongsTo(loader, (r) => change(r)?.from, toNode),
    [`to${name}`]: belongsTo(loader, (r) => change(r)?.to, toNode),
    [`from${name}Id`]: seenId('from'),
    [`to${name}Id`]: seenId('to'),
  };
}

async function labelsById(g: GqlContext, ids: string[] | undefined) {
  if (!ids) return null;
  const rows = await g.loaders.label.loadMany(ids);
  return rows.filter((r): r is LabelRow => r !== null && !(r instanceof Error)).map(node.label);
}
