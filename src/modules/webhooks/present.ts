// Public shapes of webhook endpoints and their delivery log. The secret is
// never part of an endpoint's shape: creation and rotation add it explicitly.
import { Type } from 'typebox';
import type { AttemptRow, DeliveryLogRow, WebhookRow } from './queries.js';

export const RESOURCE_TYPES = [
  'issue',
  'comment',
  'project',
  'projectMilestone',
  'cycle',
  'label',
  'attachment',
  'relation',
  'reaction',
  'projectUpdate',
] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export function presentWebhook(w: WebhookRow) {
  return {
    id: w.id,
    url: w.url,
    label: w.label,
    enabled: w.enabled,
    resourceTypes: w.resource_types as ResourceType[],
    teamId: w.team_id,
    allPublicTeams: w.all_public_teams,
    creatorId: w.creator_id,
    failingSince: w.failing_since?.toISOString() ?? null,
    disabledReason: w.disabled_reason,
    createdAt: w.created_at.toISOString(),
    updatedAt: w.updated_at.toISOString(),
  };
}

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

/** A webhook as its audit entries show it: never the secret, the URL without credentials. */
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

export function presentAttempt(a: AttemptRow) {
  return {
    id: a.id,
    startedAt: a.started_at.toISOString(),
    durationMs: a.duration_ms,
    statusCode: a.status_code,
    error: a.error,
    responseBody: a.response_body,
  };
}

export function presentDelivery(d: DeliveryLogRow, attempts: AttemptRow[]) {
  const finished = d.status === 'succeeded' || d.status === 'failed';
  return {
    id: d.id,
    webhookId: d.webhook_id,
    eventId: String(d.event_id),
    eventType: d.event_type,
    action: d.event_action,
    event: `${d.event_type}.${d.event_action}`,
    eventCreatedAt: d.event_created_at.toISOString(),
    status: d.status,
    attemptCount: d.attempts,
    nextAttemptAt: finished ? null : d.next_attempt_at.toISOString(),
    lastError: d.last_error,
    createdAt: d.created_at.toISOString(),
    updatedAt: d.updated_at.toISOString(),
    attempts: attempts.map(presentAttempt),
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
