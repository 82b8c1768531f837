// Restore: an archive (archive.ts) into an empty installation, in three reads
// of the file:
//   1. check: every entry's checksum, the manifest's versions, the target's
//      schema and that it holds no workspace data; nothing is written;
//   2. the files' bytes into the target's store (before the transaction: the
//      database store writes through its own transactions);
//   3. every table and sequence in ONE transaction, so a failure leaves the
//      database as empty as it was; the files written in 2 are then removed.
// Memory holds one batch of lines; the archive is never held.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { extract as tarExtract } from 'tar-stream';
import type { Db } from '../../platform/db/database.js';
import type { FileStore } from '../../platform/storage/index.js';
import {
  ARCHIVE_FORMAT,
  FILES_PREFIX,
  FORMAT_VERSION,
  MANIFEST_MAX_BYTES,
  MANIFEST_NAME,
  type Manifest,
  SAFE_STORAGE_KEY,
  SEQUENCES_NAME,
  SHA_PAX,
  TABLES_PREFIX,
  tableEntry,
} from './archive.js';
import {
  type CatalogueTable,
  catalogueTables,
  createStage,
  firstNonEmpty,
  loadStaged,
  type SequenceState,
  schemaVersion,
  sequenceNames,
  setSequence,
  stageLines,
} from './queries.js';
import { exportOrder } from './tables.js';

/** A refusal the operator can act on (the CLI prints it without a stack). */
export class RestoreRefused extends Error {
  override name = 'RestoreRefused';
}

/** Bytes of whole lines staged per statement (one long description may exceed it alone). */
const BATCH_BYTES = 1024 * 1024;

export interface RestoreOptions {
  storeFor: (db: Db) => FileStore;
  onProgress?: (message: string) => void;
}

export interface RestoreSummary {
  tables: number;
  rows: number;
  files: number;
  manifest: Manifest;
}

interface Entry {
  name: string;
  size: number;
  pax: Record<string, string>;
  body: AsyncIterable<Buffer>;
}

/** The archive's entries in order; each body must be read (or left) before the next comes. */
async function* entries(file: string): AsyncGenerator<Entry> {
  const extract = tarExtract();
  const source = fs.createReadStream(file);
  source.on('error', (err) => extract.destroy(err));
  source.pipe(extract as unknown as NodeJS.WritableStream);
  try {
    for await (const entry of extract) {
      const h = entry.header;
      yield {
        name: h.name,
        size: h.size,
        pax: (h.pax ?? {}) as Record<string, string>,
        body: entry as unknown as AsyncIterable<Buffer>,
      };
      // Drain whatever the consumer left, so the next header can be read.
      for await (const _ of entry) {
      }
    }
  } catch (err) {
    throw new RestoreRefused(`the archive cannot be read as a tar: ${(err as Error).message}`);
  } finally {
    source.destroy();
  }
}

async function digest(
  body: AsyncIterable<Buffer>,
): Promise<{ bytes: number; sha256: string; lines: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  let lines = 0;
  for await (const chunk of body) {
    hash.update(chunk);
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  }
  return { bytes, sha256: hash.digest('hex'), lines };
}

async function readAll(body: AsyncIterable<Buffer>, max: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > max) throw new RestoreRefused(`${MANIFEST_NAME} is larger than ${max} bytes`);
    parts.push(chunk);
  }
  return Buffer.concat(parts);
}

/** An entry's lines, as strings, without holding more than one line and a chunk. */
async function* splitLines(body: AsyncIterable<Buffer>): AsyncGenerator<string> {
  let rest = Buffer.alloc(0);
  for await (const chunk of body) {
    let buf = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10)) {
      yield buf.subarray(0, i).toString('utf8');
      buf = buf.subarray(i + 1);
    }
    rest = Buffer.from(buf);
  }
  if (rest.length) throw new RestoreRefused('an NDJSON entry does not end with a newline');
}

/** The buffer a restore's batches are gathered in, grown to the longest line if one is longer. */
interface Scratch {
  buf: Buffer;
}

/**
 * Stages an NDJSON entry in batches of whole lines, gathered from the archive's
 * chunks into one buffer reused for every batch and sent as bytes. Memory holds
 * that buffer and a chunk: no string a line, no batch made anew, so nothing is
 * left for V8 to collect in proportion to the archive (docs/benchmarks.md).
 */
