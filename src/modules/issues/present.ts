// The public shape of an issue, shared by REST, GraphQL and webhook payloads,
// plus the derived strings (url, slug, branch name) clients expect.
import { Type } from 'typebox';
import type { IssueRow } from '../../platform/db/tables.js';

/** An issue row with what presenting it needs: its labels and the branch owner's name. */
export type IssueRecord = IssueRow & {
  labelIds: string[];
  /** Display name of the assignee, else of the creator (for branchName). */
  branchUser: string | null;
  childProgress: ChildProgress;
};

/**
 * How far an issue's sub-issues are: live (not archived) children the reader
 * sees, how many of them are completed, and how many canceled. The UI shows
 * "completed/(total - canceled) done", leaving canceled work out of scope as
 * project progress does.
 */
export interface ChildProgress {
  total: number;
  completed: number;
  canceled: number;
}

export const PRIORITY_LABELS = ['No priority', 'Urgent', 'High', 'Medium', 'Low'] as const;

export const priorityLabel = (p: number): string => PRIORITY_LABELS[p] ?? 'No priority';

/** Lower-case ASCII words joined by dashes, accents folded, cut at a word end near `max`. */
export function slugify(text: string, max = 40): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug.length <= max) return slug;
  const cut = slug.slice(0, max + 1);
  const dash = cut.lastIndexOf('-');
  return (dash > max / 2 ? cut.slice(0, dash) : slug.slice(0, max)).replace(/-+$/, '');
}

export function issueUrl(publicUrl: string, identifier: string, title: string): string {
  const slug = slugify(title);
  return `${publicUrl}/issue/${identifier}${slug ? `/${slug}` : ''}`;
}

export function branchName(userName: string | null, identifier: string, title: string): string {
  const user = slugify(userName ?? '', 40) || 'user';
  const slug = slugify(title);
  return `${user}/${identifier.toLowerCase()}${slug ? `-${slug}` : ''}`;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentIssue(r: IssueRecord, publicUrl: string) {
  return {
    id: r.id,
    identifier: r.identifier,
    number: r.number,
    title: r.title,
    description: r.description,
    priority: r.priority,
    priorityLabel: priorityLabel(r.priority),
    estimate: r.estimate,
    dueDate: r.due_date,
    teamId: r.team_id,
    stateId: r.state_id,
    assigneeId: r.assignee_id,
    creatorId: r.creator_id,
    projectId: r.project_id,
    projectMilestoneId: r.project_milestone_id,
    cycleId: r.cycle_id,
    parentId: r.parent_id,
    labelIds: r.labelIds,
    childProgress: r.childProgress,
    sortOrder: r.sort_order,
    url: issueUrl(publicUrl, r.identifier, r.title),
    branchName: branchName(r.branchUser, r.identifier, r.title),
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
    startedAt: iso(r.started_at),
    completedAt: iso(r.completed_at),
    canceledAt: iso(r.canceled_at),
    archivedAt: iso(r.archived_at),
  };
}

export type IssueJson = ReturnType<typeof presentIssue>;

const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableTime = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

export const IssueSchema = Type.Object({
  id: Type.String(),
  identifier: Type.String({ description: '<TEAMKEY>-<number>' }),
  number: Type.Integer(),
  title: Type.String(),
  description: Type.Union([Type.String(), Type.Null()], { description: 'Markdown' }),
  priority: Type.Integer({ minimum: 0, maximum: 4 }),
  priorityLabel: Type.String(),
  estimate: Type.Union([Type.Number(), Type.Null()]),
  dueDate: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
  teamId: Type.String(),
  stateId: Type.String(),
  assigneeId: NullableString,
  creatorId: NullableString,
  projectId: NullableString,
  projectMilestoneId: NullableString,
  cycleId: NullableString,
  parentId: NullableString,
  labelIds: Type.Array(Type.String()),
  childProgress: Type.Object(
    { total: Type.Integer(), completed: Type.Integer(), canceled: Type.Integer() },
    { description: 'Live sub-issues you can see: all, completed, canceled' },
  ),
  sortOrder: Type.Number(),
  url: Type.String(),
  branchName: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  startedAt: NullableTime,
  completedAt: NullableTime,
  canceledAt: NullableTime,
  archivedAt: NullableTime,
});

/** What REST presents of an issue, in the schema's order: fields of the read model's issue (platform/read). */
export const REST_ISSUE_FIELDS = Object.keys(IssueSchema.properties).map((f) => ({ key: f, field: f }));
