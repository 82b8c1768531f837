// A notification as REST shows it: its schema, and NOTIFICATION_VIEW, which
// every REST answer reads from the read model's declaration
// (platform/read/rest.ts). It is about an issue or (projectUpdateCreated) a
// project: the other's keys are null. Its issue, project, update and actor are
// the declared relations, so an actor the caller may not see is null, as on
// GraphQL.
import { Type } from 'typebox';
import { notification } from '../../platform/read/entities.js';
import { restView } from '../../platform/read/rest.js';
import { ProjectHealthSchema } from '../projects/present.js';

const NullableString = Type.Union([Type.String(), Type.Null()]);

export const NotificationSchema = Type.Object({
  id: Type.String(),
  type: Type.String({
    description:
      'issueAssignedToYou | issueMention | issueCommentMention | issueNewComment | issueStatusChanged | projectUpdateCreated',
  }),
  issueId: Type.Union([Type.String(), Type.Null()], {
    description: 'The issue it is about; null for a notification about a project',
  }),
  issue: Type.Union([
    Type.Object({
      id: Type.String(),
      identifier: Type.String(),
      title: Type.String(),
      teamId: Type.String(),
    }),
    Type.Null(),
  ]),
  projectId: Type.Union([Type.String(), Type.Null()], {
    description: 'The project it is about (projectUpdateCreated); null for one about an issue',
  }),
  project: Type.Union([Type.Object({ id: Type.String(), name: Type.String() }), Type.Null()]),
  projectUpdateId: Type.Union([Type.String(), Type.Null()], {
    description: 'projectUpdateCreated: the new update',
  }),
  projectUpdate: Type.Union([
    Type.Object({
      id: Type.String(),
      health: ProjectHealthSchema,
      bodyPreview: Type.String({ description: 'The start of its Markdown, on one line' }),
    }),
    Type.Null(),
  ]),
  commentId: NullableString,
  parentCommentId: Type.Union([Type.String(), Type.Null()], {
    description: 'The comment replied to, when the comment is a reply',
  }),
  actor: Type.Union([
    Type.Object({ id: Type.String(), name: Type.String(), displayName: Type.String() }),
    Type.Null(),
  ]),
  issueStatusType: Type.Union([Type.String(), Type.Null()], {
    description: 'issueStatusChanged: the type of the state the issue moved to',
  }),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  readAt: NullableString,
  archivedAt: NullableString,
  snoozedUntilAt: NullableString,
});

/** The same-named fields of a related row. */
const fieldsOf = (...keys: string[]) => keys.map((key) => ({ key, field: key }));

/** REST's notification over the read model's: the schema's keys in its order. */
export const NOTIFICATION_VIEW = restView(notification, NotificationSchema, {
  issue: { field: 'issue', select: fieldsOf('id', 'identifier', 'title', 'teamId') },
  project: { field: 'project', select: fieldsOf('id', 'name') },
  projectUpdate: { field: 'projectUpdate', select: fieldsOf('id', 'health', 'bodyPreview') },
  actor: { field: 'actor', select: fieldsOf('id', 'name', 'displayName') },
});
