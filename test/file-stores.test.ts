// The FileStore contract, run against every driver: local disk, the database
// (PGlite or PostgreSQL, whichever the run uses) and S3 (a local
// S3-compatible server). Each driver must keep bytes exactly, stream large
// files, keep nothing of a refused or interrupted write, and report missing keys.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import type { FileStorage } from '../src/config.js';
import { type FileStore, fileStoreFor, StoredFileMissing, TooLarge } from '../src/platform/storage/index.js';
import { CHUNK_BYTES } from '../src/platform/storage/postgres.js';
import { freshDatabase, type TestDatabase } from './support/database.js';
import { testConfig } from './support/env.js';
import { type TestStorage, testStorage } from './support/file-storage.js';

const MiB = 1024 * 1024;

/** `size` bytes of a repeatable pattern, produced in 64 KiB pieces as a socket would deliver them. */
function patterned(size: number, opts: { failAt?: number } = {}): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (opts.failAt !== undefined && sent >= opts.failAt) {
        this.destroy(new Error('aborted'));
        return;
      }
      if (sent >= size) {
        this.push(null);
        return;
      }
      const n = Math.min(64 * 1024, size - sent);
      const piece = Buffer.alloc(n);
      for (let i = 0; i < n; i++) piece[i] = (sent + i) % 251;
      sent += n;
      this.push(piece);
    },
  });
}

const digest = async (stream: Readable) => {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest('hex') };
};

const collect = async (stream: Readable) => Buffer.concat(await stream.toArray());

for (const kind of ['local', 'postgres', 's3'] as FileStorage[]) {
  describe(`${kind} file store`, () => {
    let database: TestDatabase;
    let storage: TestStorage;
    let store: FileStore;
    const keys = () => storage.keys(database);
    const key = () => randomBytes(8).toString('hex');

    before(async () => {
      database = await freshDatabase();
      storage = await testStorage(kind);
      store = fileStoreFor({ db: database.db, config: testConfig(storage.config) });
    });
    after(async () => {
      await storage.close();
      await database.close();
    });

    test('binary bytes round trip exactly, and so does an empty file', async () => {
      const bytes = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(1000)]);
      const k = key();
      assert.deepEqual(await store.put(k, Readable.from([bytes]), { maxBytes: bytes.length }), {
        size: bytes.length,
      });
      assert.deepEqual(await collect(await store.get(k)), bytes);
      const empty = key();
      assert.deepEqual(await store.put(empty, Readable.from([]), { maxBytes: 10 }), { size: 0 });
      assert.equal((await collect(await store.get(empty))).length, 0);
    });

    test('a 6 MiB file is streamed in and out unchanged', async () => {
      const size = 6 * MiB + 123; // over S3's 5 MiB part: a multipart upload
      const k = key();
      assert.deepEqual(await store.put(k, patterned(size), { maxBytes: size }), { size });
      assert.deepEqual(await digest(await store.get(k)), await digest(patterned(size)));
      if (kind === 'postgres') {
        const chunks = await database.db
          .selectFrom('file_chunks')
          .select((eb) => [
            eb.fn.countAll<number>().as('n'),
            eb.fn.max(eb.fn('octet_length', ['data'])).as('max'),
          ])
          .where('storage_key', '=', k)
          .executeTakeFirstOrThrow();
        assert.equal(Number(chunks.n), Math.ceil(size / CHUNK_BYTES));
        assert.equal(Number(chunks.max), CHUNK_BYTES);
      }
    });

    test('a body over maxBytes is refused with TooLarge and leaves nothing', async () => {
      const before = await keys();
      const small = key();
      await assert.rejects(store.put(small, patterned(5000), { maxBytes: 4999 }), TooLarge);
      // Past several chunks and a whole multipart part before it overflows.
      const big = key();
      await assert.rejects(store.put(big, patterned(6 * MiB), { maxBytes: 5.5 * MiB }), TooLarge);
      await assert.rejects(store.get(small), StoredFileMissing);
      await assert.rejects(store.get(big), StoredFileMissing);
      assert.deepEqual(await keys(), before);
    });

    test('a body refused at its first chunk leaves nothing, however the refusal races the store', async () => {
      // A whole over-long body can arrive as one chunk and be refused before the
      // store's own file is open. The race was intermittent (a few in a hundred
      // on local disk), so that driver, whose puts are cheap, is tried often.
      const before = await keys();
      for (let i = 0; i < (kind === 'local' ? 300 : 20); i++) {
        await assert.rejects(
          store.put(key(), Readable.from([Buffer.alloc(1600)]), { maxBytes: 1000 }),
          TooLarge,
        );
      }
      // A late file would appear just after the refusal.
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual(await keys(), before);
    });

    test('a body that fails midway (client gone) leaves nothing', async () => {
      const before = await keys();
      const k = key();
      await assert.rejects(
        store.put(k, patterned(2 * MiB, { failAt: MiB }), { maxBytes: 2 * MiB }),
        /aborted/,
      );
      await assert.rejects(store.get(k), StoredFileMissing);
      assert.deepEqual(await keys(), before);
    });

    test('a missing key is StoredFileMissing; delete is idempotent', async () => {
      await assert.rejects(store.get(key()), StoredFileMissing);
      await store.delete(key());
      const k = key();
      await store.put(k, Readable.from([Buffer.from('bye')]), { maxBytes: 3 });
      await store.delete(k);
      await assert.rejects(store.get(k), StoredFileMissing);
      await store.delete(k);
      assert.ok(!(await keys()).includes(k));
    });

    test('concurrent puts each keep their own bytes', async () => {
      const bodies = Array.from({ length: 5 }, (_, i) => randomBytes(300_000 + i));
      const ks = bodies.map(() => key());
      const sizes = await Promise.all(
        bodies.map((b, i) =>
          store.put(ks[i] as string, Readable.from([b.subarray(0, 1000), b.subarray(1000)]), {
            maxBytes: MiB,
          }),
        ),
      );
      assert.deepEqual(
        sizes.map((s) => s.size),
        bodies.map((b) => b.length),
      );
      for (const [i, b] of bodies.entries())
        assert.deepEqual(await collect(await store.get(ks[i] as string)), b);
    });
  });
}

