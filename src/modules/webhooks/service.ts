// Webhook endpoints: registration, changes, secrets, the delivery log and
// redelivery. Admins only (policy.ts). Used by REST (rest.ts) and GraphQL.
//
//   createWebhook(ctx, actor, { url, label?, secret?, enabled?, resourceTypes?, teamId?, allPublicTeams? })
//       -> Promise<{ webhook: WebhookRow; secret: string }>   secret: shown to the caller once
//   updateWebhook(ctx, actor, id, { url?, label?, secret?, enabled?, resourceTypes?, teamId?, allPublicTeams? })
//       -> Promise<WebhookRow>                              re-enabling clears disabledReason/failingSince
//   deleteWebhook(ctx, actor, id) -> Promise<void>
//   getWebhook(ctx, actor, id) -> Promise<WebhookRow>     404 AppError when unknown
//   listWebhooks(ctx, actor, { limit, offset }) -> Promise<{ webhooks: WebhookRow[]; total: number }>
//   rotateWebhookSecret(ctx, actor, id) -> Promise<{ webhook: WebhookRow; secret: string }>
//   listWebhookDeliveries(ctx, actor, id, { limit, offset }) -> Promise<{ deliveries; total }>
//   redeliverWebhookDelivery(ctx, actor, id, deliveryId) -> Promise<delivery>
// Present rows with present.ts (presentWebhook never includes the secret).
import { randomBytes } from 'node:crypto';
import type { Actor, AppContext } from '../../platform/context.js';
import { AppError, invalidField, notFound } from '../../platform/errors.js';
import { UnsafeDestinationError, vetDestination } from '../../platform/net/safe-destination.js';
import { liveTeamId } from '../teams/queries.js';
import { assertCanManageWebhooks } from './policy.js';
import { presentDelivery, RESOURCE_TYPES, type ResourceType } from './present.js';
import * as q from './queries.js';
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
  const webhook = await q.insertWebhook(ctx.db, {
    url: await checkedUrl(ctx, input.url),
    label: checkedLabel(input.label),
    secret,
    enabled: input.enabled ?? true,
    resource_types: checkedResourceTypes(input.resourceTypes ?? []),
    team_id: await checkedTeam(ctx, input.teamId ?? null),
    all_public_teams: input.allPublicTeams ?? true,
    creator_id: actor.id,
  });
  return { webhook, secret };
}

export async function getWebhook(ctx: AppContext, actor: Actor, id: string): Promise<q.WebhookRow> {
  assertCanManageWebhooks(actor);
  const webhook = isUuid(id) ? await q.findWebhook(ctx.db, id) : undefined;
  if (!webhook) throw notFound('Webhook');
  return webhook;
}

export async function listWebhooks(ctx: AppContext, actor: Actor, page: { limit: number; offset: number }) {
  assertCanManageWebhooks(actor);
  const { rows: webhooks, total } = await q.listWebhooks(ctx.db, page);
  return { webhooks, total };
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
    return row;
  });
  if (!updated) throw notFound('Webhook');
  if (reenabling) kickWebhookWorker(ctx);
  return updated;
}

export async function rotateWebhookSecret(ctx: AppContext, actor: Actor, id: string) {
  const current = await getWebhook(ctx, actor, id);
  const secret = generateSecret();
  const webhook = await q.updateWebhook(ctx.db, current.id, { secret });
  if (!webhook) throw notFound('Webhook');
  return { webhook, secret };
}

export async function deleteWebhook(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  const current = await getWebhook(ctx, actor, id);
  if (!(await q.deleteWebhook(ctx.db, current.id))) throw notFound('Webhook');
}

export async function listWebhookDeliveries(
  ctx: AppContext,
  actor: Actor,
  id: string,
  page: { limit: number; offset: number },
) {
  const webhook = await getWebhook(ctx, actor, id);
  const { rows, total } = await q.listDeliveries(ctx.db, webhook.id, page);
  const attempts = await q.attemptsOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  const byDelivery = new Map<string, q.AttemptRow[]>();
  for (const a of attempts) byDelivery.set(a.delivery_id, [...(byDelivery.get(a.delivery_id) ?? []), a]);
  return {
    deliveries: rows.map((r) => presentDelivery(r, byDelivery.get(r.id) ?? [])),
    total,
  };
}

export async function redeliverWebhookDelivery(
  ctx: AppContext,
  actor: Actor,
  id: string,
  deliveryId: string,
) {
  const webhook = await getWebhook(ctx, actor, id);
  if (!isUuid(deliveryId)) throw notFound('Delivery');
  if (!webhook.enabled) {
    throw new AppError(409, 'CONFLICT', 'The webhook is disabled; enable it before redelivering');
  }
  const requeued = await q.requeueDelivery(ctx.db, webhook.id, deliveryId);
  if (!requeued) throw notFound('Delivery');
  const row = await q.findDelivery(ctx.db, webhook.id, deliveryId);
  if (!row) throw notFound('Delivery');
  const attempts = await q.attemptsOf(ctx.db, [row.id]);
  kickWebhookWorker(ctx);
  // The answer is the delivery as requeued: a polling worker may have claimed it since.
  return presentDelivery({ ...row, ...requeued }, attempts);
}
