// The process's one tail of the events table (hub.ts reads it): the last
// RECENT_ROWS events, in id order, with no gap that is not a settled rollback
// (EventCursor's guarantee). A stream whose position lies within it takes its
// next events from here, in memory; one whose position is older (resumed from
// an old Last-Event-ID, or fallen behind) reads the table itself until it
// gets here. Streams only read from it, at their own pace: none holds up
// another, or the tail.
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

  constructor(db: Db, start: number) {
    this.cursor = new EventCursor(db, start, PAGE_SIZE);
    this.#low = start;
  }

  /** Adds what the cursor just read (in order, right after what is held) and drops the oldest beyond the bound. */
  append(rows: StreamEventRow[]): void {
    this.#rows.push(...rows);
    const excess = this.#rows.length - RECENT_ROWS;
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
