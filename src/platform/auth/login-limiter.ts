// Sliding-window limits on login attempts, per account and per client address.
// Kept in process memory: a restart forgives, and with several instances each
// keeps its own count (documented in docs/ARCHITECTURE.md).
export interface LimiterOptions {
  /** Failed attempts allowed per account within the window. */
  perAccount: number;
  /** Attempts (failed or not) allowed per client address within the window. */
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_LIMITS: LimiterOptions = {
  perAccount: 10,
  perAddress: 100,
  windowMs: 15 * 60_000,
};

class Window {
  readonly #hits = new Map<string, number[]>();
  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  #recent(key: string, now: number): number[] {
    const cutoff = now - this.windowMs;
    const hits = (this.#hits.get(key) ?? []).filter((t) => t > cutoff);
    if (hits.length) this.#hits.set(key, hits);
    else this.#hits.delete(key);
    return hits;
  }

  /** Seconds until the next attempt is allowed, or 0 when one is allowed now. */
  wait(key: string, now: number): number {
    const hits = this.#recent(key, now);
    if (hits.length < this.limit) return 0;
    const oldest = hits[hits.length - this.limit]!;
    return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
  }

  hit(key: string, now: number): void {
    this.#hits.set(key, [...this.#recent(key, now), now]);
  }

  clear(key: string): void {
    this.#hits.delete(key);
  }

  prune(now: number): void {
    for (const key of [...this.#hits.keys()]) this.#recent(key, now);
  }
}

export class LoginLimiter {
  readonly #accounts: Window;
  readonly #addresses: Window;
  #checks = 0;

  constructor(
    options: LimiterOptions = DEFAULT_LOGIN_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    this.#accounts = new Window(options.perAccount, options.windowMs);
    this.#addresses = new Window(options.perAddress, options.windowMs);
  }

  /** Counts an attempt; returns seconds to wait when it is over a limit, else 0. */
  attempt(email: string, address: string): number {
    const now = this.now();
    if (++this.#checks % 1000 === 0) {
      this.#accounts.prune(now);
      this.#addresses.prune(now);
    }
    const wait = Math.max(this.#accounts.wait(email, now), this.#addresses.wait(address, now));
    if (wait === 0) this.#addresses.hit(address, now);
    return wait;
  }

  failed(email: string): void {
    this.#accounts.hit(email, this.now());
  }

  succeeded(email: string): void {
    this.#accounts.clear(email);
  }
}
