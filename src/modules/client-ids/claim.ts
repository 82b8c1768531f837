// A create with an id the client chose (IssueCreateInput.id, CommentCreateInput.id):
// the one rule the issue and comment services apply, for REST and GraphQL alike.
//
//   a new id                                         -> created with that id
//   the id of the same kind of record, by the same   -> the record as it is, no second create,
//   caller, and the record is still there               event or notification (a replay)
//   anything else: another caller's, another kind's, -> 409 CONFLICT on `id`
//   a deleted record's, or a record's the server
//   chose the id of
//
// A client sends the same create again when it never saw the answer (the web
// UI's offline queue, web/src/lib/write-queue.ts), so the second request must
// change nothing. The id is taken in the create's own transaction, first, so
// a create that fails gives it back and two concurrent ones take turns
// (queries.ts takeClientId).
import type { Actor } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { conflict, invalidField } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';
import * as q from './queries.js';

export type ClientIdKind = 'issue' | 'comment';

/** A client-chosen id, when one was sent (null or absent: the server chooses); 400 unless a UUID. */
export function checkClientId(id: unknown): string | undefined {
  if (id === undefined || id === null) return undefined;
  if (!isUuid(id)) throw invalidField('id', 'must be a UUID');
  return id as string;
}

/** The id names another record (or one that is gone): the create cannot have it. */
export const clientIdTaken = () => conflict('id: this id is already used by another record', 'id');

/**
 * Takes `id` for a create of `kind` by `actor`, inside the create's
 * transaction: 'new' to go on and create the record with it, 'replay' when
 * the caller created this record with this id before (the caller returns it,
 * or clientIdTaken() if it is gone); throws clientIdTaken() otherwise.
 */
export async function claimClientId(
  trx: Db,
  kind: ClientIdKind,
  id: string,
  actor: Actor,
): Promise<'new' | 'replay'> {
  if (await q.takeClientId(trx, { id, kind, actor_id: actor.id })) {
    if (await q.recordHasId(trx, id)) throw clientIdTaken();
    return 'new';
  }
  const held = await q.findClientId(trx, id);
  if (held?.kind === kind && held.actor_id === actor.id) return 'replay';
  throw clientIdTaken();
}
