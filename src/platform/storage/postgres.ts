// FileStore in the database (FILE_STORAGE=postgres): no extra service, and a
// database backup holds the files with the rows that point at them. Bytes go
// in as chunks of at most 256 KiB, inserted as the body arrives, all in one
// transaction: a refused, oversized or interrupted upload rolls back whole and
// a reader never sees part of a file. Reads fetch one chunk per query, on
// demand, so neither side ever holds a whole file in memory.
import { Readable } from 'node:stream';
import type { Db } from '../db/database.js';
import { type FileStore, type PutOptions, StoredFileMissing, TooLarge } from './file-store.js';

/** Bytes per row; the table's check constraint holds the same number. */
export const CHUNK_BYTES = 256 * 1024;

export class PostgresStore implements FileStore {
  constructor(private readonly db: Db) {}

  async put(key: string, body: Readable, opts: PutOptions): Promise<{ size: number }> {
    let size = 0;
    // The transaction keeps a connection for as long as the client takes to
    // send the body (on PGlite, the only one): docs/files.md says so.
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('file_chunks').where('storage_key', '=', key).execute();
      let index = 0;
      const insert = (data: Buffer) =>
        trx.insertInto('file_chunks').values({ storage_key: key, chunk_index: index++, data }).execute();
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
    });
    return { size };
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
