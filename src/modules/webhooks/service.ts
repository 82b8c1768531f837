// Webhook endpoints: registration, changes, secrets, the delivery log and
// redelivery. Admins only (policy.ts). Used by REST (rest.ts) and GraphQL.
//
//   createWebhook(ctx, actor, { url, label?, secret?, enabled?, resourceTypes?, teamId?, allPublicTeams? })
//       -> Promise<{ webhook: WebhookRow; secret: string }>   secret: shown to the caller once
//   updateWebhook(ctx, actor, id, { url?, label?, secret?, enabled?, resourceTypes?, teamId?, allPublicTeams? })
//       -> Promise<WebhookRow>                              re-enabling clears disabledReason/failingSince
//   deleteWebhook(ctx, actor, id) -> Promise<void>
//   getWebhook(ctx, actor, id) -> Promise<WebhookRow>     404 AppError when unknown
//   rotateWebhookSecret(ctx, actor, id) -> Promise<{ webhook: WebhookRow; secret: string }>
// REST's answers are JSON text read through the views of present.ts (WEBHOOK_VIEW never
// includes the secret; the answers that made one add it):
//   webhookJson(ctx, actor, webhook, secret?), listWebhooksJson(ctx, actor, page),
//   listWebhookDeliveriesJson(ctx, actor, id, page), redeliverWebhookDelivery(ctx, actor, id, deliveryId)
// Each change writes its audit entry (webhook.created/updated/deleted) in its own
// transaction: never the secret, the URL without credentials (present.ts auditedWebhook).
import { randomBytes } from 'node:crypto';
import { fullAccess } from '../../platform/access.js';
import type { Actor, AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { AppError, invalidField, notFound } from '../../platform/errors.js';
import { UnsafeDestinationError, vetDestination } from '../../platform/net/safe-destination.js';
import { envelope, readContextOf, viewJson, viewListAnswer, withMembers } from '../../platform/read/rest.js';
import { auditActorOf, changes, recordAudit } from '../audit/record.js';
import { liveTeamId } from '../teams/queries.js';
import { assertCanManageWebhooks } from './policy.js';
import { auditedWebhook, DELIVERY_VIEW, WEBHOOK_VIEW } from './present.js';
import * as q from './queries.js';
import { RESOURCE_TYPES, type ResourceType } from './resources.js';
import { kickWebhookWorker } from './worker.js';

export const MIN_SECRET_LENGTH = 16;
const MAX_SECRET_LENGTH = 256;
const MAX_URL_LENGTH = 2048;

export interface WebhookInput {
  url: string;
  label?: string | null | undefined;
  secret?: string | undefined;
  enabled?: boolean | undefined;
  resourceTypes?: readonly string[] | undefined;
  teamId?: string | null | undefined;
  allPublicTeams?: boolean | undefined;
}

export type WebhookPatch = Partial<WebhookInput>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid = (id: string) => UUID.test(id);

/** 32 random bytes, base64url: 43 characters. */
export const generateSecret = () => randomBytes(32).toString('base64url');

async function checkedUrl(ctx: AppContext, url: string): Promise<string> {
  const trimmed = url.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_URL_LENGTH) {
    throw invalidField('url', `must be 1 to ${MAX_URL_LENGTH} characters`);
  }
  try {
    return (await vetDestination(trimmed, { allowPrivate: ctx.config.webhookAllowPrivate })).toString();
  } catch (err) {
    if (err instanceof UnsafeDestinationError) throw invalidField('url', err.message);
    throw err;
  }
}

function checkedSecret(secret: string): string {
  if (secret.length < MIN_SECRET_LENGTH || secret.length > MAX_SECRET_LENGTH) {
    throw invalidField('secret', `must be ${MIN_SECRET_LENGTH} to ${MAX_SECRET_LENGTH} characters`);
  }
  return secret;
}

function checkedResourceTypes(types: readonly string[]): ResourceType[] {
  types.forEach((t, i) => {
    if (!(RESOURCE_TYPES as readonly string[]).includes(t)) {
      throw new AppError(400, 'VALIDATION_FAILED', `resourceTypes: unknown kind "${t}"`, [
        { field: `/resourceTypes/${i}`, message: `must be one of ${RESOURCE_TYPES.join(', ')}` },
      ]);
    }
  });
  return [...new Set(types)] as ResourceType[];
}

