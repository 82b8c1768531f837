// The one reader of old events for every stream of the process that is behind
// the shared tail (hub.ts): resumed from an old Last-Event-ID, or fallen more
// than the tail holds behind. Instead of a cursor per stream (N streams at
// ?after=1 reading the table N times, with a credential and team check per
// stream and page), the catch-up runs one sweep at a time: a window
// (feed.ts) that starts at the oldest position of the streams behind and
// reads forward, page by page, until it reaches the tail. Every stream whose
// position the window holds takes its events from it, in memory, filtered with
// the grants loaded once after each page (grants.ts), as the tail's are. A
// stream older than the window waits for the sweep to reach the tail (its
// requests drive it there), then the next sweep starts low enough for it.
//
// Bounded: one sweep at a time per process, at most one page per
// CATCH_UP_PAGE_INTERVAL_MS, and no stream starts further back than
// STREAM_CATCH_UP_LIMIT (rest.ts). So however many streams are behind, and
// however they come and go, old events cost at most one paced reader's work.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../../platform/db/database.js';
import { PAGE_SIZE } from './cursor.js';
import { SharedFeed } from './feed.js';
import type { Grants } from './grants.js';
import type { StreamEventRow } from './queries.js';

/**
 * Events a sweep holds: streams that open while it runs join it as long as it
 * still holds their position, so one sweep serves a crowd that arrives over
 * seconds (a few MB at most, and only while someone is behind).
 */
export const CATCH_UP_ROWS = 5000;

/** The least time between two catch-up pages: at most 8,000 old events a second, for all streams together. */
export const CATCH_UP_PAGE_INTERVAL_MS = 25;

export interface CatchUpBatch {
  rows: StreamEventRow[];
  /** Loaded after every row here was read. */
  grants: Grants;
  /** True when there is more to take soon; false at the head (wait to be woken). */
  more: boolean;
}

export interface CatchUpSource {
  db(): Db;
  /** The oldest position of the streams behind `below` (the tail's start). */
  oldestBehind(below: number): number | undefined;
  /** Every connected user's standing, loaded now. */
  loadGrants(): Promise<Grants>;
  /** Tells the streams behind the tail that the catch-up moved. */
  wakeBehind(): void;
}

class Sweep {
  readonly window: SharedFeed;
  grants: Grants = new Map();
  reading: Promise<boolean> | null = null;

  constructor(db: Db, start: number) {
    this.window = new SharedFeed(db, start, CATCH_UP_ROWS);
  }

  /** The last id read: every event up to here, from the start on, has been in the window. */
  get front(): number {
    return this.window.cursor.position;
  }
}

export class CatchUp {
  #sweep: Sweep | null = null;
  /** When the last page was read, by any sweep: the pace holds across sweeps. */
  #lastRead = 0;

  constructor(private readonly source: CatchUpSource) {}

  /** Lets go of the sweep's rows once no stream is behind the tail (the next one starts afresh). */
  idle(): void {
    if (!this.#sweep?.reading) this.#sweep = null;
  }

  /**
   * The next events after `position` for a stream behind the tail (which
   * starts after `tailLow`): up to a page, or none yet (look again when woken).
   */
  async next(position: number, tailLow: number): Promise<CatchUpBatch> {
    let sweep = this.#sweep;
    if (sweep && sweep.window.after(position, 0) === null) {
      // Older than this sweep holds. Until it reaches the tail its streams need
      // it: this stream drives it there, then the next one starts low enough.
      if (sweep.front < tailLow) {
        await this.#advance(sweep);
        return { rows: [], grants: sweep.grants, more: true };
      }
      sweep = null;
    }
    if (!sweep) {
      const start = Math.min(position, this.source.oldestBehind(tailLow) ?? position);
      sweep = this.#sweep = new Sweep(this.source.db(), start);
    }
    const held = sweep.window.after(position, PAGE_SIZE)!;
    if (held.length > 0) return { rows: held, grants: sweep.grants, more: true };
    // At the sweep's front: one read of the next page, shared by every stream here.
    const more = await this.#advance(sweep);
    return { rows: sweep.window.after(position, PAGE_SIZE) ?? [], grants: sweep.grants, more };
  }

  /**
   * Reads the sweep's next page (one read at a time, however many streams
   * ask), paced; true unless it found nothing new and no hole to wait for.
   */
  #advance(sweep: Sweep): Promise<boolean> {
    sweep.reading ??= this.#read(sweep).finally(() => {
      sweep.reading = null;
    });
    return sweep.reading;
  }

  async #read(sweep: Sweep): Promise<boolean> {
    const early = this.#lastRead + CATCH_UP_PAGE_INTERVAL_MS - Date.now();
    if (early > 0) await sleep(early);
    let rows: StreamEventRow[];
    try {
      rows = await sweep.window.cursor.next();
      if (rows.length > 0) {
        // After the read, so the grants are at least as new as every row; set
        // with the rows, so no stream takes a row without them.
        sweep.grants = await this.source.loadGrants();
        sweep.window.append(rows);
      }
    } catch (err) {
      // The cursor may have moved past rows the window did not take: the next sweep starts over.
      if (this.#sweep === sweep) this.#sweep = null;
      throw err;
    } finally {
      this.#lastRead = Date.now();
    }
    if (rows.length > 0) this.source.wakeBehind();
    return rows.length > 0 || sweep.window.cursor.waiting;
  }
}
