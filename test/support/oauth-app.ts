// An OAuth app for tests (openid-client, as a real app uses it) against an
// app that listens: registration (dynamic, or the admin's client id and
// secret), the browser's part of an authorization answered through REST, the
// code exchange with PKCE. The UI tests drive the consent page in Chromium instead.
import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import type { TestApp } from './harness.js';
import { cookieHeader, cookiesOf } from './oidc-idp.js';

export const REDIRECT = 'http://127.0.0.1:9/callback';
export const insecure = { execute: [oidc.allowInsecureRequests], algorithm: 'oauth2' as const };

/** Registers a public client through RFC 7591. */
export function registerDynamic(
  base: string,
  name: string,
  redirect = REDIRECT,
): Promise<oidc.Configuration> {
  return oidc.dynamicClientRegistration(
    new URL(base),
    {
      client_name: name,
      redirect_uris: [redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    oidc.None(),
    insecure,
  );
}

/** The app's configuration for a client an admin registered (a secret: confidential). */
export function configFor(base: string, clientId: string, secret?: string): Promise<oidc.Configuration> {
  return oidc.discovery(
    new URL(base),
    clientId,
    undefined,
    secret ? oidc.ClientSecretBasic(secret) : oidc.None(),
    insecure,
  );
}

/** An authorization URL with PKCE and state, and what the exchange needs. */
export async function startAuthorization(
  config: oidc.Configuration,
  scope: string,
  redirect = REDIRECT,
  extra: Record<string, string> = {},
) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    ...extra,
    redirect_uri: redirect,
    scope,
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  return { url, verifier, state };
}

/** The browser's part answered through REST by the person whose token is given; returns the callback URL. */
export async function authorizeThroughRest(
  t: TestApp,
  base: string,
  url: URL,
  person: string,
  answer: 'consent' | 'deny' = 'consent',
): Promise<URL> {
  const jar = new Map<string, string>();
  const go = async (target: URL) => {
    const res = await fetch(target, { redirect: 'manual', headers: { cookie: cookieHeader(jar) } });
    for (const [k, v] of cookiesOf(res.headers.getSetCookie())) jar.set(k, v);
    await res.text();
    assert.ok(res.status >= 300 && res.status < 400, `${target.pathname} answered ${res.status}`);
    return new URL(res.headers.get('location')!, target);
  };
  const consentPage = await go(url);
  const uid = /^\/oauth\/consent\/([\w-]+)$/.exec(consentPage.pathname)?.[1];
  assert.ok(uid, `sent to ${consentPage}`);
  // From the browser that started it: its cookies prove it (modules/oauth/binding.ts).
  const done = await t.request('POST', `/api/oauth/interactions/${uid}/${answer}`, {
    token: person,
    headers: { cookie: cookieHeader(jar) },
  });
  assert.equal(done.status, 200, JSON.stringify(done.body));
  let next = new URL(done.body.redirectTo, base);
  for (let hop = 0; hop < 5 && next.origin === base; hop++) next = await go(next);
  assert.equal(`${next.origin}${next.pathname}`, REDIRECT);
  return next;
}

/** The whole flow for `person`: tokens for `scope` (`extra`: more authorization parameters, e.g. actor=app). */
export async function tokensFor(
  t: TestApp,
  base: string,
  config: oidc.Configuration,
  scope: string,
  person: string,
  extra: Record<string, string> = {},
) {
  const { url, verifier, state } = await startAuthorization(config, scope, REDIRECT, extra);
  const callback = await authorizeThroughRest(t, base, url, person);
  return oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
}
