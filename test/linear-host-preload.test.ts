// The preload the real-client tests run clients under: api.linear.app goes to
// the URL it is given, through fetch and through node:https (a path no client
// uses today, so it is proved here), and anything else off this machine is refused.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { PRELOAD } from './support/real-clients.js';

let server: http.Server;
let base: string;
const seen: string[] = [];

before(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''} ${body}`);
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-complexity', '1.5');
      res.end(JSON.stringify({ data: { viewer: { id: 'u1' } } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

/** Runs a module (ESM source) under the preload; answers its standard output. */
async function underPreload(source: string, captureFile?: string): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', PRELOAD, '--input-type=module', '-e', source],
    {
      env: {
        PATH: process.env['PATH'] ?? '',
        LINEAR_REDIRECT_URL: base,
        LINEAR_CAPTURE_CLIENT: 'probe',
        ...(captureFile ? { LINEAR_CAPTURE_FILE: captureFile } : {}),
      },
    },
  );
  return stdout;
}

test('fetch to api.linear.app reaches the given server and is recorded with its answer', async () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'preload-')), 'sent.jsonl');
  const out = await underPreload(
    `const r = await fetch('https://api.linear.app/graphql', { method: 'POST',
       headers: { authorization: 'key-1', 'content-type': 'application/json' },
       body: JSON.stringify({ query: 'query Me { viewer { id } }', variables: { a: 1 } }) });
     console.log(JSON.stringify(await r.json()));`,
    file,
  );
  assert.deepEqual(JSON.parse(out), { data: { viewer: { id: 'u1' } } });
  assert.match(seen.at(-1)!, /^POST \/graphql key-1 \{"query":"query Me/);
  const [line] = fs.readFileSync(file, 'utf8').trim().split('\n');
  const sent = JSON.parse(line!);
  assert.equal(sent.client, 'probe');
  assert.equal(sent.query, 'query Me { viewer { id } }');
  assert.deepEqual(sent.variables, { a: 1 });
  assert.equal(sent.status, 200);
  assert.equal(sent.complexity, '1.5');
  fs.rmSync(path.dirname(file), { recursive: true });
});

test('node:https to api.linear.app reaches the given server too, through request and get', async () => {
  const out = await underPreload(
    `import https, { get } from 'node:https';
     const read = (res) => new Promise((ok) => { let b = ''; res.on('data', (d) => (b += d)); res.on('end', () => ok(b)); });
     const req = https.request('https://api.linear.app/graphql?x=1', { method: 'POST', headers: { authorization: 'key-2' } },
       async (res) => { console.log(res.statusCode, await read(res));
         get({ host: 'api.linear.app', path: '/graphql' }, async (r2) => console.log(r2.statusCode, await read(r2))); });
     req.end('{"query":"{ viewer { id } }"}');`,
  );
  assert.deepEqual(out.trim().split('\n'), [
    '200 {"data":{"viewer":{"id":"u1"}}}',
    '200 {"data":{"viewer":{"id":"u1"}}}',
  ]);
  assert.ok(seen.includes('POST /graphql?x=1 key-2 {"query":"{ viewer { id } }"}'));
  assert.ok(seen.includes('GET /graphql  '));
});

test('any other host off this machine is refused, through fetch and node:https', async () => {
  const out = await underPreload(
    `import https from 'node:https';
     try { await fetch('https://example.com/'); } catch (e) { console.log(e.message); }
     try { https.get('https://example.com/'); } catch (e) { console.log(e.message); }`,
  );
  assert.deepEqual(out.trim().split('\n'), [
    'linear-host-preload: no network in tests; refused a request to https://example.com',
    'linear-host-preload: no network in tests; refused a request to https://example.com',
  ]);
});
