// Public shapes of webhook endpoints and their delivery log: their schemas,
// and the views over the read model's declarations (platform/read/entities.ts
// webhook, webhookDelivery, webhookAttempt) that every REST answer reads. The
// secret is never part of an endpoint's shape: creation and rotation add it.
import { Type } from 'typebox';
import { webhook, webhookAttempt, webhookDelivery } from '../../platform/read/entities.js';
import { restView } from '../../platform/read/rest.js';
import type { WebhookRow } from './queries.js';

/**
 * A URL as an audit entry keeps it: credentials in it (user and password, and
 * query values, where services put tokens) become `***`; the rest is what the
 * admin reads to know which endpoint it was.
 */
export function urlWithoutCredentials(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '***';
  }
  if (u.username || u.password) {
    u.username = '***';
    u.password = '';
  }
  for (const key of new Set(u.searchParams.keys())) u.searchParams.set(key, '***');
  return u.toString();
}

/**
 * A webhook as its audit entries show it: never the secret, the URL without
 * credentials, and only what an admin configures (no ids, times or delivery
 * state). Written by hand on purpose: a different shape from REST's view, made
 * from the row the service holds inside its transaction, for an audit log
 * that must never show what the view shows (the URL's credentials).
 */
export function auditedWebhook(w: WebhookRow) {
  return {
    url: urlWithoutCredentials(w.url),
    label: w.label,
    enabled: w.enabled,
    resourceTypes: w.resource_types,
    teamId: w.team_id,
    allPublicTeams: w.all_public_teams,
  };
}

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Time = Type.String({ format: 'date-time' });

export const ResourceTypeSchema = Type.Union([
  Type.Literal('issue'),
  Type.Literal('comment'),
  Type.Literal('project'),
  Type.Literal('projectMilestone'),
  Type.Literal('cycle'),
  Type.Literal('label'),
  Type.Literal('attachment'),
  Type.Literal('relation'),
  Type.Literal('reaction'),
  Type.Literal('projectUpdate'),
]);

export const WebhookSchema = Type.Object({
  id: Type.String(),
  url: Type.String(),
  label: Nullable(Type.String()),
  enabled: Type.Boolean(),
  resourceTypes: Type.Array(ResourceTypeSchema, { description: 'Kinds delivered; empty means all' }),
  teamId: Nullable(Type.String()),
  allPublicTeams: Type.Boolean(),
  creatorId: Nullable(Type.String()),
  failingSince: Nullable(Time),
  disabledReason: Nullable(Type.String({ description: 'Why the endpoint was disabled automatically' })),
  createdAt: Time,
  updatedAt: Time,
});

export const WebhookWithSecretSchema = Type.Object({
  ...WebhookSchema.properties,
  secret: Type.String({ description: 'Signing secret; shown only in this response' }),
});

export const AttemptSchema = Type.Object({
  id: Type.String(),
  startedAt: Time,
  durationMs: Type.Integer(),
  statusCode: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  responseBody: Nullable(Type.String({ description: 'First KB of the response body' })),
});

export const DeliverySchema = Type.Object({
  id: Type.String({ description: 'Sent as X-Service-Delivery; the same on every attempt' }),
  webhookId: Type.String(),
  eventId: Type.String(),
  eventType: Type.String(),
  action: Type.String(),
  event: Type.String({ description: '<type>.<action>, as in X-Service-Event' }),
  eventCreatedAt: Time,
  status: Type.Union([
    Type.Literal('pending'),
    Type.Literal('delivering'),
    Type.Literal('succeeded'),
    Type.Literal('failed'),
  ]),
  attemptCount: Type.Integer(),
  nextAttemptAt: Nullable(Time),
  lastError: Nullable(Type.String()),
  createdAt: Time,
  updatedAt: Time,
  attempts: Type.Array(AttemptSchema),
});

/** REST's endpoint over the read model's: the schema's keys in its order, our names of the kinds. */
export const WEBHOOK_VIEW = restView(webhook, WebhookSchema, { resourceTypes: { field: 'resourceKinds' } });

/** A delivery with its attempts, oldest first. */
export const DELIVERY_VIEW = restView(webhookDelivery, DeliverySchema, {
  attempts: { field: 'attempts', select: restView(webhookAttempt, AttemptSchema).select },
});
