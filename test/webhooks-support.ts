// A real HTTP receiver on 127.0.0.1 for webhook tests, and small helpers.
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: any;
  at: number;
}

/** What to answer: a status (and body), or 'hang' to never answer. */
export type Reply = { status: number; body?: string; delayMs?: number } | 'hang';

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  reply: (r: Received) => Reply;
  waitFor(pred: (all: Received[]) => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const hanging = new Set<http.ServerResponse>();
  const r: Receiver = {
    url: '',
    port: 0,
    received: [],
    reply: () => ({ status: 200, body: 'ok' }),
    async waitFor(pred, what, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pred(r.received)) {
        if (Date.now() > deadline) {
          throw new Error(`timed out waiting for ${what}; received ${r.received.length} requests`);
        }
        await new Promise((res) => setTimeout(res, 20));
      }
    },
    close: () =>
      new Promise((res) => {
        for (const h of hanging) h.destroy();
        server.closeAllConnections();
        server.close(() => res());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      const rec: Received = { headers: req.headers, raw, body, at: Date.now() };
      r.received.push(rec);
      const reply = r.reply(rec);
      if (reply === 'hang') {
        hanging.add(res);
        return;
      }
      const send = () => {
        res.statusCode = reply.status;
        res.end(reply.body ?? '');
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((res) => server.listen(port, '127.0.0.1', () => res()));
  r.port = (server.address() as AddressInfo).port;
  r.url = `http://127.0.0.1:${r.port}/hook`;
  return r;
}

/** Verifies X-Service-Signature the way a receiver should: HMAC over the raw body, constant time. */
export function signatureValid(secret: string, rec: Received): boolean {
  const header = String(rec.headers['x-service-signature'] ?? '');
  if (!header.startsWith('sha256=')) return false;
  const expected = createHmac('sha256', secret).update(rec.raw).digest();
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));
