// The MCP tools: each a name, a description and an input schema written for
// a model (one example each), and a handler that calls the same services and
// list reads REST and GraphQL call, as the caller, so roles, team access and
// feature flags apply unchanged. Input schemas are TypeBox, built from the
// issue inputs' own declarations (issues/inputs.ts) where a field is the
// same; names of states, people, labels, projects, cycles and milestones are
// resolved by lookup.ts. Answers are short JSON (present.ts).
import { type TObject, type TSchema, Type } from 'typebox';
import type { Actor, AppContext } from '../../platform/context.js';
import { PROJECT_STATUSES } from '../../platform/db/tables.js';
import { isUuid } from '../../platform/ids.js';
import { MAX_PAGE } from '../../platform/list/window.js';
import { createComment, listCommentsJson } from '../comments/service.js';
import { listCyclesJson } from '../cycles/service.js';
import { IssueCreateBody, type IssueCreateInput, type IssueUpdateInput, Title } from '../issues/inputs.js';
import { type IssueFilters, listIssuesAs } from '../issues/list.js';
import {
  createIssue,
  getIssue,
  getIssueJson,
  issueHistory,
  issueJson,
  updateIssue,
} from '../issues/service.js';
import { listLabelsJson } from '../labels/service.js';
import { listMilestonesJson } from '../milestones/service.js';
import {
  listInboxJson,
  markAllReadFor,
  updateAboutFor,
  updateNotificationFor,
} from '../notifications/service.js';
import { listProjectsJson, projectJson } from '../projects/service.js';
import { RELATION_KINDS, type RelationKind, typeOfKind } from '../relations/present.js';
import {
  createRelation,
  deleteRelationBetween,
  listIssueRelationsJson,
  type RelationInput,
} from '../relations/service.js';
import { listStatesJson } from '../states/service.js';
import { type Lookup, ToolError } from './lookup.js';
import { compactIssue, MCP_ISSUE_VIEW, pick } from './present.js';

/** What a tool's handler gets besides its arguments. */
export interface ToolCall {
  ctx: AppContext;
  actor: Actor;
  lookup: Lookup;
  /** Charges the caller's hourly budget for what the call reads beyond its request (request-budget.ts). */
  charge(records: number, query?: { filter?: unknown; q?: string }): Promise<void>;
}

export interface Tool {
  name: string;
  title: string;
  description: string;
  input: TObject;
  /** True for tools that change nothing (MCP's readOnlyHint). */
  readOnly: boolean;
  run(call: ToolCall, args: Record<string, unknown>): Promise<unknown>;
}

type Rec = Record<string, unknown>;
const parse = (text: string) => JSON.parse(text) as Rec;
const opt = <T extends TSchema>(s: T) => Type.Optional(s);
const Ref = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });
/** A reference that null (or "none") clears. */
const Clearable = (description: string) =>
  Type.Union([Ref(description), Type.Null()], { description: `${description}; null clears it` });

const IssueRef = Ref('Issue identifier or id, e.g. "ENG-123"');
/** A cycle as every tool takes it, resolved by Lookup.cycle within a team. */
const CycleRef = (description: string) =>
  Type.Union([Type.Integer({ minimum: 0 }), Ref('Cycle name or id, or "current", "next" or "previous"')], {
    description,
  });
const Limit = (dflt: number, max = 50) =>
  Type.Integer({ minimum: 1, maximum: max, default: dflt, description: `How many to return (1-${max})` });
const Cursor = Type.String({
  minLength: 1,
  maxLength: 300,
  description: 'nextCursor of the previous answer, to get the page after it',
});
const {
  description: Description,
  priority: Priority,
  dueDate: DueDate,
  estimate: Estimate,
} = IssueCreateBody.properties;

// ---------------------------------------------------------------- issues

/** A cursor of ours: the list's own (keyset) or, for a ranked text search, "o:<offset>". */
function windowFrom(cursor: unknown): { after?: string; offset?: number } {
  if (typeof cursor !== 'string') return {};
  const m = /^o:(\d{1,7})$/.exec(cursor);
  return m ? { offset: Number(m[1]) } : { after: cursor };
}

