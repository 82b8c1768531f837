// Each host's proof that a delivery is its own, checked in constant time
// against a connection's webhook secret: GitHub's X-Hub-Signature-256
// ("sha256=" + hex HMAC-SHA256 of the body, through @octokit/webhooks-methods),
// GitLab's X-Gitlab-Token (the secret itself), Gitea's and Forgejo's
// X-Gitea-Signature (hex HMAC-SHA256 of the body, no prefix).
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { verify as verifyGitHub } from '@octokit/webhooks-methods';
import type { GitHost } from '../../platform/db/tables.js';

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

const sha256 = (text: string) => createHash('sha256').update(text).digest();

export async function verifyDelivery(
  host: GitHost,
  secret: string,
  body: string,
  proof: string,
): Promise<boolean> {
  switch (host) {
    case 'github':
      if (!/^sha256=[0-9a-f]{64}$/i.test(proof)) return false;
      return verifyGitHub(secret, body, proof);
    case 'gitlab':
      // Digests have one length, so comparing them leaks neither the secret's length nor content.
      return timingSafeEqual(sha256(proof), sha256(secret));
    case 'gitea': {
      if (!HEX_SHA256.test(proof)) return false;
      const expected = createHmac('sha256', secret).update(body).digest();
      return timingSafeEqual(Buffer.from(proof, 'hex'), expected);
    }
  }
}

/** The header carrying each host's proof. */
export const PROOF_HEADER: Record<GitHost, string> = {
  github: 'x-hub-signature-256',
  gitlab: 'x-gitlab-token',
  gitea: 'x-gitea-signature',
};

/** Each host's delivery id headers, first present wins (GitLab keeps Idempotency-Key across its retries). */
export const DELIVERY_HEADERS: Record<GitHost, readonly string[]> = {
  github: ['x-github-delivery'],
  gitlab: ['idempotency-key', 'x-gitlab-event-uuid'],
  gitea: ['x-gitea-delivery', 'x-forgejo-delivery'],
};

export const EVENT_HEADERS: Record<GitHost, readonly string[]> = {
  github: ['x-github-event'],
  gitlab: ['x-gitlab-event'],
  gitea: ['x-gitea-event', 'x-forgejo-event'],
};
