// Talking to the OpenID provider, through openid-client (a certified relying
// party library): discovery, the authorization URL with PKCE, state and nonce,
// and the code exchange with ID-token verification. Everything protocol-level
// is the library's; this file only decides what to ask and what to keep.
import * as oidc from 'openid-client';
import type { SsoSettings } from './settings.js';

/** Seconds one request to the provider may take before the sign-in says it is down. */
const PROVIDER_TIMEOUT_S = 10;
/** A discovered configuration is reused this long (keys rotate; metadata rarely changes). */
const DISCOVERY_TTL_MS = 10 * 60_000;

/** The provider could not be reached or answered nonsense: "provider unavailable" to the person. */
export class ProviderUnavailable extends Error {
  override name = 'ProviderUnavailable';
}

/**
 * Plain http only for a provider on this machine (development and tests);
 * anywhere else the library's HTTPS-only rule stands.
 */
const isLoopback = (u: URL) => ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);

const cache = new Map<string, { at: number; config: Promise<oidc.Configuration> }>();

/** The provider's configuration for these settings, discovered once and kept a while. */
export function providerConfig(s: SsoSettings): Promise<oidc.Configuration> {
  const key = JSON.stringify([s.issuer, s.clientId, s.clientSecret]);
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < DISCOVERY_TTL_MS) return hit.config;
  const issuer = new URL(s.issuer!);
  const config = oidc
    .discovery(
      issuer,
      s.clientId!,
      undefined,
      s.clientSecret ? oidc.ClientSecretPost(s.clientSecret) : oidc.None(),
      {
        timeout: PROVIDER_TIMEOUT_S,
        ...(issuer.protocol === 'http:' && isLoopback(issuer)
          ? { execute: [oidc.allowInsecureRequests] }
          : {}),
      },
    )
    .catch((err: unknown) => {
      cache.delete(key);
      throw new ProviderUnavailable(`discovery of ${s.issuer} failed: ${String(err)}`);
    });
  cache.set(key, { at: Date.now(), config });
  return config;
}

/** What one sign-in must remember between leaving for the provider and coming back. */
export interface FlowSecrets {
  state: string;
  nonce: string;
  verifier: string;
}

export async function authorizationUrl(
  s: SsoSettings,
  redirectUri: string,
): Promise<{ url: URL; secrets: FlowSecrets }> {
  const config = await providerConfig(s);
  const secrets = {
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
    verifier: oidc.randomPKCECodeVerifier(),
  };
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: s.scopes,
    code_challenge: await oidc.calculatePKCECodeChallenge(secrets.verifier),
    code_challenge_method: 'S256',
    state: secrets.state,
    nonce: secrets.nonce,
  });
  return { url, secrets };
}

/** The claims of the person who signed in: the ID token's, with the userinfo endpoint's added. */
export type Claims = Record<string, unknown> & { iss: string; sub: string };

/**
 * Exchanges the code the provider sent back (`callbackUrl` is the whole URL it
 * redirected to) and verifies the ID token: signature, issuer, audience,
 * expiry, nonce; state and PKCE are checked by the library too.
 */
export async function redeemCode(s: SsoSettings, callbackUrl: URL, secrets: FlowSecrets): Promise<Claims> {
  const config = await providerConfig(s);
  const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: secrets.verifier,
    expectedState: secrets.state,
    expectedNonce: secrets.nonce,
    idTokenExpected: true,
  });
  const idClaims = tokens.claims();
  if (!idClaims) throw new Error('the provider sent no ID token');
  // Many providers put email and groups only in userinfo; the ID token's subject must match it.
  let info: Record<string, unknown> = {};
  if (config.serverMetadata().userinfo_endpoint) {
    info = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub);
  }
  return { ...info, ...idClaims } as Claims;
}

/** Forgets discovered configurations (tests start a provider per file). */
export const forgetProviders = () => cache.clear();
