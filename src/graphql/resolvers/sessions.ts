// Sign-in sessions as the third-party schema names them: the caller's
// (authenticationSessions, logout*), and an admin's view of a user's
// (userSessions, userRevoke*). The rules are modules/sessions/service.ts's,
// the device is described once (sessions/present.ts).
import { describeSession } from '../../modules/sessions/present.js';
import * as sessions from '../../modules/sessions/service.js';
import type { SessionRow } from '../../platform/db/tables.js';
import type { ResolverMap } from '../build-schema.js';
import type { GqlContext } from '../context.js';

/** The most sessions one answer lists (a user keeps at most MAX_LIVE_SESSIONS). */
const LISTED = { limit: sessions.MAX_LIVE_SESSIONS, offset: 0 };

/** The fields of AuthenticationSessionResponse this service fills (schema/held.ts). */
export const SESSION_RESPONSE_FIELDS = [
  'id',
  'createdAt',
  'updatedAt',
  'lastActiveAt',
  'ip',
  'userAgent',
  'browserType',
  'operatingSystem',
  'name',
  'detailedName',
  'isCurrentSession',
  'type',
  'countryCodes',
] as const;

function sessionResponse(row: SessionRow, currentId: string | null) {
  const s = describeSession(row, currentId);
  return {
    id: s.id,
    createdAt: s.createdAt,
    updatedAt: s.lastActiveAt,
    lastActiveAt: s.lastActiveAt,
    ip: s.ip,
    userAgent: s.userAgent,
    browserType: s.browser,
    operatingSystem: s.operatingSystem,
    name: s.name,
    detailedName: `${s.name}, ${s.ip}`,
    isCurrentSession: s.current,
    // Every session here is a browser's or a client's over the web API.
    type: 'web',
    countryCodes: [],
  };
}

const listed = (page: sessions.SessionPage) => page.rows.map((r) => sessionResponse(r, page.currentId));
const done = { success: true };

export const sessionResolvers: ResolverMap = {
  Query: {
    authenticationSessions: async (_: unknown, _args: unknown, g: GqlContext) =>
      listed(await sessions.listSessions(g.app, g.actor, LISTED)),
    userSessions: async (_: unknown, args: { id: string }, g: GqlContext) =>
      listed(await sessions.listUserSessions(g.app, g.actor, args.id, LISTED)),
  },
  Mutation: {
    logout: async (_: unknown, _args: unknown, g: GqlContext) => {
      await sessions.logout(g.app, g.actor);
      return done;
    },
    logoutSession: async (_: unknown, args: { sessionId: string }, g: GqlContext) => {
      await sessions.endSession(g.app, g.actor, args.sessionId);
      return done;
    },
    logoutOtherSessions: async (_: unknown, _args: unknown, g: GqlContext) => {
      await sessions.endOtherSessions(g.app, g.actor);
      return done;
    },
    logoutAllSessions: async (_: unknown, _args: unknown, g: GqlContext) => {
      await sessions.logoutEverywhere(g.app, g.actor);
      return done;
    },
    userRevokeAllSessions: async (_: unknown, args: { id: string }, g: GqlContext) => {
      await sessions.endUserSessions(g.app, g.actor, args.id);
      return done;
    },
    userRevokeSession: async (_: unknown, args: { id: string; sessionId: string }, g: GqlContext) => {
      await sessions.endUserSessions(g.app, g.actor, args.id, args.sessionId);
      return done;
    },
  },
};
