// Transactional outbox for change events. Call recordEvent inside the same
// transaction as the change: the event row (and one delivery row per matching
// webhook) commits or rolls back with it, so no committed change is ever
// without its event and no rolled-back change ever has one.
//
// The event is also what every side effect of a change reacts to: recordEvent
// runs the app's event handlers (history, notifications, mail: the ordered
// list in app.ts) in the same transaction, so a service writes its change and
// one event and nothing else; a handler that throws rolls all of it back.
import { sql } from 'kysely';
import { type Actor, type AppContext, authorOf } from './context.js';
import type { Db } from './db/database.js';
import type { EventScopeKind } from './db/tables.js';
import { AppError } from './errors.js';
import { isUuid } from './ids.js';

export type EventType =
  | 'issue'
  | 'comment'
  | 'project'
  | 'projectMilestone'
  | 'cycle'
  | 'label'
  | 'attachment'
  | 'relation'
  | 'reaction'
  | 'projectUpdate'
  /** A notification, for its recipient's change streams only (never a webhook). */
  | 'notification';
export type EventAction = 'create' | 'update' | 'remove';

export interface ChangeEvent {
  type: EventType;
  action: EventAction;
  /**
   * The record in its REST shape, as an admin's GET shows it: the domain's
   * view read in the writer's transaction (platform/read/rest.ts eventData),
   * or, for kinds without a view yet, its present.ts mapping.
   */
  data: Record<string, unknown>;
  /** For updates: previous values of the fields that changed (same keys as data). */
  updatedFrom?: Record<string, unknown>;
  /**
   * Who did it; an app acting under its own name (Actor.app) is recorded as
   * the app's user (recordEvent applies authorOf), so history, webhooks and the stream name the app.
   */
  actor: (Pick<Actor, 'id' | 'name' | 'email'> & { app?: Actor['app']; isApp?: true }) | null;
  /** Absolute URL of the record in the UI, when it has one. */
  url?: string;
  /**
   * The team the record belongs to (null: workspace-wide, e.g. a shared label).
   * When omitted, data.teamId or data.team.id is used. Endpoints scoped to a
   * team receive that team's events and workspace-wide ones.
   */
  teamId?: string | null;
  /** Makes the event one person's alone (scope 'user'), while they see its team: a notification's recipient. */
  recipientId?: string;
  /**
   * Issue events: the type of the issue's state after the change ('started',
   * 'completed', ...), which the presented issue does not carry and status
   * notifications name. For handlers only: never stored or sent.
   */
  stateType?: string;
  /**
   * A change that notifies nobody (handlers only, never stored): issues moved
   * by archiving a workflow state or by marking a duplicate. History and
   * webhooks still have it.
   */
  silent?: true;
  /**
   * Issue updates: the attachment that caused the change (a pull request that
   * moved the issue, modules/git). History records it; never stored or sent.
   */
  causeAttachmentId?: string;
}

/**
 * A side effect of changes: runs for each recorded event of one of `types`,
 * inside the writer's transaction (`trx`; never ctx.db, which would wait for
 * the transaction's own connection on PGlite). It reads what it needs from the
 * event (data is the record after the change, updatedFrom the previous values
 * of what changed, actor who did it) rather than reading the record again.
 */
export interface EventHandler {
  /** What the handler does, in a few words (for readers of the list, and in the log when it fails). */
  readonly name: string;
  readonly types: readonly EventType[];
  handle(ctx: AppContext, trx: Db, event: ChangeEvent): Promise<void>;
}

/** The actor as events carry it: the one place that decides what of a caller an event shows. */
export const eventActor = (actor: Pick<Actor, 'id' | 'name' | 'email'>) => ({
  id: actor.id,
  name: actor.name,
  email: actor.email,
  type: 'user' as const,
});

/** recordEvent notifies this channel; the delivery worker LISTENs on it (delivered at commit). */
export const WEBHOOK_NOTIFY_CHANNEL = 'trackway_webhooks';
/** Notified by every recordEvent (at commit); change streams LISTEN on it (modules/stream). */
export const CHANGE_NOTIFY_CHANNEL = 'trackway_changes';

function teamOf(event: ChangeEvent): string | null {
  if (event.teamId !== undefined) return event.teamId;
  const data = event.data as { teamId?: unknown; team?: { id?: unknown } | null };
  const id = data.teamId ?? data.team?.id;
  return typeof id === 'string' ? id : null;
}

interface EventScope {
  scope: EventScopeKind;
  teamIds: string[];
  userId?: string;
}

const uuids = (...values: unknown[]) => values.filter((v): v is string => typeof v === 'string' && isUuid(v));

/**
 * Who may see the event, fixed when it is written (the record may be gone or
 * moved by the time a stream reads it); access.ts canSeeEvent reads it.
 */
