// REST: the caller's inbox and their subscription to an issue. Every
// signed-in caller has an inbox, guests included (only their own rows). The
// inbox's entries are one issue's or one project's notifications, which the
// PATCH of /api/issues/:id/notifications and /api/projects/:id/notifications
// change together.
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { sendJsonText } from '../../platform/http/json-text.js';
import { PageInfo, pageOf, pageQuery } from '../../platform/http/pagination.js';
import { errors, IdParams } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { NotificationSchema } from './present.js';
import * as s from './service.js';

const ListQuery = Type.Object({
  archived: Type.Optional(Type.Boolean({ description: 'true: the archived ones instead of the inbox' })),
  unread: Type.Optional(Type.Boolean({ description: 'true: unread only; false: read only' })),
  ...pageQuery(50),
});
const PatchBody = Type.Object(
  {
    read: Type.Optional(Type.Boolean()),
    archived: Type.Optional(Type.Boolean()),
    snoozedUntilAt: Type.Optional(
      Type.Union([Type.String({ maxLength: 64 }), Type.Null()], {
        description: 'ISO 8601 date and time: hidden from the inbox until then; null: now',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
const Envelope = Type.Object({ notification: NotificationSchema });
const Subscription = Type.Object({ issueId: Type.String(), subscribed: Type.Boolean() });

export function notificationsRoutes(app: Http, ctx: AppContext): void {
  app.get(
    '/api/notifications',
    {
      schema: {
        tags: ['notifications'],
        summary: "The caller's notifications, newest first; snoozed ones are hidden until their time",
        querystring: ListQuery,
        response: {
          200: Type.Object({ notifications: Type.Array(NotificationSchema), pageInfo: PageInfo }),
          ...errors(400, 401),
        },
      },
    },
    async (req, reply) => {
      const page = pageOf(req.query);
      const filter = { archived: req.query.archived, unread: req.query.unread };
      return sendJsonText(reply, await s.listInboxJson(ctx, actorOf(req), filter, page));
    },
  );

  app.get(
    '/api/notifications/unread-count',
    {
      schema: {
        tags: ['notifications'],
        summary: 'How many notifications in the inbox are unread',
        response: { 200: Type.Object({ count: Type.Integer() }), ...errors(401) },
      },
    },
    async (req) => ({ count: await s.unreadCount(ctx, actorOf(req)) }),
  );

  app.post(
    '/api/notifications/read-all',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Mark every unread notification in the inbox read (body: {})',
        querystring: Type.Object({}, { additionalProperties: false }),
        body: Type.Object({}, { additionalProperties: false }),
        response: {
          200: Type.Object({ ok: Type.Literal(true), count: Type.Integer() }),
          ...errors(400, 401),
        },
      },
    },
    async (req) => ({ ok: true as const, count: await s.markAllReadFor(ctx, actorOf(req)) }),
  );

  app.get(
    '/api/notifications/:id',
    {
      schema: {
        tags: ['notifications'],
        summary: 'One of the caller’s notifications',
        params: IdParams,
        response: { 200: Envelope, ...errors(401, 404) },
      },
    },
    async (req, reply) => sendJsonText(reply, await s.notificationJson(ctx, actorOf(req), req.params.id)),
  );

  app.patch(
    '/api/notifications/:id',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Mark read or unread, archive or unarchive, snooze until a time',
        params: IdParams,
        body: PatchBody,
        response: { 200: Envelope, ...errors(400, 401, 404) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const changed = await s.updateNotificationFor(ctx, actor, req.params.id, req.body);
      return sendJsonText(reply, await s.notificationJson(ctx, actor, changed.id));
    },
  );

  // The inbox's row: every notification of the caller's about one issue or project, however many are loaded.
  const aboutRoute = (about: 'issue' | 'project', url: string, what: string) =>
    app.patch(
      url,
      {
        schema: {
          tags: ['notifications'],
          summary: `Mark read or unread, archive or unarchive, snooze every one of the caller's notifications about the ${what}`,
          params: IdParams,
          body: PatchBody,
          response: {
            200: Type.Object({ notifications: Type.Array(NotificationSchema) }),
            ...errors(400, 401, 404),
          },
        },
      },
      async (req, reply) =>
        sendJsonText(
          reply,
          await s.updateAboutJson(
            ctx,
            actorOf(req),
            about === 'issue' ? { issue: req.params.id } : { project: req.params.id },
            req.body,
          ),
        ),
    );
  aboutRoute('issue', '/api/issues/:id/notifications', 'issue (id or identifier)');
  aboutRoute('project', '/api/projects/:id/notifications', 'project (id or slug id)');

  const subscriptionRoute = (method: 'GET' | 'PUT' | 'DELETE', summary: string) =>
    app.route({
      method,
      url: '/api/issues/:id/subscription',
      schema: {
        tags: ['notifications'],
        summary,
        params: IdParams,
        response: { 200: Subscription, ...errors(401, 404) },
      },
      handler: async (req) => {
        const { id } = req.params as { id: string };
        const actor = actorOf(req);
        return method === 'GET'
          ? s.subscription(ctx, actor, id)
          : s.setSubscribed(ctx, actor, id, method === 'PUT');
      },
    });
  subscriptionRoute('GET', 'Whether the caller is subscribed to the issue (id or identifier)');
  subscriptionRoute('PUT', 'Subscribe the caller to the issue: its comments and state changes notify them');
  subscriptionRoute('DELETE', 'Unsubscribe the caller from the issue');
}
