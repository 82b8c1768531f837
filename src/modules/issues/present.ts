// The public shape of an issue over REST and in webhook payloads. Its
// computed fields (url, branchName, priorityLabel, labelIds, childProgress)
// are defined in fields.ts, which GraphQL reads too.
import { Type } from 'typebox';
import type { IssueRow } from '../../platform/db/tables.js';
import { branchName, type ChildProgress, issueUrl, priorityLabel } from './fields.js';

/** An issue row with what presenting it needs: its labels and the branch owner's name. */
export type IssueRecord = IssueRow & {
  labelIds: string[];
  /** Display name of the assignee, else of the creator, if the reader sees them (fields.ts branchOwnerSql). */
  branchUser: string | null;
  childProgress: ChildProgress;
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The fields whose changes an issue's history records and its update events
 * report in updatedFrom, each as presentIssue shows it. A write presents the
 * record after the change whole (presentIssue) and the one before only here.
 */
const tracked = {
  identifier: (r: IssueRecord) => r.identifier,
  number: (r: IssueRecord) => r.number,
  title: (r: IssueRecord) => r.title,
  description: (r: IssueRecord) => r.description,
  priority: (r: IssueRecord) => r.priority,
  estimate: (r: IssueRecord) => r.estimate,
  dueDate: (r: IssueRecord) => r.due_date,
  teamId: (r: IssueRecord) => r.team_id,
  stateId: (r: IssueRecord) => r.state_id,
  assigneeId: (r: IssueRecord) => r.assignee_id,
  projectId: (r: IssueRecord) => r.project_id,
  projectMilestoneId: (r: IssueRecord) => r.project_milestone_id,
  cycleId: (r: IssueRecord) => r.cycle_id,
  parentId: (r: IssueRecord) => r.parent_id,
  labelIds: (r: IssueRecord) => r.labelIds,
  sortOrder: (r: IssueRecord) => r.sort_order,
  startedAt: (r: IssueRecord) => iso(r.started_at),
  completedAt: (r: IssueRecord) => iso(r.completed_at),
  canceledAt: (r: IssueRecord) => iso(r.canceled_at),
  archivedAt: (r: IssueRecord) => iso(r.archived_at),
};

export type TrackedField = keyof typeof tracked;
type Tracked = { [K in TrackedField]: ReturnType<(typeof tracked)[K]> };

/** Fields whose changes are recorded in history and reported in updatedFrom. */
export const TRACKED = Object.keys(tracked) as TrackedField[];

/** The tracked fields of a record, presented. */
export function presentTracked(r: IssueRecord): Tracked {
  const out: Record<string, unknown> = {};
  for (const key of TRACKED) out[key] = tracked[key](r);
  return out as Tracked;
}

/** In IssueSchema's key order, which REST's serializer and the read model's JSON (rest-compiled.test.ts) use too. */
export function presentIssue(r: IssueRecord, publicUrl: string) {
  const t = presentTracked(r);
  return {
    id: r.id,
    identifier: t.identifier,
    number: t.number,
    title: t.title,
    description: t.description,
    priority: t.priority,
    priorityLabel: priorityLabel(r.priority),
    estimate: t.estimate,
    dueDate: t.dueDate,
    teamId: t.teamId,
    stateId: t.stateId,
    assigneeId: t.assigneeId,
    creatorId: r.creator_id,
    projectId: t.projectId,
    projectMilestoneId: t.projectMilestoneId,
    cycleId: t.cycleId,
    parentId: t.parentId,
    labelIds: t.labelIds,
    childProgress: r.childProgress,
    sortOrder: t.sortOrder,
    url: issueUrl(publicUrl, r.identifier, r.title),
    branchName: branchName(r.branchUser, r.identifier, r.title),
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
    startedAt: t.startedAt,
    completedAt: t.completedAt,
    canceledAt: t.canceledAt,
    archivedAt: t.archivedAt,
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
