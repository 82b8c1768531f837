// A session as REST and GraphQL show it. Both doors read `describeSession`,
// so the device and "this one" are worked out once.
import Bowser from 'bowser';
import { Type } from 'typebox';
import type { SessionRow } from '../../platform/db/tables.js';
import type { SignInMethod } from './queries.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const SessionSchema = Type.Object({
  id: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  lastActiveAt: Type.String({ format: 'date-time', description: 'Last use, to the minute' }),
  ip: Type.String({ description: 'The address it signed in from' }),
  userAgent: Nullable(Type.String()),
  browser: Nullable(Type.String({ description: 'Browser name and major version, read from the user agent' })),
  operatingSystem: Nullable(Type.String()),
  name: Type.String({ description: 'What the session list shows: "Firefox 128 on Linux"' }),
  method: Type.Union(
    [
      Type.Literal('password'),
      Type.Literal('registration'),
      Type.Literal('passwordChange'),
      Type.Literal('sso'),
    ],
    { description: 'How it started' },
  ),
  current: Type.Boolean({ description: 'The session this request came in with' }),
});

export interface SessionView {
  id: string;
  createdAt: Date;
  lastActiveAt: Date;
  ip: string;
  userAgent: string | null;
  browser: string | null;
  operatingSystem: string | null;
  name: string;
  method: SignInMethod;
  current: boolean;
}

export function describeSession(row: SessionRow, currentId: string | null): SessionView {
  const parsed = row.user_agent ? Bowser.parse(row.user_agent) : undefined;
  const major = parsed?.browser.version?.split('.')[0];
  const browser = parsed?.browser.name ? `${parsed.browser.name}${major ? ` ${major}` : ''}` : null;
  const operatingSystem = parsed?.os.name ?? null;
  const name =
    browser && operatingSystem
      ? `${browser} on ${operatingSystem}`
      : (browser ?? operatingSystem ?? 'Unknown device');
  return {
    id: row.id,
    createdAt: row.created_at,
    lastActiveAt: row.last_used_at,
    ip: row.ip,
    userAgent: row.user_agent,
    browser,
    operatingSystem,
    name,
    method: row.method as SignInMethod,
    current: row.id === currentId,
  };
}

/** REST's JSON of a session. */
export const presentSession = (row: SessionRow, currentId: string | null) => {
  const v = describeSession(row, currentId);
  return { ...v, createdAt: v.createdAt.toISOString(), lastActiveAt: v.lastActiveAt.toISOString() };
};
