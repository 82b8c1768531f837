// Personal API keys: "tw_" + 43 base64url characters (256 random bits).
// Only the SHA-256 of a key is stored; with that much entropy a slow hash
// adds nothing, and lookups stay a single indexed equality.
import { createHash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'tw_';

export function generateApiKey(): { key: string; hash: string; hint: string } {
  const key = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, hash: hashApiKey(key), hint: `${key.slice(0, 7)}…${key.slice(-4)}` };
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export const looksLikeApiKey = (credential: string) => /^tw_[A-Za-z0-9_-]{43}$/.test(credential);
