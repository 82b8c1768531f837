// REST: the change stream (Server-Sent Events) and its tickets. docs/live.md
// has the protocol and the reasons behind it.
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { badRequest, unauthenticated } from '../../platform/errors.js';
import { actorOf, originOf } from '../../platform/http/auth-hook.js';
import { errors, Timestamp } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { findLiveUserById } from '../users/queries.js';
import { openCredential, type StreamCredential } from './credential.js';
import { settledHead } from './cursor.js';
import type { StreamHub } from './hub.js';
import { headId } from './queries.js';
import { runStream } from './session.js';
import { issueTicket } from './ticket.js';

const SYNC_ID = '^[0-9]{1,15}$';
/** How long a stream opened without a position waits for the transactions writing events at its start. */
const HEAD_SETTLE_MS = 5_000;

/** Each stream request's caller, checked by the route's onRequest hook. */
const authenticated = new WeakMap<FastifyRequest, StreamCredential>();

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
      const actor = actorOf(req);
      const user = await findLiveUserById(ctx.db, actor.id);
      if (!user) throw unauthenticated();
      const claims = { userId: user.id, epoch: user.session_epoch, sessionId: actor.sessionId ?? null };
      return reply.status(201).send(issueTicket(ctx, claims));
    },
  );

  app.get(
    '/api/stream',
    {
      // Authenticates itself, before validation like every route: a bearer
      // header, or a ticket in the query (docs/live.md).
      config: { auth: 'none' },
      onRequest: async (req, reply) => {
        // Before anything else: 401 as JSON.
        const credential = await openCredential(
          ctx,
          req.headers.authorization,
          (req.query as { ticket?: unknown }).ticket,
          originOf(req),
        );
        // Then a slot under the caps (429 as JSON), before any work for the
        // stream; held until the response closes, however it ends (a stream
        // closed by either side, or a refusal below).
        const release = hub.admit(credential);
        reply.raw.once('close', release);
        if (reply.raw.closed) release(); // the client left while we authenticated
        authenticated.set(req, credential);
      },
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
      const credential = authenticated.get(req)!;
      const { after } = req.query;
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
        } else if (newest - start > ctx.config.streamCatchUpLimit) {
          // Further back than a catch-up may go: reloading costs the client
          // less than replaying this many changes, and the server no table
          // scan. As for a start without a position, the head is settled so a
          // reload after `ready` misses nothing.
          start = await settledHead(ctx.db, HEAD_SETTLE_MS, 50);
          reset = true;
        }
      }
      reply.hijack();
      void runStream(ctx, hub, reply.raw, {
        start,
        credential,
        reset,
        requestId: req.id,
      }).catch((err) => ctx.log.error({ err, reqId: req.id }, 'change stream failed'));
    },
  );
}