describe('postgres file store: uploads in progress', () => {
  let database: TestDatabase;
  let store: FileStore;
  const chunkKeys = async () =>
    (await database.db.selectFrom('file_chunks').select(['storage_key', 'pending_since']).execute()).map(
      (r) => `${r.storage_key}${r.pending_since ? ' (pending)' : ''}`,
    );

  before(async () => {
    database = await freshDatabase();
    store = fileStoreFor({ db: database.db, config: testConfig({ fileStorage: 'postgres' }) });
  });
  after(() => database.close());

  test('an upload still arriving is invisible and holds no connection; it appears whole at the end', async () => {
    const body = new PassThrough();
    const put = store.put('arriving', body, { maxBytes: MiB });
    body.write(Buffer.alloc(CHUNK_BYTES + 10, 1));
    while (!(await chunkKeys()).some((k) => k.endsWith('(pending)')))
      await new Promise((r) => setTimeout(r, 10));
    // The query above ran while the upload was open: on PGlite (one connection) that
    // shows the upload does not hold it between chunks.
    await assert.rejects(store.get('arriving'), StoredFileMissing);
    body.end(Buffer.alloc(5, 2));
    assert.deepEqual(await put, { size: CHUNK_BYTES + 15 });
    assert.equal((await collect(await store.get('arriving'))).length, CHUNK_BYTES + 15);
    assert.deepEqual(await chunkKeys(), ['arriving', 'arriving']);
  });

  test('chunks a crash left pending for over a day are swept by the next put', async () => {
    await database.db
      .insertInto('file_chunks')
      .values([
        {
          storage_key: 'old/1',
          chunk_index: 0,
          data: Buffer.from('x'),
          pending_since: new Date(Date.now() - 2 * 86_400_000),
        },
        { storage_key: 'recent/1', chunk_index: 0, data: Buffer.from('y'), pending_since: new Date() },
      ])
      .execute();
    await store.put('next', Readable.from([Buffer.from('z')]), { maxBytes: 1 });
    const keys = await chunkKeys();
    assert.ok(!keys.includes('old/1 (pending)'));
    assert.ok(keys.includes('recent/1 (pending)'), 'an upload that may still be arriving is kept');
  });
});
