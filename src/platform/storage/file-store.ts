// Where uploaded bytes live. The local-disk store is the default; anything
// with the same three operations (an S3-compatible bucket, say) can replace it.
import type { Readable } from 'node:stream';

export interface PutOptions {
  /** Refuse (and keep nothing) once the stream has delivered more bytes than this. */
  maxBytes: number;
}

export interface FileStore {
  /** Streams `body` into `key`; resolves with the byte count once it is durable. */
  put(key: string, body: Readable, opts: PutOptions): Promise<{ size: number }>;
  /** A stream of the stored bytes; rejects with StoredFileMissing when there are none. */
  get(key: string): Promise<Readable>;
  /** Removes the bytes; missing keys are not an error. */
  delete(key: string): Promise<void>;
}

/** Thrown by put when the body exceeds maxBytes. */
export class TooLarge extends Error {
  override name = 'TooLarge';
  constructor(readonly maxBytes: number) {
    super(`body exceeds ${maxBytes} bytes`);
  }
}

export class StoredFileMissing extends Error {
  override name = 'StoredFileMissing';
}
