// REST: the caller's sign-in sessions, sign-out, and an admin's view of a user's sessions.
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { PageInfo, pageOf, pageQuery } from '../../platform/http/pagination.js';
import { errors, Ok, Uuid } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { presentSession, SessionSchema } from './present.js';
import * as sessions from './service.js';

const SessionList = Type.Object({ sessions: Type.Array(SessionSchema), pageInfo: PageInfo });
const Ended = Type.Object({ ended: Type.Integer({ description: 'How many sessions were ended' }) });

export function sessionRoutes(app: Http, ctx: AppContext): void {
  app.get(
    '/api/sessions',
    {
      schema: {
        tags: ['sessions'],
        summary: "The caller's live sign-in sessions, last used first; `current` marks this one",
        querystring: Type.Object(pageQuery(), { additionalProperties: false }),
        response: { 200: SessionList, ...errors(400, 401) },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const { rows, total, currentId } = await sessions.listSessions(ctx, actorOf(req), page);
      return { sessions: rows.map((r) => presentSession(r, currentId)), pageInfo: { total, ...page } };
    },
  );

  app.delete(
    '/api/sessions/:id',
    {
      schema: {
        tags: ['sessions'],
        summary: 'End one of your sessions (its tokens stop working at once; its change streams close)',
        params: Type.Object({ id: Uuid }),
        response: { 200: Ok, ...errors(400, 401, 404) },
      },
    },
    async (req) => {
      await sessions.endSession(ctx, actorOf(req), req.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    '/api/sessions/end-others',
    {
      schema: {
        tags: ['sessions'],
        summary: 'End every one of your sessions but this one (with an API key: every session); body: {}',
        querystring: Type.Object({}, { additionalProperties: false }),
        body: Type.Object({}, { additionalProperties: false }),
        response: { 200: Ended, ...errors(401) },
      },
    },
    async (req) => ({ ended: await sessions.endOtherSessions(ctx, actorOf(req)) }),
  );

  app.post(
    '/api/auth/logout',
    {
      schema: {
        tags: ['sessions'],
        summary: 'Sign out: end the session this login token belongs to (400 for an API key); body: {}',
        querystring: Type.Object({}, { additionalProperties: false }),
        body: Type.Object({}, { additionalProperties: false }),
        response: { 200: Ok, ...errors(400, 401) },
      },
    },
    async (req) => {
      await sessions.logout(ctx, actorOf(req));
      return { ok: true as const };
    },
  );

  app.get(
    '/api/admin/users/:id/sessions',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['sessions'],
        summary: "A user's live sign-in sessions (admins only)",
        params: Type.Object({ id: Uuid }),
        querystring: Type.Object(pageQuery(), { additionalProperties: false }),
        response: { 200: SessionList, ...errors(400, 401, 403, 404) },
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const { rows, total, currentId } = await sessions.listUserSessions(
        ctx,
        actorOf(req),
        req.params.id,
        page,
      );
      return { sessions: rows.map((r) => presentSession(r, currentId)), pageInfo: { total, ...page } };
    },
  );

  app.delete(
    '/api/admin/users/:id/sessions',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['sessions'],
        summary: "End all of a user's sessions and every login token they hold (admins only; API keys stay)",
        params: Type.Object({ id: Uuid }),
        response: { 200: Ended, ...errors(400, 401, 403, 404) },
      },
    },
    async (req) => ({
      ended: await sessions.endUserSessions(ctx, actorOf(req), req.params.id, undefined),
    }),
  );

  app.delete(
    '/api/admin/users/:id/sessions/:sessionId',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['sessions'],
        summary: "End one of a user's sessions (admins only)",
        params: Type.Object({ id: Uuid, sessionId: Uuid }),
        response: { 200: Ok, ...errors(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await sessions.endUserSessions(ctx, actorOf(req), req.params.id, req.params.sessionId);
      return { ok: true as const };
    },
  );
}
