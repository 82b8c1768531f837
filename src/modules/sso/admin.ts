// The admin page's single sign-on settings: read with what the environment
// locks, and changed with an audit entry that never holds the client secret.
import type { Actor, AppContext } from '../../platform/context.js';
import { invalidField } from '../../platform/errors.js';
import { auditActorOf, changes, recordAudit } from '../audit/record.js';
import { assertAdmin } from '../users/policy.js';
import * as users from '../users/queries.js';
import { countLinked } from './queries.js';
import { effectiveSso, redirectUri, SSO_ENV, type SsoSettings, savedSso, saveSso } from './settings.js';

/** A change from the page: any field; `clientSecret` null clears it, absent keeps it. */
export type SsoPatch = Partial<SsoSettings>;

export async function ssoSettingsView(ctx: AppContext, actor: Actor) {
  assertAdmin(actor);
  const { settings, locked, enabled } = await effectiveSso(ctx, ctx.db);
  const { clientSecret, ...shown } = settings;
  return {
    sso: { ...shown, clientSecretSet: Boolean(clientSecret) },
    locked: locked.map((field) => ({ field, variable: SSO_ENV[field] })),
    enabled,
    redirectUri: redirectUri(ctx),
    linkedAccounts: await countLinked(ctx.db),
  };
}

export async function updateSsoSettings(ctx: AppContext, actor: Actor, patch: SsoPatch) {
  assertAdmin(actor);
  const env = ctx.config.oidc;
  for (const field of Object.keys(patch) as (keyof SsoSettings)[]) {
    if (env[field] !== undefined) throw invalidField(field, `set by ${SSO_ENV[field]}; change it there`);
  }
  await ctx.db.transaction().execute(async (trx) => {
    const before = await savedSso(ctx, trx);
    const next: SsoSettings = { ...before, ...patch };
    if (next.scopes.split(/\s+/).indexOf('openid') < 0) throw invalidField('scopes', 'must include openid');
    const inForce = { ...next, ...env };
    if (inForce.required) await assertBreakGlass(trx, inForce);
    await saveSso(ctx, trx, next);
    const { clientSecret: _b, ...b } = before;
    const { clientSecret: _a, ...a } = next;
    const diff = changes<Record<string, unknown>>(b, a);
    const secretChanged = (before.clientSecret ?? null) !== (next.clientSecret ?? null);
    if (diff || secretChanged) {
      await recordAudit(trx, {
        type: 'sso.settingsChanged',
        actor: auditActorOf(actor),
        entity: { type: 'sso', id: 'oidc', label: inForce.issuer },
        ...(diff ?? {}),
        metadata: { clientSecretChanged: secretChanged },
      });
    }
  });
  return ssoSettingsView(ctx, actor);
}

/**
 * Requiring single sign-on needs a provider and at least one active admin who
 * may still use a password: otherwise a provider outage locks everyone out.
 */
async function assertBreakGlass(db: Parameters<typeof users.findLiveUserByEmail>[0], s: SsoSettings) {
  if (!s.issuer || !s.clientId) throw invalidField('required', 'set the issuer and client id first');
  for (const email of s.breakGlassEmails) {
    const user = await users.findLiveUserByEmail(db, email);
    if (user?.role === 'admin' && user.status === 'active') return;
  }
  throw invalidField(
    'breakGlassEmails',
    'name at least one active admin who may still sign in with a password',
  );
}
