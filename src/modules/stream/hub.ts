// One per app: a single LISTEN on the change channel (platform/db/notifications.ts)
// fanned out to every open stream of this process, and the list of streams
// to end when the app closes. Streams read the table themselves; a
// notification only says "look now".
import type { AppContext } from '../../platform/context.js';
import type { Database } from '../../platform/db/database.js';
import { listenForNotifications } from '../../platform/db/notifications.js';
import { CHANGE_NOTIFY_CHANNEL } from '../../platform/outbox.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's change streams (their count, for operations and tests). */
    changeStreams: StreamHub;
  }
}

export interface StreamHandle {
  wake(): void;
  /** Ends the stream, telling the client to resume elsewhere; resolves when it is closed. */
  shutdown(): Promise<void>;
}

export class StreamHub {
  readonly #streams = new Set<StreamHandle>();
  readonly #unlisten: () => Promise<void>;
  #closing = false;

  constructor(ctx: AppContext, database: Pick<Database, 'kind' | 'pglite'> & { url?: string | undefined }) {
    this.#unlisten = listenForNotifications(
      ctx.db,
      {
        kind: database.kind,
        pglite: database.pglite,
        url: database.kind === 'postgres' ? (database.url ?? ctx.config.databaseUrl) : undefined,
      },
      CHANGE_NOTIFY_CHANNEL,
      () => this.wakeAll(),
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
    return () => this.#streams.delete(stream);
  }

  wakeAll(): void {
    for (const s of this.#streams) s.wake();
  }

  /** On app close: ends every stream (so Fastify's close does not wait on them) and stops listening. */
  async close(): Promise<void> {
    this.#closing = true;
    await Promise.allSettled([...this.#streams].map((s) => s.shutdown()));
    await this.#unlisten();
  }
}
