// What every service receives: the database handle and process-wide parts.
// Built once in app.ts; tests build their own with a fresh database.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { CredentialCache } from './auth/credential-cache.js';
import type { LoginLimiter } from './auth/login-limiter.js';
import type { TokenSigner } from './auth/tokens.js';
import type { Db } from './db/database.js';
import type { Role, UserRow } from './db/tables.js';
import type { EventHandler } from './outbox.js';

export interface AppContext {
  db: Db;
  dbKind: 'pglite' | 'postgres';
  config: Config;
  tokens: TokenSigner;
  /** Derives a signing key for one purpose (e.g. 'upload-url') from the workspace's master secret. */
  deriveKey(purpose: string): Buffer;
  loginLimiter: LoginLimiter;
  /** Who each recently seen token's user and API key is (platform/auth/credential-cache.ts). */
  credentials: CredentialCache<KnownCredential>;
  log: FastifyBaseLogger;
  /** What recordEvent runs for each event, in order (registered in app.ts). */
  eventHandlers: readonly EventHandler[];
  /** Reads an OAuth access token (modules/oauth, set when its routes are registered). */
  oauth?: { accessToken(token: string): Promise<OAuthAccess | undefined> } | undefined;
}

/** A live OAuth access token: whose it is, which app holds it, what it was granted. */
export interface OAuthAccess {
  userId: string;
  clientId: string;
  scopes: ReadonlySet<string>;
  /** The app's own user, when the person authorized it with actor=app (it acts under its own name). */
  appUserId?: string | undefined;
}

/** A credential's owner as authentication read them; an API key's also names the key. */
export interface KnownCredential {
  user: UserRow;
  key?: { id: string; lastUsedAt: Date | null };
  /** A login token's session, live when read (modules/sessions). */
  session?: { id: string; lastUsedAt: Date };
}

/** The authenticated caller of a request. */
export interface Actor {
  id: string;
  role: Role;
  name: string;
  email: string;
  via: 'session' | 'apiKey' | 'oauth';
  /** An OAuth access token's granted scopes and app (modules/oauth/scopes.ts decides what they allow); absent otherwise. */
  oauth?: { scopes: ReadonlySet<string>; clientId: string } | undefined;
  /**
   * An OAuth app acting under its own name (authorized with actor=app): what
   * the caller writes is attributed to the app's own user (`authorOf`), while
   * `id`, `role` and team access stay the authorizing person's.
   */
  app?: { userId: string; name: string; email: string } | undefined;
  /** The sign-in session of a login token (modules/sessions); absent for an API key. */
  sessionId?: string | undefined;
  /** Where the request came from (set by the doors that authenticate: the auth hook, GraphQL). */
  origin?: RequestOrigin | undefined;
}

/**
 * Who a write is attributed to: the app's own user for an app acting under its
 * name, else the caller. Access is always decided by the caller (`id`, `role`).
 */
export function authorOf(actor: Pick<Actor, 'id' | 'name' | 'email' | 'app'>): Author {
  if (!actor.app) return { id: actor.id, name: actor.name, email: actor.email };
  return { id: actor.app.userId, name: actor.app.name, email: actor.app.email, isApp: true };
}

/** Whom a change is attributed to: a person, or an app's own user (`isApp`). */
export interface Author {
  id: string;
  name: string;
  email: string;
  isApp?: true;
}

/** A request's address (honouring TRUST_PROXY) and user agent, for sessions and the audit log. */
export interface RequestOrigin {
  ip: string;
  userAgent: string | null;
}
