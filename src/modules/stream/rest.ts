// REST: the change stream (Server-Sent Events) and its tickets. docs/live.md
// has the protocol and the reasons behind it.
import { Type } from 'typebox';
import type { Actor, AppContext } from '../../platform/context.js';
import { badRequest, unauthenticated } from '../../platform/errors.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { errors, Timestamp } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { authenticate } from '../auth/service.js';
import { findLiveUserById } from '../users/queries.js';
import { EventCursor, settledHead } from './cursor.js';
import type { StreamHub } from './hub.js';
import { headId } from './queries.js';
import { PAGE_SIZE, runStream } from './session.js';
import { actorOfUser, issueTicket, readTicket } from './ticket.js';

const SYNC_ID = '^[0-9]{1,15}$';
/** How long a stream opened without a position waits for transactions open at its start. */
const HEAD_SETTLE_MS = 5_000;

export function streamRoutes(app: Http, ctx: AppContext, hub: StreamHub): void {
  app.post(
    '/api/stream/tickets',
    {
      schema: {
        tags: ['stream'],
        summary: 'A short-lived ticket to open the change stream where headers cannot be set (EventSource)',
        querystring: Type.Object({}, { additionalProperties: false }),
        body: Type.Object({}, { additionalProperties: false }),
        response: {
          201: Type.Object({ ticket: Type.String(), expiresAt: Timestamp }),
          ...errors(400, 401),
        },
      },
    },
    async (req, reply) => {
      const user = await findLiveUserById(ctx.db, actorOf(req).id);
      if (!user) throw unauthenticated();
      return reply.status(201).send(issueTicket(ctx, { userId: user.id, epoch: user.session_epoch }));
    },
  );

  app.get(
    '/api/stream',
    {
      // Authenticates itself: a bearer header, or a ticket in the query (docs/live.md).
      config: { auth: 'none' },
      schema: {
        hide: true, // a stream, not a JSON answer: described in docs/live.md
        querystring: Type.Object(
          {
            after: Type.Optional(Type.String({ pattern: SYNC_ID })),
            ticket: Type.Optional(Type.String({ maxLength: 200 })),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (req, reply) => {
      const header = req.headers.authorization;
      const { after, ticket } = req.query;
      let reauth: () => Promise<Actor>;
      if (header !== undefined || ticket === undefined) {
        reauth = () => authenticate(ctx, header);
      } else {
        const claims = readTicket(ctx, ticket);
        if (!claims) throw unauthenticated('Invalid or expired stream ticket');
        reauth = async () => {
          const user = await findLiveUserById(ctx.db, claims.userId);
          if (user?.status !== 'active' || user.session_epoch !== claims.epoch) {
            throw unauthenticated('Invalid or expired stream ticket');
          }
          return actorOfUser(user);
        };
      }
      await reauth(); // before anything else: 401 as JSON
      const lastEventId = req.headers['last-event-id'];
      if (
        lastEventId !== undefined &&
        (typeof lastEventId !== 'string' || !new RegExp(SYNC_ID).test(lastEventId))
      )
        throw badRequest('Last-Event-ID must be a sync id (a whole number)');

      const requested = lastEventId ?? after;
      let start: number;
      let reset = false;
      if (requested === undefined) {
        start = await settledHead(ctx.db, HEAD_SETTLE_MS, 50);
      } else {
        start = Number(requested);
        const newest = await headId(ctx.db);
        if (start > newest) {
          // Ahead of this database (restored from a backup?): the client must reload.
          start = newest;
          reset = true;
        }
      }
      reply.hijack();
      void runStream(ctx, hub, reply.raw, {
        cursor: new EventCursor(ctx.db, start, PAGE_SIZE),
        reauth,
        reset,
        requestId: req.id,
      }).catch((err) => ctx.log.error({ err, reqId: req.id }, 'change stream failed'));
    },
  );
}
