// A real OpenID provider for the single sign-on tests: oidc-provider (an
// OpenID-certified implementation) on a local port, with one confidential
// client and accounts the test sets. Its sign-in page is a plain form asking
// for the account's name; the test (or Chromium) fills it in. Consent is
// granted at sign-in, as a company's provider does for its own apps.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The claims each account signs in with (sub is the account's name). */
  accounts: Map<string, Record<string, unknown>>;
  close(): Promise<void>;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (uid: string, error = '') => `<!doctype html>
<html lang="en"><head><title>Test identity provider</title></head><body>
<main><h1>Test identity provider</h1>${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}">
<label>Username <input name="login" autocomplete="username" autofocus></label>
<button type="submit">Continue</button>
</form></main></body></html>`;

/** The provider's store, in memory (its own in-memory adapter warns that it is for development). */
class MemoryAdapter {
  static store = new Map<string, Record<string, unknown>>();
  constructor(private readonly model: string) {}
  private key = (id: string) => `${this.model}:${id}`;
  async upsert(id: string, payload: Record<string, unknown>) {
    MemoryAdapter.store.set(this.key(id), payload);
  }
  async find(id: string) {
    return MemoryAdapter.store.get(this.key(id));
  }
  async findByUid(uid: string) {
    for (const [k, v] of MemoryAdapter.store)
      if (k.startsWith(`${this.model}:`) && v['uid'] === uid) return v;
    return undefined;
  }
  async findByUserCode() {
    return undefined;
  }
  async consume(id: string) {
    const v = MemoryAdapter.store.get(this.key(id));
    if (v) v['consumed'] = Math.floor(Date.now() / 1000);
  }
  async destroy(id: string) {
    MemoryAdapter.store.delete(this.key(id));
  }
  async revokeByGrantId(grantId: string) {
    for (const [k, v] of MemoryAdapter.store) if (v['grantId'] === grantId) MemoryAdapter.store.delete(k);
  }
}

async function formBody(req: http.IncomingMessage): Promise<URLSearchParams> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return new URLSearchParams(text);
}

/** Starts a provider whose client sends people back to `redirectUri`. */
export async function startIdp(redirectUri: string): Promise<TestIdp> {
  const accounts = new Map<string, Record<string, unknown>>();
  const clientId = 'trackway';
  const clientSecret = randomBytes(24).toString('base64url');
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    async findAccount(_ctx, id) {
      const claims = accounts.get(id);
      return claims && { accountId: id, claims: () => ({ ...claims, sub: id }) };
    },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
      groups: ['groups'],
    },
    scopes: ['openid', 'email', 'profile', 'groups'],
    // Claims in the ID token too, as many providers send them.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    adapter: MemoryAdapter,
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 600,
      Interaction: 600,
      Grant: 600,
      Session: 600,
    },
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test', alg: 'RS256', use: 'sig' }] },
  } as ConstructorParameters<typeof Provider>[1]);
  const handle = provider.callback();

  server.on('request', async (req, res) => {
    const m = /^\/interaction\/([\w-]+)$/.exec(req.url ?? '');
    if (!m) return handle(req, res);
    try {
      const details = await provider.interactionDetails(req, res);
      if (req.method === 'GET') {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        return res.end(page(details.uid));
      }
      const login = (await formBody(req)).get('login') ?? '';
      if (!accounts.has(login)) {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        return res.end(page(details.uid, `No account named ${login}`));
      }
      const grant = new provider.Grant({ accountId: login, clientId });
      grant.addOIDCScope(String(details.params['scope'] ?? 'openid'));
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: login }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    } catch (err) {
      res.statusCode = 400;
      res.end(String(err));
    }
  });

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** name=value of each Set-Cookie, by name (attributes dropped). */
export function cookiesOf(setCookie: string | string[] | undefined): Map<string, string> {
  const jar = new Map<string, string>();
  for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
    const [pair = ''] = line.split(';');
    const at = pair.indexOf('=');
    if (at > 0) jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
  }
  return jar;
}

export const cookieHeader = (jar: Map<string, string>) =>
  [...jar]
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');

/**
 * Signs `login` in at the provider the way a browser would, from the
 * authorization URL to the redirect back: every request the provider asks
 * for, with its cookies. Returns the URL it sends the browser back to.
 */
export async function signInAtIdp(authorizationUrl: string, login: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = new URL(authorizationUrl);
  let method = 'GET';
  let body: string | undefined;
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        cookie: cookieHeader(jar),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(body ? { body } : {}),
    });
    for (const [k, v] of cookiesOf(res.headers.getSetCookie())) jar.set(k, v);
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, url);
      if (next.origin !== url.origin && !next.pathname.startsWith('/interaction')) return next;
      url = next;
      method = 'GET';
      body = undefined;
      continue;
    }
    const text = await res.text();
    if (res.status === 200 && url.pathname.startsWith('/interaction/') && method === 'GET') {
      method = 'POST';
      body = new URLSearchParams({ login }).toString();
      continue;
    }
    throw new Error(`the provider answered ${res.status} at ${url.pathname}: ${text.slice(0, 300)}`);
  }
  throw new Error('the provider redirected too many times');
}
