// OAuth apps as people and admins manage them (docs/agents.md, "Apps"): the
// apps a person authorized and their revocation (Settings), every app with how
// many people use it, its registration by an admin (the secret shown once),
// its edit and its removal (Admin). Revoking ends the grants and every code
// and token issued under them in one transaction; a token's next request is
// refused, since every door reads the token's row each time (auth/service.ts).
import { randomBytes } from 'node:crypto';
import type Provider from 'oidc-provider';
import type { Actor, AppContext } from '../../platform/context.js';
import { AppError, notFound } from '../../platform/errors.js';
import type { Page } from '../../platform/http/pagination.js';
import { auditActorOf, changes, recordAudit } from '../audit/record.js';
import { assertAdmin } from '../users/policy.js';
import * as q from './queries.js';
import { SCOPES } from './scopes.js';

export type ClientKind = 'confidential' | 'public';

export interface AppInput {
  name: string;
  redirectUris: string[];
  iconUrl?: string | null | undefined;
  kind?: ClientKind | undefined;
}

const pageInfo = (rows: { total: string | number }[], page: Page) => ({
  total: Number(rows[0]?.total ?? 0),
  ...page,
});

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const str = (v: unknown) => (typeof v === 'string' ? v : null);

/** The known scopes among a space-separated list, in the consent page's order. */
const knownScopes = (list: string | null) => {
  const given = new Set((list ?? '').split(' '));
  return SCOPES.filter((s) => given.has(s));
};

export async function myApps(ctx: AppContext, actor: Actor, page: Page) {
  const rows = await q.authorizedApps(ctx.db, actor.id, page);
  return {
    apps: rows.map((r) => ({
      clientId: r.client_id,
      name: r.name ?? r.client_id,
      iconUrl: r.logo_uri,
      scopes: knownScopes(r.scopes),
      authorizedAt: iso(r.authorized_at),
      lastUsedAt: iso(r.last_used_at),
    })),
    pageInfo: pageInfo(rows, page),
  };
}

const noSuchApp = () => notFound('Authorized app');

/** Ends the caller's grants of an app: its tokens are refused from the next request on. */
export async function revokeMyApp(ctx: AppContext, actor: Actor, clientId: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const ended = await q.revokeGrants(trx, clientId, actor.id);
    if (ended === 0) throw noSuchApp();
    await recordAudit(trx, {
      type: 'oauth.appRevoked',
      actor: auditActorOf(actor),
      entity: { type: 'oauthApp', id: clientId },
      metadata: { grants: ended },
    });
  });
}

function appView(clientId: string, payload: Record<string, unknown>, adminRegistered: boolean) {
  return {
    clientId,
    name: str(payload['client_name']) ?? clientId,
    iconUrl: str(payload['logo_uri']),
    redirectUris: Array.isArray(payload['redirect_uris']) ? payload['redirect_uris'].map(String) : [],
    kind: (payload['token_endpoint_auth_method'] === 'none' ? 'public' : 'confidential') as ClientKind,
    registration: (adminRegistered ? 'admin' : 'dynamic') as 'admin' | 'dynamic',
  };
}

export async function allApps(ctx: AppContext, actor: Actor, page: Page) {
  assertAdmin(actor);
  const rows = await q.allApps(ctx.db, page);
  return {
    apps: rows.map((r) => ({
      ...appView(r.client_id, r.payload, r.admin_registered),
      registeredAt: iso(r.registered_at),
      users: Number(r.users),
    })),
    pageInfo: pageInfo(rows, page),
  };
}

/** The provider's own check of client metadata (redirect URIs, the icon's URL), as a 400. */
async function validated(provider: Provider, metadata: Record<string, unknown>) {
  try {
    await provider.Client.validate(metadata);
  } catch (err) {
    const e = err as { error_description?: string; message?: string };
    throw new AppError(400, 'VALIDATION_FAILED', e.error_description ?? e.message ?? 'Invalid app settings');
  }
  return metadata;
}

const metadataOf = (input: Partial<AppInput>) => ({
  ...(input.name !== undefined ? { client_name: input.name } : {}),
  ...(input.redirectUris !== undefined ? { redirect_uris: input.redirectUris } : {}),
  ...(input.iconUrl !== undefined ? { logo_uri: input.iconUrl ?? undefined } : {}),
});

/**
 * Registers an app as an admin: a confidential one gets a secret, answered
 * here once. The provider compares it in constant time; it keeps it in the
 * client's metadata, as it needs it to compare.
 */
export async function registerApp(ctx: AppContext, provider: Provider, actor: Actor, input: AppInput) {
  assertAdmin(actor);
  const clientId = randomBytes(16).toString('base64url');
  const kind = input.kind ?? 'confidential';
  const secret = kind === 'confidential' ? randomBytes(32).toString('base64url') : undefined;
  const metadata = await validated(provider, {
    client_id: clientId,
    client_id_issued_at: Math.floor(Date.now() / 1000),
    ...metadataOf(input),
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: secret ? 'client_secret_basic' : 'none',
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
  });
  await ctx.db.transaction().execute(async (trx) => {
    await q.saveClient(trx, clientId, JSON.parse(JSON.stringify(metadata)));
    await q.insertAdminApp(trx, clientId, actor.id);
    await recordAudit(trx, {
      type: 'oauth.appRegistered',
      actor: auditActorOf(actor),
      entity: { type: 'oauthApp', id: clientId, label: input.name },
      metadata: { redirectUris: input.redirectUris, kind },
    });
  });
  return {
    ...appView(clientId, metadata, true),
    registeredAt: new Date().toISOString(),
    users: 0,
    ...(secret ? { clientSecret: secret } : {}),
  };
}

/** Changes an app's name, redirect URIs or icon (any app, admin-registered or not). */
export async function updateApp(
  ctx: AppContext,
  provider: Provider,
  actor: Actor,
  clientId: string,
  patch: Partial<Omit<AppInput, 'kind'>>,
) {
  assertAdmin(actor);
  return ctx.db.transaction().execute(async (trx) => {
    const found = await q.findApp(trx, clientId);
    if (!found) throw notFound('App');
    const next: Record<string, unknown> = { ...found.payload, ...metadataOf(patch) };
    if (next['logo_uri'] === undefined) delete next['logo_uri'];
    await validated(provider, next);
    await q.saveClient(trx, clientId, next);
    const before = appView(clientId, found.payload, found.adminRegistered);
    const after = appView(clientId, next, found.adminRegistered);
    const diff = changes<Record<string, unknown>>({ ...before }, { ...after });
    if (diff) {
      await recordAudit(trx, {
        type: 'oauth.appUpdated',
        actor: auditActorOf(actor),
        entity: { type: 'oauthApp', id: clientId, label: after.name },
        ...diff,
      });
    }
    return after;
  });
}

/** Removes an app: everyone's grants and tokens end and the client is gone (its id is refused). */
export async function removeApp(ctx: AppContext, actor: Actor, clientId: string): Promise<void> {
  assertAdmin(actor);
  await ctx.db.transaction().execute(async (trx) => {
    const found = await q.findApp(trx, clientId);
    if (!found) throw notFound('App');
    const ended = await q.revokeGrants(trx, clientId, undefined);
    await q.deleteApp(trx, clientId);
    await recordAudit(trx, {
      type: 'oauth.appRemoved',
      actor: auditActorOf(actor),
      entity: { type: 'oauthApp', id: clientId, label: str(found.payload['client_name']) },
      metadata: { grants: ended },
    });
  });
}
