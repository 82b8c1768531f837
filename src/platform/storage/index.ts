// The file store of an app context: one per data directory, created on first use,
// so no change to AppContext is needed until a second kind of store exists.
import path from 'node:path';
import type { AppContext } from '../context.js';
import type { FileStore } from './file-store.js';
import { LocalDiskStore } from './local-disk.js';

export type { FileStore } from './file-store.js';
export { StoredFileMissing, TooLarge } from './file-store.js';

const stores = new Map<string, FileStore>();

export function fileStoreFor(ctx: Pick<AppContext, 'config'>): FileStore {
  const root = path.join(ctx.config.dataDir, 'files');
  let store = stores.get(root);
  if (!store) {
    store = new LocalDiskStore(root);
    stores.set(root, store);
  }
  return store;
}
