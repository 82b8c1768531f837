// A small Server-Sent Events reader over a real socket, for the change stream
// tests: parses events as they arrive, can stop reading (a slow client) and
// keeps the raw text (heartbeats are comment lines, which parsers drop).
import http from 'node:http';

export interface SseEvent {
  id: string | undefined;
  event: string;
  data: any;
}

export interface SseClient {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The JSON body when the answer is not a stream (an error). */
  body: any;
  events: SseEvent[];
  raw(): string;
  /** The last id the stream set (also by id-only lines), as EventSource keeps it. */
  lastEventId: string | undefined;
  ended: Promise<void>;
  isEnded(): boolean;
  /** Waits for the first event (from `from` on) that matches. */
  next(match: (e: SseEvent) => boolean, timeoutMs?: number, from?: number): Promise<SseEvent>;
  pause(): void;
  resume(): void;
  close(): void;
}

export function openSse(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${path}`, { headers: { accept: 'text/event-stream', ...headers } });
    req.once('error', reject);
    req.once('response', (res) => {
      let text = '';
      let pending = '';
      let current: { id?: string; event?: string; data: string[] } = { data: [] };
      let done = false;
      const waiters = new Set<() => void>();
      const client: SseClient = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        body: undefined,
        events: [],
        raw: () => text,
        lastEventId: undefined,
        ended: new Promise((r) =>
          res.once('close', () => {
            done = true;
            for (const w of waiters) w();
            r();
          }),
        ),
        isEnded: () => done,
        next(match, timeoutMs = 5000, from = 0) {
          return new Promise((ok, fail) => {
            const check = () => {
              const found = client.events.slice(from).find(match);
              if (found) {
                waiters.delete(check);
                clearTimeout(timer);
                ok(found);
              } else if (done) {
                waiters.delete(check);
                clearTimeout(timer);
                fail(new Error(`stream ended; events: ${JSON.stringify(client.events.map((e) => e.event))}`));
              }
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`no matching event in ${timeoutMs} ms; got ${JSON.stringify(client.events)}`));
            }, timeoutMs);
            waiters.add(check);
            check();
          });
        },
        pause: () => res.pause(),
        resume: () => res.resume(),
        close: () => req.destroy(),
      };
      if (!String(res.headers['content-type']).startsWith('text/event-stream')) {
        let body = '';
        res.on('data', (d) => {
          body += d;
        });
        res.once('end', () => {
          client.body = body ? JSON.parse(body) : undefined;
          resolve(client);
        });
        return;
      }
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        pending += chunk;
        let nl = pending.indexOf('\n');
        while (nl >= 0) {
          const line = pending.slice(0, nl);
          pending = pending.slice(nl + 1);
          nl = pending.indexOf('\n');
          if (line === '') {
            if (current.id !== undefined) client.lastEventId = current.id;
            if (current.data.length > 0) {
              client.events.push({
                id: current.id,
                event: current.event ?? 'message',
                data: JSON.parse(current.data.join('\n')),
              });
            }
            current = { data: [] };
            continue;
          }
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = line.slice(0, colon);
          const value = line.slice(colon + 1).replace(/^ /, '');
          if (field === 'id') current.id = value;
          else if (field === 'event') current.event = value;
          else if (field === 'data') current.data.push(value);
        }
        for (const w of [...waiters]) w();
      });
      resolve(client);
    });
  });
}