async function checkedTeam(ctx: AppContext, teamId: string | null): Promise<string | null> {
  if (teamId === null) return null;
  const team = isUuid(teamId) ? await liveTeamId(ctx.db, teamId) : undefined;
  if (!team) throw invalidField('teamId', 'no such team');
  return team;
}

const checkedLabel = (label: string | null | undefined) => {
  const l = label?.trim();
  if (l && l.length > 200) throw invalidField('label', 'must be at most 200 characters');
  return l ? l : null;
};

export async function createWebhook(ctx: AppContext, actor: Actor, input: WebhookInput) {
  assertCanManageWebhooks(actor);
  const secret = input.secret === undefined ? generateSecret() : checkedSecret(input.secret);
  const values = {
    url: await checkedUrl(ctx, input.url),
    label: checkedLabel(input.label),
    secret,
    enabled: input.enabled ?? true,
    resource_types: checkedResourceTypes(input.resourceTypes ?? []),
    team_id: await checkedTeam(ctx, input.teamId ?? null),
    all_public_teams: input.allPublicTeams ?? true,
    creator_id: actor.id,
  };
  const webhook = await ctx.db.transaction().execute(async (trx) => {
    const row = await q.insertWebhook(trx, values);
    await recordAudit(trx, {
      type: 'webhook.created',
      actor: auditActorOf(actor),
      entity: webhookEntity(row),
      after: auditedWebhook(row),
    });
    return row;
  });
  return { webhook, secret };
}

/** What an entry says of the webhook it is about: its label, else its URL without credentials. */
const webhookEntity = (w: q.WebhookRow) => {
  const audited = auditedWebhook(w);
  return { type: 'webhook', id: w.id, label: audited.label ?? audited.url };
};

/**
 * The entry of a change to `before` (now `after`), unless nothing an admin
 * reads changed. A new secret is said, never shown; so is a change of the
 * credentials in the URL, which the entry's URLs leave out.
 */
async function recordWebhookUpdate(
  trx: Db,
  actor: Actor,
  before: q.WebhookRow,
  after: q.WebhookRow,
): Promise<void> {
  const diff = changes<Record<string, unknown>>(auditedWebhook(before), auditedWebhook(after));
  const metadata = {
    ...(after.secret !== before.secret ? { secretRotated: true } : {}),
    ...(after.url !== before.url && !diff?.after.url ? { urlCredentialsChanged: true } : {}),
  };
  if (!diff && Object.keys(metadata).length === 0) return;
  await recordAudit(trx, {
    type: 'webhook.updated',
    actor: auditActorOf(actor),
    entity: webhookEntity(after),
    ...diff,
    metadata,
  });
}

export async function getWebhook(ctx: AppContext, actor: Actor, id: string): Promise<q.WebhookRow> {
  assertCanManageWebhooks(actor);
  const webhook = isUuid(id) ? await q.findWebhook(ctx.db, id) : undefined;
  if (!webhook) throw notFound('Webhook');
  return webhook;
}

/** Admins read every endpoint and delivery: the views read as an admin does. */
const adminRead = (ctx: AppContext, actor: Actor) => readContextOf(ctx, actor, fullAccess(actor.id));

/**
 * An endpoint as REST answers it, `{"webhook":...}`, read by its id after the
 * GET's check or the write that returned it; with `secret` when the answer is
 * the one that made it (creation, rotation).
 */
export async function webhookJson(
  ctx: AppContext,
  actor: Actor,
  webhook: Pick<q.WebhookRow, 'id'>,
  secret?: string,
): Promise<string> {
  assertCanManageWebhooks(actor);
  const json = await viewJson(ctx.db, WEBHOOK_VIEW, webhook.id, adminRead(ctx, actor));
  if (json === undefined) throw notFound('Webhook');
  return envelope('webhook', secret === undefined ? json : withMembers(json, { secret }));
}

/** A page of the live endpoints, oldest first: `{"webhooks":[...],"pageInfo":...}`. */
export async function listWebhooksJson(
  ctx: AppContext,
  actor: Actor,
  page: { limit: number; offset: number },
): Promise<string> {
  assertCanManageWebhooks(actor);
  const { rows, total } = await q.listWebhooks(ctx.db, page);
  const ids = rows.map((r) => r.id);
  return viewListAnswer(ctx.db, WEBHOOK_VIEW, 'webhooks', ids, adminRead(ctx, actor), {
    pageInfo: { total, ...page },
  });
}

