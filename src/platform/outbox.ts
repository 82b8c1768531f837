// Transactional outbox for change events. Call recordEvent inside the same
// transaction as the change: the event row (and one delivery row per matching
// webhook) commits or rolls back with it, so no committed change is ever
// without its event and no rolled-back change ever has one.
import { sql } from 'kysely';
import type { Actor } from './context.js';
import type { Db } from './db/database.js';

export type EventType = 'issue' | 'comment' | 'project' | 'cycle' | 'label' | 'attachment';
export type EventAction = 'create' | 'update' | 'remove';

export interface ChangeEvent {
  type: EventType;
  action: EventAction;
  /** The record as presented by its domain's present.ts (the REST shape). */
  data: Record<string, unknown>;
  /** For updates: previous values of the fields that changed (same keys as data). */
  updatedFrom?: Record<string, unknown>;
  actor: Pick<Actor, 'id' | 'name' | 'email'> | null;
  /** Absolute URL of the record in the UI, when it has one. */
  url?: string;
}

/** Records a change event; returns its id, which doubles as the sync id. */
export async function recordEvent(trx: Db, event: ChangeEvent): Promise<number> {
  const payload = {
    type: event.type,
    action: event.action,
    data: event.data,
    ...(event.updatedFrom ? { updatedFrom: event.updatedFrom } : {}),
    url: event.url ?? null,
    actor: event.actor
      ? { id: event.actor.id, name: event.actor.name, email: event.actor.email, type: 'user' }
      : null,
  };
  const row = await trx
    .insertInto('webhook_events')
    .values({ type: event.type, action: event.action, payload: JSON.stringify(payload) })
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow();
  // Fan out to every enabled endpoint that wants this kind (all kinds when empty).
  await trx
    .insertInto('webhook_deliveries')
    .columns(['webhook_id', 'event_id'])
    .expression((eb) =>
      eb
        .selectFrom('webhooks')
        .select((e) => ['id', e.val(row.id).as('event_id')])
        .where('enabled', '=', true)
        .where('archived_at', 'is', null)
        .where(sql<boolean>`(cardinality(resource_types) = 0 or ${event.type} = any(resource_types))`),
    )
    .execute();
  return row.id;
}

/** The latest change counter: what GraphQL payloads report as lastSyncId. */
export async function currentSyncId(db: Db): Promise<number> {
  const row = await db
    .selectFrom('webhook_events')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}
