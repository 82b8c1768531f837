// Single sign-on settings: what an admin saved on the SSO page, with every
// OIDC_* environment variable that is set taking its field's place (and
// locking it on the page). Saved as one JSON value in the settings table, the
// client secret sealed so a database dump does not hand it out.
import type { SsoSettings } from '../../config.js';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { seal, unseal } from '../../platform/sealed.js';
import { saveSettingsValue, settingsValue } from '../workspace/queries.js';

export type { SsoSettings };

export const DEFAULT_SSO: SsoSettings = {
  issuer: null,
  clientId: null,
  clientSecret: null,
  buttonLabel: 'Sign in with SSO',
  scopes: 'openid email profile',
  allowedDomains: [],
  autoCreate: true,
  defaultRole: 'member',
  trustUnverifiedEmail: false,
  groupsClaim: null,
  adminGroups: [],
  memberGroups: [],
  guestGroups: [],
  teamGroups: [],
  required: false,
  breakGlassEmails: [],
};

export type SsoField = keyof SsoSettings;
export const SSO_FIELDS = Object.keys(DEFAULT_SSO) as SsoField[];

/** The variable that sets each field, for the admin page's "set by" notes and the docs. */
export const SSO_ENV: Record<SsoField, string> = {
  issuer: 'OIDC_ISSUER',
  clientId: 'OIDC_CLIENT_ID',
  clientSecret: 'OIDC_CLIENT_SECRET',
  buttonLabel: 'OIDC_BUTTON_LABEL',
  scopes: 'OIDC_SCOPES',
  allowedDomains: 'OIDC_ALLOWED_DOMAINS',
  autoCreate: 'OIDC_AUTO_CREATE',
  defaultRole: 'OIDC_DEFAULT_ROLE',
  trustUnverifiedEmail: 'OIDC_TRUST_UNVERIFIED_EMAIL',
  groupsClaim: 'OIDC_GROUPS_CLAIM',
  adminGroups: 'OIDC_ADMIN_GROUPS',
  memberGroups: 'OIDC_MEMBER_GROUPS',
  guestGroups: 'OIDC_GUEST_GROUPS',
  teamGroups: 'OIDC_TEAM_GROUPS',
  required: 'OIDC_REQUIRED',
  breakGlassEmails: 'OIDC_BREAK_GLASS_EMAILS',
};

const SETTINGS_KEY = 'sso';
const SEALING_PURPOSE = 'sso-client-secret';

export interface EffectiveSso {
  settings: SsoSettings;
  /** Fields the environment sets: the page shows them and cannot change them. */
  locked: SsoField[];
  /** An issuer and a client id are known: the sign-in page offers the button. */
  enabled: boolean;
}

/** What the admin page saved, secret unsealed; the defaults where nothing was saved. */
export async function savedSso(ctx: Pick<AppContext, 'deriveKey'>, db: Db): Promise<SsoSettings> {
  const value = await settingsValue(db, SETTINGS_KEY);
  if (value === undefined) return { ...DEFAULT_SSO };
  const stored = JSON.parse(value) as Partial<SsoSettings> & { clientSecretSealed?: string | null };
  const { clientSecretSealed, ...rest } = stored;
  const clientSecret = clientSecretSealed ? unseal(ctx.deriveKey(SEALING_PURPOSE), clientSecretSealed) : null;
  return { ...DEFAULT_SSO, ...rest, clientSecret };
}

/** The settings in force: saved, then the environment over them. */
export async function effectiveSso(
  ctx: Pick<AppContext, 'deriveKey' | 'config'>,
  db: Db,
): Promise<EffectiveSso> {
  const env = ctx.config.oidc;
  const settings = { ...(await savedSso(ctx, db)), ...env };
  return {
    settings,
    locked: SSO_FIELDS.filter((f) => env[f] !== undefined),
    enabled: Boolean(settings.issuer && settings.clientId),
  };
}

/** Saves the page's settings (inside the caller's transaction, beside its audit entry). */
export async function saveSso(
  ctx: Pick<AppContext, 'deriveKey'>,
  db: Db,
  settings: SsoSettings,
): Promise<void> {
  const { clientSecret, ...rest } = settings;
  const value = JSON.stringify({
    ...rest,
    clientSecretSealed: clientSecret ? seal(ctx.deriveKey(SEALING_PURPOSE), clientSecret) : null,
  });
  await saveSettingsValue(db, SETTINGS_KEY, value);
}

/** The address the provider sends people back to: registered with it by the admin. */
export const redirectUri = (ctx: Pick<AppContext, 'config'>) =>
  `${ctx.config.publicUrl}/api/auth/sso/callback`;

/** Whether `email` may use a password while single sign-on is required. */
export const isBreakGlass = (s: SsoSettings, email: string) =>
  s.breakGlassEmails.includes(email.trim().toLowerCase());
