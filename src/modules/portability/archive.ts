// The archive's format (docs/migrate.md, "What the archive holds"): a tar of
//   files/<storage key>       each stored file's bytes, its SHA-256 in the entry's PAX header
//   tables/<table>.ndjson     one JSON object a line per row, tables in foreign-key order
//   sequences.ndjson          every sequence's position (sync ids, event and mail ids)
//   manifest.json             last: versions, and rows, bytes and SHA-256 of every NDJSON entry
// Files come first so a restore can write them to the store before it opens
// its one transaction; the manifest comes last because only then are the
// checksums known, and a restore reads the whole archive once to check them
// before it writes anything.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ARCHIVE_FORMAT = 'trackway-archive';
export const FORMAT_VERSION = 1;
export const MANIFEST_NAME = 'manifest.json';
export const SEQUENCES_NAME = 'sequences.ndjson';
export const FILES_PREFIX = 'files/';
export const TABLES_PREFIX = 'tables/';
/** The PAX header record carrying a file entry's SHA-256 (hex). */
export const SHA_PAX = 'TRACKWAY.sha256';
/** A manifest is a few KB; anything much larger is not one of ours. */
export const MANIFEST_MAX_BYTES = 1024 * 1024;

export const tableEntry = (table: string) => `${TABLES_PREFIX}${table}.ndjson`;

export interface EntrySummary {
  name: string;
  /** The table an NDJSON entry holds (absent for sequences.ndjson). */
  table?: string;
  rows: number;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  format: typeof ARCHIVE_FORMAT;
  formatVersion: number;
  trackwayVersion: string;
  /** The newest migration of the exported database: a restore needs the same. */
  schemaVersion: number;
  createdAt: string;
  /** NDJSON entries in load order: the tables, then sequences.ndjson. */
  entries: EntrySummary[];
  /** Stored files written (each checked by its own PAX checksum) and those whose bytes the store lacked. */
  files: { count: number; bytes: number; missing: number };
  /** Tables left out on purpose, with the reason. */
  excluded: Record<string, string>;
}

/** Storage keys as the stores make them; anything else in an archive is refused (no paths out of the store). */
export const SAFE_STORAGE_KEY = /^(?!.*\.\.)[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$/;

let version: string | undefined;
/** package.json's version, found by walking up from this module (src/, dist/ or the tests' compiled copy). */
export function trackwayVersion(): string {
  version ??= findVersion();
  return version;
}

function findVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'package.json');
    if (fs.existsSync(candidate)) {
      const pkg = JSON.parse(fs.readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'trackway' && pkg.version) return pkg.version;
    }
    const up = path.dirname(dir);
    if (up === dir) return 'unknown';
    dir = up;
  }
}
