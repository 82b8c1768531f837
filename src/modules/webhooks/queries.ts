// SQL for webhook endpoints, their delivery log and the delivery worker.
// Every function takes the connection or transaction it runs in.
import { type Selectable, sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type {
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhooksTable,
} from '../../platform/db/tables.js';
import { isUuid } from '../../platform/ids.js';
import { fixedKey, timeKey } from '../../platform/list/order.js';
import { offsetPage } from '../../platform/list/runner.js';
import { type PageRequest, windowOf } from '../../platform/list/window.js';

export type WebhookRow = Selectable<WebhooksTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type AttemptRow = Selectable<WebhookAttemptsTable>;

/** A webhook by id, archived ones too (GraphQL's webhook(id) shows archivedAt); undefined for a non-uuid. */
export function findWebhookRow(db: Db, id: string): Promise<WebhookRow | undefined> {
  if (!isUuid(id)) return Promise.resolve(undefined);
  return db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findWebhook(db: Db, id: string): Promise<WebhookRow | undefined> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('id', '=', id)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
}

/** A page of the live webhooks' ids, oldest first, and how many there are. */
export function listWebhooks(db: Db, page: PageRequest) {
  const order = timeKey('createdAt', 'asc');
  return offsetPage<{ id: string }>(
    db,
    { from: sql`webhooks as t`, archivable: true, columns: sql`t.id` },
    order,
    windowOf(page, order),
  );
}

export type WebhookColumns = Partial<
  Pick<
    WebhookRow,
    | 'url'
    | 'label'
    | 'secret'
    | 'enabled'
    | 'resource_types'
    | 'team_id'
    | 'all_public_teams'
    | 'failing_since'
    | 'disabled_reason'
  >
>;

export function insertWebhook(
  db: Db,
  values: WebhookColumns & { url: string; secret: string; creator_id: string | null },
): Promise<WebhookRow> {
  return db.insertInto('webhooks').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateWebhook(db: Db, id: string, patch: WebhookColumns): Promise<WebhookRow | undefined> {
  return db
    .updateTable('webhooks')
    .set({ ...patch, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('archived_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteWebhook(db: Db, id: string): Promise<boolean> {
  const r = await db.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Unfinished deliveries of an endpoint become due now (used when it is re-enabled). */
export async function dueNow(db: Db, webhookId: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: sql<Date>`least(next_attempt_at, now())` })
    .where('webhook_id', '=', webhookId)
    .where('status', 'in', ['pending', 'delivering'])
    .execute();
}

// ---- delivery log -----------------------------------------------------------

/** Newest event first; one delivery per webhook and event, the id breaks no real tie. */
const DELIVERY_ORDER = fixedKey('event', 'e', [
  { sql: sql`t.event_id`, type: 'bigint', dir: 'desc' },
  { sql: sql`t.id`, type: 'uuid', dir: 'desc' },
]);

/** A page of a webhook's delivery ids, newest event first, and how many it has. */
export function listDeliveries(db: Db, webhookId: string, page: PageRequest) {
  return offsetPage<{ id: string }>(
    db,
    {
      from: sql`webhook_deliveries as t`,
      where: [sql`t.webhook_id = ${webhookId}`],
      archivable: false,
      columns: sql`t.id`,
    },
    DELIVERY_ORDER,
    windowOf(page, DELIVERY_ORDER),
  );
}

/** Puts a delivery back in the queue, due now, with a fresh retry schedule; same id. */
export function requeueDelivery(db: Db, webhookId: string, id: string): Promise<DeliveryRow | undefined> {
  return db
    .updateTable('webhook_deliveries')
    .set({
      status: 'pending',
      next_attempt_at: sql<Date>`now()`,
      lease_until: null,
      retry_offset: sql<number>`attempts`,
      updated_at: sql<Date>`now()`,
    })
    .where('webhook_id', '=', webhookId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

// ---- worker -----------------------------------------------------------------

export interface ClaimedDelivery {
  id: string;
  webhook_id: string;
  event_id: number;
  /** Attempt number of this claim (1-based); also the fencing token for finishing it. */
  attempts: number;
  retry_offset: number;
  url: string;
  secret: string;
  event_type: string;
  event_action: string;
  payload: Record<string, unknown>;
  event_created_at: Date;
}

const CLAIMED_COLUMNS = sql`d.id, d.webhook_id, d.event_id, d.attempts, d.retry_offset, w.url, w.secret,
  e.type as event_type, e.action as event_action, e.payload, e.created_at as event_created_at`;

/**
 * Claims up to `limit` due deliveries in one statement. Only the oldest
 * unfinished delivery of each enabled endpoint is a candidate (per-endpoint
 * order); `for update skip locked` lets several workers, in one process or
 * many, claim disjoint sets; the lease makes a crashed worker's claim lapse.
 */
export async function claimDue(db: Db, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  // Most polls find nothing: this read of the due index answers them for a fraction of the
  // claim's planning (4.5 ms a poll on PGlite, twice a second in every idle process).
  if (!(await anyDue(db))) return [];
  const r = await sql<ClaimedDelivery>`
    with heads as (
      select h.id
      from webhooks w
      cross join lateral (
        select d.id from webhook_deliveries d
        where d.webhook_id = w.id and d.status in ('pending', 'delivering')
        order by d.event_id
        limit 1
      ) h
      where w.enabled and w.archived_at is null
    ), claimable as (
      select d.id from webhook_deliveries d
      where d.id in (select id from heads)
        and d.next_attempt_at <= now()
        and (d.status = 'pending' or (d.status = 'delivering' and d.lease_until < now()))
      order by d.next_attempt_at
      limit ${limit}
      for update skip locked
    )
    update webhook_deliveries d
    set status = 'delivering',
        lease_until = now() + make_interval(secs => ${leaseMs / 1000}),
        attempts = d.attempts + 1,
        updated_at = now()
    from claimable c, webhooks w, webhook_events e
    where d.id = c.id and w.id = d.webhook_id and e.id = d.event_id
    returning ${CLAIMED_COLUMNS}
  `.execute(db);
  return r.rows.map((row) => ({ ...row, event_id: Number(row.event_id) }));
}

/** Whether any delivery is due (webhook_deliveries_due); the claim decides which may go. */
async function anyDue(db: Db): Promise<boolean> {
  const r = await sql<{ due: boolean }>`
    select exists (
      select 1 from webhook_deliveries
      where status in ('pending', 'delivering') and next_attempt_at <= now()
    ) as due
  `.execute(db);
  return r.rows[0]?.due === true;
}

/**
 * After a successful attempt, in one statement: logs it, settles the delivery
 * (fenced on its attempt number), ends the endpoint's failing period, and
 * claims the endpoint's next due delivery so a backlog drains without a round
 * through the general claim. No SKIP LOCKED for the next one: skipping a
 * locked head would break the order, so it waits instead. Returns the claimed
 * next delivery, if any.
 */
export async function recordSuccessAndClaimNext(
  db: Db,
  job: { id: string; webhook_id: string; attempts: number },
  a: AttemptRecord,
  next: { leaseMs: number } | null,
): Promise<ClaimedDelivery | null> {
  const r = await sql<ClaimedDelivery>`
    with settled as (
      update webhook_deliveries
      set status = 'succeeded', lease_until = null, last_error = null, updated_at = now()
      where id = ${job.id} and attempts = ${job.attempts} and status = 'delivering'
      returning id
    ), logged as (
      insert into webhook_attempts (delivery_id, started_at, duration_ms, status_code, error, response_body)
      select id, ${a.startedAt.toISOString()}::timestamptz, ${a.durationMs}, ${a.statusCode}, ${a.error}, ${a.responseBody}
      from webhook_deliveries where id = ${job.id}
    ), healthy as (
      update webhooks set failing_since = null
      where id = ${job.webhook_id} and failing_since is not null and exists (select 1 from settled)
    ), head as (
      -- The oldest unfinished delivery once this one is settled.
      select id from webhook_deliveries
      where webhook_id = ${job.webhook_id} and status in ('pending', 'delivering') and id <> ${job.id}
      order by event_id
      limit 1
    )
    update webhook_deliveries d
    set status = 'delivering',
        lease_until = now() + make_interval(secs => ${(next?.leaseMs ?? 0) / 1000}),
        attempts = d.attempts + 1,
        updated_at = now()
    from head, webhooks w, webhook_events e
    where ${next !== null}::boolean and exists (select 1 from settled)
      and d.id = head.id
      and d.next_attempt_at <= now()
      and (d.status = 'pending' or (d.status = 'delivering' and d.lease_until < now()))
      and w.id = d.webhook_id and w.enabled and w.archived_at is null
      and e.id = d.event_id
    returning ${CLAIMED_COLUMNS}
  `.execute(db);
  const row = r.rows[0];
  return row ? { ...row, event_id: Number(row.event_id) } : null;
}

export interface AttemptRecord {
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
}

/** Logs an attempt, unless its delivery is gone (the endpoint was deleted meanwhile). */
export async function insertAttempt(db: Db, deliveryId: string, a: AttemptRecord): Promise<void> {
  await sql`
    insert into webhook_attempts (delivery_id, started_at, duration_ms, status_code, error, response_body)
    select id, ${a.startedAt.toISOString()}::timestamptz, ${a.durationMs}, ${a.statusCode}, ${a.error}, ${a.responseBody}
    from webhook_deliveries where id = ${deliveryId}
  `.execute(db);
}

/**
 * Records the outcome of the claim numbered `attempt`. Fenced on the attempt
 * number and status: if the delivery was re-queued or re-claimed meanwhile,
 * this outcome no longer decides its state. Returns whether it did.
 */
export async function settleDelivery(
  db: Db,
  id: string,
  attempt: number,
  outcome:
    | { status: 'succeeded' }
    | { status: 'failed'; error: string }
    | { status: 'pending'; error: string; retryInMs: number },
): Promise<boolean> {
  const r = await db
    .updateTable('webhook_deliveries')
    .set({
      status: outcome.status,
      lease_until: null,
      last_error: outcome.status === 'succeeded' ? null : outcome.error,
      ...(outcome.status === 'pending'
        ? { next_attempt_at: sql<Date>`now() + make_interval(secs => ${outcome.retryInMs / 1000})` }
        : {}),
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .where('attempts', '=', attempt)
    .where('status', '=', 'delivering')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Notes a failure: starts the endpoint's failing period if none is running,
 * and disables the endpoint when that period has lasted `disableAfterMs`.
 * Returns the disabled reason when this call disabled it.
 */
export async function markEndpointFailing(
  db: Db,
  webhookId: string,
  disableAfterMs: number,
  lastError: string,
): Promise<string | null> {
  const r = await sql<{ disabled_reason: string | null; disabled_now: boolean }>`
    update webhooks w
    set failing_since = coalesce(w.failing_since, now()),
        enabled = case when x.expired then false else w.enabled end,
        disabled_reason = case when x.expired
          then 'Disabled automatically: every delivery failed since '
            || to_char(w.failing_since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
            || '; last error: ' || ${lastError}
          else w.disabled_reason end,
        updated_at = case when x.expired then now() else w.updated_at end
    from (
      select id, (failing_since is not null and failing_since <= now() - make_interval(secs => ${disableAfterMs / 1000})) as expired
      from webhooks where id = ${webhookId}
    ) x
    where w.id = x.id and w.enabled
    returning w.disabled_reason, x.expired as disabled_now
  `.execute(db);
  const row = r.rows[0];
  return row?.disabled_now ? row.disabled_reason : null;
}
