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
import { finished } from 'node:stream/promises';
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

/** Writes `chunks` to a temporary file, counting and hashing them. */
async function spool(file: string, chunks: AsyncIterable<Buffer | string>): Promise<Spooled> {
  const out = fs.createWriteStream(file);
  const hash = createHash('sha256');
  let bytes = 0;
  let rows = 0;
  try {
    for await (const chunk of chunks) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      if (typeof chunk === 'string') rows++;
      hash.update(buf);
      bytes += buf.length;
      if (!out.write(buf)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
  } finally {
    out.end();
    await finished(out);
  }
  return { file, rows, bytes, sha256: hash.digest('hex') };
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

async function* lines(pages: () => AsyncIterable<string[]>): AsyncIterable<string> {
  for await (const page of pages()) for (const line of page) yield `${line}\n`;
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
              const spooled = await spool(path.join(dir, 'file'), body);
              const name = `${FILES_PREFIX}${f.storage_key}`;
              await addEntry(pack, signal, name, { ...spooled, rows: 0 }, { [SHA_PAX]: spooled.sha256 });
              files.count++;
              files.bytes += spooled.bytes;
              opts.onEntry?.({ name, bytes: spooled.bytes });
            }
          }

          const entries: EntrySummary[] = [];
          for (const table of tables) {
            const name = tableEntry(table.name);
            const spooled = await spool(
              path.join(dir, 'table'),
              lines(async function* () {
                let after: string[] | undefined;
                for (;;) {
                  const page = await tablePage(trx, table, after, PAGE_ROWS);
                  if (page.length === 0) return;
                  after = page[page.length - 1]?.key;
                  yield page.map((r) => r.line);
                  if (page.length < PAGE_ROWS) return;
                }
              }),
            );
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
          const seqSpooled = await spool(
            path.join(dir, 'sequences'),
            (async function* () {
              for (const s of sequences) yield `${JSON.stringify(s)}\n`;
            })(),
          );
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
