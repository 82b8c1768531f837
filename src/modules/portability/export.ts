// Export: the whole workspace as one streamed tar (archive.ts) in constant
// memory. Everything is read in one repeatable-read, read-only transaction,
// so the archive is one consistent moment of the database; tables are read in
// keyset pages by primary key and written as they come. A tar entry must
// state its size before its bytes, so each entry is first spooled to a
// temporary file (hashed on the way) and then copied into the tar: memory
// holds one page, the disk one entry.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { type Pack, pack as tarPack } from 'tar-stream';
import type { Db } from '../../platform/db/database.js';
import { type FileStore, StoredFileMissing } from '../../platform/storage/index.js';
import {
  ARCHIVE_FORMAT,
  type EntrySummary,
  FILES_PREFIX,
  FORMAT_VERSION,
  MANIFEST_NAME,
  type Manifest,
  SEQUENCES_NAME,
  SHA_PAX,
  tableEntry,
  trackwayVersion,
} from './archive.js';
import {
  type CatalogueTable,
  catalogueTables,
  completeFilesPage,
  schemaVersion,
  sequenceStates,
  setTimeZoneUtc,
  tablePage,
} from './queries.js';
import { exportOrder, OPERATIONAL_TABLES } from './tables.js';

/** Rows read per statement: a page of wide issues stays well under a few MB. */
const PAGE_ROWS = 500;

export interface ExportOptions {
  /** The file store to read bytes from, given the export's transaction (the database store reads through it). */
  storeFor: (db: Db) => FileStore;
  /** Where entries are spooled (default: the system's temporary directory). */
  tmpDir?: string;
  /** Told of each finished entry (the CLI's progress). */
  onEntry?: (summary: { name: string; rows?: number; bytes: number }) => void;
  /** Told of the manifest's bytes as they go into the archive (a backup run records their checksum). */
  onManifest?: (manifest: Buffer) => void;
}

interface Spooled {
  file: string;
  rows: number;
  bytes: number;
  sha256: string;
}

/** A temporary file being written: its bytes counted and hashed on the way. */
class Spool {
  private readonly hash = createHash('sha256');
  private bytes = 0;
  private rows = 0;
  private constructor(
    private readonly file: string,
    private readonly handle: fsp.FileHandle,
  ) {}

  static async open(file: string): Promise<Spool> {
    return new Spool(file, await fsp.open(file, 'w'));
  }

  /** Resolves once `buf` is written, so the caller may reuse it. */
  async write(buf: Buffer, rows = 0): Promise<void> {
    this.hash.update(buf);
    this.bytes += buf.length;
    this.rows += rows;
    for (let at = 0; at < buf.length; )
      at += (await this.handle.write(buf, at, buf.length - at)).bytesWritten;
  }

  async close(): Promise<Spooled> {
    await this.handle.close();
    return { file: this.file, rows: this.rows, bytes: this.bytes, sha256: this.hash.digest('hex') };
  }
}

async function spoolAll(file: string, chunks: AsyncIterable<Buffer>): Promise<Spooled> {
  const spool = await Spool.open(file);
  try {
    for await (const chunk of chunks) await spool.write(chunk);
  } catch (err) {
    await spool.close();
    throw err;
  }
  return spool.close();
}

/** The buffer every page of an export is encoded into, grown to the widest page. */
interface Scratch {
  buf: Buffer;
}

/**
 * The next page of a table, encoded into `scratch`. Its text is dropped when
 * this returns, before the caller reads the next page: a page still held then
 * would survive V8's young-generation collection and be promoted, and dead
 * pages would pile up in the old generation (a 2.7 MB heap per issue page)
 * until the next full collection, the more of them the longer the export.
 */
async function encodedPage(
  trx: Db,
  table: CatalogueTable,
  after: string[] | undefined,
  scratch: Scratch,
): Promise<{ bytes: Buffer; rows: number; last: string[] } | undefined> {
  const page = await tablePage(trx, table, after, PAGE_ROWS);
  if (!page) return undefined;
  let size = 0;
  for (const piece of page.pieces) size += Buffer.byteLength(piece);
  if (scratch.buf.length < size) scratch.buf = Buffer.allocUnsafeSlow(Math.max(size, 2 * scratch.buf.length));
  let at = 0;
  for (const piece of page.pieces) at += scratch.buf.write(piece, at);
  return { bytes: scratch.buf.subarray(0, size), rows: page.rows, last: page.last };
}

async function spoolTable(trx: Db, table: CatalogueTable, file: string, scratch: Scratch): Promise<Spooled> {
  const spool = await Spool.open(file);
  try {
    let after: string[] | undefined;
    for (;;) {
      const page = await encodedPage(trx, table, after, scratch);
      if (!page) break;
      await spool.write(page.bytes, page.rows);
      if (page.rows < PAGE_ROWS) break;
      after = page.last;
    }
  } catch (err) {
    await spool.close();
    throw err;
  }
  return spool.close();
}