async function stageEntry(trx: Db, body: AsyncIterable<Buffer>, scratch: Scratch): Promise<void> {
  let used = 0;
  for await (const chunk of body) {
    for (let at = 0; at < chunk.length; ) {
      if (used === scratch.buf.length) {
        const end = scratch.buf.lastIndexOf(10, used - 1);
        if (end === -1) {
          // One line longer than the buffer: the buffer grows to hold it.
          const bigger = Buffer.allocUnsafeSlow(2 * scratch.buf.length);
          scratch.buf.copy(bigger, 0, 0, used);
          scratch.buf = bigger;
        } else {
          await stageLines(trx, scratch.buf.subarray(0, end));
          used = scratch.buf.copy(scratch.buf, 0, end + 1, used);
        }
      }
      const n = chunk.copy(scratch.buf, used, at);
      used += n;
      at += n;
    }
  }
  if (used === 0) return;
  if (scratch.buf[used - 1] !== 10) throw new RestoreRefused('an NDJSON entry does not end with a newline');
  await stageLines(trx, scratch.buf.subarray(0, used - 1));
}

/** Pass 1: everything checked, nothing written. Returns the manifest and the target's tables by name. */
async function check(
  db: Db,
  file: string,
): Promise<{ manifest: Manifest; tables: Map<string, CatalogueTable> }> {
  const seen = new Map<string, { bytes: number; sha256: string; lines: number }>();
  let files = 0;
  let manifest: Manifest | undefined;
  try {
    for await (const entry of entries(file)) {
      if (manifest)
        throw new RestoreRefused(`entry ${entry.name} follows ${MANIFEST_NAME}, which must be last`);
      if (entry.name.startsWith(FILES_PREFIX)) {
        const key = entry.name.slice(FILES_PREFIX.length);
        if (!SAFE_STORAGE_KEY.test(key)) throw new RestoreRefused(`entry ${entry.name}: not a storage key`);
        const d = await digest(entry.body);
        if (!entry.pax[SHA_PAX] || d.sha256 !== entry.pax[SHA_PAX])
          throw new RestoreRefused(
            `checksum mismatch in ${entry.name}: the archive is damaged or was changed`,
          );
        files++;
      } else if (entry.name.startsWith(TABLES_PREFIX) || entry.name === SEQUENCES_NAME) {
        if (seen.has(entry.name)) throw new RestoreRefused(`entry ${entry.name} appears twice`);
        seen.set(entry.name, await digest(entry.body));
      } else if (entry.name === MANIFEST_NAME) {
        try {
          manifest = JSON.parse((await readAll(entry.body, MANIFEST_MAX_BYTES)).toString('utf8')) as Manifest;
        } catch (err) {
          if (err instanceof RestoreRefused) throw err;
          throw new RestoreRefused(`${MANIFEST_NAME} is not JSON`);
        }
      } else {
        throw new RestoreRefused(`unexpected entry ${entry.name}: not a Trackway archive`);
      }
    }
  } catch (err) {
    // A cut-off or foreign file fails inside the tar reader, wherever it is being read.
    if (err instanceof RestoreRefused) throw err;
    throw new RestoreRefused(`the archive cannot be read as a tar: ${(err as Error).message}`);
  }
  if (!manifest)
    throw new RestoreRefused(`no ${MANIFEST_NAME}: the archive is incomplete (an export cut off?)`);
  if (manifest.format !== ARCHIVE_FORMAT || manifest.formatVersion !== FORMAT_VERSION)
    throw new RestoreRefused(
      `unsupported archive format ${String(manifest.format)} version ${String(manifest.formatVersion)} (this Trackway reads ${ARCHIVE_FORMAT} ${FORMAT_VERSION})`,
    );
  if (!Array.isArray(manifest.entries)) throw new RestoreRefused(`${MANIFEST_NAME} lists no entries`);
  const listed = new Set<string>();
  for (const m of manifest.entries) {
    const got = seen.get(m.name);
    if (!got)
      throw new RestoreRefused(`${m.name} is listed in ${MANIFEST_NAME} but missing from the archive`);
    if (got.sha256 !== m.sha256 || got.bytes !== m.bytes || got.lines !== m.rows)
      throw new RestoreRefused(`checksum mismatch in ${m.name}: the archive is damaged or was changed`);
    listed.add(m.name);
  }
  for (const name of seen.keys())
    if (!listed.has(name)) throw new RestoreRefused(`${name} is not listed in ${MANIFEST_NAME}`);
  if (files !== manifest.files?.count)
    throw new RestoreRefused(
      `the archive holds ${files} files, ${MANIFEST_NAME} says ${manifest.files?.count}`,
    );

  const target = await schemaVersion(db);
  if (target !== manifest.schemaVersion)
    throw new RestoreRefused(
      `the archive's schema is migration ${manifest.schemaVersion} (Trackway ${manifest.trackwayVersion}) and this database's is ${target}: restore with the same Trackway version that exported it`,
    );
  // Tables come from this database's catalogue; the archive must name exactly those.
  const ours = exportOrder(await catalogueTables(db));
  const tables = new Map(ours.map((t) => [tableEntry(t.name), t]));
  for (const m of manifest.entries) {
    if (m.name === SEQUENCES_NAME) continue;
    if (!tables.has(m.name)) throw new RestoreRefused(`${m.name}: this installation has no such table`);
  }
  await assertEmpty(db, ours);
  return { manifest, tables };
}

