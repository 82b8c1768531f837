// One outgoing JSON POST with the safety rules webhooks need: destination
// vetted on connect (see safe-destination.ts), a hard overall timeout, no
// redirects followed, and only the first KB of the response kept (a GET may
// keep more: a host API's list).
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { guardedLookup, parseDestination, UnsafeDestinationError } from './safe-destination.js';

export const RESPONSE_EXCERPT_BYTES = 1024;
/** Reading stops (and the socket closes) past this, so a receiver cannot stream at us forever. */
const MAX_RESPONSE_BYTES = 256 * 1024;

export interface PostOutcome {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** The response body's first KB (or opts.keepBytes), as text. */
  responseBody: string | null;
  /** The response's headers (none when there was no answer). */
  responseHeaders?: Record<string, string>;
}

export interface PostOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  agents?: { http: http.Agent; https: https.Agent };
  /** How much of the response body to keep (default RESPONSE_EXCERPT_BYTES; at most 256 KB are read). */
  keepBytes?: number;
  /**
   * Resend at once when a reused keep-alive socket turns out closed (default
   * true). Off for a POST that must not be made twice: the peer may have
   * taken it before the socket broke (back-link comments look first, on retry).
   */
  resendOnStaleSocket?: boolean;
}

export function keepAliveAgents() {
  return {
    http: new http.Agent({ keepAlive: true, maxSockets: 16 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 16 }),
  };
}

// Postgres text cannot hold NUL; everything else of the excerpt is kept as is.
const storable = (buf: Buffer) => buf.toString('utf8').replace(/\0/g, '\uFFFD');

function describe(err: unknown, timeoutMs: number): string {
  if (err instanceof UnsafeDestinationError) return `destination refused: ${err.message}`;
  const e = err as NodeJS.ErrnoException;
  if (e?.name === 'AbortError' || e?.name === 'TimeoutError') return `timed out after ${timeoutMs} ms`;
  if (e?.code) return `${e.message || e.code}`.slice(0, 500);
  return String(e?.message ?? err).slice(0, 500);
}

export function postJson(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  opts: PostOptions,
): Promise<PostOutcome> {
  return send('POST', rawUrl, body, headers, opts);
}

/** One outgoing GET under the same rules (a host API's list, read up to opts.keepBytes). */
export function getJson(
  rawUrl: string,
  headers: Record<string, string>,
  opts: PostOptions,
): Promise<PostOutcome> {
  return send('GET', rawUrl, null, headers, opts);
}

export function send(
  method: 'GET' | 'POST',
  rawUrl: string,
  body: string | null,
  headers: Record<string, string>,
  opts: PostOptions,
  /** Resend once on a fresh connection when a reused keep-alive socket turns out closed. */
  retryStaleSocket = opts.resendOnStaleSocket ?? true,
): Promise<PostOutcome> {
  const keepBytes = Math.min(opts.keepBytes ?? RESPONSE_EXCERPT_BYTES, MAX_RESPONSE_BYTES);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let url: URL;
  try {
    url = parseDestination(rawUrl, opts.allowPrivate);
  } catch (err) {
    return Promise.resolve({
      ok: false,
      statusCode: null,
      durationMs: elapsed(),
      error: describe(err, opts.timeoutMs),
      responseBody: null,
    });
  }
  const secure = url.protocol === 'https:';
  return new Promise((resolve) => {
    let settled = false;
    const settle = (o: Omit<PostOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...o, durationMs: elapsed() });
    };
    const req = (secure ? https : http).request(
      url,
      {
        method,
        headers: body === null ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup(opts.allowPrivate),
        signal: AbortSignal.timeout(opts.timeoutMs),
        ...(opts.agents ? { agent: secure ? opts.agents.https : opts.agents.http } : {}),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const kept: Buffer[] = [];
        let keptBytes = 0;
        let total = 0;
        res.on('data', (chunk: Buffer) => {
          if (keptBytes < keepBytes) {
            const part = chunk.subarray(0, keepBytes - keptBytes);
            kept.push(part);
            keptBytes += part.length;
          }
          total += chunk.length;
          if (total > MAX_RESPONSE_BYTES) res.destroy();
        });
        const done = () => {
          const excerpt = storable(Buffer.concat(kept));
          let error: string | null = null;
          if (status >= 300 && status < 400) {
            error = `redirect not followed (HTTP ${status}${res.headers.location ? ` to ${res.headers.location}` : ''})`;
          } else if (status < 200 || status >= 300) {
            error = `HTTP ${status}`;
          }
          const responseHeaders: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) {
            if (v !== undefined) responseHeaders[k] = Array.isArray(v) ? v.join(', ') : v;
          }
          settle({
            ok: status >= 200 && status < 300,
            statusCode: status,
            error,
            responseBody: excerpt,
            responseHeaders,
          });
        };
        res.on('end', () => done());
        res.on('close', () => done());
        // A 2xx whose body broke off still counts: the receiver accepted the event.
        res.on('error', () => done());
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      // The receiver closed an idle pooled connection just as we reused it:
      // nothing was processed, so sending again at once is safe and saves a retry delay.
      if (
        !settled &&
        retryStaleSocket &&
        req.reusedSocket &&
        (err.code === 'ECONNRESET' || err.code === 'EPIPE')
      ) {
        settled = true;
        resolve(send(method, rawUrl, body, headers, opts, false));
        return;
      }
      settle({ ok: false, statusCode: null, error: describe(err, opts.timeoutMs), responseBody: null });
    });
    req.end(body ?? undefined);
  });
}
