// A change-stream reader for the fan-out benchmark: raw http.request reading
// text/event-stream, not EventSource, so nothing between the socket and the
// clock (no reconnects, no event dispatch) hides or adds latency.
import http from 'node:http';

export interface Received {
  syncId: number;
  /** The changed record's id. */
  recordId: string;
  event: string;
  /** performance.now() when the chunk holding it arrived. */
  at: number;
}

export interface StreamClient {
  userIndex: number;
  /** The position of the `ready` event. */
  readyAt: number;
  events: Received[];
  /** `resume` / `unauthorized` / a socket error: the stream ended before we closed it. */
  ended: string | null;
  close(): void;
}

/** Opens `GET /api/stream` with a bearer token; resolves at `ready`, rejects on anything else. */
export function openStream(
  base: string,
  token: string,
  userIndex: number,
  timeoutMs = 30_000,
): Promise<StreamClient> {
  return new Promise((resolve, reject) => {
    const url = new URL('/api/stream', base);
    let ready = false;
    let closing = false;
    const client: StreamClient = {
      userIndex,
      readyAt: -1,
      events: [],
      ended: null,
      close: () => {
        closing = true;
        req.destroy();
      },
    };
    const timer = setTimeout(() => fail(new Error('no ready event in time')), timeoutMs);
    const fail = (err: Error) => {
      clearTimeout(timer);
      if (!ready) reject(err);
      else if (!closing) client.ended ??= err.message;
      req.destroy();
    };
    // agent: false: one socket per stream, as separate browser tabs would have.
    const req = http.request(url, { agent: false, headers: { authorization: `Bearer ${token}` } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return fail(new Error(`stream answered HTTP ${res.statusCode}`));
      }
      res.setEncoding('utf8');
      let partial = '';
      let id: number | null = null;
      let event: string | null = null;
      let data: string | null = null;
      res.on('data', (chunk: string) => {
        const at = performance.now();
        const lines = (partial + chunk).split('\n');
        partial = lines.pop()!;
        for (const line of lines) {
          if (line === '') {
            // End of one message: an id alone (no event) only moves the resume point.
            if (event === 'ready' && id !== null) {
              ready = true;
              client.readyAt = id;
              clearTimeout(timer);
              resolve(client);
            } else if (event === 'resume' || event === 'unauthorized') {
              client.ended ??= `${event}: ${data}`;
            } else if (event && id !== null && data) {
              const d = JSON.parse(data) as { id: string };
              client.events.push({ syncId: id, recordId: d.id, event, at });
            }
            id = null;
            event = null;
            data = null;
          } else if (line.startsWith('id: ')) id = Number(line.slice(4));
          else if (line.startsWith('event: ')) event = line.slice(7);
          else if (line.startsWith('data: ')) data = line.slice(6);
          // `retry:` and `: heartbeat` lines need nothing.
        }
      });
      res.on('end', () => fail(new Error('stream ended by the server')));
      res.on('error', (err) => fail(err));
    });
    req.on('error', (err) => fail(err));
    req.end();
  });
}
