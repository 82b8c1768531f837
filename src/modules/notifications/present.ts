// A notification as REST shows it: its schema, and NOTIFICATION_VIEW, which
// every REST answer reads from the read model's declaration
// (platform/read/rest.ts). Its issue and actor are the declared relations, so
// an actor the caller may not see is null, as on GraphQL.
import { Type } from 'typebox';
import { notification } from '../../platform/read/entities.js';
import { restView } from '../../platform/read/rest.js';

const NullableString = Type.Union([Type.String(), Type.Null()]);

export const NotificationSchema = Type.Object({
  id: Type.String(),
  type: Type.String({
    description:
      'issueAssignedToYou | issueMention | issueCommentMention | issueNewComment | issueStatusChanged',
  }),
  issue: Type.Object({
    id: Type.String(),
    identifier: Type.String(),
    title: Type.String(),
    teamId: Type.String(),
  }),
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
  actor: { field: 'actor', select: fieldsOf('id', 'name', 'displayName') },
});
