// The file store of an app context, chosen by FILE_STORAGE: local disk under
// DATA_DIR (default), the database itself, or an S3-compatible bucket. One
// store per data directory, database or bucket, created on first use.
import path from 'node:path';
import type { AppContext } from '../context.js';
import type { FileStore } from './file-store.js';
import { LocalDiskStore } from './local-disk.js';
import { PostgresStore } from './postgres.js';
import { S3Store } from './s3.js';

export type { FileStore } from './file-store.js';
export { StoredFileMissing, TooLarge } from './file-store.js';
export { S3Store } from './s3.js';

const byRoot = new Map<string, FileStore>();
const byDb = new WeakMap<object, FileStore>();
const byS3 = new Map<string, FileStore>();

function cached<K extends object | string>(
  cache: { get(k: K): FileStore | undefined; set(k: K, v: FileStore): unknown },
  key: K,
  create: () => FileStore,
): FileStore {
  const found = cache.get(key);
  if (found) return found;
  const store = create();
  cache.set(key, store);
  return store;
}

export function fileStoreFor(ctx: Pick<AppContext, 'config' | 'db'>): FileStore {
  const { config, db } = ctx;
  if (config.fileStorage === 'postgres') return cached(byDb, db, () => new PostgresStore(db));
  if (config.fileStorage === 's3') {
    const s3 = config.s3;
    if (!s3) throw new Error('FILE_STORAGE is s3 but no S3 settings were loaded');
    return cached(byS3, JSON.stringify(s3), () => new S3Store(s3));
  }
  const root = path.join(config.dataDir, 'files');
  return cached(byRoot, root, () => new LocalDiskStore(root));
}
