// The file stores the tests run against. TEST_FILE_STORAGE (local, postgres or
// s3; default local) picks the store of the HTTP file tests; S3 is a local
// S3-compatible server (the @20minutes/s3rver package) started in this process
// on a loopback port with its objects in a temporary directory.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from '@20minutes/s3rver';
import type { Config, FileStorage, S3Settings } from '../../src/config.js';
import type { AppContext } from '../../src/platform/context.js';

export interface TestStorage {
  kind: FileStorage;
  /** Config overrides that select this store (dataDir holds the local one). */
  config: Partial<Config>;
  /** Every stored key, sorted, including leftovers a failed write might leave. */
  keys(ctx: Pick<AppContext, 'db'>): Promise<string[]>;
  close(): Promise<void>;
}

export const storageKind = (): FileStorage => {
  const kind = (process.env['TEST_FILE_STORAGE'] ?? 'local') as FileStorage;
  if (!['local', 'postgres', 's3'].includes(kind)) throw new Error(`TEST_FILE_STORAGE=${kind}?`);
  return kind;
};

/** A running S3-compatible server with one empty bucket. */
export async function startS3(): Promise<{
  settings: S3Settings;
  keys(): Promise<string[]>;
  close(): Promise<void>;
}> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'trackway-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: 'trackway-test' }],
  });
  const { port } = await server.run();
  return {
    settings: {
      bucket: 'trackway-test',
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${port}`,
      forcePathStyle: true,
      // s3rver's fixed credentials; it checks signatures with them.
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      presignedUploads: false,
    },
    // Read from s3rver's directory rather than listed through the API: its
    // bucket-level signature check disagrees with the SDK's. Parts of aborted
    // multipart uploads stay there (s3rver does not implement
    // AbortMultipartUpload) and are no object, so they are not counted.
    async keys() {
      const bucket = path.join(directory, 'trackway-test');
      const entries = await fs.readdir(bucket, { recursive: true, withFileTypes: true }).catch(() => []);
      return entries
        .filter((e) => e.isFile())
        .map((e) => path.relative(bucket, path.join(e.parentPath, e.name)))
        .filter((f) => f.endsWith('._S3rver_object'))
        .map((f) => f.replace(/\._S3rver_object$/, ''))
        .sort();
    },
    async close() {
      // A request cut short (an upload refused midway) may hold a connection open.
      server.httpServer?.closeAllConnections();
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}

export async function testStorage(kind: FileStorage = storageKind()): Promise<TestStorage> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trackway-files-'));
  const removeDir = () => fs.rm(dataDir, { recursive: true, force: true });
  if (kind === 's3') {
    const s3 = await startS3();
    return {
      kind,
      config: { dataDir, fileStorage: 's3', s3: s3.settings },
      keys: s3.keys,
      async close() {
        await s3.close();
        await removeDir();
      },
    };
  }
  if (kind === 'postgres') {
    return {
      kind,
      config: { dataDir, fileStorage: 'postgres' },
      async keys(ctx) {
        const rows = await ctx.db.selectFrom('file_chunks').select('storage_key').distinct().execute();
        return rows.map((r) => r.storage_key).sort();
      },
      close: removeDir,
    };
  }
  return {
    kind,
    config: { dataDir, fileStorage: 'local' },
    async keys() {
      // Temporary `.part` files count: they would be leftovers.
      const root = path.join(dataDir, 'files');
      const out: string[] = [];
      for (const dir of await fs.readdir(root).catch(() => [])) {
        out.push(...(await fs.readdir(path.join(root, dir))));
      }
      return out.sort();
    },
    close: removeDir,
  };
}