export async function updateWebhook(
  ctx: AppContext,
  actor: Actor,
  id: string,
  patch: WebhookPatch,
): Promise<q.WebhookRow> {
  const current = await getWebhook(ctx, actor, id);
  const columns: q.WebhookColumns = {};
  if (patch.url !== undefined) columns.url = await checkedUrl(ctx, patch.url);
  if (patch.label !== undefined) columns.label = checkedLabel(patch.label);
  if (patch.secret !== undefined) columns.secret = checkedSecret(patch.secret);
  if (patch.resourceTypes !== undefined) columns.resource_types = checkedResourceTypes(patch.resourceTypes);
  if (patch.teamId !== undefined) columns.team_id = await checkedTeam(ctx, patch.teamId);
  if (patch.allPublicTeams !== undefined) columns.all_public_teams = patch.allPublicTeams;
  const reenabling = patch.enabled === true && !current.enabled;
  if (patch.enabled !== undefined) columns.enabled = patch.enabled;
  if (reenabling) {
    columns.disabled_reason = null;
    columns.failing_since = null;
  }
  const updated = await ctx.db.transaction().execute(async (trx) => {
    const row = await q.updateWebhook(trx, current.id, columns);
    // Events queued before the endpoint was disabled go out now, in order.
    if (row && reenabling) await q.dueNow(trx, row.id);
    if (row) await recordWebhookUpdate(trx, actor, current, row);
    return row;
  });
  if (!updated) throw notFound('Webhook');
  if (reenabling) kickWebhookWorker(ctx);
  return updated;
}

export async function rotateWebhookSecret(ctx: AppContext, actor: Actor, id: string) {
  const current = await getWebhook(ctx, actor, id);
  const secret = generateSecret();
  const webhook = await ctx.db.transaction().execute(async (trx) => {
    const row = await q.updateWebhook(trx, current.id, { secret });
    if (row) await recordWebhookUpdate(trx, actor, current, row);
    return row;
  });
  if (!webhook) throw notFound('Webhook');
  return { webhook, secret };
}

export async function deleteWebhook(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  const current = await getWebhook(ctx, actor, id);
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await q.deleteWebhook(trx, current.id))) throw notFound('Webhook');
    await recordAudit(trx, {
      type: 'webhook.deleted',
      actor: auditActorOf(actor),
      entity: webhookEntity(current),
      before: auditedWebhook(current),
    });
  });
}

/** A page of an endpoint's deliveries, newest event first, each with its attempts. */
export async function listWebhookDeliveriesJson(
  ctx: AppContext,
  actor: Actor,
  id: string,
  page: { limit: number; offset: number },
): Promise<string> {
  const webhook = await getWebhook(ctx, actor, id);
  const { rows, total } = await q.listDeliveries(ctx.db, webhook.id, page);
  const ids = rows.map((r) => r.id);
  return viewListAnswer(ctx.db, DELIVERY_VIEW, 'deliveries', ids, adminRead(ctx, actor), {
    pageInfo: { total, ...page },
  });
}

/** Queues a delivery again and answers `{"delivery":...}` as requeued. */
export async function redeliverWebhookDelivery(
  ctx: AppContext,
  actor: Actor,
  id: string,
  deliveryId: string,
): Promise<string> {
  const webhook = await getWebhook(ctx, actor, id);
  if (!isUuid(deliveryId)) throw notFound('Delivery');
  if (!webhook.enabled) {
    throw new AppError(409, 'CONFLICT', 'The webhook is disabled; enable it before redelivering');
  }
  // Read in the requeue's transaction: the answer is the delivery as requeued, even if a
  // polling worker claims it the moment it commits (a claim skips rows locked until then).
  const json = await ctx.db.transaction().execute(async (trx) => {
    const requeued = await q.requeueDelivery(trx, webhook.id, deliveryId);
    return requeued ? viewJson(trx, DELIVERY_VIEW, requeued.id, adminRead(ctx, actor)) : undefined;
  });
  if (json === undefined) throw notFound('Delivery');
  kickWebhookWorker(ctx);
  return envelope('delivery', json);
}
