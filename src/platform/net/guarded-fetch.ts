// A fetch for libraries that take one (Octokit's request): the same rules as
// every outgoing call (outbound-post.ts): the destination checked again on
// each connection (no loopback, private or link-local address unless allowed),
// a hard timeout, no redirects followed, at most 256 KB of answer read.
import { send } from './outbound-post.js';

const MAX_BYTES = 256 * 1024;
const NO_BODY = new Set([101, 204, 205, 304]);

function headersOf(h: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (!h) return out;
  new Headers(h).forEach((v, k) => {
    out[k] = v;
  });
  return out;
}

export function guardedFetch(opts: { timeoutMs: number; allowPrivate: boolean }): typeof fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const method = (init?.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'POST') throw new TypeError(`method ${method} is not sent`);
    if (init?.body !== undefined && init.body !== null && typeof init.body !== 'string') {
      throw new TypeError('only a string body is sent');
    }
    const res = await send(
      method,
      url,
      (init?.body as string | null | undefined) ?? null,
      headersOf(init?.headers),
      {
        ...opts,
        keepBytes: MAX_BYTES,
      },
    );
    if (res.statusCode === null) throw new TypeError(res.error ?? 'no answer');
    const headers = Object.entries(res.responseHeaders ?? {}).filter(
      ([k]) => k !== 'content-length' && k !== 'transfer-encoding' && k !== 'content-encoding',
    );
    return new Response(NO_BODY.has(res.statusCode) ? null : (res.responseBody ?? ''), {
      status: res.statusCode,
      headers,
    });
  };
}
