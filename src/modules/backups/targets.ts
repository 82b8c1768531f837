// Where archives go: a directory on the server or an S3 bucket. Each target
// writes so that only a complete archive is ever visible under its name (a
// directory: a `.partial` file renamed at the end; S3: a multipart upload,
// invisible until completed and aborted on failure) and deletes by name.
// Retention knows which archives it may delete from the runs it recorded
// (run.ts), so a target is never listed and nothing else there is touched.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BackupTarget, S3Target } from './settings.js';

/** `trackway-backup-20261127T180000Z-1a2b3c4d.tar`: sorts by time; retention touches nothing else. */
export const ARCHIVE_NAME = /^trackway-backup-\d{8}T\d{6}Z-[0-9a-f]{8}\.tar$/;

export function archiveName(createdAt: Date, runId: string): string {
  const stamp = createdAt
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `trackway-backup-${stamp}-${runId.replace(/-/g, '').slice(0, 8)}.tar`;
}

export interface ArchiveTarget {
  /** Streams `body` to `name`; visible under that name only once complete. */
  write(name: string, body: Readable): Promise<void>;
  remove(name: string): Promise<void>;
}

export function openTarget(t: BackupTarget): ArchiveTarget {
  return t.kind === 'directory' ? directoryTarget(t.path) : s3Target(t);
}

function directoryTarget(dir: string): ArchiveTarget {
  return {
    async write(name, body) {
      await fsp.mkdir(dir, { recursive: true });
      const final = path.join(dir, name);
      const partial = `${final}.partial`;
      try {
        await pipeline(body, fs.createWriteStream(partial));
        await fsp.rename(partial, final);
      } catch (err) {
        await fsp.rm(partial, { force: true });
        throw err;
      }
    },
    async remove(name) {
      if (!ARCHIVE_NAME.test(name)) throw new Error(`not a backup archive's name: ${name}`);
      await fsp.rm(path.join(dir, name), { force: true });
    },
  };
}

const PART_BYTES = 8 * 1024 * 1024;

function s3Target(t: S3Target): ArchiveTarget {
  // The SDK is loaded on first use, as the file store does (platform/storage/s3.ts).
  const connect = async () => {
    const [sdk, storage] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]);
    const client = new sdk.S3Client({
      region: t.region,
      forcePathStyle: t.forcePathStyle,
      ...(t.endpoint ? { endpoint: t.endpoint } : {}),
      ...(t.accessKeyId && t.secretAccessKey
        ? { credentials: { accessKeyId: t.accessKeyId, secretAccessKey: t.secretAccessKey } }
        : {}),
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // A wrong endpoint should fail the run, not hang it.
      maxAttempts: 2,
    });
    return { sdk, Upload: storage.Upload, client };
  };
  const key = (name: string) => `${t.prefix}${name}`;
  return {
    async write(name, body) {
      const { Upload, client } = await connect();
      try {
        // Parts of 8 MiB, one in flight: memory holds a part or two whatever the archive's size.
        const upload = new Upload({
          client,
          params: { Bucket: t.bucket, Key: key(name), Body: body, ContentType: 'application/x-tar' },
          partSize: PART_BYTES,
          queueSize: 1,
          leavePartsOnError: false,
        });
        await upload.done();
      } finally {
        body.destroy();
        client.destroy();
      }
    },
    async remove(name) {
      if (!ARCHIVE_NAME.test(name)) throw new Error(`not a backup archive's name: ${name}`);
      const { sdk, client } = await connect();
      try {
        await client.send(new sdk.DeleteObjectCommand({ Bucket: t.bucket, Key: key(name) }));
      } finally {
        client.destroy();
      }
    },
  };
}
