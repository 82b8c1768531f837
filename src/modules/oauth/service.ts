// The consent page's work (web: /oauth/consent/$uid): describe a pending
// authorization, and finish it server side for the signed-in person, with
// the scopes they agreed to or a refusal. The provider's interaction cookie
// still binds the browser that started it when it follows the answer's URL.
import type Provider from 'oidc-provider';
import type { Interaction } from 'oidc-provider';
import type { Actor, AppContext } from '../../platform/context.js';
import { AppError, notFound } from '../../platform/errors.js';
import { auditActorOf, changes, recordAudit } from '../audit/record.js';
import { assertAdmin } from '../users/policy.js';
import { startedHere } from './binding.js';
import { actsAsApp } from './provider.js';
import { claimInteraction, ensureAppUser, markAppActorGrant } from './queries.js';
import { SCOPE_WORDS, SCOPES, type Scope } from './scopes.js';
import { type OAuthSettings, oauthSettings, saveOAuthSettings } from './settings.js';

const expired = () =>
  new AppError(
    404,
    'NOT_FOUND',
    'This authorization request has expired or was finished; start again from the app',
  );

/**
 * The pending interaction `uid`, asked for from the browser that started it
 * (`cookies`: the request's Cookie header, binding.ts); from anywhere else it
 * does not exist, whoever is signed in. In that browser it belongs to the
 * first account that reads or answers it: after a change of account, the
 * next one is refused and must start again from the app.
 */
async function pending(
  ctx: AppContext,
  provider: Provider,
  actor: Actor,
  uid: string,
  cookies: string | undefined,
) {
  if (!startedHere(ctx, cookies, uid)) throw expired();
  const interaction: Interaction | undefined = await provider.Interaction.find(uid);
  if (!interaction || interaction.result) throw expired();
  const ttl = Math.max(1, interaction.exp - Math.floor(Date.now() / 1000));
  if ((await claimInteraction(ctx.db, uid, actor.id, ttl)) !== actor.id) {
    throw new AppError(
      403,
      'FORBIDDEN',
      'This authorization was started under another account; sign in as that account, or start again from the app',
    );
  }
  return interaction;
}

/** The scopes an authorization asks for, known ones only, in the consent page's order. */
function requestedScopes(interaction: Interaction): Scope[] {
  const asked = new Set(String(interaction.params['scope'] ?? '').split(' '));
  return SCOPES.filter((s) => asked.has(s));
}

export async function describeInteraction(
  ctx: AppContext,
  provider: Provider,
  actor: Actor,
  uid: string,
  cookies: string | undefined,
) {
  const interaction = await pending(ctx, provider, actor, uid, cookies);
  const clientId = String(interaction.params['client_id'] ?? '');
  const client = await provider.Client.find(clientId);
  if (!client) throw notFound('App');
  return {
    uid: interaction.uid,
    app: {
      clientId: client.clientId,
      name: client.clientName ?? client.clientId,
      logoUri: client.logoUri ?? null,
      uri: client.clientUri ?? null,
    },
    redirectUri: String(interaction.params['redirect_uri'] ?? client.redirectUris[0] ?? ''),
    actsAsApp: actsAsApp(interaction.params['actor']),
    scopes: requestedScopes(interaction).map((name) => ({ name, description: SCOPE_WORDS[name] })),
  };
}

/** Finishes an authorization with the person's consent; returns where the browser goes next. */
export async function consent(
  ctx: AppContext,
  provider: Provider,
  actor: Actor,
  uid: string,
  cookies: string | undefined,
) {
  const interaction = await pending(ctx, provider, actor, uid, cookies);
  const clientId = String(interaction.params['client_id'] ?? '');
  const scopes = requestedScopes(interaction);
  const asApp = actsAsApp(interaction.params['actor']);
  const grant = new provider.Grant({ accountId: actor.id, clientId });
  if (scopes.length) grant.addOIDCScope(scopes.join(' '));
  const grantId = await grant.save();
  if (asApp) {
    // Marked before the interaction is finished: no code, so no token, exists yet to act as the person.
    const client = await provider.Client.find(clientId);
    if (!client) throw notFound('App');
    const name = (client.clientName ?? clientId).slice(0, 100);
    // The icon only as the UI shows one (https), so the avatar never loads from elsewhere.
    const icon = client.logoUri?.startsWith('https://') ? client.logoUri : null;
    await ctx.db.transaction().execute(async (trx) => {
      await markAppActorGrant(trx, grantId, await ensureAppUser(trx, clientId, name, icon));
    });
  }
  interaction.result = { login: { accountId: actor.id }, consent: { grantId } };
  await interaction.save(Math.max(1, interaction.exp - Math.floor(Date.now() / 1000)));
  await recordAudit(ctx.db, {
    type: 'oauth.appAuthorized',
    actor: auditActorOf(actor),
    entity: { type: 'oauthApp', id: clientId },
    metadata: { scopes, actor: asApp ? 'app' : 'user' },
  });
  return { redirectTo: interaction.returnTo };
}

/** Finishes an authorization with the person's refusal: the app gets access_denied. */
export async function deny(
  ctx: AppContext,
  provider: Provider,
  actor: Actor,
  uid: string,
  cookies: string | undefined,
) {
  const interaction = await pending(ctx, provider, actor, uid, cookies);
  interaction.result = {
    error: 'access_denied',
    error_description: 'The person declined to authorize the app',
  };
  await interaction.save(Math.max(1, interaction.exp - Math.floor(Date.now() / 1000)));
  return { redirectTo: interaction.returnTo };
}

export async function oauthSettingsView(ctx: AppContext, actor: Actor): Promise<OAuthSettings> {
  assertAdmin(actor);
  return oauthSettings(ctx.db);
}

export async function updateOAuthSettings(ctx: AppContext, actor: Actor, patch: Partial<OAuthSettings>) {
  assertAdmin(actor);
  return ctx.db.transaction().execute(async (trx) => {
    const before = await oauthSettings(trx);
    const next = { ...before, ...patch };
    await saveOAuthSettings(trx, next);
    const diff = changes<Record<string, unknown>>({ ...before }, { ...next });
    if (diff) {
      await recordAudit(trx, {
        type: 'oauth.settingsChanged',
        actor: auditActorOf(actor),
        entity: { type: 'oauth', id: 'settings' },
        ...diff,
      });
    }
    return next;
  });
}
