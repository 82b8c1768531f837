// FileStore on the local disk. Each upload is written to a temporary name and
// renamed into place only when complete, so a reader never sees half a file and
// a failed or oversized upload leaves nothing behind.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type FileStore, type PutOptions, StoredFileMissing, TooLarge } from './file-store.js';

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

export class LocalDiskStore implements FileStore {
  constructor(readonly root: string) {}

  /** Keys are our own ids; anything else could escape the root, so refuse it. */
  private pathOf(key: string): string {
    if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`invalid storage key: ${key}`);
    // Two levels of fan-out keep directories small.
    return path.join(this.root, key.slice(0, 2), key);
  }

  async put(key: string, body: Readable, opts: PutOptions): Promise<{ size: number }> {
    const final = this.pathOf(key);
    await fs.mkdir(path.dirname(final), { recursive: true });
    const temp = `${final}.${randomBytes(6).toString('hex')}.part`;
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > opts.maxBytes) done(new TooLarge(opts.maxBytes));
        else done(null, chunk);
      },
    });
    // Opened before the pipeline starts: a write stream that opens its own file
    // may create it after an early refusal has already run the cleanup below,
    // leaving a `.part` behind.
    const handle = await fs.open(temp, 'wx');
    try {
      // Read through an iterator that leaves `body` alive when we stop early: for
      // an HTTP request that keeps the socket open for the 413 response.
      await pipeline(body.iterator({ destroyOnReturn: false }), counter, handle.createWriteStream());
      await fs.rename(temp, final);
      return { size };
    } catch (err) {
      await handle.close().catch(() => {});
      await fs.rm(temp, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<Readable> {
    const file = this.pathOf(key);
    const handle = await fs.open(file, 'r').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') throw new StoredFileMissing(key);
      throw err;
    });
    return handle.createReadStream();
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }
}
