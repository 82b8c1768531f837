// test-runner: any database
// The outgoing POST itself: pooled connections and what a receiver can do to us.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { test } from 'node:test';
import { keepAliveAgents, postJson } from '../src/platform/net/outbound-post.js';

async function serve(handler: http.RequestListener) {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return { url, close };
}

test('a pooled connection the receiver dropped is retried once on a fresh one', async () => {
  const served = new WeakSet<Socket>();
  let requests = 0;
  const s = await serve((req, res) => {
    requests++;
    req.resume();
    if (served.has(req.socket)) {
      req.socket.destroy(); // as if its keep-alive timeout fired just now
      return;
    }
    served.add(req.socket);
    res.end('ok');
  });
  const agents = keepAliveAgents();
  try {
    const opts = { timeoutMs: 5000, allowPrivate: true, agents };
    assert.equal((await postJson(s.url, '{}', {}, opts)).ok, true);
    const second = await postJson(s.url, '{}', {}, opts);
    assert.equal(second.ok, true, second.error ?? '');
    assert.equal(second.responseBody, 'ok');
    assert.equal(requests, 3);
  } finally {
    agents.http.destroy();
    await s.close();
  }
});

test('a huge or binary response is cut to its first KB and stored safely', async () => {
  const s = await serve((req, res) => {
    req.resume();
    res.statusCode = 500;
    res.end(Buffer.concat([Buffer.from('a\0b'), Buffer.alloc(400_000, 'x')]));
  });
  try {
    const out = await postJson(s.url, '{}', {}, { timeoutMs: 5000, allowPrivate: true });
    assert.equal(out.ok, false);
    assert.equal(out.statusCode, 500);
    assert.equal(out.error, 'HTTP 500');
    assert.ok(out.responseBody!.startsWith('a\uFFFDb'));
    assert.equal(Buffer.byteLength(out.responseBody!.replace('\uFFFD', '\0')), 1024);
  } finally {
    await s.close();
  }
});

test('connection refused is a failure with a readable error', async () => {
  const s = await serve((_req, res) => res.end());
  await s.close();
  const out = await postJson(s.url, '{}', {}, { timeoutMs: 2000, allowPrivate: true });
  assert.equal(out.ok, false);
  assert.equal(out.statusCode, null);
  assert.match(out.error ?? '', /ECONNREFUSED/);
});
