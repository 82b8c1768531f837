// One per app: a single LISTEN on the change channel (platform/db/notifications.ts)
// and one reader of the events table for every open stream of this process.
// A notification (or the safety poll) makes the hub read the next page once
// (SharedFeed), load the standing of every connected user once (grants.ts),
// and wake the streams, which take their events from memory. Streams behind
// the feed read the table themselves until they reach it (session.ts).
import type { AppContext } from '../../platform/context.js';
import type { Database } from '../../platform/db/database.js';
import { listenForNotifications } from '../../platform/db/notifications.js';
import { CHANGE_NOTIFY_CHANNEL } from '../../platform/outbox.js';
import { PAGE_SIZE } from './cursor.js';
import { SharedFeed } from './feed.js';
import { type Grants, loadGrants } from './grants.js';
import { headId, type StreamEventRow } from './queries.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's change streams (their count, for operations and tests). */
    changeStreams: StreamHub;
  }
}

/** How soon to look again while a hole waits for an open transaction (nothing notifies a rollback). */
export const GAP_POLL_MS = 50;

export interface StreamHandle {
  /** Whose stream it is: the hub loads each connected user's grants once per batch. */
  readonly userId: string;
  wake(): void;
  /** Ends the stream, telling the client to resume elsewhere; resolves when it is closed. */
  shutdown(): Promise<void>;
}

export interface SharedBatch {
  rows: StreamEventRow[];
  /** Loaded after every row here was read: what the streams filter them with. */
  grants: Grants;
}

export class StreamHub {
  readonly #streams = new Set<StreamHandle>();
  readonly #unlisten: () => Promise<void>;
  #closing = false;
  #feed: SharedFeed | null = null;
  #grants: Grants = new Map();
  #reading = false;
  #again = false;
  #poll: NodeJS.Timeout | null = null;

  constructor(
    private readonly ctx: AppContext,
    database: Pick<Database, 'kind' | 'pglite'> & { url?: string | undefined },
  ) {
    this.#unlisten = listenForNotifications(
      ctx.db,
      {
        kind: database.kind,
        pglite: database.pglite,
        url: database.kind === 'postgres' ? (database.url ?? ctx.config.databaseUrl) : undefined,
      },
      CHANGE_NOTIFY_CHANNEL,
      () => this.poke(),
      () => this.#closing,
    );
  }

  get size(): number {
    return this.#streams.size;
  }

  add(stream: StreamHandle): () => void {
    // Opened while the app closes: ended at once, told to resume elsewhere.
    if (this.#closing) void stream.shutdown();
    this.#streams.add(stream);
    // The safety net for a lost notification: the feed reads at every heartbeat.
    this.#poll ??= setInterval(() => this.poke(), this.ctx.config.streamHeartbeatMs).unref();
    this.poke();
    return () => {
      this.#streams.delete(stream);
      if (this.#streams.size === 0 && this.#poll) {
        clearInterval(this.#poll);
        this.#poll = null;
      }
    };
  }

  /** The events after `position` from the shared feed; null when the stream must read the table itself. */
  take(position: number): SharedBatch | null {
    const rows = this.#feed?.after(position, PAGE_SIZE);
    return rows ? { rows, grants: this.#grants } : null;
  }

  /** Reads the table now (at most one read at a time; a poke during one reads again after it). */
  poke(): void {
    if (this.#reading) {
      this.#again = true;
      return;
    }
    this.#reading = true;
    void this.#read().finally(() => {
      this.#reading = false;
    });
  }

  async #read(): Promise<void> {
    try {
      do {
        this.#again = false;
        if (this.#streams.size === 0 || this.#closing) {
          this.#feed = null; // idle: start again at the head when a stream opens
          return;
        }
        // Starts at the head: streams behind it read up to it themselves.
        this.#feed ??= new SharedFeed(this.ctx.db, await headId(this.ctx.db));
        const feed = this.#feed;
        const rows = await feed.cursor.next();
        if (rows.length > 0) {
          // After the read, so the grants are at least as new as every row.
          const grants = await loadGrants(this.ctx.db, [...new Set([...this.#streams].map((s) => s.userId))]);
          feed.append(rows);
          this.#grants = grants;
          for (const s of this.#streams) s.wake();
        }
        if (rows.length === PAGE_SIZE) this.#again = true;
        else if (feed.cursor.waiting) setTimeout(() => this.poke(), GAP_POLL_MS).unref();
      } while (this.#again);
    } catch (err) {
      // The cursor may have moved past rows the feed did not take: start over,
      // and let every stream read the table until the new feed reaches it.
      this.#feed = null;
      if (!this.#closing) this.ctx.log.error({ err }, 'change stream feed failed');
      for (const s of this.#streams) s.wake();
    }
  }

  /** On app close: ends every stream (so Fastify's close does not wait on them) and stops listening. */
  async close(): Promise<void> {
    this.#closing = true;
    if (this.#poll) clearInterval(this.#poll);
    await Promise.allSettled([...this.#streams].map((s) => s.shutdown()));
    await this.#unlisten();
  }
}
