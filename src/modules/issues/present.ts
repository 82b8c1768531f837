// The public shape of an issue over REST and in webhook payloads: its
// TypeBox schema (the OpenAPI contract) and the view over the read model's
// declaration that every REST answer and event reads (platform/read/rest.ts).
// Its computed fields (url, branchName, pullRequestMarker, labelIds, childProgress) are declared
// once in platform/read/entities.ts over issues/fields.ts, which GraphQL reads too.
import { type Static, Type } from 'typebox';
import type { IssueRow } from '../../platform/db/tables.js';
import { issue as readIssue } from '../../platform/read/entities.js';
import { restView } from '../../platform/read/rest.js';
import type { ChildProgress } from './fields.js';

/** An issue row with what GraphQL's mutation answers present it with (the services return these). */
export type IssueRecord = IssueRow & {
  labelIds: string[];
  /** Display name of the assignee, else of the creator, if the reader sees them (fields.ts branchOwnerSql). */
  branchUser: string | null;
  childProgress: ChildProgress;
};

/**
 * The fields whose changes an issue's history records and its update events
 * report in updatedFrom, compared as the REST shape shows them (ISSUE_VIEW).
 */
export const TRACKED = [
  'identifier',
  'number',
  'title',
  'description',
  'priority',
  'estimate',
  'dueDate',
  'teamId',
  'stateId',
  'assigneeId',
  'projectId',
  'projectMilestoneId',
  'cycleId',
  'parentId',
  'labelIds',
  'sortOrder',
  'startedAt',
  'completedAt',
  'canceledAt',
  'archivedAt',
] as const satisfies readonly (keyof IssueJson)[];

export type TrackedField = (typeof TRACKED)[number];

/**
 * Changes an update event reports and the history records besides TRACKED:
 * the triage snooze (docs/triage.md). GraphQL's IssueHistory has no field for
 * them, so they stay out of TRACKED, which names its fromX/toX pairs.
 */
export const RECORDED = [
  ...TRACKED,
  'snoozedUntilAt',
  'snoozedById',
] as const satisfies readonly (keyof IssueJson)[];

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
  pullRequestMarker: Type.Union(
    [
      Type.Object({
        count: Type.Integer({
          description: 'Live pull/merge requests linked to the issue (commits not counted)',
        }),
        status: Type.String({
          description: "The leading one's status: draft, open, inReview, approved, merged or closed",
        }),
        checks: Type.Union(
          [Type.Literal('pending'), Type.Literal('success'), Type.Literal('failure'), Type.Null()],
          {
            description: "The leading one's checks on its head commit; null when none reported",
          },
        ),
        host: Type.String({ description: 'github, gitlab or gitea' }),
      }),
      Type.Null(),
    ],
    {
      description:
        "The list's compact pull request marker (GraphQL's Issue.pullRequestMarker): the leading linked pull request, one still in play before a finished one, then the latest changed; null without one",
    },
  ),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  startedAt: NullableTime,
  completedAt: NullableTime,
  canceledAt: NullableTime,
  archivedAt: NullableTime,
  snoozedUntilAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'Hidden from the triage queue until then (docs/triage.md)',
  }),
  snoozedById: Type.Union([Type.String(), Type.Null()], { description: 'Who snoozed it, if you see them' }),
  creator: Type.Union(
    [Type.Object({ id: Type.String(), name: Type.String(), app: Type.Boolean() }), Type.Null()],
    {
      description: 'Who created it, if you see them; app: an OAuth app acting under its own name (actor=app)',
    },
  ),
});

/** An issue as REST shows it, in its GET, its list, its writes' answers and its events' data. */
export type IssueJson = Static<typeof IssueSchema>;

/** REST's issue: the schema's keys, in its order, read from the read model's issue (platform/read). */
export const ISSUE_VIEW = restView(readIssue, IssueSchema, {
  creator: {
    field: 'creator',
    select: [
      { key: 'id', field: 'id' },
      { key: 'name', field: 'name' },
      { key: 'app', field: 'app' },
    ],
  },
});
