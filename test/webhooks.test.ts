import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { appendEvent } from '../src/platform/outbox.js';
import { actor, createHook, deliveriesOf, emit, member, rx, setUpWebhookBed, t } from './webhooks-bed.js';
import { signatureValid, sleep } from './webhooks-support.js';

setUpWebhookBed();

describe('webhook administration', () => {
  test('admins only: 401 without a token, 403 for members', async () => {
    assert.equal((await t.get('/api/admin/webhooks')).status, 401);
    assert.equal((await t.post('/api/admin/webhooks', { url: rx.url })).status, 401);
    const asMember = await t.post('/api/admin/webhooks', { url: rx.url }, member.token);
    assert.equal(asMember.status, 403);
    assert.equal((await t.get('/api/admin/webhooks', member.token)).status, 403);
    const hook = await createHook();
    for (const [method, path] of [
      ['GET', `/api/admin/webhooks/${hook.id}`],
      ['PATCH', `/api/admin/webhooks/${hook.id}`],
      ['DELETE', `/api/admin/webhooks/${hook.id}`],
      ['GET', `/api/admin/webhooks/${hook.id}/deliveries`],
      ['POST', `/api/admin/webhooks/${hook.id}/rotate-secret`],
    ] as const) {
      const body = method === 'PATCH' ? { label: 'x' } : undefined;
      const res = await t.request(method, path, { token: member.token, body });
      assert.equal(res.status, 403, `${method} ${path}`);
    }
    const guest = await t.userWithRole('guest', { teams: ['ENG'] });
    assert.equal((await t.get(`/api/admin/webhooks/${hook.id}`, guest.token)).status, 403);
  });

  test('creation generates a strong secret, shown only at creation and rotation', async () => {
    const hook = await createHook({ label: 'CI', resourceTypes: ['issue', 'comment'] });
    assert.ok(hook.secret.length >= 43, 'base64url of 32 random bytes');
    assert.equal(hook.label, 'CI');
    assert.equal(hook.enabled, true);
    assert.deepEqual(hook.resourceTypes, ['issue', 'comment']);
    const other = await createHook();
    assert.notEqual(other.secret, hook.secret);

    const one = await t.get(`/api/admin/webhooks/${hook.id}`, t.adminToken);
    assert.equal(one.status, 200);
    assert.equal(one.body.webhook.id, hook.id);
    assert.equal('secret' in one.body.webhook, false);
    const list = await t.get('/api/admin/webhooks', t.adminToken);
    assert.equal(list.status, 200);
    assert.ok(list.body.webhooks.some((w: any) => w.id === hook.id));
    assert.equal(list.body.pageInfo.total, 2);
    const patched = await t.patch(`/api/admin/webhooks/${hook.id}`, { label: 'Renamed' }, t.adminToken);
    assert.equal(patched.status, 200);
    assert.equal(patched.body.webhook.label, 'Renamed');
    for (const res of [one, list, patched]) assert.ok(!JSON.stringify(res.body).includes(hook.secret));

    const rotated = await t.post(`/api/admin/webhooks/${hook.id}/rotate-secret`, undefined, t.adminToken);
    assert.equal(rotated.status, 200);
    assert.ok(rotated.body.webhook.secret.length >= 43);
    assert.notEqual(rotated.body.webhook.secret, hook.secret);
    const after = await t.get(`/api/admin/webhooks/${hook.id}`, t.adminToken);
    assert.ok(!JSON.stringify(after.body).includes(rotated.body.webhook.secret));

    // Deliveries are signed with the new secret from now on.
    await emit({ type: 'issue', action: 'create' });
    await rx.waitFor((all) => all.length >= 2, 'two deliveries');
    const mine = rx.received.find((r) => r.body.webhookId === hook.id)!;
    assert.ok(signatureValid(rotated.body.webhook.secret, mine));
    assert.ok(!signatureValid(hook.secret, mine));
  });

  test('a given secret is kept; shorter than 16 characters is refused', async () => {
    const hook = await createHook({ secret: 's'.repeat(16) });
    assert.equal(hook.secret, 's'.repeat(16));
    const short = await t.post('/api/admin/webhooks', { url: rx.url, secret: 'too-short' }, t.adminToken);
    assert.equal(short.status, 400);
    assert.equal(short.body.error.code, 'VALIDATION_FAILED');
  });

  const invalid: [string, unknown][] = [
    ['missing url', {}],
    ['unknown resource type', { url: 'http://127.0.0.1:9/x', resourceTypes: ['user'] }],
    ['resourceTypes not an array', { url: 'http://127.0.0.1:9/x', resourceTypes: 'issue' }],
    ['enabled as a string', { url: 'http://127.0.0.1:9/x', enabled: 'yes' }],
    ['unknown field', { url: 'http://127.0.0.1:9/x', events: ['issue'] }],
    ['not a URL', { url: 'not a url' }],
    ['ftp scheme', { url: 'ftp://example.com/x' }],
    ['unknown team', { url: 'http://127.0.0.1:9/x', teamId: '00000000-0000-4000-8000-000000000000' }],
  ];
  for (const [what, body] of invalid) {
    test(`400 for ${what}, and nothing is created`, async () => {
      const res = await t.post('/api/admin/webhooks', body, t.adminToken);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'VALIDATION_FAILED');
      assert.equal((await t.get('/api/admin/webhooks', t.adminToken)).body.pageInfo.total, 0);
    });
  }

  test('404 for unknown ids, 400 for malformed ones', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    assert.equal((await t.get(`/api/admin/webhooks/${unknown}`, t.adminToken)).status, 404);
    assert.equal((await t.patch(`/api/admin/webhooks/${unknown}`, { label: 'x' }, t.adminToken)).status, 404);
    assert.equal((await t.del(`/api/admin/webhooks/${unknown}`, t.adminToken)).status, 404);
    assert.equal((await t.get(`/api/admin/webhooks/${unknown}/deliveries`, t.adminToken)).status, 404);
    assert.equal((await t.get('/api/admin/webhooks/nope', t.adminToken)).status, 400);
    const hook = await createHook();
    const res = await t.post(
      `/api/admin/webhooks/${hook.id}/deliveries/${unknown}/redeliver`,
      undefined,
      t.adminToken,
    );
    assert.equal(res.status, 404);
  });

  test('PATCH changes url, enabled and resourceTypes; DELETE stops deliveries', async () => {
    const hook = await createHook();
    const bad = await t.patch(`/api/admin/webhooks/${hook.id}`, { resourceTypes: ['nope'] }, t.adminToken);
    assert.equal(bad.status, 400);
    const empty = await t.patch(`/api/admin/webhooks/${hook.id}`, {}, t.adminToken);
    assert.equal(empty.status, 400);
    const res = await t.patch(
      `/api/admin/webhooks/${hook.id}`,
      { enabled: false, resourceTypes: ['project'], url: `${rx.url}/v2` },
      t.adminToken,
    );
    assert.equal(res.status, 200);
    assert.equal(res.body.webhook.enabled, false);
    assert.deepEqual(res.body.webhook.resourceTypes, ['project']);
    assert.equal(res.body.webhook.url, `${rx.url}/v2`);
    assert.equal((await t.del(`/api/admin/webhooks/${hook.id}`, t.adminToken)).status, 200);
    assert.equal((await t.get(`/api/admin/webhooks/${hook.id}`, t.adminToken)).status, 404);
  });
});

