// A window onto the events table, read by one cursor for many streams: the
// last RECENT_ROWS events it read, in id order, with no gap that is not a
// settled rollback (EventCursor's guarantee). The hub keeps two: the process's
// one tail of the table (hub.ts), which streams at the head take their events
// from, in memory; and the catch-up (catch-up.ts), which serves in the same way
// every stream whose position is older (resumed from an old Last-Event-ID, or
// fallen behind) until it gets to the tail. Streams only read from a window,
// at their own pace: none holds up another, or the reader.
import type { Db } from '../../platform/db/database.js';
import { EventCursor, PAGE_SIZE } from './cursor.js';
import type { StreamEventRow } from './queries.js';

/** Events kept: ten seconds at 100 changes a second, a few hundred KB. */
export const RECENT_ROWS = 1000;

export class SharedFeed {
  readonly cursor: EventCursor;
  #rows: StreamEventRow[] = [];
  /** Every event after this id, up to the cursor's position, is in #rows. */
  #low: number;

  constructor(
    db: Db,
    start: number,
    /** How many of the newest events it holds. */
    private readonly keep: number = RECENT_ROWS,
  ) {
    this.cursor = new EventCursor(db, start, PAGE_SIZE);
    this.#low = start;
  }

  /** Every event after this id is held (or not read yet); older ones are not. */
  get low(): number {
    return this.#low;
  }

  /** Adds what the cursor just read (in order, right after what is held) and drops the oldest beyond the bound. */
  append(rows: StreamEventRow[]): void {
    this.#rows.push(...rows);
    const excess = this.#rows.length - this.keep;
    if (excess > 0) this.#low = this.#rows.splice(0, excess).at(-1)!.id;
  }

  /** Up to `limit` events after `position`; null when the feed no longer (or not yet) holds that position. */
  after(position: number, limit: number): StreamEventRow[] | null {
    if (position < this.#low) return null;
    // The first row after `position`: rows are in id order.
    let lo = 0;
    let hi = this.#rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#rows[mid]!.id <= position) lo = mid + 1;
      else hi = mid;
    }
    return this.#rows.slice(lo, lo + limit);
  }
}
