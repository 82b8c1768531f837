// FileStore in the database (FILE_STORAGE=postgres): no extra service, and a
// database backup holds the files with the rows that point at them. Bytes go
// in as chunks of at most 256 KiB, each inserted as the body arrives under a
// key of the upload's own, marked pending; one short transaction then
// publishes them under the real key. So a connection is held only for one
// statement at a time, never while a slow client sends (on PGlite, the only
// connection would otherwise stall every request); a refused, oversized or
// interrupted upload deletes its chunks, and a crash leaves only pending
// chunks that no read sees and the next put sweeps. Reads fetch one chunk per
// query, on demand, so neither side ever holds a whole file in memory.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { outsideDbTimeBudget } from '../db/db-time.js';
import { type FileStore, type PutOptions, StoredFileMissing, TooLarge } from './file-store.js';

/** Bytes per row; the table's check constraint holds the same number. */
export const CHUNK_BYTES = 256 * 1024;
/** Pending chunks older than this belong to uploads that died with their process. */
const ABANDONED_AFTER = '1 day';

export class PostgresStore implements FileStore {
  constructor(private readonly db: Db) {}

  /** The bytes are bounded by `opts.maxBytes`, not by the request's database time (db-time.ts). */
  put(key: string, body: Readable, opts: PutOptions): Promise<{ size: number }> {
    return outsideDbTimeBudget(() => this.#put(key, body, opts));
  }

  async #put(key: string, body: Readable, opts: PutOptions): Promise<{ size: number }> {
    await this.db
      .deleteFrom('file_chunks')
      .where('pending_since', '<', sql<Date>`now() - ${ABANDONED_AFTER}::interval`)
      .execute();
    // '/' never occurs in a key we make, so this key cannot meet a real one.
    const staging = `${key}/${randomBytes(8).toString('hex')}`;
    let size = 0;
    try {
      let index = 0;
      const insert = (data: Buffer) =>
        this.db
          .insertInto('file_chunks')
          .values({ storage_key: staging, chunk_index: index++, data, pending_since: new Date() })
          .execute();
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      // An iterator that leaves `body` alive when we stop early: for an HTTP
      // request that keeps the socket open for the 413 response.
      for await (const chunk of body.iterator({ destroyOnReturn: false })) {
        const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
        size += buf.length;
        if (size > opts.maxBytes) throw new TooLarge(opts.maxBytes);
        pending.push(buf);
        pendingBytes += buf.length;
        while (pendingBytes >= CHUNK_BYTES) {
          const all = Buffer.concat(pending, pendingBytes);
          await insert(all.subarray(0, CHUNK_BYTES));
          const rest = all.subarray(CHUNK_BYTES);
          pending = rest.length > 0 ? [rest] : [];
          pendingBytes = rest.length;
        }
      }
      // An empty file still has its (empty) first chunk, so that it exists.
      if (pendingBytes > 0 || index === 0) await insert(Buffer.concat(pending, pendingBytes));
      await this.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('file_chunks').where('storage_key', '=', key).execute();
        await trx
          .updateTable('file_chunks')
          .set({ storage_key: key, pending_since: null })
          .where('storage_key', '=', staging)
          .execute();
      });
      return { size };
    } catch (err) {
      // If the database itself failed, the next put's sweep removes these.
      await this.db
        .deleteFrom('file_chunks')
        .where('storage_key', '=', staging)
        .execute()
        .catch(() => {});
      throw err;
    }
  }

  private async chunk(key: string, index: number): Promise<Buffer | undefined> {
    const row = await this.db
      .selectFrom('file_chunks')
      .select('data')
      .where('storage_key', '=', key)
      .where('chunk_index', '=', index)
      .executeTakeFirst();
    // pg gives a Buffer, PGlite a Uint8Array: view both as a Buffer without copying.
    return row && Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength);
  }

  async get(key: string): Promise<Readable> {
    const first = await this.chunk(key, 0);
    if (!first) throw new StoredFileMissing(key);
    const next = (i: number) => this.chunk(key, i);
    async function* chunks() {
      yield first as Buffer;
      for (let i = 1; ; i++) {
        const data = await next(i);
        if (!data) return;
        yield data;
      }
    }
    // Pulled on demand: a slow download reads the next chunk only when the socket drains.
    return Readable.from(chunks(), { objectMode: false, highWaterMark: CHUNK_BYTES });
  }

  async delete(key: string): Promise<void> {
    await this.db.deleteFrom('file_chunks').where('storage_key', '=', key).execute();
  }
}
