// One outgoing GET whose body is streamed to the caller, under the rules of
// outgoing webhooks (safe-destination.ts): every connection, redirects
// included, goes through the vetting `lookup`, so a host name that resolves (or
// re-resolves, DNS rebinding) to a private address is refused at connect time.
// Used by the importers to copy a source's files (docs/migrate.md). The body is
// never buffered: the caller pipes it where it goes, and it errors past the cap.
import http from 'node:http';
import https from 'node:https';
import { type Readable, Transform } from 'node:stream';
import {
  guardedLookup,
  parseDestination,
  type Resolver,
  UnsafeDestinationError,
} from './safe-destination.js';

export interface DownloadOptions {
  allowPrivate: boolean;
  /** Tests name what a host resolves to; the system's resolver otherwise. */
  resolver?: Resolver | undefined;
  /** Request headers for a URL (credentials): asked again per redirect, so they go only where the caller says. */
  headers?: ((url: URL) => Record<string, string>) | undefined;
  /** The body errors (DownloadError) once it has delivered more than this. */
  maxBytes: number;
  /** No answer (headers) within this, or no byte for this long: the download fails. */
  timeoutMs: number;
  maxRedirects?: number | undefined;
  signal?: AbortSignal | undefined;
}

export interface Download {
  body: Readable;
  /** Where the bytes came from after redirects. */
  url: URL;
  contentType: string | undefined;
  /** The Content-Disposition file name, when the server sent one. */
  filename: string | undefined;
  /** The Content-Length, when declared. */
  length: number | undefined;
}

/** Why a download failed, said for a report line. */
export class DownloadError extends Error {
  override name = 'DownloadError';
}

const DEFAULT_REDIRECTS = 5;

/** `filename*=UTF-8''...` (RFC 6266) first, else `filename="..."`. */
export function dispositionFilename(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header)?.[1];
  if (star) {
    try {
      return decodeURIComponent(star.trim());
    } catch {
      // Not valid percent-encoding: fall back to the plain parameter.
    }
  }
  return /filename\s*=\s*(?:"([^"]*)"|([^;]+))/
    .exec(header)
    ?.slice(1)
    .find((v) => v !== undefined)
    ?.trim();
}

function request(url: URL, opts: DownloadOptions): Promise<http.IncomingMessage> {
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(url, {
      method: 'GET',
      headers: { accept: '*/*', ...(opts.headers?.(url) ?? {}) },
      lookup: guardedLookup(opts.allowPrivate, opts.resolver),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    req.setTimeout(opts.timeoutMs, () =>
      req.destroy(new DownloadError(`no answer within ${opts.timeoutMs} ms`)),
    );
    req.on('response', resolve);
    req.on('error', reject);
    req.end();
  });
}

/** Counts what passes: fails past `max` bytes, or short of the declared length at the end. */
function capped(max: number, expected: number | undefined): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > max) done(new DownloadError(`larger than ${max} bytes`));
      else done(null, chunk);
    },
    flush(done) {
      if (expected !== undefined && seen !== expected)
        done(new DownloadError(`ended after ${seen} of ${expected} bytes`));
      else done();
    },
  });
}

/**
 * Opens a download of `raw`: follows up to five redirects, each vetted like
 * the first; answers once a 2xx arrives, with its body as a stream. Throws
 * UnsafeDestinationError for a refused address, DownloadError for the rest.
 */
export async function openDownload(raw: string, opts: DownloadOptions): Promise<Download> {
  let url = parseDestination(raw, opts.allowPrivate);
  for (let hop = 0; ; hop++) {
    let res: http.IncomingMessage;
    try {
      res = await request(url, opts);
    } catch (err) {
      if (err instanceof UnsafeDestinationError || err instanceof DownloadError) throw err;
      const e = err as NodeJS.ErrnoException;
      throw new DownloadError(e.name === 'AbortError' ? 'stopped' : e.message || String(e.code));
    }
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location) {
      res.resume();
      if (hop >= (opts.maxRedirects ?? DEFAULT_REDIRECTS)) throw new DownloadError('too many redirects');
      // The next hop passes the same checks as the first (scheme, local names, addresses on connect).
      url = parseDestination(new URL(res.headers.location, url).toString(), opts.allowPrivate);
      continue;
    }
    if (status < 200 || status >= 300) {
      res.resume();
      throw new DownloadError(`HTTP ${status}`);
    }
    const declared = res.headers['content-length'];
    const length = declared && /^\d+$/.test(declared) ? Number(declared) : undefined;
    if (length !== undefined && length > opts.maxBytes) {
      res.destroy();
      throw new DownloadError(`larger than ${opts.maxBytes} bytes (${length})`);
    }
    // A stalled body fails instead of holding the import forever.
    res.setTimeout(opts.timeoutMs, () => res.destroy(new DownloadError(`stalled for ${opts.timeoutMs} ms`)));
    const body = res.pipe(capped(opts.maxBytes, length));
    // A body cut short (the server closed early) must not pass as a complete file.
    res.on('error', (err) => body.destroy(err));
    res.on('close', () => {
      if (!res.complete) body.destroy(new DownloadError('the connection closed before the end'));
    });
    return {
      body,
      url,
      contentType: res.headers['content-type'],
      filename: dispositionFilename(res.headers['content-disposition']),
      length,
    };
  }
}
