// What an OAuth access token's scopes allow: the one decision REST (per
// route and method, in the auth hook), GraphQL (queries and each root
// mutation) and MCP (per tool) all ask. Scopes narrow what a token may do;
// they never widen it: role, team access and feature flags still apply after.
// Credentials other than OAuth tokens (sign-in tokens, API keys) carry no
// scopes and are not narrowed.
import type { Actor } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';

/** The scopes as the third-party tracker names them, in the order the consent page lists them. */
export const SCOPES = ['read', 'write', 'issues:create', 'comments:create', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

/** What the consent page says each scope lets the app do. */
export const SCOPE_WORDS: Record<Scope, string> = {
  read: 'Read everything you can see: issues, comments, projects, teams and people',
  write: 'Make any change you are allowed to make, and read everything you can see',
  'issues:create': 'Create issues',
  'comments:create': 'Comment on issues',
  admin: 'Use workspace administration, if you are an admin',
};

/**
 * What a request wants to do. `create` names the only writes the narrow
 * scopes allow; `account` is managing the person's own credentials (API keys,
 * sessions, OAuth consent), which no token may do, whatever its scopes.
 */
export type Action =
  | { kind: 'read' }
  | { kind: 'write'; create?: 'issue' | 'comment' }
  | { kind: 'admin' }
  | { kind: 'account' };

const CREATE_SCOPE = { issue: 'issues:create', comment: 'comments:create' } as const;

/** Whether `scopes` allow `action`. `write` includes reading; `admin` is needed for admin routes only. */
export function scopesAllow(scopes: ReadonlySet<string>, action: Action): boolean {
  switch (action.kind) {
    case 'read':
      return scopes.has('read') || scopes.has('write');
    case 'write':
      return scopes.has('write') || (action.create !== undefined && scopes.has(CREATE_SCOPE[action.create]));
    case 'admin':
      return scopes.has('admin');
    case 'account':
      return false;
  }
}

export const insufficientScope = (action: Action) =>
  new AppError(
    403,
    'INSUFFICIENT_SCOPE',
    action.kind === 'account'
      ? 'An OAuth app cannot manage your credentials; sign in to Trackway to do this'
      : `This app's access does not allow this; it needs the ${neededScopes(action).join(' or ')} scope`,
  );

function neededScopes(action: Action): string[] {
  if (action.kind === 'read') return ['read'];
  if (action.kind === 'admin') return ['admin'];
  if (action.kind === 'write' && action.create) return ['write', CREATE_SCOPE[action.create]];
  return ['write'];
}

/** Throws INSUFFICIENT_SCOPE when the actor's token does not allow `action`; other credentials pass. */
export function assertScope(actor: Pick<Actor, 'oauth'>, action: Action): void {
  if (actor.oauth && !scopesAllow(actor.oauth.scopes, action)) throw insufficientScope(action);
}

/**
 * A scope parameter as apps send it: spaces (RFC 6749) or the third-party
 * tracker's commas ("read,write"), normalised to spaces.
 */
export const normaliseScopeParam = (scope: string) =>
  scope
    .split(/[\s,]+/)
    .filter((s) => s !== '')
    .join(' ');

/**
 * Routes where the person manages their own credentials (keys, sessions,
 * sign-in, consent): never with an OAuth token. Their profile
 * (/api/auth/me) is an ordinary read and write.
 */
const ACCOUNT_PREFIXES = ['/api/api-keys', '/api/sessions', '/api/auth/', '/api/oauth/'];
const isAccountRoute = (url: string) =>
  url !== '/api/auth/me' && ACCOUNT_PREFIXES.some((p) => url.startsWith(p));

/** The action of a REST route: its declared role first, then its method and the two narrow creates. */
export function restAction(method: string, url: string, auth: string | undefined): Action {
  if (isAccountRoute(url)) return { kind: 'account' };
  if (auth === 'admin') return { kind: 'admin' };
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return { kind: 'read' };
  if (method === 'POST' && url === '/api/issues') return { kind: 'write', create: 'issue' };
  if (method === 'POST' && url === '/api/issues/:id/comments') return { kind: 'write', create: 'comment' };
  return { kind: 'write' };
}

/** The action of a GraphQL root field: a query reads; mutations write, two of them narrowly. */
export function graphqlAction(operation: 'query' | 'mutation', field: string): Action {
  if (operation === 'query') return { kind: 'read' };
  if (field === 'issueCreate' || field === 'issueBatchCreate') return { kind: 'write', create: 'issue' };
  if (field === 'commentCreate') return { kind: 'write', create: 'comment' };
  return { kind: 'write' };
}

/** The action of an MCP tool. */
export function toolAction(tool: { name: string; readOnly: boolean }): Action {
  if (tool.readOnly) return { kind: 'read' };
  if (tool.name === 'create_issue') return { kind: 'write', create: 'issue' };
  if (tool.name === 'add_comment') return { kind: 'write', create: 'comment' };
  return { kind: 'write' };
}
