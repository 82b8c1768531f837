// How many change streams may be open at once, counted in this process
// (docs/live.md, "Limits"): each holds a socket, a place in every batch's
// grants and, while behind, a share of the catch-up. A person's tabs (login
// token or ticket) and their scripts (API keys) are counted apart, so a
// runaway script cannot take the slots of the person's own browser; a key has
// its own, smaller cap within its owner's, and the process a cap for everyone.
// A slot is taken before any work for the stream and freed when its response
// closes, however it ends.
import { rateLimited } from '../../platform/errors.js';
import type { StreamCredential } from './credential.js';

export interface StreamCapLimits {
  /** A user's streams opened by signing in, and, apart, those opened with any of their API keys. */
  perUser: number;
  perKey: number;
  /** Every stream of the process. */
  total: number;
}

/** What Retry-After says: a slot frees when a stream closes, which nothing announces. */
export const CAP_RETRY_AFTER_SECONDS = 10;

export class StreamCaps {
  #total = 0;
  readonly #open = new Map<string, number>();

  constructor(private readonly limits: StreamCapLimits) {}

  /** Takes a slot for the credential's stream, or throws 429; the function returned frees it (once). */
  admit(credential: StreamCredential): () => void {
    const user = credential.actor.id;
    const counted: [key: string, limit: number, what: string][] =
      credential.keyHash === null
        ? [[`signed-in:${user}`, this.limits.perUser, `${this.limits.perUser} per user`]]
        : [
            [`keys:${user}`, this.limits.perUser, `${this.limits.perUser} per user with API keys`],
            [`key:${credential.keyHash}`, this.limits.perKey, `${this.limits.perKey} per API key`],
          ];
    for (const [key, limit, what] of counted) {
      if ((this.#open.get(key) ?? 0) >= limit)
        throw rateLimited(
          `Too many open change streams: at most ${what}. Close one (another tab or script) first.`,
          CAP_RETRY_AFTER_SECONDS,
        );
    }
    if (this.#total >= this.limits.total)
      throw rateLimited(
        'This server has as many change streams open as it takes; try again later',
        CAP_RETRY_AFTER_SECONDS,
      );

    this.#total++;
    for (const [key] of counted) this.#open.set(key, (this.#open.get(key) ?? 0) + 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.#total--;
      for (const [key] of counted) {
        const left = this.#open.get(key)! - 1;
        if (left === 0) this.#open.delete(key);
        else this.#open.set(key, left);
      }
    };
  }
}
