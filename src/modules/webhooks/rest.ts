// REST: webhook endpoints and their delivery log (admins only; see policy.ts).
// The signing secret appears in the creation and rotation responses only.
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { sendJsonText } from '../../platform/http/json-text.js';
import { PageInfo, pageOf, pageQuery } from '../../platform/http/pagination.js';
import { errors, Ok, Uuid } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { DeliverySchema, ResourceTypeSchema, WebhookSchema, WebhookWithSecretSchema } from './present.js';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhookDeliveriesJson,
  listWebhooksJson,
  MIN_SECRET_LENGTH,
  redeliverWebhookDelivery,
  rotateWebhookSecret,
  updateWebhook,
  webhookJson,
} from './service.js';

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'http(s) URL the events are POSTed to',
});
const Label = Type.Union([Type.String({ maxLength: 200 }), Type.Null()]);
const ResourceTypes = Type.Array(ResourceTypeSchema, {
  maxItems: 6,
  description:
    'Kinds to deliver: issue, comment, project, cycle, label, attachment, relation, reaction; empty means all',
});
const Params = Type.Object({ id: Uuid });
const WebhookEnvelope = Type.Object({ webhook: WebhookSchema });
const WithSecret = Type.Object({ webhook: WebhookWithSecretSchema });

export function webhooksRoutes(app: Http, ctx: AppContext): void {
  app.post(
    '/api/admin/webhooks',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Register an endpoint; the response carries its signing secret, shown only now',
        body: Type.Object(
          {
            url: Url,
            label: Type.Optional(Label),
            secret: Type.Optional(Type.String({ minLength: MIN_SECRET_LENGTH, maxLength: 256 })),
            enabled: Type.Optional(Type.Boolean()),
            resourceTypes: Type.Optional(ResourceTypes),
            teamId: Type.Optional(Type.Union([Uuid, Type.Null()])),
            allPublicTeams: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
        response: { 201: WithSecret, ...errors(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const { webhook, secret } = await createWebhook(ctx, actor, req.body);
      return sendJsonText(reply.status(201), await webhookJson(ctx, actor, webhook, secret));
    },
  );

  app.get(
    '/api/admin/webhooks',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'List endpoints (oldest first), without secrets',
        querystring: Type.Object(pageQuery(50), { additionalProperties: false }),
        response: {
          200: Type.Object({ webhooks: Type.Array(WebhookSchema), pageInfo: PageInfo }),
          ...errors(400, 401, 403),
        },
      },
    },
    async (req, reply) =>
      sendJsonText(reply, await listWebhooksJson(ctx, actorOf(req), pageOf(req.query, 50))),
  );

  app.get(
    '/api/admin/webhooks/:id',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'One endpoint, without its secret',
        params: Params,
        response: { 200: WebhookEnvelope, ...errors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      return sendJsonText(reply, await webhookJson(ctx, actor, await getWebhook(ctx, actor, req.params.id)));
    },
  );

  app.patch(
    '/api/admin/webhooks/:id',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Change an endpoint; re-enabling clears the automatic-disable reason',
        params: Params,
        body: Type.Object(
          {
            url: Type.Optional(Url),
            label: Type.Optional(Label),
            enabled: Type.Optional(Type.Boolean()),
            resourceTypes: Type.Optional(ResourceTypes),
            teamId: Type.Optional(Type.Union([Uuid, Type.Null()])),
            allPublicTeams: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false, minProperties: 1 },
        ),
        response: { 200: WebhookEnvelope, ...errors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const webhook = await updateWebhook(ctx, actor, req.params.id, req.body);
      return sendJsonText(reply, await webhookJson(ctx, actor, webhook));
    },
  );

  app.delete(
    '/api/admin/webhooks/:id',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Delete an endpoint and its delivery log; nothing more is sent to it',
        params: Params,
        response: { 200: Ok, ...errors(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await deleteWebhook(ctx, actorOf(req), req.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    '/api/admin/webhooks/:id/rotate-secret',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Replace the signing secret; the new one is in this response only',
        params: Params,
        response: { 200: WithSecret, ...errors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const { webhook, secret } = await rotateWebhookSecret(ctx, actor, req.params.id);
      return sendJsonText(reply, await webhookJson(ctx, actor, webhook, secret));
    },
  );

  app.get(
    '/api/admin/webhooks/:id/deliveries',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Delivery log, newest event first, each with its attempts',
        params: Params,
        querystring: Type.Object(pageQuery(20), { additionalProperties: false }),
        response: {
          200: Type.Object({ deliveries: Type.Array(DeliverySchema), pageInfo: PageInfo }),
          ...errors(400, 401, 403, 404),
        },
      },
    },
    async (req, reply) => {
      const page = pageOf(req.query, 20);
      return sendJsonText(reply, await listWebhookDeliveriesJson(ctx, actorOf(req), req.params.id, page));
    },
  );

  app.post(
    '/api/admin/webhooks/:id/deliveries/:deliveryId/redeliver',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Queue a delivery again (same delivery id), to be attempted as soon as possible',
        params: Type.Object({ id: Uuid, deliveryId: Uuid }),
        response: { 202: Type.Object({ delivery: DeliverySchema }), ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (req, reply) => {
      const delivery = await redeliverWebhookDelivery(
        ctx,
        actorOf(req),
        req.params.id,
        req.params.deliveryId,
      );
      return sendJsonText(reply.status(202), delivery);
    },
  );
}
