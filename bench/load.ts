// HTTP load: autocannon at a fixed concurrency for a fixed time, plus the
// one-request probe that tells "endpoint missing" from "endpoint errors".
import autocannon from 'autocannon';
import type { HttpCall, Verdict } from './scenarios.js';

/** Per-request limit: PGlite's single connection can queue 16 requests for many seconds. */
export const REQUEST_TIMEOUT_S = 30;

export interface HttpMeasure {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  mean: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  durationS: number;
  concurrency: number;
}

export async function probe(
  base: string,
  headers: Record<string, string>,
  call: HttpCall,
  check: (status: number, body: unknown) => Verdict,
): Promise<Verdict> {
  const res = await fetch(base + call.path, {
    method: call.method,
    headers: call.body ? { ...headers, 'content-type': 'application/json' } : headers,
    ...(call.body ? { body: call.body } : {}),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // keep the text
  }
  return check(res.status, body);
}

export async function load(
  base: string,
  headers: Record<string, string>,
  next: (i: number) => HttpCall,
  opts: { connections: number; seconds: number },
): Promise<HttpMeasure> {
  let i = 1;
  const result = await autocannon({
    url: base,
    connections: opts.connections,
    duration: opts.seconds,
    timeout: REQUEST_TIMEOUT_S,
    headers: { ...headers, 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (req) => {
          const call = next(i++);
          return { ...req, method: call.method, path: call.path, ...(call.body ? { body: call.body } : {}) };
        },
      },
    ],
  });
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    requests: result.requests.total,
    rps: round(result.requests.total / result.duration),
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: round(result.latency.average),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    durationS: round(result.duration),
    concurrency: opts.connections,
  };
}