const SearchInput = Type.Object(
  {
    team: opt(Ref('Team key, name or id, e.g. "ENG"')),
    state: opt(Ref('Workflow state name or id, e.g. "In Progress"')),
    stateType: opt(
      Type.Union(
        ['triage', 'backlog', 'unstarted', 'started', 'completed', 'canceled'].map((v) => Type.Literal(v)),
        { description: 'Kind of state, e.g. "started"' },
      ),
    ),
    assignee: opt(Ref('"me", "none", an email or a name, e.g. "ana@example.com"')),
    label: opt(Ref('Label name or id, e.g. "Bug"')),
    project: opt(Ref('Project name or id, or "none", e.g. "Mobile launch"')),
    cycle: opt(
      CycleRef(
        'Cycle number, name or id, or "current", "next" or "previous" (with team, except an id); "none" for issues in no cycle; e.g. "current"',
      ),
    ),
    priority: opt(Priority),
    text: opt(
      Type.String({
        minLength: 1,
        maxLength: 500,
        description: 'Words in title or description, e.g. "login timeout"',
      }),
    ),
    includeArchived: opt(Type.Boolean({ description: 'Also archived issues (default false)' })),
    limit: opt(Limit(20)),
    cursor: opt(Cursor),
  },
  { additionalProperties: false },
);

/** search_issues' arguments as the REST list's parameters and filter tree. */
async function issueQuery(call: ToolCall, a: Rec) {
  const filters: IssueFilters = {};
  const tree: Rec[] = [];
  let team: Rec | undefined;
  if (typeof a['team'] === 'string') {
    team = await call.lookup.team(a['team']);
    filters.teamId = String(team['id']);
  }
  if (typeof a['state'] === 'string') {
    const ref = a['state'];
    if (team) filters.stateId = await call.lookup.state(String(team['id']), String(team['key']), ref);
    else if (isUuid(ref)) filters.stateId = ref;
    else {
      const names = [...new Set((await call.lookup.states()).map((s) => String(s['name'])))];
      if (!names.some((n) => n.toLowerCase() === ref.trim().toLowerCase())) {
        throw new ToolError(`No state named '${ref}' in any of your teams; states are: ${names.join(', ')}.`);
      }
      tree.push({ state: { name: { eqIgnoreCase: ref.trim() } } });
    }
  }
  if (typeof a['stateType'] === 'string') tree.push({ state: { type: { eq: a['stateType'] } } });
  if (typeof a['assignee'] === 'string') {
    filters.assigneeId =
      a['assignee'].trim().toLowerCase() === 'none' ? null : await call.lookup.user(a['assignee']);
  }
  if (typeof a['label'] === 'string') {
    const [id] = await call.lookup.labelIds(team ? String(team['id']) : null, [a['label']]);
    if (isUuid(a['label'])) filters.labelId = id!;
    else tree.push({ labels: { some: { name: { eqIgnoreCase: a['label'].trim() } } } });
  }
  if (typeof a['project'] === 'string') {
    filters.projectId =
      a['project'].trim().toLowerCase() === 'none'
        ? null
        : String((await call.lookup.project(a['project']))['id']);
  }
  const cycle = a['cycle'];
  if (typeof cycle === 'string' || typeof cycle === 'number') {
    if (typeof cycle === 'string' && cycle.trim().toLowerCase() === 'none') filters.cycleId = null;
    else if (team) filters.cycleId = await call.lookup.cycle(String(team['id']), String(team['key']), cycle);
    // An id names one cycle in any team (one the caller cannot see matches no issue they see).
    else if (typeof cycle === 'string' && isUuid(cycle)) filters.cycleId = cycle;
    else
      throw new ToolError(
        'A cycle is numbered within its team: give team too, e.g. team "ENG", cycle "current".',
      );
  }
  if (typeof a['priority'] === 'number') filters.priority = a['priority'];
  const filter = tree.length === 0 ? undefined : tree.length === 1 ? tree[0]! : { and: tree };
  return { filters, filter, text: typeof a['text'] === 'string' ? a['text'] : undefined };
}

