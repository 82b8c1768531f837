// GitHub App credentials for back-link comments (docs/git.md "GitHub App"):
// a short-lived installation access token, obtained through @octokit/auth-app
// (a JWT signed with the App's private key, then POST
// /app/installations/{id}/access_tokens) and kept in memory until shortly
// before it expires. Without an installation id, the repository's
// installation is looked up once (GET /repos/{owner}/{repo}/installation).
// Every call goes through guardedFetch: the API root is checked again on
// each connection, as for tokens.
import { createPrivateKey } from 'node:crypto';
import { createAppAuth } from '@octokit/auth-app';
import { Octokit } from '@octokit/core';
import type { AppContext } from '../../platform/context.js';
import type { GitConnectionRow } from '../../platform/db/tables.js';
import { guardedFetch } from '../../platform/net/guarded-fetch.js';
import { unseal } from '../../platform/sealed.js';

/** A token is fetched again this long before GitHub says it expires (they live an hour). */
export const REFRESH_MARGIN_MS = 5 * 60_000;
const TIMEOUT_MS = 10_000;

/** A host refusal or failure while authenticating; `transient` says whether trying later may help. */
export class AppAuthError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
  }
}

interface Cached {
  /** The connection's updated_at: new credentials make a new entry. */
  stamp: number;
  tokens: Map<string, { token: string; expiresAt: number }>;
  installations: Map<string, string>;
}
const cache = new Map<string, Cached>();

function cacheOf(c: GitConnectionRow): Cached {
  const stamp = c.updated_at.getTime();
  let entry = cache.get(c.id);
  if (!entry || entry.stamp !== stamp) {
    entry = { stamp, tokens: new Map(), installations: new Map() };
    cache.set(c.id, entry);
  }
  return entry;
}

/** Whether the connection authenticates as a GitHub App. */
export const usesGitHubApp = (c: Pick<GitConnectionRow, 'host' | 'app_id' | 'app_private_key'>) =>
  c.host === 'github' && c.app_id !== null && c.app_private_key !== null;

/** A private key GitHub would take: PEM, RSA. The message says what is wrong, never the key. */
export function privateKeyProblem(pem: string): string | null {
  try {
    const key = createPrivateKey({ key: pem, format: 'pem' });
    return key.asymmetricKeyType === 'rsa' ? null : 'must be an RSA private key';
  } catch {
    return 'must be a PEM private key (the .pem file GitHub gives)';
  }
}

function failure(err: unknown): AppAuthError {
  const status = (err as { status?: number }).status;
  const message = String((err as Error).message ?? err).slice(0, 300);
  const transient = status === undefined || status >= 500 || status === 429 || status === 408;
  return new AppAuthError(
    status ? `GitHub App: HTTP ${status}: ${message}` : `GitHub App: ${message}`,
    transient,
  );
}

/** An installation access token for `repo` (owner/name), from the cache while it has time left. */
export async function installationToken(
  ctx: AppContext,
  connection: GitConnectionRow,
  base: string,
  secretKey: Buffer,
  repo: string,
): Promise<string> {
  const privateKey = unseal(secretKey, connection.app_private_key ?? '');
  if (!connection.app_id || privateKey === null) {
    throw new AppAuthError("the GitHub App's private key cannot be unsealed; set it again", false);
  }
  const entry = cacheOf(connection);
  const octokit = new Octokit({
    baseUrl: base,
    userAgent: 'Trackway',
    request: { fetch: guardedFetch({ timeoutMs: TIMEOUT_MS, allowPrivate: ctx.config.webhookAllowPrivate }) },
  });
  const auth = createAppAuth({ appId: Number(connection.app_id), privateKey, request: octokit.request });
  try {
    let installationId = connection.app_installation_id ?? entry.installations.get(repo.toLowerCase());
    if (!installationId) {
      const [owner, name] = repo.split('/');
      const { token: jwt } = await auth({ type: 'app' });
      const found = await octokit.request('GET /repos/{owner}/{repo}/installation', {
        owner: owner!,
        repo: name!,
        headers: { authorization: `bearer ${jwt}` },
      });
      installationId = String(found.data.id);
      entry.installations.set(repo.toLowerCase(), installationId);
    }
    const held = entry.tokens.get(installationId);
    if (held && held.expiresAt - Date.now() > REFRESH_MARGIN_MS) return held.token;
    const got = await auth({ type: 'installation', installationId, refresh: true });
    entry.tokens.set(installationId, { token: got.token, expiresAt: Date.parse(got.expiresAt) });
    return got.token;
  } catch (err) {
    throw failure(err);
  }
}
