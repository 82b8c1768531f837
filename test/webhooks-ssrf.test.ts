// Webhook destinations outside the public internet are refused by default:
// at registration and again on every connection (DNS rebinding).
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { isLocalHostName, refusedAddressReason } from '../src/platform/net/address-policy.js';
import { postJson } from '../src/platform/net/outbound-post.js';
import {
  guardedLookup,
  UnsafeDestinationError,
  vetDestination,
} from '../src/platform/net/safe-destination.js';
import { appendEvent } from '../src/platform/outbox.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { type Receiver, sleep, startReceiver } from './webhooks-support.js';

describe('address policy', () => {
  const refused = [
    '127.0.0.1',
    '127.255.0.9',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.1.2.3',
    '::ffff:169.254.169.254',
    '64:ff9b::a00:1',
  ];
  for (const a of refused) {
    test(`refuses ${a}`, () => assert.ok(refusedAddressReason(a)));
  }
  const allowed = [
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
  ];
  for (const a of allowed) {
    test(`allows ${a}`, () => assert.equal(refusedAddressReason(a), null));
  }
  test('localhost-like names', () => {
    for (const n of ['localhost', 'LOCALHOST.', 'api.localhost', 'ip6-localhost', 'localhost.localdomain']) {
      assert.ok(isLocalHostName(n), n);
    }
    assert.equal(isLocalHostName('localhost.example.com'), false);
  });

  test('registration check resolves names and refuses any private answer', async () => {
    const resolver = async (host: string) =>
      host === 'mixed.test'
        ? [
            { address: '93.184.216.34', family: 4 },
            { address: '10.0.0.5', family: 4 },
          ]
        : [{ address: '93.184.216.34', family: 4 }];
    await assert.rejects(
      vetDestination('https://mixed.test/hook', { allowPrivate: false, resolver }),
      UnsafeDestinationError,
    );
    const ok = await vetDestination('https://public.test/hook', { allowPrivate: false, resolver });
    assert.equal(ok.hostname, 'public.test');
    const nx = async () => {
      throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    await assert.rejects(
      vetDestination('https://nowhere.test/', { allowPrivate: false, resolver: nx }),
      /does not resolve/,
    );
  });

  test('the connection-time lookup refuses a name that now resolves privately (DNS rebinding)', async () => {
    const lookup = guardedLookup(false, async () => [{ address: '127.0.0.1', family: 4 }]);
    const err = await new Promise<Error | null>((resolve) =>
      lookup('rebind.test', { all: true }, (e) => resolve(e as Error | null)),
    );
    assert.ok(err instanceof UnsafeDestinationError);
    const allowed = guardedLookup(false, async () => [{ address: '93.184.216.34', family: 4 }]);
    const address = await new Promise<string>((resolve, reject) =>
      allowed('public.test', {}, (e, a) => (e ? reject(e) : resolve(a as string))),
    );
    assert.equal(address, '93.184.216.34');
  });
});

describe('with WEBHOOK_ALLOW_PRIVATE=false', () => {
  let t: TestApp;
  let rx: Receiver;
  before(async () => {
    t = await startTestApp({ webhookAllowPrivate: false });
    rx = await startReceiver();
  });
  after(async () => {
    await rx.close();
    await t.close();
  });

  const refusedUrls = [
    'http://127.0.0.1/hook',
    'http://127.0.0.1:8080/hook',
    'http://10.0.0.1/hook',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://192.168.0.10/hook',
    'http://100.64.1.1/hook',
    'http://[fd00::1]/hook',
    'http://0.0.0.0/hook',
    'ftp://x/hook',
    'file:///etc/passwd',
    'http://localhost/hook',
    'http://localhost.:3000/hook',
    'http://app.localhost/hook',
    'http://2130706433/hook',
  ];
  for (const url of refusedUrls) {
    test(`registration refuses ${url}`, async () => {
      const res = await t.post('/api/admin/webhooks', { url }, t.adminToken);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'VALIDATION_FAILED');
      assert.equal(res.body.error.details[0].field, '/url');
    });
  }

  test('a public address literal is accepted, and PATCH to a private one is refused', async () => {
    const res = await t.post('/api/admin/webhooks', { url: 'https://93.184.216.34/hook' }, t.adminToken);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const patch = await t.patch(
      `/api/admin/webhooks/${res.body.webhook.id}`,
      { url: 'http://10.1.1.1/x' },
      t.adminToken,
    );
    assert.equal(patch.status, 400);
    const still = await t.get(`/api/admin/webhooks/${res.body.webhook.id}`, t.adminToken);
    assert.equal(still.body.webhook.url, 'https://93.184.216.34/hook');
    await t.del(`/api/admin/webhooks/${res.body.webhook.id}`, t.adminToken);
  });

  test('delivery re-checks the destination: an endpoint stored with a private URL gets nothing', async () => {
    // As if registered while allowed (or via a name that resolved publicly then).
    for (const url of [rx.url, `http://localhost:${rx.port}/hook`]) {
      const hook = await t.ctx.db
        .insertInto('webhooks')
        .values({ url, secret: 's'.repeat(32), creator_id: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      await t.ctx.db
        .transaction()
        .execute((trx) =>
          appendEvent(trx, { type: 'issue', action: 'create', data: { id: 'x' }, actor: null }),
        );
      const deadline = Date.now() + 20_000;
      let log: any[] = [];
      while (Date.now() < deadline) {
        const res = await t.get(`/api/admin/webhooks/${hook.id}/deliveries`, t.adminToken);
        log = res.body.deliveries;
        if (log[0]?.attempts.length >= 1) break;
        await sleep(25);
      }
      assert.match(log[0].attempts[0].error, /destination refused/);
      assert.equal(log[0].attempts[0].statusCode, null);
      await t.del(`/api/admin/webhooks/${hook.id}`, t.adminToken);
    }
    assert.equal(rx.received.length, 0, 'the receiver on 127.0.0.1 was never contacted');
  });
});

test('outgoing posts refuse local names unless private destinations are allowed', async () => {
  const server = http.createServer((_req, res) => res.end('reached'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  try {
    const viaName = await postJson(
      `http://localhost:${port}/`,
      '{}',
      {},
      { timeoutMs: 2000, allowPrivate: false },
    );
    assert.equal(viaName.ok, false);
    assert.match(viaName.error ?? '', /destination refused/);
    const allowed = await postJson(
      `http://127.0.0.1:${port}/`,
      '{}',
      {},
      { timeoutMs: 2000, allowPrivate: true },
    );
    assert.equal(allowed.ok, true);
    assert.equal(allowed.responseBody, 'reached');
  } finally {
    server.close();
  }
});
