// How many pooled connections one caller may hold at once (issue 24). The
// pool is shared by everyone: a guest running ten slow searches at once used
// to hold all ten connections, and a member's one-row read waited behind
// them. A caller's statements beyond its share wait here, in memory and in
// order, not for a connection, so the rest of the pool stays free for others.

interface Slots {
  held: number;
  waiting: (() => void)[];
}

export class CallerSlots {
  readonly #byCaller = new Map<string, Slots>();

  constructor(readonly perCaller: number) {}

  /** Resolves once `caller` holds one more connection slot; the returned function gives it back once. */
  async acquire(caller: string): Promise<() => void> {
    let slots = this.#byCaller.get(caller);
    if (!slots) {
      slots = { held: 0, waiting: [] };
      this.#byCaller.set(caller, slots);
    }
    if (slots.held >= this.perCaller) {
      const mine = slots;
      await new Promise<void>((resolve) => mine.waiting.push(resolve));
    } else {
      slots.held++;
    }
    let released = false;
    const owned = slots;
    return () => {
      if (released) return;
      released = true;
      // Hand the slot straight to the next waiter, or give it back.
      const next = owned.waiting.shift();
      if (next) next();
      else if (--owned.held === 0) this.#byCaller.delete(caller);
    };
  }
}

/** A quarter of the pool per caller, at least one: two of PostgreSQL's ten, PGlite's one. */
export const slotsPerCaller = (poolSize: number) => Math.max(1, Math.floor(poolSize / 4));
