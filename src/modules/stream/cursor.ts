// Reads the events table in id order without skipping an event whose
// transaction commits late. Ids come from a sequence, taken before commit: a
// transaction may hold id 10 while id 11 is already committed and read, and a
// plain `id > cursor` would pass 10 for ever. So the cursor stops at the
// first hole and notes which transactions are writing events at that moment
// (queries.eventWriters); once none of them is left, a missing id can only be
// a rollback and is skipped. Nothing newer can fill it: a hole's holder took
// its id before the later, committed row did, so it was writing (or done)
// when we looked. A long transaction that writes no event holds nothing up.
import type { Db } from '../../platform/db/database.js';
import { eventsAfter, eventWriters, headId, type StreamEventRow } from './queries.js';

/** Events read per query: bounds the memory of a stream and the size of a write. */
export const PAGE_SIZE = 200;
/** Rounds of read-and-settle one call may take. */
const MAX_ROUNDS = 10;

const overlaps = (a: Set<string>, b: Set<string>) => [...a].some((x) => b.has(x));

export class EventCursor {
  /** Holes at or below `below` are settled once none of `writers` is still writing. */
  #hold: { below: number; writers: Set<string> } | null = null;
  /** Every hole at or below this id is known to be a rollback. */
  #settledBelow = 0;

  constructor(
    private readonly db: Db,
    /** The last id handed out (or the start): the resume point. */
    public position: number,
    private readonly pageSize: number,
  ) {}

  /** True while a hole waits for a transaction: poll again soon, nothing will notify a rollback. */
  get waiting(): boolean {
    return this.#hold !== null;
  }

  /** The next events after `position`, in order, up to the first hole that may still fill. */
  async next(): Promise<StreamEventRow[]> {
    // Bounded, so one call never runs long: each round settles at least one page's holes.
    for (let round = 0; round < MAX_ROUNDS; round++) {
      if (this.#hold) {
        // Looked at before reading: a writer that ended before this read has its row in it.
        if (!overlaps(this.#hold.writers, await eventWriters(this.db))) {
          this.#settledBelow = Math.max(this.#settledBelow, this.#hold.below);
          this.#hold = null;
        }
      }
      const rows = await eventsAfter(this.db, this.position, this.pageSize);
      const out: StreamEventRow[] = [];
      let expected = this.position + 1;
      for (const row of rows) {
        if (row.id !== expected && row.id - 1 > this.#settledBelow) {
          // Looked at after reading, so it covers every writer open during the read.
          if (!this.#hold || this.#hold.below < row.id) {
            this.#hold = { below: rows[rows.length - 1]!.id, writers: await eventWriters(this.db) };
          }
          break;
        }
        out.push(row);
        expected = row.id + 1;
      }
      if (out.length > 0) this.position = out[out.length - 1]!.id;
      // Nobody was writing: the hole is a rollback, settled at the next look, so
      // read again now rather than after a poll (old holes pass at read speed).
      if (out.length > 0 || !this.#hold || this.#hold.writers.size > 0) return out;
    }
    return [];
  }
}

/**
 * The head to start a stream at when the client names none: the newest id,
 * once every transaction writing events at that moment has ended (they may
 * hold older ids; ended, their rows are in whatever the client loads after
 * the `ready` event). Waits at most `maxWaitMs` for a writer that stays open.
 */
export async function settledHead(db: Db, maxWaitMs: number, pollMs: number): Promise<number> {
  const head = await headId(db);
  const writers = await eventWriters(db);
  const deadline = Date.now() + maxWaitMs;
  while (writers.size > 0 && overlaps(writers, await eventWriters(db)) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, pollMs));
  }
  return head;
}