async function scopeOf(trx: Db, event: ChangeEvent): Promise<EventScope> {
  const data = event.data as Record<string, unknown>;
  const team = teamOf(event);
  if (event.recipientId !== undefined)
    return { scope: 'user', teamIds: uuids(team), userId: event.recipientId };
  const teamsOfIssues = async (ids: string[]) =>
    ids.length === 0
      ? []
      : (await trx.selectFrom('issues').select('team_id').where('id', 'in', ids).execute()).map(
          (r) => r.team_id,
        );
  switch (event.type) {
    case 'label':
      return team ? { scope: 'teams', teamIds: uuids(team) } : { scope: 'workspace', teamIds: [] };
    case 'comment':
    case 'attachment':
    case 'reaction':
      return { scope: 'teams', teamIds: team ? uuids(team) : await teamsOfIssues(uuids(data['issueId'])) };
    case 'relation': {
      const ends = uuids(data['issueId'], data['relatedIssueId']);
      // Both ends must be visible; an end that is gone leaves the event to admins.
      const teams = await teamsOfIssues(ends);
      return { scope: 'teams', teamIds: teams.length === ends.length ? [...new Set(teams)] : [] };
    }
    case 'project':
      return { scope: 'project', teamIds: uuids(...((data['teamIds'] as unknown[] | undefined) ?? [])) };
    case 'projectMilestone':
    case 'projectUpdate': {
      const [projectId] = uuids(data['projectId']);
      const rows = projectId
        ? await trx
            .selectFrom('project_teams')
            .select('team_id')
            .where('project_id', '=', projectId)
            .execute()
        : [];
      return { scope: 'project', teamIds: rows.map((r) => r.team_id) };
    }
    default:
      return { scope: 'teams', teamIds: uuids(team) };
  }
}

/**
 * Records a change event and runs the app's handlers of its type, in order,
 * in `trx`; returns the event's id, which doubles as the sync id.
 */
export async function recordEvent(ctx: AppContext, trx: Db, given: ChangeEvent): Promise<number> {
  const event = given.actor?.app ? { ...given, actor: authorOf(given.actor) } : given;
  const id = await appendEvent(trx, event);
  for (const handler of ctx.eventHandlers) {
    if (!handler.types.includes(event.type)) continue;
    try {
      await handler.handle(ctx, trx, event);
    } catch (err) {
      // A refusal keeps its 4xx; anything else is our bug, and the log says whose.
      if (!(err instanceof AppError))
        ctx.log.error(
          { err, handler: handler.name, event: `${event.type}.${event.action}` },
          'event handler failed',
        );
      throw err;
    }
  }
  return id;
}

/**
 * Writes the event row, its webhook deliveries and the wake-ups, and nothing
 * else: no handler runs. Services call recordEvent; this is for events made
 * up by tests and benchmarks, which no real change stands behind.
 */
export async function appendEvent(trx: Db, event: ChangeEvent): Promise<number> {
  const payload = {
    type: event.type,
    action: event.action,
    data: event.data,
    ...(event.updatedFrom ? { updatedFrom: event.updatedFrom } : {}),
    url: event.url ?? null,
    actor: event.actor ? eventActor(event.actor) : null,
  };
  const { scope, teamIds, userId } = await scopeOf(trx, event);
  const row = await trx
    .insertInto('webhook_events')
    .values({
      type: event.type,
      action: event.action,
      payload: JSON.stringify(payload),
      scope,
      // An array literal of checked uuids: the same on both drivers.
      team_ids: sql<string[]>`cast(${`{${teamIds.join(',')}}`} as uuid[])`,
      user_id: userId ?? null,
    })
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow();
  // One person's event (a notification) is for their streams only: no
  // webhook gets it, so it has no delivery rows for the worker to find.
  if (scope === 'user') {
    await sql`select pg_notify(${CHANGE_NOTIFY_CHANNEL}, '')`.execute(trx);
    return row.id;
  }
  // Fan out to every enabled endpoint that wants this kind (all kinds when empty)
  // and this team (endpoints without a team take every team).
  const team = teamOf(event);
  const fanout = await trx
    .insertInto('webhook_deliveries')
    .columns(['webhook_id', 'event_id'])
    .expression((eb) =>
      eb
        .selectFrom('webhooks')
        .select((e) => ['id', e.val(row.id).as('event_id')])
        .where('enabled', '=', true)
        .where('archived_at', 'is', null)
        .where(sql<boolean>`(cardinality(resource_types) = 0 or ${event.type} = any(resource_types))`)
        // Compared as text: a malformed id in data must never break the caller's transaction.
        .where(sql<boolean>`(team_id is null or ${team}::text is null or team_id::text = ${team}::text)`),
    )
    .executeTakeFirst();
  // Wakes delivery workers and change streams when (and only if) this
  // transaction commits; PostgreSQL folds repeats within one transaction.
  if (Number(fanout.numInsertedOrUpdatedRows ?? 0) > 0) {
    await sql`select pg_notify(${WEBHOOK_NOTIFY_CHANNEL}, ''), pg_notify(${CHANGE_NOTIFY_CHANNEL}, '')`.execute(
      trx,
    );
  } else {
    await sql`select pg_notify(${CHANGE_NOTIFY_CHANNEL}, '')`.execute(trx);
  }
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
