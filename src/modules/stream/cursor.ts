// Reads the events table in id order without skipping an event whose
// transaction commits late. Ids come from a sequence, taken before commit: a
// transaction may hold id 10 while id 11 is already committed and read. A
// plain `id > cursor` would then pass 10 for ever. So the cursor stops at the
// first hole and waits until every transaction that was open when the hole
// was seen has ended (the snapshot's xmin passes the xmax observed then):
// after that a missing id can only be a rollback and is skipped. Any holder of
// a hole below an id we have read took its id before that row committed, so
// it was open (or done) when we looked; nothing later can fill the hole.
import type { Db } from '../../platform/db/database.js';
import { eventsAfter, type Horizon, head, horizon, type StreamEventRow } from './queries.js';

export class EventCursor {
  /** Holes at or below `below` are settled once the horizon's xmin reaches `xmax`. */
  #hold: { below: number; xmax: bigint } | null = null;
  /** Every hole at or below this id is known to be a rollback. */
  #settledBelow = 0;

  constructor(
    private readonly db: Db,
    /** The last id handed out (or the start): the resume point. */
    public position: number,
    private readonly pageSize: number,
    private readonly look: (db: Db) => Promise<Horizon> = horizon,
  ) {}

  /** True while a hole is waiting for open transactions: poll again soon, nothing will notify. */
  get waiting(): boolean {
    return this.#hold !== null;
  }

  /** The next events after `position`, in order, up to the first hole that may still fill. */
  async next(): Promise<StreamEventRow[]> {
    if (this.#hold) {
      // Looked at before reading: a transaction that ended before this read has its row in it.
      const { xmin } = await this.look(this.db);
      if (xmin >= this.#hold.xmax) {
        this.#settledBelow = Math.max(this.#settledBelow, this.#hold.below);
        this.#hold = null;
      }
    }
    const rows = await eventsAfter(this.db, this.position, this.pageSize);
    const out: StreamEventRow[] = [];
    let expected = this.position + 1;
    for (const row of rows) {
      if (row.id !== expected && row.id - 1 > this.#settledBelow) {
        const last = rows[rows.length - 1]!.id;
        // Looked at after reading, so it covers every transaction open during the read.
        if (!this.#hold || this.#hold.below < row.id) {
          this.#hold = { below: last, xmax: (await this.look(this.db)).xmax };
        }
        break;
      }
      out.push(row);
      expected = row.id + 1;
    }
    if (out.length > 0) this.position = out[out.length - 1]!.id;
    return out;
  }
}

/**
 * The head to start a stream at when the client names none: the newest id,
 * once every transaction open at that moment has ended (they may hold older
 * ids; ended, their rows are in whatever the client loads next). Waits at
 * most `maxWaitMs` for a transaction that stays open.
 */
export async function settledHead(db: Db, maxWaitMs: number, pollMs: number): Promise<number> {
  const h = await head(db);
  const deadline = Date.now() + maxWaitMs;
  while ((await horizon(db)).xmin < h.xmax && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, pollMs));
  }
  return h.id;
}
