// Who a credential belongs to, remembered between requests. Without it every
// request reads its user row (and an API key's row) before any work, one
// database round trip of the two or three a read costs.
//
// Correctness rests on invalidation, not on a short lifetime:
// - every instance LISTENs on CREDENTIALS_CHANNEL, which a trigger on `users`
//   and `api_keys` notifies at commit when a row that decides access changes
//   (migration 0040): a suspension, role change, password change, deletion or
//   key revocation by any instance, or by hand in SQL, reaches every cache
//   when it commits;
// - the instance that made the change also forgets the user itself right
//   after its commit (`forget`), before it answers, so its own next request
//   never races the notification;
// - while the listener is not connected, nothing is remembered or answered
//   from memory (what was notified meanwhile is lost), and everything is
//   forgotten when it reconnects.
// Entries also expire after MAX_AGE_MS and the cache holds at most MAX_ENTRIES.

export const CREDENTIALS_CHANNEL = 'trackway_credentials';
const MAX_AGE_MS = 5 * 60_000;
const MAX_ENTRIES = 10_000;

interface Entry<T> {
  value: T;
  userId: string;
  expiresAt: number;
}

export class CredentialCache<T> {
  readonly #entries = new Map<string, Entry<T>>();
  #listening = false;
  /** Counts forgets; a read remembers only if no forget of its user came after it began. */
  #generation = 0;
  #allForgotAt = 0;
  readonly #userForgotAt = new Map<string, number>();
  readonly #forgetListeners = new Set<(userId: string) => void>();

  constructor(private readonly clock: () => number = Date.now) {}

  /** The remembered value for `key`, if the listener is connected and it has not expired. */
  get(key: string): T | undefined {
    if (!this.#listening) return undefined;
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /**
   * Remembers `value` (read from the database) under `key` for `userId`,
   * unless `readAt` (this process's generation when the read began) is older
   * than a forget of that user or of everything: a read that started before a
   * change committed may hold the old row.
   */
  set(key: string, userId: string, value: T, readAt: number): void {
    if (!this.#listening || readAt < this.#forgotAt(userId)) return;
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(key, { value, userId, expiresAt: this.clock() + MAX_AGE_MS });
  }

  /** Pass to set(): the generation a read begins in. */
  generation(): number {
    return this.#generation;
  }

  /** Forgets every credential of `userId` (after a change to them has committed). */
  forget(userId: string): void {
    this.#generation++;
    if (this.#userForgotAt.size >= MAX_ENTRIES) {
      // Bounded: a forget of everyone is as safe as each one's.
      this.#userForgotAt.clear();
      this.#allForgotAt = this.#generation;
    }
    this.#userForgotAt.set(userId, this.#generation);
    for (const [key, entry] of this.#entries) if (entry.userId === userId) this.#entries.delete(key);
    for (const listener of this.#forgetListeners) listener(userId);
  }

  /**
   * Calls `listener` with the user's id whenever their credentials change (here
   * or, through the notification, on any instance): an open change stream
   * re-checks its caller at once instead of at its next event. Returns the
   * unsubscribe.
   */
  onForget(listener: (userId: string) => void): () => void {
    this.#forgetListeners.add(listener);
    return () => this.#forgetListeners.delete(listener);
  }

  /** Forgets everything. */
  clear(): void {
    this.#generation++;
    this.#allForgotAt = this.#generation;
    this.#userForgotAt.clear();
    this.#entries.clear();
  }

  /** The listener is connected (again): start remembering, from nothing. */
  connected(): void {
    this.clear();
    this.#listening = true;
  }

  /** The listener is lost: notifications may be missed, so remember nothing until it is back. */
  disconnected(): void {
    this.#listening = false;
    this.clear();
  }

  /** A notification: its payload is the id of the user whose credentials changed; none means all. */
  notified(payload?: string): void {
    if (payload) this.forget(payload);
    else this.connected();
  }

  get size(): number {
    return this.#entries.size;
  }

  #forgotAt(userId: string): number {
    return Math.max(this.#allForgotAt, this.#userForgotAt.get(userId) ?? 0);
  }
}

/**
 * Runs `change`, which commits a change to `userId`'s credentials, then
 * forgets them in this process before the caller answers (other instances
 * learn it from the trigger's notification).
 */
export async function changingCredentials<R>(
  cache: CredentialCache<unknown>,
  userId: string,
  change: () => Promise<R>,
): Promise<R> {
  try {
    return await change();
  } finally {
    cache.forget(userId);
  }
}
