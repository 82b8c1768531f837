// The notifications handler of change events: who an issue or comment change
// subscribes and notifies, and who hears of a new project update (notify.ts),
// read from the event alone. Mentions are
// part of it rather than a handler of their own: a person gets one
// notification per change, the most specific kind, so assignment, mentions,
// replies and status changes must be weighed together.
import type { ChangeEvent, EventHandler } from '../../platform/outbox.js';
import type { CommentJson } from '../comments/present.js';
import type { IssueJson } from '../issues/present.js';
import { subscribe } from '../issues/queries.js';
import type { ProjectUpdateJson } from '../project-updates/present.js';
import * as notify from './notify.js';

const changed = (event: ChangeEvent, field: string) =>
  event.updatedFrom !== undefined && field in event.updatedFrom;

/** A state change names the new state's type; an issue event without it is our bug. */
function stateTypeOf(event: ChangeEvent): string {
  if (event.stateType === undefined) throw new Error('issue.update changed stateId without stateType');
  return event.stateType;
}

export const notificationsHandler: EventHandler = {
  name: 'notifications',
  types: ['issue', 'comment', 'projectUpdate'],
  async handle(ctx, trx, event) {
    const actorId = event.actor?.id;
    if (!actorId || event.silent) return;
    if (event.type === 'projectUpdate') {
      // Only a new update notifies: an edit, an archive or a removal tells nobody.
      if (event.action === 'create') {
        await notify.projectUpdateCreated(ctx, trx, actorId, event.data as unknown as ProjectUpdateJson);
      }
      return;
    }
    if (event.type === 'issue') {
      const issue = event.data as IssueJson;
      if (event.action === 'create') {
        // An app's own user is never notified, so it is not subscribed either.
        if (!event.actor?.isApp) await subscribe(trx, issue.id, [actorId]);
        await notify.issueCreated(ctx, trx, actorId, issue);
      } else if (event.action === 'update') {
        await notify.issueUpdated(ctx, trx, actorId, {
          issueId: issue.id,
          assignee: changed(event, 'assigneeId') ? issue.assigneeId : null,
          description: changed(event, 'description')
            ? { from: event.updatedFrom!['description'] as string | null, to: issue.description }
            : null,
          stateType: changed(event, 'stateId') ? stateTypeOf(event) : null,
        });
      }
      return;
    }
    const comment = event.data as CommentJson;
    if (event.action === 'create') {
      if (!event.actor?.isApp) await subscribe(trx, comment.issueId, [actorId]);
      await notify.commentCreated(ctx, trx, actorId, comment);
    } else if (event.action === 'update' && changed(event, 'body')) {
      await notify.commentEdited(
        ctx,
        trx,
        actorId,
        comment,
        event.updatedFrom!['body'] as string,
        comment.body,
      );
    }
  },
};
