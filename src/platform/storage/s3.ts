// FileStore on S3-compatible object storage (FILE_STORAGE=s3). Uploads stream
// through lib-storage's Upload: one PutObject for small bodies, a multipart
// upload in 5 MiB parts otherwise, so at most a part or two is in memory.
// Neither kind of write is visible until it completes, and a failed one is
// aborted, so a reader never sees part of a file.
//
// The AWS SDK (about 14 MB of module text) is imported on first use, so a
// server that stores files elsewhere never loads it.

import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from '../../config.js';
import { type FileStore, type PutOptions, StoredFileMissing, TooLarge } from './file-store.js';

const PART_BYTES = 5 * 1024 * 1024; // S3's smallest multipart part

// Node caches the modules, so a second store's import costs nothing more.
type Sdk = Awaited<ReturnType<typeof importSdk>>;
const importSdk = async () => {
  const [s3, storage, presigner] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('@aws-sdk/lib-storage'),
    import('@aws-sdk/s3-request-presigner'),
  ]);
  return { ...s3, Upload: storage.Upload, getSignedUrl: presigner.getSignedUrl };
};

const notFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

export class S3Store implements FileStore {
  private readonly bucket: string;
  private clientLoad: Promise<{ sdk: Sdk; client: S3Client }> | undefined;

  constructor(private readonly settings: S3Settings) {
    this.bucket = settings.bucket;
  }

  /** The SDK and one client for this bucket, both made on first use. */
  private connect(): Promise<{ sdk: Sdk; client: S3Client }> {
    this.clientLoad ??= importSdk().then((sdk) => {
      const s = this.settings;
      const client = new sdk.S3Client({
        region: s.region,
        forcePathStyle: s.forcePathStyle,
        ...(s.endpoint ? { endpoint: s.endpoint } : {}),
        ...(s.credentials ? { credentials: s.credentials } : {}),
        // Checksums only where S3 demands them: a presigned URL would otherwise
        // carry the checksum of an empty body, and several S3-compatible
        // services refuse the newer checksum headers.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
      return { sdk, client };
    });
    return this.clientLoad;
  }

  async put(key: string, body: Readable, opts: PutOptions): Promise<{ size: number }> {
    const { sdk, client } = await this.connect();
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > opts.maxBytes) done(new TooLarge(opts.maxBytes));
        else done(null, chunk);
      },
    });
    // The iterator leaves `body` alive when we stop early: for an HTTP request
    // that keeps the socket open for the 413 response.
    const feeding = pipeline(body.iterator({ destroyOnReturn: false }), counter).then(
      () => undefined,
      (err: unknown) => err,
    );
    const upload = new sdk.Upload({
      client,
      params: { Bucket: this.bucket, Key: key, Body: counter },
      partSize: PART_BYTES,
      queueSize: 1,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      counter.destroy(err as Error); // unblocks `feeding` when S3 was the one to fail
      await this.delete(key).catch(() => {});
      // The body's own failure (too large, client gone) says more than the upload's.
      throw (await feeding) ?? err;
    }
    const fed = await feeding;
    if (fed) {
      await this.delete(key).catch(() => {});
      throw fed;
    }
    return { size };
  }

  async get(key: string): Promise<Readable> {
    const { sdk, client } = await this.connect();
    try {
      const res = await client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return res.Body as Readable;
    } catch (err) {
      if (notFound(err)) throw new StoredFileMissing(key);
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    const { sdk, client } = await this.connect();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /**
   * Copies an object to another key inside the bucket (server side: no byte
   * passes through us); StoredFileMissing when `from` is not there.
   */
  async copy(from: string, to: string): Promise<void> {
    const { sdk, client } = await this.connect();
    try {
      await client.send(
        new sdk.CopyObjectCommand({
          Bucket: this.bucket,
          Key: to,
          CopySource: `${this.bucket}/${from.split('/').map(encodeURIComponent).join('/')}`,
        }),
      );
    } catch (err) {
      if (notFound(err)) throw new StoredFileMissing(from);
      throw err;
    }
  }

  /** Size and type of a stored object, or undefined when there is none. */
  async stat(key: string): Promise<{ size: number; contentType: string | undefined } | undefined> {
    const { sdk, client } = await this.connect();
    try {
      const res = await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: Number(res.ContentLength ?? 0), contentType: res.ContentType };
    } catch (err) {
      if (notFound(err)) return undefined;
      throw err;
    }
  }

  /**
   * A URL that lets whoever holds it PUT exactly this body into `key` until it
   * expires: Content-Type and Content-Length are signed, so any other type or
   * size is refused by the storage service itself.
   */
  async presignPut(
    key: string,
    file: { contentType: string; size: number },
    expiresIn: number,
  ): Promise<string> {
    const { sdk, client } = await this.connect();
    const command = new sdk.PutObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ContentType: file.contentType,
      ContentLength: file.size,
    });
    return sdk.getSignedUrl(client, command, {
      expiresIn,
      signableHeaders: new Set(['content-type', 'content-length']),
    });
  }
}