/** A page of issues in MCP's shape, with the cursor of the next. */
async function issuePage(call: ToolCall, a: Rec, query: Awaited<ReturnType<typeof issueQuery>>) {
  const limit = typeof a['limit'] === 'number' ? a['limit'] : 20;
  await call.charge(limit, { filter: query.filter, ...(query.text ? { q: query.text } : {}) });
  const window = windowFrom(a['cursor']);
  const { issues, pageInfo } = await listIssuesAs(
    call.ctx,
    call.actor,
    {
      filters: query.filters,
      ...(query.filter ? { filter: query.filter } : {}),
      ...(query.text ? { q: query.text } : { sort: 'updatedAt' as const }),
      limit,
      ...window,
      includeArchived: a['includeArchived'] === true,
    },
    MCP_ISSUE_VIEW,
  );
  const labels = await call.lookup.labelNames();
  const offset = pageInfo.offset;
  const more = offset + issues.length < pageInfo.total;
  const nextCursor =
    pageInfo.nextCursor ?? (more && issues.length > 0 ? `o:${offset + issues.length}` : null);
  return {
    issues: issues.map((j) => compactIssue(parse(j), labels)),
    total: pageInfo.total,
    nextCursor,
  };
}

const IssueFields = {
  description: opt(Description),
  state: opt(Ref('Workflow state name or id in the issue\'s team, e.g. "In Progress"')),
  assignee: opt(Clearable('"me", an email or a name, e.g. "ana@example.com"')),
  priority: opt(Priority),
  labels: opt(
    Type.Array(Ref('Label name or id'), { maxItems: 20, description: 'Label names or ids, e.g. ["Bug"]' }),
  ),
  project: opt(Clearable('Project name or id, e.g. "Mobile launch"')),
  cycle: opt(
    Type.Union(
      [CycleRef('Cycle number, name or id in the team, or "current", "next" or "previous"'), Type.Null()],
      {
        description:
          'Cycle number, name or id in the team, or "current", "next" or "previous", e.g. 12 or "next"; null clears it',
      },
    ),
  ),
  milestone: opt(Clearable('Milestone name or id in the issue\'s project, e.g. "Beta"')),
  parent: opt(Clearable('Parent issue identifier or id, e.g. "ENG-100"')),
  dueDate: opt(DueDate),
  estimate: opt(Estimate),
};

const CreateInput = Type.Object(
  { team: Ref('Team key, name or id, e.g. "ENG"'), title: Title, ...IssueFields },
  { additionalProperties: false },
);

/**
 * A relation as get_issue lists it, from the issue being updated: its kind
 * (relations/present.ts, e.g. blocked_by: the other issue blocks this one;
 * duplicate: this one duplicates the other) and the other issue.
 */
const Relations = (description: string) =>
  Type.Array(
    Type.Object(
      {
        type: Type.Union(
          RELATION_KINDS.map((k) => Type.Literal(k)),
          {
            description:
              'blocks, blocked_by, related, duplicate (this issue duplicates the other), duplicated_by or similar',
          },
        ),
        issue: IssueRef,
      },
      { additionalProperties: false },
    ),
    { maxItems: 20, description },
  );

/** A relation as the relations service takes it, between the issue `self` and the one the item names. */
function relationInput(self: string, item: Rec): RelationInput {
  const { type, inverse } = typeOfKind(item['type'] as RelationKind);
  const other = String(item['issue']);
  return inverse
    ? { type, issueId: other, relatedIssueId: self }
    : { type, issueId: self, relatedIssueId: other };
}

const UpdateInput = Type.Object(
  {
    issue: IssueRef,
    title: opt(Title),
    ...IssueFields,
    addLabels: opt(
      Type.Array(Ref('Label name or id'), { maxItems: 20, description: 'Labels to add, e.g. ["Bug"]' }),
    ),
    removeLabels: opt(
      Type.Array(Ref('Label name or id'), { maxItems: 20, description: 'Labels to take off' }),
    ),
    addRelations: opt(Relations('Relations to add, e.g. [{"type":"blocked_by","issue":"ENG-7"}]')),
    removeRelations: opt(Relations('Relations to remove, e.g. [{"type":"related","issue":"ENG-9"}]')),
  },
  { additionalProperties: false },
);

