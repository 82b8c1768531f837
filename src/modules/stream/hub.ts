// One per app: a single LISTEN on the change channel (platform/db/notifications.ts)
// and the readers of the events table for every open stream of this process.
// A notification (or the safety poll) makes the hub read the next page once
// (SharedFeed, the tail), load the standing of every connected user once
// (grants.ts), and wake the streams, which take their events from memory.
// Streams behind the tail share one catch-up reader (catch-up.ts) until they
// reach it. The hub also holds the caps on open streams (caps.ts).
import type { AppContext } from '../../platform/context.js';
import type { Database } from '../../platform/db/database.js';
import { listenForNotifications } from '../../platform/db/notifications.js';
import { CHANGE_NOTIFY_CHANNEL } from '../../platform/outbox.js';
import { StreamCaps } from './caps.js';
import { CatchUp } from './catch-up.js';
import type { StreamCredential } from './credential.js';
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
  /** The last id handed out: where a catch-up for this stream must start. */
  readonly position: number;
  wake(): void;
  /** Its caller's credentials changed: check them again before anything else is sent. */
  recheck(): void;
  /** Ends the stream, telling the client to resume elsewhere; resolves when it is closed. */
  shutdown(): Promise<void>;
}

export interface SharedBatch {
  rows: StreamEventRow[];
  /** Loaded after every row here was read: what the streams filter them with. */
  grants: Grants;
  /** True when more can be taken soon (catching up, or a hole that may settle): look again without waiting to be woken. */
  more: boolean;
}

const NOTHING_YET: SharedBatch = { rows: [], grants: new Map(), more: false };

export class StreamHub {
  readonly #streams = new Set<StreamHandle>();
  readonly #unlisten: () => Promise<void>;
  readonly #unwatchCredentials: () => void;
  #closing = false;
  #feed: SharedFeed | null = null;
  #grants: Grants = new Map();
  #reading = false;
  #again = false;
  #poll: NodeJS.Timeout | null = null;
  readonly #caps: StreamCaps;
  readonly #catchUp: CatchUp;

  constructor(
    private readonly ctx: AppContext,
    database: Pick<Database, 'kind' | 'pglite'> & { url?: string | undefined },
  ) {
    const { streamMaxPerUser, streamMaxPerKey, streamMaxOpen } = ctx.config;
    this.#caps = new StreamCaps({ perUser: streamMaxPerUser, perKey: streamMaxPerKey, total: streamMaxOpen });
    this.#catchUp = new CatchUp({
      db: () => this.ctx.db,
      oldestBehind: (below) => this.#oldestBehind(below),
      loadGrants: () => this.#loadGrants(),
      wakeBehind: () => {
        const low = this.#feed?.low;
        for (const s of this.#streams) if (low === undefined || s.position < low) s.wake();
      },
    });
    this.#unlisten = listenForNotifications(
      ctx.db,
      {
        kind: database.kind,
        pglite: database.pglite,
        url: database.url,
      },
      CHANGE_NOTIFY_CHANNEL,
      () => this.poke(),
      () => this.#closing,
    );
    // A suspension, an ended session, a revoked key: the user's streams check at once.
    this.#unwatchCredentials = ctx.credentials.onForget((userId) => {
      for (const s of this.#streams) if (s.userId === userId) s.recheck();
    });
  }

  get size(): number {
    return this.#streams.size;
  }

  /** A slot for the credential's stream under the caps, or a 429; call what it returns when the stream is gone. */
  admit(credential: StreamCredential): () => void {
    return this.#caps.admit(credential);
  }

  add(stream: StreamHandle): () => void {
    // Opened while the app closes: ended at once, told to resume elsewhere.
    if (this.#closing) void stream.shutdown();
    this.#streams.add(stream);
    // The safety net for a lost notification: the feed reads at every heartbeat.
    this.#poll ??= setInterval(() => this.poke(), this.ctx.config.streamHeartbeatMs).unref();
    // The first stream starts the tail; later ones find it kept current by notifications.
    if (!this.#feed) this.poke();
    return () => {
      this.#streams.delete(stream);
      if (this.#streams.size === 0) {
        // Idle: the next stream starts the tail again at the head.
        this.#feed = null;
        this.#catchUp.idle();
        if (this.#poll) clearInterval(this.#poll);
        this.#poll = null;
      }
    };
  }

  /**
   * The events after the stream's position: from the tail when it holds that
   * position, else from the shared catch-up; none yet while the tail is
   * being (re)started (the stream is woken when it is).
   */
  async next(stream: StreamHandle): Promise<SharedBatch> {
    const feed = this.#feed;
    if (!feed) return NOTHING_YET;
    const rows = feed.after(stream.position, PAGE_SIZE);
    if (rows) return { rows, grants: this.#grants, more: false };
    return this.#catchUp.next(stream.position, feed.low);
  }

  /** The oldest position among the streams behind `below`. */
  #oldestBehind(below: number): number | undefined {
    let oldest: number | undefined;
    for (const s of this.#streams) if (s.position < below) oldest = Math.min(oldest ?? below, s.position);
    return oldest;
  }

  /** Every connected user's standing, loaded now. */
  #loadGrants(): Promise<Grants> {
    return loadGrants(this.ctx.db, [...new Set([...this.#streams].map((s) => s.userId))]);
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
        if (!this.#feed) {
          // Starts at the head: streams behind it catch up to it (catch-up.ts).
          this.#feed = new SharedFeed(this.ctx.db, await headId(this.ctx.db));
          for (const s of this.#streams) s.wake();
        }
        const feed = this.#feed;
        const rows = await feed.cursor.next();
        if (rows.length > 0) {
          // After the read, so the grants are at least as new as every row.
          const grants = await this.#loadGrants();
          feed.append(rows);
          this.#grants = grants;
          if (this.#oldestBehind(feed.low) === undefined) this.#catchUp.idle();
          for (const s of this.#streams) s.wake();
        }
        if (rows.length === PAGE_SIZE) this.#again = true;
        else if (feed.cursor.waiting) setTimeout(() => this.poke(), GAP_POLL_MS).unref();
      } while (this.#again);
    } catch (err) {
      // The cursor may have moved past rows the feed did not take: start over
      // (streams wait for the new tail, or catch up to it).
      this.#feed = null;
      if (!this.#closing) this.ctx.log.error({ err }, 'change stream feed failed');
      for (const s of this.#streams) s.wake();
    }
  }

  /** On app close: ends every stream (so Fastify's close does not wait on them) and stops listening. */
  async close(): Promise<void> {
    this.#closing = true;
    this.#unwatchCredentials();
    if (this.#poll) clearInterval(this.#poll);
    await Promise.allSettled([...this.#streams].map((s) => s.shutdown()));
    await this.#unlisten();
  }
}
