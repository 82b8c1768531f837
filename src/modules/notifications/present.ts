// A notification as REST shows it (and GraphQL reads from).
import { Type } from 'typebox';
import type { NotificationRecord } from './queries.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
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

export function presentNotification(n: NotificationRecord) {
  return {
    id: n.id,
    type: n.type,
    issue: { id: n.issue_id, identifier: n.issue_identifier, title: n.issue_title, teamId: n.issue_team_id },
    commentId: n.comment_id,
    parentCommentId: n.parent_comment_id,
    actor:
      n.actor_id && n.actor_name !== null
        ? { id: n.actor_id, name: n.actor_name, displayName: n.actor_display_name ?? '' }
        : null,
    issueStatusType: n.issue_status_type,
    createdAt: n.created_at.toISOString(),
    updatedAt: n.updated_at.toISOString(),
    readAt: iso(n.read_at),
    archivedAt: iso(n.archived_at),
    snoozedUntilAt: iso(n.snoozed_until_at),
  };
}
