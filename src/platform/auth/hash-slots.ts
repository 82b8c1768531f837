// At most HASH_CONCURRENCY argon2 computations run at once in this process.
// Each one holds a libuv thread-pool thread (4 by default, shared with file,
// DNS and compression work) and ~19 MiB for ~50 ms: without a bound, a burst
// of expensive password requests fills the pool and stalls everything else.
// Waiting costs nothing but a closure (no database connection is held while
// waiting: callers hash outside transactions). Checking a password (sign-in)
// goes before hashing a new one, so a burst of registrations, resets or
// password changes cannot starve people signing in.

export const HASH_CONCURRENCY = 2;

export type HashPriority = 'check' | 'new';

export class HashSlots {
  #running = 0;
  /** How many computations each priority has started (tests read it: a refused request hashes nothing). */
  readonly started: Record<HashPriority, number> = { check: 0, new: 0 };
  readonly #waiting: Record<HashPriority, (() => void)[]> = { check: [], new: [] };

  constructor(readonly size: number = HASH_CONCURRENCY) {}

  /** Runs `work` once a slot is free; checks are served before new hashes. */
  async run<T>(priority: HashPriority, work: () => Promise<T>): Promise<T> {
    if (this.#running >= this.size) {
      // The slot is handed over by the finishing holder (#release), so #running stays counted.
      await new Promise<void>((resolve) => this.#waiting[priority].push(resolve));
    } else {
      this.#running++;
    }
    this.started[priority]++;
    try {
      return await work();
    } finally {
      this.#release();
    }
  }

  #release(): void {
    const next = this.#waiting.check.shift() ?? this.#waiting.new.shift();
    if (next) next();
    else this.#running--;
  }

  /** For tests: how many run and wait. */
  get load() {
    return { running: this.#running, waiting: this.#waiting.check.length + this.#waiting.new.length };
  }
}

/** The process's one set of slots. */
export const hashSlots = new HashSlots();