/** The tools' names and references as the service's input (ids), for `team` (and the issue's current project). */
async function issueInput(call: ToolCall, a: Rec, team: Rec, currentProjectId: string | null) {
  const { lookup } = call;
  const teamId = String(team['id']);
  const key = String(team['key']);
  const input: IssueUpdateInput = {};
  if (typeof a['title'] === 'string') input.title = a['title'];
  if (a['description'] !== undefined) input.description = a['description'] as string | null;
  if (typeof a['priority'] === 'number') input.priority = a['priority'];
  if (a['dueDate'] !== undefined) input.dueDate = a['dueDate'] as string | null;
  if (a['estimate'] !== undefined) input.estimate = a['estimate'] as number | null;
  if (typeof a['state'] === 'string') input.stateId = await lookup.state(teamId, key, a['state']);
  if (a['assignee'] !== undefined) {
    input.assigneeId = a['assignee'] === null ? null : await lookup.user(String(a['assignee']));
  }
  if (Array.isArray(a['labels'])) input.labelIds = await lookup.labelIds(teamId, a['labels'] as string[]);
  let projectId = currentProjectId;
  let projectName = '';
  if (a['project'] !== undefined) {
    if (a['project'] === null) input.projectId = projectId = null;
    else {
      const project = await lookup.project(String(a['project']));
      input.projectId = projectId = String(project['id']);
      projectName = String(project['name']);
    }
  }
  if (a['cycle'] !== undefined) {
    input.cycleId =
      a['cycle'] === null ? null : await lookup.cycle(teamId, key, a['cycle'] as string | number);
  }
  if (a['milestone'] !== undefined) {
    if (a['milestone'] === null) input.projectMilestoneId = null;
    else if (projectId === null) {
      throw new ToolError('A milestone belongs to a project: set project too, e.g. project "Mobile launch".');
    } else {
      if (!projectName) projectName = String((await lookup.project(projectId))['name']);
      input.projectMilestoneId = await lookup.milestone(projectId, projectName, String(a['milestone']));
    }
  }
  if (a['parent'] !== undefined) {
    input.parentId =
      a['parent'] === null ? null : (await getIssue(call.ctx, call.actor, String(a['parent']))).id;
  }
  return input;
}

/** One issue as the write tools answer it. */
async function issueAnswer(call: ToolCall, id: string) {
  const json = parse(await issueJson(call.ctx, call.actor, { id }, MCP_ISSUE_VIEW))['issue'] as Rec;
  return compactIssue(json, await call.lookup.labelNames(), true);
}

const HISTORY_SHOWN = 10;

/** The last changes of an issue, states and people by name. */
async function recentHistory(call: ToolCall, ref: string, teamId: string) {
  const rows = await issueHistory(call.ctx, call.actor, ref);
  const [states, users] = await Promise.all([call.lookup.states(teamId), call.lookup.users()]);
  const names = new Map<unknown, string>([
    ...states.map((s) => [s['id'], String(s['name'])] as const),
    ...users.map((u) => [u['id'], String(u['name'])] as const),
  ]);
  const named = (v: unknown) => names.get(v) ?? v;
  return rows.slice(-HISTORY_SHOWN).map((h) => ({
    at: h.created_at.toISOString(),
    by: h.actor_id ? (names.get(h.actor_id) ?? h.actor_id) : null,
    changes: Object.fromEntries(
      Object.entries(h.changes as Record<string, { from: unknown; to: unknown }>).map(([field, c]) => [
        field,
        { from: named(c.from), to: named(c.to) },
      ]),
    ),
  }));
}

