// Commit-time notifications (LISTEN/NOTIFY) on either database: PGlite's own
// listener API on the embedded instance, or one dedicated `pg` connection to
// PostgreSQL that reconnects when lost. Used by the webhook delivery worker
// the change streams' hub and the credential cache. Failure only costs
// latency: the first two also poll their table, which stays the source of
// truth, and the cache is bypassed while its listener is not connected.
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import pg from 'pg';
import type { Db } from './database.js';

export interface ListenTarget {
  kind: 'pglite' | 'postgres';
  pglite?: PGlite | undefined;
  url?: string | undefined;
}

/**
 * Calls `onNotify` with the payload of each notification on `channel`, and
 * without one once after every (re)connection (anything sent while
 * disconnected was lost); `onLost` when the connection is lost. Returns the
 * unsubscribe.
 */
export function listenForNotifications(
  db: Db,
  target: ListenTarget | undefined,
  channel: string,
  onNotify: (payload?: string) => void,
  stopped: () => boolean = () => false,
  onLost: () => void = () => {},
): () => Promise<void> {
  if (target?.pglite) {
    const off = target.pglite.onNotification((ch, payload) => {
      if (ch === channel) onNotify(payload);
    });
    // Through the pool, so it queues behind any open transaction on the one connection.
    sql
      .raw(`listen ${channel}`)
      .execute(db)
      .then(
        () => onNotify(),
        () => {},
      );
    return async () => off();
  }
  const url = target?.kind === 'postgres' ? target.url : undefined;
  if (!url) return async () => {};

  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  let ended = false;
  const connect = () => {
    if (ended || stopped()) return;
    const c = new pg.Client({ connectionString: url });
    client = c;
    let lost = false;
    const reconnect = () => {
      if (lost || ended || stopped()) return;
      lost = true;
      onLost();
      c.end().catch(() => {});
      retry = setTimeout(connect, 1000);
      retry.unref();
    };
    c.on('notification', (m) => {
      if (m.channel === channel) onNotify(m.payload);
    });
    c.on('error', reconnect);
    c.on('end', reconnect);
    c.connect()
      .then(() => c.query(`listen ${channel}`))
      .then(() => onNotify(), reconnect);
  };
  connect();
  return async () => {
    ended = true;
    if (retry) clearTimeout(retry);
    await (client as pg.Client | null)?.end().catch(() => {});
  };
}
