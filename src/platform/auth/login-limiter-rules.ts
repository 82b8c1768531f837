// The arithmetic of the sign-in and registration limits, free of storage and
// of the clock (callers pass `now`), so it is unit-tested directly. Two kinds:
//
// - Bucket: a leaky bucket of `capacity` attempts that drains at
//   capacity/windowMs. A burst of `capacity` passes, then one attempt per
//   windowMs/capacity. It never locks anything for longer than one drain step.
// - Backoff: the first `free` failures pass; each one after that must wait
//   twice as long after the previous attempt as the one before (first
//   `firstDelayMs`, at most `maxDelayMs`). The count is forgotten after
//   `forgetAfterMs` without an attempt.
//
// State is `{ count, lastAt }` (ms since the epoch). `wait` says how long an
// attempt has to wait (0: allowed now); `take` is the state after an allowed one.

export interface ThrottleState {
  count: number;
  lastAt: number;
}

export interface Rule {
  /** Milliseconds until an attempt is allowed; 0 when it is allowed now. */
  wait(state: ThrottleState, now: number): number;
  /** The state once an allowed attempt is counted. */
  take(state: ThrottleState, now: number): ThrottleState;
  /** When a state has no effect left, so that its row can be deleted. */
  expiresAt(state: ThrottleState): number;
}

export const EMPTY: ThrottleState = { count: 0, lastAt: 0 };

export class Bucket implements Rule {
  readonly #msPerAttempt: number;
  constructor(
    readonly capacity: number,
    readonly windowMs: number,
  ) {
    this.#msPerAttempt = windowMs / capacity;
  }

  /** The level once drained up to `now`. */
  level(state: ThrottleState, now: number): number {
    return Math.max(0, state.count - Math.max(0, now - state.lastAt) / this.#msPerAttempt);
  }

  wait(state: ThrottleState, now: number): number {
    const over = this.level(state, now) + 1 - this.capacity;
    return over > 1e-9 ? Math.ceil(over * this.#msPerAttempt) : 0;
  }

  take(state: ThrottleState, now: number): ThrottleState {
    return { count: this.level(state, now) + 1, lastAt: now };
  }

  /** Gives back one attempt (a sign-in that turned out to be the owner's). */
  refund(state: ThrottleState, now: number): ThrottleState {
    return { count: Math.max(0, this.level(state, now) - 1), lastAt: now };
  }

  expiresAt(state: ThrottleState): number {
    return state.lastAt + Math.ceil(state.count * this.#msPerAttempt);
  }
}

export class Backoff implements Rule {
  constructor(
    readonly free: number,
    readonly firstDelayMs: number,
    readonly maxDelayMs: number,
    readonly forgetAfterMs: number,
  ) {}

  #count(state: ThrottleState, now: number): number {
    return now - state.lastAt >= this.forgetAfterMs ? 0 : state.count;
  }

  /** The pause required after the `count`-th failure before the next attempt. */
  delayAfter(count: number): number {
    if (count < this.free) return 0;
    return Math.min(this.maxDelayMs, this.firstDelayMs * 2 ** Math.min(count - this.free, 40));
  }

  wait(state: ThrottleState, now: number): number {
    return Math.max(0, state.lastAt + this.delayAfter(this.#count(state, now)) - now);
  }

  take(state: ThrottleState, now: number): ThrottleState {
    return { count: this.#count(state, now) + 1, lastAt: now };
  }

  expiresAt(state: ThrottleState): number {
    return state.lastAt + this.forgetAfterMs;
  }
}

/** Seconds for Retry-After: whole, and at least 1. */
export const retryAfterSeconds = (waitMs: number) => Math.max(1, Math.ceil(waitMs / 1000));