/** get_issue's answer, also the issue resource's text. */
export async function issueDetail(call: ToolCall, ref: string) {
  const json = parse(await getIssueJson(call.ctx, call.actor, ref, MCP_ISSUE_VIEW))['issue'] as Rec;
  const id = String(json['id']);
  await call.charge(50 + 50 + 50);
  const [labels, comments, relations, children] = await Promise.all([
    call.lookup.labelNames(),
    listCommentsJson(call.ctx, call.actor, id, { limit: 50 }).then(parse),
    listIssueRelationsJson(call.ctx, call.actor, id, { limit: 50, offset: 0 }).then(parse),
    listIssuesAs(call.ctx, call.actor, { filters: { parentId: id }, limit: 50 }, MCP_ISSUE_VIEW),
  ]);
  const team = (await call.lookup.teams()).find((t) => t['key'] === (json['team'] as Rec)['key']);
  return {
    ...compactIssue(json, labels, true),
    subIssues: children.issues.map((c) => {
      const child = parse(c);
      return {
        identifier: child['identifier'],
        title: child['title'],
        state: (child['state'] as Rec)['name'],
      };
    }),
    relations: (relations['relations'] as Rec[]).map((r) => {
      const other = r['issue'] as Rec;
      return {
        kind: r['kind'],
        issue: other['identifier'],
        title: other['title'],
        state: (other['state'] as Rec)['name'],
      };
    }),
    comments: (comments['comments'] as Rec[]).map((c) =>
      pick(
        {
          id: c['id'],
          author: (c['user'] as Rec | null)?.['name'],
          body: c['deletedAt'] ? '(deleted)' : c['body'],
          replyTo: c['parentId'],
          createdAt: c['createdAt'],
        },
        ['id', 'author', 'body', 'replyTo', 'createdAt'],
      ),
    ),
    recentHistory: team ? await recentHistory(call, id, String(team['id'])) : [],
  };
}

// ---------------------------------------------------------------- the list

const NoInput = Type.Object({}, { additionalProperties: false });
const TeamInput = Type.Object(
  { team: Ref('Team key, name or id, e.g. "ENG"') },
  { additionalProperties: false },
);