async function assertEmpty(db: Db, tables: CatalogueTable[]): Promise<void> {
  const occupied = await firstNonEmpty(
    db,
    tables.map((t) => t.name),
  );
  if (occupied)
    throw new RestoreRefused(
      `the target installation is not empty (table ${occupied} has rows): restore only into a new database that Trackway has not started on (docs/migrate.md)`,
    );
}

async function forEachFile(
  file: string,
  fn: (key: string, body: AsyncIterable<Buffer>, size: number) => Promise<void>,
) {
  for await (const entry of entries(file)) {
    if (entry.name.startsWith(FILES_PREFIX))
      await fn(entry.name.slice(FILES_PREFIX.length), entry.body, entry.size);
  }
}

export async function restoreArchive(db: Db, file: string, opts: RestoreOptions): Promise<RestoreSummary> {
  const say = opts.onProgress ?? (() => {});
  const { manifest, tables } = await check(db, file);
  say(`checked: ${manifest.entries.length} entries and ${manifest.files.count} files, checksums match`);

  const store = opts.storeFor(db);
  let files = 0;
  try {
    await forEachFile(file, async (key, body, size) => {
      await store.put(key, Readable.from(body), { maxBytes: size });
      files++;
    });
    say(`files: ${files} written to the store`);

    let rows = 0;
    await db.transaction().execute(async (trx) => {
      // Another process may have started on the database since the check.
      await assertEmpty(trx, [...tables.values()]);
      await createStage(trx);
      const expected = new Map(manifest.entries.map((m) => [m.name, m.rows]));
      const scratch: Scratch = { buf: Buffer.allocUnsafeSlow(BATCH_BYTES) };
      for await (const entry of entries(file)) {
        if (entry.name === SEQUENCES_NAME) {
          const ours = new Set(await sequenceNames(trx));
          for await (const line of splitLines(entry.body)) {
            const s = JSON.parse(line) as SequenceState;
            if (!ours.has(s.name))
              throw new RestoreRefused(`sequence ${s.name}: this installation has no such sequence`);
            await setSequence(trx, s);
          }
          continue;
        }
        const table = tables.get(entry.name);
        if (!table) continue;
        await stageEntry(trx, entry.body, scratch);
        const loaded = await loadStaged(trx, table);
        if (loaded !== expected.get(entry.name))
          throw new RestoreRefused(
            `${entry.name}: loaded ${loaded} rows, the manifest says ${expected.get(entry.name)}`,
          );
        rows += loaded;
        say(`${table.name}: ${loaded} rows`);
      }
    });
    return { tables: tables.size, rows, files, manifest };
  } catch (err) {
    // The transaction rolled back; the bytes written before it go too.
    await forEachFile(file, async (key) => {
      await store.delete(key).catch(() => {});
    }).catch(() => {});
    throw err;
  }
}