/** Copies a spooled file into the tar as one entry, waiting on the tar's reader. */
async function addEntry(
  pack: Pack,
  signal: AbortSignal,
  name: string,
  spooled: Spooled,
  pax?: Record<string, string>,
): Promise<void> {
  let onAbort = () => {};
  await new Promise<void>((resolve, reject) => {
    // A reader that went away (a closed download) ends the export rather than leaving it waiting.
    onAbort = () => reject(new Error('export aborted: the archive stream was closed'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    const sink = pack.entry(
      { name, size: spooled.bytes, mode: 0o644, mtime: new Date(0), ...(pax ? { pax } : {}) },
      (err) => (err ? reject(err) : resolve()),
    );
    const source = fs.createReadStream(spooled.file);
    source.on('error', reject);
    source.on('data', (chunk) => {
      if (!sink.write(chunk)) {
        source.pause();
        sink.once('drain', () => source.resume());
      }
    });
    source.on('end', () => (sink as unknown as { end(): void }).end());
  }).finally(() => signal.removeEventListener('abort', onAbort));
  await fsp.rm(spooled.file, { force: true });
}

async function addBuffer(pack: Pack, name: string, data: Buffer): Promise<void> {
  await new Promise<void>((resolve, reject) =>
    pack.entry({ name, size: data.length, mode: 0o644, mtime: new Date(0) }, data, (err) =>
      err ? reject(err) : resolve(),
    ),
  );
}

/**
 * The archive as a stream. Work starts when it is read and follows the
 * reader's pace; an error ends the stream with that error, before the
 * manifest, so a cut-off archive can never be restored.
 */
export function exportArchive(db: Db, opts: ExportOptions): Readable {
  const pack = tarPack();
  const aborted = new AbortController();
  pack.once('close', () => aborted.abort());
  const signal = aborted.signal;
  const run = async () => {
    const dir = await fsp.mkdtemp(path.join(opts.tmpDir ?? os.tmpdir(), 'trackway-export-'));
    try {
      await db
        .transaction()
        .setIsolationLevel('repeatable read')
        .setAccessMode('read only')
        .execute(async (trx) => {
          // to_jsonb writes timestamps in the session's zone: one zone, one text.
          await setTimeZoneUtc(trx);
          const tables = exportOrder(await catalogueTables(trx));
          const store = opts.storeFor(trx);
          const files = { count: 0, bytes: 0, missing: 0 };
          let afterId: string | undefined;
          for (;;) {
            const page = await completeFilesPage(trx, afterId, PAGE_ROWS);
            if (page.length === 0) break;
            afterId = page[page.length - 1]?.id;
            for (const f of page) {
              let body: Readable;
              try {
                body = await store.get(f.storage_key);
              } catch (err) {
                // A file whose bytes are gone stays a row without bytes, as it was.
                if (err instanceof StoredFileMissing) {
                  files.missing++;
                  continue;
                }
                throw err;
              }
              const spooled = await spoolAll(path.join(dir, 'file'), body);
              const name = `${FILES_PREFIX}${f.storage_key}`;
              await addEntry(pack, signal, name, { ...spooled, rows: 0 }, { [SHA_PAX]: spooled.sha256 });
              files.count++;
              files.bytes += spooled.bytes;
              opts.onEntry?.({ name, bytes: spooled.bytes });
            }
          }

          const entries: EntrySummary[] = [];
          const scratch: Scratch = { buf: Buffer.allocUnsafeSlow(0) };
          for (const table of tables) {
            const name = tableEntry(table.name);
            const spooled = await spoolTable(trx, table, path.join(dir, 'table'), scratch);
            await addEntry(pack, signal, name, spooled);
            entries.push({
              name,
              table: table.name,
              rows: spooled.rows,
              bytes: spooled.bytes,
              sha256: spooled.sha256,
            });
            opts.onEntry?.({ name, rows: spooled.rows, bytes: spooled.bytes });
          }

          const sequences = await sequenceStates(trx);
          const seqSpool = await Spool.open(path.join(dir, 'sequences'));
          for (const s of sequences) await seqSpool.write(Buffer.from(`${JSON.stringify(s)}\n`), 1);
          const seqSpooled = await seqSpool.close();
          await addEntry(pack, signal, SEQUENCES_NAME, seqSpooled);
          entries.push({
            name: SEQUENCES_NAME,
            rows: seqSpooled.rows,
            bytes: seqSpooled.bytes,
            sha256: seqSpooled.sha256,
          });

          const manifest: Manifest = {
            format: ARCHIVE_FORMAT,
            formatVersion: FORMAT_VERSION,
            trackwayVersion: trackwayVersion(),
            schemaVersion: await schemaVersion(trx),
            createdAt: new Date().toISOString(),
            entries,
            files,
            excluded: OPERATIONAL_TABLES,
          };
          const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
          opts.onManifest?.(manifestBytes);
          await addBuffer(pack, MANIFEST_NAME, manifestBytes);
        });
      pack.finalize();
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  };
  const out = Readable.from(pack);
  out.once('close', () => pack.destroy());
  run().catch((err: unknown) => {
    out.destroy(err instanceof Error ? err : new Error(String(err)));
    pack.destroy();
  });
  return out;
}