export const TOOLS: readonly Tool[] = [
  {
    name: 'search_issues',
    title: 'Search issues',
    description:
      'Find issues by team, state, assignee, label, project, cycle, priority and words; most recently updated first (best match first with text). Example: {"team":"ENG","state":"In Progress","assignee":"me"}. Pass nextCursor back as cursor for more.',
    input: SearchInput,
    readOnly: true,
    run: async (call, a) => issuePage(call, a, await issueQuery(call, a)),
  },
  {
    name: 'get_issue',
    title: 'Get an issue',
    description:
      'One issue with its description, comments, relations, sub-issues and recent history. Example: {"issue":"ENG-123"}.',
    input: Type.Object({ issue: IssueRef }, { additionalProperties: false }),
    readOnly: true,
    run: (call, a) => issueDetail(call, String(a['issue'])),
  },
  {
    name: 'create_issue',
    title: 'Create an issue',
    description:
      'Create an issue in a team. State, assignee, labels, project, cycle and milestone take names. Example: {"team":"ENG","title":"Login times out on Safari","priority":2,"labels":["Bug"],"assignee":"me"}.',
    input: CreateInput,
    readOnly: false,
    run: async (call, a) => {
      const team = await call.lookup.team(String(a['team']));
      const input = (await issueInput(call, a, team, null)) as IssueCreateInput;
      const issue = await createIssue(call.ctx, call.actor, { ...input, teamId: String(team['id']) });
      return issueAnswer(call, issue.id);
    },
  },
  {
    name: 'update_issue',
    title: 'Update an issue',
    description:
      'Change an issue: only the fields given change; null clears one; labels replaces the set, addLabels/removeLabels edit it. Example: {"issue":"ENG-123","state":"In Review","assignee":"ana@example.com"}.',
    input: UpdateInput,
    readOnly: false,
    run: async (call, a) => {
      const current = await getIssue(call.ctx, call.actor, String(a['issue']));
      const team = (await call.lookup.teams()).find((t) => t['id'] === current.team_id);
      if (!team) throw new ToolError(`Issue ${a['issue']} is in a team you cannot see.`);
      const input = await issueInput(call, a, team, current.project_id);
      if (Array.isArray(a['addLabels']) || Array.isArray(a['removeLabels'])) {
        const set = new Set(input.labelIds ?? current.labelIds);
        for (const id of await call.lookup.labelIds(current.team_id, (a['addLabels'] as string[]) ?? []))
          set.add(id);
        for (const id of await call.lookup.labelIds(current.team_id, (a['removeLabels'] as string[]) ?? []))
          set.delete(id);
        input.labelIds = [...set];
      }
      const adding = (a['addRelations'] as Rec[] | undefined) ?? [];
      const removing = (a['removeRelations'] as Rec[] | undefined) ?? [];
      if (Object.keys(input).length === 0 && adding.length + removing.length === 0) {
        throw new ToolError(
          'Nothing to change: give at least one of title, description, state, assignee, priority, labels, addLabels, removeLabels, project, cycle, milestone, parent, dueDate, estimate, addRelations, removeRelations.',
        );
      }
      // One transaction: a refused relation leaves the fields as they were, and the other way round.
      await call.ctx.db.transaction().execute(async (trx) => {
        if (Object.keys(input).length > 0) await updateIssue(call.ctx, call.actor, current.id, input, trx);
        // Through the relations service, one at a time, as REST's POST and DELETE.
        for (const item of removing)
          await deleteRelationBetween(call.ctx, call.actor, relationInput(current.id, item), trx);
        for (const item of adding)
          await createRelation(call.ctx, call.actor, relationInput(current.id, item), trx);
      });
      return issueAnswer(call, current.id);
    },
  },
  {
    name: 'add_comment',
    title: 'Comment on an issue',
    description:
      'Add a Markdown comment to an issue, or a reply to one of its comments. Example: {"issue":"ENG-123","body":"Fixed in #42, ready for review."}.',
    input: Type.Object(
      {
        issue: IssueRef,
        body: Type.String({ minLength: 1, maxLength: 100_000, description: 'Markdown' }),
        replyTo: opt(
          Type.String({ format: 'uuid', description: 'Id of the comment this answers (from get_issue)' }),
        ),
      },
      { additionalProperties: false },
    ),
    readOnly: false,
    run: async (call, a) => {
      const comment = await createComment(call.ctx, call.actor, {
        issueId: String(a['issue']),
        body: String(a['body']),
        ...(typeof a['replyTo'] === 'string' ? { parentId: a['replyTo'] } : {}),
      });
      const issue = await getIssue(call.ctx, call.actor, comment.issue_id);
      return { id: comment.id, issue: issue.identifier, createdAt: comment.created_at.toISOString() };
    },
  },
  {
    name: 'my_issues',
    title: 'My issues',
    description:
      'Issues assigned to you that are not done or canceled (includeDone for all), most recently updated first. Example: {"limit":10}.',
    input: Type.Object(
      {
        includeDone: opt(Type.Boolean({ description: 'Also completed and canceled issues' })),
        limit: opt(Limit(20)),
        cursor: opt(Cursor),
      },
      { additionalProperties: false },
    ),
    readOnly: true,
    run: (call, a) =>
      issuePage(call, a, {
        filters: { assigneeId: call.actor.id },
        filter:
          a['includeDone'] === true ? undefined : { state: { type: { nin: ['completed', 'canceled'] } } },
        text: undefined,
      }),
  },
  {
    name: 'list_notifications',
    title: 'My notifications',
    description:
      'Your inbox, newest first: assignments, mentions, comments and status changes on issues you follow, and new updates of projects you lead or are a member of. Example: {"unreadOnly":true}.',
    input: Type.Object(
      {
        unreadOnly: opt(Type.Boolean({ description: 'Only unread ones' })),
        limit: opt(Limit(20)),
        offset: opt(Type.Integer({ minimum: 0, maximum: 100_000, description: 'How many to skip' })),
      },
      { additionalProperties: false },
    ),
    readOnly: true,
    run: async (call, a) => {
      const page = {
        limit: (a['limit'] as number | undefined) ?? 20,
        offset: (a['offset'] as number | undefined) ?? 0,
      };
      await call.charge(page.limit);
      const inbox = parse(
        await listInboxJson(call.ctx, call.actor, a['unreadOnly'] === true ? { unread: true } : {}, page),
      );
      const info = inbox['pageInfo'] as { total: number };
      return {
        notifications: (inbox['notifications'] as Rec[]).map((n) => {
          const issue = n['issue'] as Rec | null;
          const project = n['project'] as Rec | null;
          return pick(
            {
              id: n['id'],
              type: n['type'],
              issue: issue ? `${issue['identifier']} ${issue['title']}` : null,
              project: project ? project['name'] : null,
              by: (n['actor'] as Rec | null)?.['name'],
              read: n['readAt'] !== null,
              createdAt: n['createdAt'],
            },
            ['id', 'type', 'issue', 'project', 'by', 'read', 'createdAt'],
          );
        }),
        total: info.total,
        nextOffset: page.offset + page.limit < info.total ? page.offset + page.limit : null,
      };
    },
  },
  {
    name: 'mark_notification_read',
    title: 'Mark notifications read',
    description:
      'Mark one notification read (id from list_notifications), all about one issue, or all. Example: {"id":"7c3e..."} or {"issue":"ENG-123"} or {"all":true}.',
    input: Type.Object(
      {
        id: opt(Type.String({ format: 'uuid', description: 'Notification id' })),
        issue: opt(IssueRef),
        all: opt(Type.Boolean({ description: 'Every notification in your inbox' })),
      },
      { additionalProperties: false },
    ),
    readOnly: false,
    run: async (call, a) => {
      const given = ['id', 'issue', 'all'].filter((k) => a[k] !== undefined && a[k] !== false);
      if (given.length !== 1) throw new ToolError('Give exactly one of id, issue or all (true).');
      if (a['all'] === true) return { marked: await markAllReadFor(call.ctx, call.actor) };
      if (typeof a['id'] === 'string') {
        const n = await updateNotificationFor(call.ctx, call.actor, a['id'], { read: true });
        return { marked: 1, id: n.id };
      }
      const rows = await updateAboutFor(call.ctx, call.actor, { issue: String(a['issue']) }, { read: true });
      return { marked: rows.length };
    },
  },
  {
    name: 'list_teams',
    title: 'Teams',
    description: 'The teams you can see, with their keys (ENG in ENG-123). Example: {}.',
    input: NoInput,
    readOnly: true,
    run: async (call) => ({
      teams: (await call.lookup.teams()).map((t) => pick(t, ['key', 'name', 'private', 'description', 'id'])),
    }),
  },
  {
    name: 'list_users',
    title: 'People',
    description:
      'People you can see (assignees), optionally matching words in name or email. Example: {"query":"ana"}.',
    input: Type.Object(
      { query: opt(Type.String({ minLength: 1, maxLength: 200, description: 'Part of a name or email' })) },
      { additionalProperties: false },
    ),
    readOnly: true,
    run: async (call, a) => {
      const q = typeof a['query'] === 'string' ? a['query'].toLowerCase() : '';
      const users = (await call.lookup.users()).filter(
        (u) => !q || `${u['name']} ${u['displayName']} ${u['email']}`.toLowerCase().includes(q),
      );
      return { users: users.map((u) => pick(u, ['name', 'email', 'role', 'id'])) };
    },
  },
  {
    name: 'list_projects',
    title: 'Projects',
    description: 'Projects you can see, with status, lead and progress. Example: {"status":"started"}.',
    input: Type.Object(
      {
        status: opt(
          Type.Union(
            PROJECT_STATUSES.map((v) => Type.Literal(v)),
            { description: 'Only projects with this status' },
          ),
        ),
      },
      { additionalProperties: false },
    ),
    readOnly: true,
    run: async (call, a) => {
      await call.charge(MAX_PAGE);
      const list = parse(
        await listProjectsJson(call.ctx, call.actor, {
          limit: MAX_PAGE,
          offset: 0,
          includeArchived: false,
          ...(typeof a['status'] === 'string'
            ? { status: a['status'] as (typeof PROJECT_STATUSES)[number] }
            : {}),
        }),
      );
      return { projects: (list['projects'] as Rec[]).map((p) => projectSummary(p)) };
    },
  },
  {
    name: 'list_milestones',
    title: 'Milestones of a project',
    description:
      'A project\'s milestones in order, with target dates and status. Example: {"project":"Mobile launch"}.',
    input: Type.Object(
      { project: Ref('Project name or id, e.g. "Mobile launch"') },
      { additionalProperties: false },
    ),
    readOnly: true,
    run: async (call, a) => {
      const project = await call.lookup.project(String(a['project']));
      const list = parse(await listMilestonesJson(call.ctx, call.actor, String(project['id'])));
      return {
        project: project['name'],
        milestones: (list['milestones'] as Rec[]).map((m) => pick(m, ['name', 'targetDate', 'status', 'id'])),
      };
    },
  },
  {
    name: 'list_cycles',
    title: 'Cycles of a team',
    description: 'A team\'s cycles (sprints) with their dates and which is current. Example: {"team":"ENG"}.',
    input: TeamInput,
    readOnly: true,
    run: async (call, a) => {
      const team = await call.lookup.team(String(a['team']));
      await call.charge(MAX_PAGE);
      const list = parse(
        await listCyclesJson(call.ctx, call.actor, {
          teamId: String(team['id']),
          limit: MAX_PAGE,
          offset: 0,
        }),
      );
      return {
        team: team['key'],
        cycles: (list['cycles'] as Rec[]).map((c) =>
          pick(c, ['number', 'name', 'status', 'startsAt', 'endsAt', 'id']),
        ),
      };
    },
  },
  {
    name: 'list_labels',
    title: 'Labels',
    description:
      'Labels you can put on issues: the workspace\'s and, with team, that team\'s. Example: {"team":"ENG"}.',
    input: Type.Object(
      { team: opt(Ref('Team key, name or id, e.g. "ENG"')) },
      { additionalProperties: false },
    ),
    readOnly: true,
    run: async (call, a) => {
      const team = typeof a['team'] === 'string' ? await call.lookup.team(a['team']) : undefined;
      const list = parse(
        await listLabelsJson(call.ctx, call.actor, team ? { teamId: String(team['id']) } : {}),
      );
      const keys = new Map((await call.lookup.teams()).map((t) => [t['id'], t['key']]));
      return {
        labels: (list['labels'] as Rec[])
          .filter((l) => !l['isGroup'])
          .map((l) =>
            pick({ ...l, team: keys.get(l['teamId']) ?? null }, ['name', 'team', 'description', 'id']),
          ),
      };
    },
  },
  {
    name: 'list_states',
    title: 'Workflow states of a team',
    description:
      'A team\'s workflow states in board order, with their kind (backlog, started, completed...). Example: {"team":"ENG"}.',
    input: TeamInput,
    readOnly: true,
    run: async (call, a) => {
      const team = await call.lookup.team(String(a['team']));
      const list = parse(await listStatesJson(call.ctx, call.actor, String(team['id'])));
      return {
        team: team['key'],
        states: (list['workflowStates'] as Rec[]).map((s) => pick(s, ['name', 'type', 'id'])),
      };
    },
  },
];

/** A project in a line or two: what a model needs to pick one or report on it. */
function projectSummary(p: Rec): Rec {
  const progress = p['progress'] as Rec | undefined;
  return pick(
    {
      name: p['name'],
      status: p['status'],
      targetDate: p['targetDate'],
      progress: progress
        ? `${Math.round(Number(progress['progress']) * 100)}% of ${progress['issueCount']} issues`
        : undefined,
      url: p['url'],
      id: p['id'],
    },
    ['name', 'status', 'targetDate', 'progress', 'url', 'id'],
  );
}

/** The project resource's text: the project and its milestones. */
export async function projectDetail(call: ToolCall, id: string) {
  const project = parse(await projectJson(call.ctx, call.actor, id))['project'] as Rec;
  const milestones = parse(await listMilestonesJson(call.ctx, call.actor, id))['milestones'] as Rec[];
  return {
    ...projectSummary(project),
    description: project['description'] || undefined,
    startDate: project['startDate'] ?? undefined,
    milestones: milestones.map((m) => pick(m, ['name', 'targetDate', 'status', 'id'])),
  };
}