describe('delivery', () => {
  test('every event kind arrives signed, with the documented headers and body', async () => {
    const hook = await createHook();
    const kinds = ['issue', 'comment', 'project', 'cycle', 'label', 'attachment'] as const;
    const actions = ['create', 'update', 'remove'] as const;
    const expected: string[] = [];
    for (const type of kinds) {
      for (const action of actions) {
        await emit({
          type,
          action,
          data: { id: `${type}-1`, title: `A ${type}` },
          ...(action === 'update' ? { updatedFrom: { title: 'Before' } } : {}),
          url: `http://trackway.test/${type}/1`,
        });
        expected.push(`${type}.${action}`);
      }
    }
    await rx.waitFor((all) => all.length >= expected.length, 'every event');
    assert.deepEqual(
      rx.received.map((r) => r.headers['x-service-event']),
      expected,
      'in order, one request each',
    );
    const ids = new Set<string>();
    for (const r of rx.received) {
      assert.ok(signatureValid(hook.secret, r), 'signature over the raw body');
      assert.equal(r.headers['content-type'], 'application/json');
      assert.equal(r.headers['user-agent'], 'Trackway-Webhooks/1 (+http://trackway.test)');
      const [type, action] = String(r.headers['x-service-event']).split('.');
      assert.equal(r.body.type, type);
      assert.equal(r.body.action, action);
      assert.equal(r.body.data.id, `${type}-1`);
      assert.equal(r.body.url, `http://trackway.test/${type}/1`);
      assert.deepEqual(r.body.actor, { ...actor, type: 'user' });
      assert.equal(r.body.webhookId, hook.id);
      assert.match(r.body.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.equal(typeof r.body.webhookTimestamp, 'number');
      assert.ok(Math.abs(r.body.webhookTimestamp - r.at) < 60_000);
      if (action === 'update') assert.deepEqual(r.body.updatedFrom, { title: 'Before' });
      else assert.equal('updatedFrom' in r.body, false);
      ids.add(String(r.headers['x-service-delivery']));
    }
    assert.equal(ids.size, expected.length, 'one delivery id per event');

    // The receiver logs a request before its answer reaches the worker, which then records the
    // outcome: wait for the records (a delivery still in flight is not a failed one).
    let log = await deliveriesOf(hook.id);
    for (let i = 0; i < 100 && log.some((d) => d.status === 'delivering' || d.status === 'pending'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      log = await deliveriesOf(hook.id);
    }
    assert.equal(log.length, expected.length);
    assert.equal(log[0].event, 'attachment.remove', 'newest first');
    assert.ok(log.every((d) => d.status === 'succeeded' && d.attemptCount === 1 && d.nextAttemptAt === null));
    assert.ok(ids.has(log[0].id));
    assert.equal(log[0].attempts[0].statusCode, 200);
    assert.equal(log[0].attempts[0].responseBody, 'ok');
  });

  test('a rolled-back change sends nothing', async () => {
    const hook = await createHook();
    await assert.rejects(
      t.ctx.db.transaction().execute(async (trx) => {
        await appendEvent(trx, { type: 'issue', action: 'create', data: { id: 'x' }, actor });
        throw new Error('roll back');
      }),
      /roll back/,
    );
    await emit({ type: 'issue', action: 'update' });
    await rx.waitFor((all) => all.length >= 1, 'the committed event');
    assert.deepEqual(
      (await deliveriesOf(hook.id)).map((d) => d.event),
      ['issue.update'],
    );
  });

  test('resourceTypes filters what an endpoint receives', async () => {
    const comments = await createHook({ resourceTypes: ['comment'] });
    await emit({ type: 'issue', action: 'create' });
    await emit({ type: 'comment', action: 'create' });
    await emit({ type: 'project', action: 'update' });
    await emit({ type: 'comment', action: 'remove' });
    await rx.waitFor((all) => all.length >= 2, 'the comment events');
    await sleep(200);
    assert.deepEqual(
      rx.received.map((r) => r.headers['x-service-event']),
      ['comment.create', 'comment.remove'],
    );
    assert.deepEqual(
      (await deliveriesOf(comments.id)).map((d) => d.event),
      ['comment.remove', 'comment.create'],
    );
  });

  test('an endpoint scoped to a team receives that team and workspace-wide events only', async () => {
    const teams = await t.ctx.db.selectFrom('teams').select('id').execute();
    const eng = teams[0]!.id;
    const scoped = await createHook({ teamId: eng });
    assert.equal(scoped.teamId, eng);
    await emit({ type: 'issue', action: 'create', data: { id: 'a', teamId: eng } });
    await emit({
      type: 'issue',
      action: 'create',
      data: { id: 'b', teamId: '6f9a3a51-7f2e-4d5e-9c61-2d2d7c9a1111' },
    });
    await emit({ type: 'label', action: 'create', data: { id: 'c', teamId: null } });
    await emit({ type: 'comment', action: 'create', data: { id: 'd', issueId: 'x' }, teamId: eng });
    await rx.waitFor((all) => all.length >= 3, 'three events');
    await sleep(200);
    assert.deepEqual(
      rx.received.map((r) => r.body.data.id),
      ['a', 'c', 'd'],
    );
  });
});
