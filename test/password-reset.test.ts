// Password reset by email, end to end through a real SMTP server in this
// process: request, the mail that arrives, its link, confirmation, and every
// way a token must stop working (used, expired, superseded by a password change).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hashSlots } from '../src/platform/auth/hash-slots.js';
import { DEFAULT_LOGIN_LIMITS } from '../src/platform/auth/login-limiter.js';
import { sleep, startSmtp, type TestSmtp } from './mail-support.js';
import { type Res, startTestApp, type TestApp, uniqueEmail } from './support/harness.js';

let t: TestApp;
let smtp: TestSmtp;
// Held still while a test counts a bucket: at 100 per 15 minutes it gains one attempt every 9 s,
// and under CI's load 200 parallel requests have taken longer than that.
let stopped: number | undefined;

before(async () => {
  smtp = await startSmtp();
  t = await startTestApp(
    { mail: { smtpUrl: smtp.url, from: 'Trackway <tw@trackway.test>', batchWindowMs: 0, retryBaseMs: 50 } },
    // The real per-address bucket: reset confirmations count on it (issue 24, finding 3).
    {
      mailWorker: { pollMs: 25 },
      loginLimits: { perAddress: DEFAULT_LOGIN_LIMITS.perAddress },
      clock: () => stopped ?? Date.now(),
    },
  );
});
after(async () => {
  await t.close();
  await smtp.close();
});

const TOKEN = /\/reset-password\?token=([A-Za-z0-9_-]{43})\b/;

/** Asks for a reset and returns the token from the mail that arrives. */
async function mailedToken(email: string): Promise<string> {
  const before = smtp.received.length;
  const res = await t.post('/api/auth/password-reset', { email });
  assert.equal(res.status, 202);
  const mail = (await smtp.waitFor(before + 1))[before]!;
  assert.equal(mail.to && !Array.isArray(mail.to) ? mail.to.value[0]?.address : null, email);
  const m = TOKEN.exec(mail.text ?? '');
  assert.ok(m, `no reset link in ${mail.text}`);
  return m[1]!;
}

const login = (email: string, password: string) => t.post('/api/auth/login', { email, password });

describe('password reset', () => {
  test('GET /api/config says password reset is available', async () => {
    assert.equal((await t.get('/api/config')).body.passwordReset, true);
  });

  test('request, mail, confirm: the new password works, the old one and every session do not', async () => {
    const user = await t.register('Resetting');
    const before = smtp.received.length;
    const token = await mailedToken(user.email);
    const mail = smtp.received[before]!;
    assert.match(mail.text ?? '', new RegExp(`http://trackway\\.test/reset-password\\?token=${token}`));
    assert.equal(mail.from?.value[0]?.address, 'tw@trackway.test');
    assert.equal(mail.subject, 'Reset your Trackway password');
    assert.match(mail.messageId ?? '', /^<[0-9a-f-]{36}@trackway\.test>$/);

    // Recorded as sent just after the server accepted it.
    const sentRow = async () =>
      t.ctx.db
        .selectFrom('outgoing_mail')
        .selectAll()
        .where('to_address', '=', user.email)
        .executeTakeFirstOrThrow();
    const deadline = Date.now() + 10_000;
    while ((await sentRow()).status !== 'sent') {
      assert.ok(Date.now() < deadline, 'recorded as sent');
      await sleep(10);
    }
    const row = await sentRow();
    assert.deepEqual(row.payload, {}, 'a sent message keeps no link');
    const stored = await t.ctx.db
      .selectFrom('password_reset_tokens')
      .select('token_hash')
      .where('user_id', '=', user.user.id)
      .execute();
    assert.equal(stored.length, 1);
    assert.notEqual(stored[0]!.token_hash, token, 'only a hash is stored');

    const ok = await t.post('/api/auth/password-reset/confirm', { token, password: 'brand-new-pw' });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal((await t.get('/api/auth/me', user.token)).status, 401, 'existing sessions end');
    assert.equal((await login(user.email, user.password)).status, 401);
    assert.equal((await login(user.email, 'brand-new-pw')).status, 200);

    const again = await t.post('/api/auth/password-reset/confirm', { token, password: 'another-pw-1' });
    assert.equal(again.status, 400);
    assert.equal(again.body.error.code, 'INVALID_RESET_TOKEN');
    assert.equal((await login(user.email, 'brand-new-pw')).status, 200, 'a used token changes nothing');
  });

  test('an unknown or suspended account gets the same 202 and no mail', async () => {
    const suspended = await t.userWithRole('member');
    const set = await t.patch(`/api/admin/users/${suspended.user.id}`, { status: 'suspended' }, t.adminToken);
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const queued = async () =>
      Number(
        (
          await t.ctx.db
            .selectFrom('outgoing_mail')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await queued();
    const received = smtp.received.length;
    for (const email of [uniqueEmail('nobody'), suspended.email]) {
      const res = await t.post('/api/auth/password-reset', { email });
      assert.equal(res.status, 202);
      assert.deepEqual(res.body, { ok: true });
    }
    await sleep(300);
    assert.equal(await queued(), before, 'nothing queued');
    assert.equal(smtp.received.length, received, 'nothing sent');
  });

  test('an expired token is refused and changes nothing', async () => {
    const user = await t.register('Expiring');
    const token = await mailedToken(user.email);
    await t.ctx.db
      .updateTable('password_reset_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', user.user.id)
      .execute();
    const res = await t.post('/api/auth/password-reset/confirm', { token, password: 'brand-new-pw' });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'INVALID_RESET_TOKEN');
    assert.equal((await login(user.email, user.password)).status, 200);
    assert.equal((await t.get('/api/auth/me', user.token)).status, 200, 'sessions stay');
  });

  test('a password change voids an earlier link; a newer reset voids none but one use ends all', async () => {
    const user = await t.register('Changing');
    const token = await mailedToken(user.email);
    const changed = await t.post(
      '/api/auth/change-password',
      { currentPassword: user.password, newPassword: 'changed-pw-1' },
      user.token,
    );
    assert.equal(changed.status, 200);
    const res = await t.post('/api/auth/password-reset/confirm', { token, password: 'brand-new-pw' });
    assert.equal(res.status, 400);
    assert.equal((await login(user.email, 'changed-pw-1')).status, 200);

    const first = await mailedToken(user.email);
    const second = await mailedToken(user.email);
    assert.notEqual(first, second);
    assert.equal(
      (await t.post('/api/auth/password-reset/confirm', { token: second, password: 'pw-two-2' })).status,
      200,
    );
    const stale = await t.post('/api/auth/password-reset/confirm', { token: first, password: 'pw-one-1' });
    assert.equal(stale.status, 400, 'the other link died with the reset');
    assert.equal((await login(user.email, 'pw-two-2')).status, 200);
  });

  test('bad input: clear 400s, bounded sizes, nothing changed', async () => {
    const cases: [unknown, string][] = [
      [{ token: 'x'.repeat(43) }, 'VALIDATION_FAILED'],
      [{ token: 'short', password: 'long-enough' }, 'INVALID_RESET_TOKEN'],
      [{ token: 'x'.repeat(43), password: 'long-enough' }, 'INVALID_RESET_TOKEN'],
      [{ token: 'x'.repeat(10_000), password: 'long-enough' }, 'VALIDATION_FAILED'],
      [{ token: 'x'.repeat(43), password: '123' }, 'VALIDATION_FAILED'],
    ];
    for (const [body, code] of cases) {
      const res = await t.post('/api/auth/password-reset/confirm', body);
      assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
      assert.equal(res.body.error.code, code, JSON.stringify(res.body));
    }
    const long = await t.post('/api/auth/password-reset', { email: `${'a'.repeat(400)}@example.com` });
    assert.equal(long.status, 400);
    assert.equal((await t.post('/api/auth/password-reset', {})).status, 400);
  });

  test('requests for one address are limited (429 with Retry-After)', async () => {
    const email = uniqueEmail('limited');
    const statuses: number[] = [];
    let last: Res | undefined;
    for (let i = 0; i < 6; i++) {
      last = await t.post('/api/auth/password-reset', { email });
      statuses.push(last.status);
    }
    assert.deepEqual(statuses, [202, 202, 202, 202, 202, 429]);
    assert.equal(last!.body.error.code, 'RATE_LIMITED');
    assert.ok(Number(last!.headers['retry-after']) > 0);
  });
});

describe('issue 24, finding 3: reset confirmations are limited and a wrong token costs no hash', () => {
  const confirm = (token: string, password: string, remoteAddress: string) =>
    t.request('POST', '/api/auth/password-reset/confirm', { body: { token, password }, remoteAddress });

  test('200 parallel wrong tokens with 1,000-character passwords: no password hashed, 100 answered 400, 100 refused 429', async () => {
    const hashed = hashSlots.started.new;
    stopped = Date.now();
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        confirm(`${String(i).padStart(3, '0')}${'x'.repeat(40)}`, 'p'.repeat(1000), '198.51.100.7'),
      ),
    );
    stopped = undefined;
    const count = (status: number) => results.filter((r) => r.status === status).length;
    assert.equal(count(400), DEFAULT_LOGIN_LIMITS.perAddress.capacity);
    assert.equal(count(429), 200 - DEFAULT_LOGIN_LIMITS.perAddress.capacity);
    for (const r of results.filter((x) => x.status === 400))
      assert.equal(r.body.error.code, 'INVALID_RESET_TOKEN');
    for (const r of results.filter((x) => x.status === 429)) {
      assert.equal(r.body.error.code, 'RATE_LIMITED');
      assert.ok(Number(r.headers['retry-after']) >= 1);
    }
    assert.equal(hashSlots.started.new, hashed, 'a wrong token hashed a password');
  });

  test('one valid token raced by 10 confirmations: one succeeds, one password is hashed', async () => {
    const user = await t.register('Raced');
    const token = await mailedToken(user.email);
    const hashed = hashSlots.started.new;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => confirm(token, `raced-pw-${i}`, '198.51.100.8')),
    );
    const won = results.filter((r) => r.status === 200);
    assert.equal(won.length, 1);
    assert.equal(results.filter((r) => r.status === 400).length, 9);
    assert.equal(hashSlots.started.new, hashed + 1);
    const winner = results.indexOf(won[0]!);
    assert.equal((await login(user.email, `raced-pw-${winner}`)).status, 200);
  });

  test('a reset revokes every API key of the account (recovery assumes the old credentials are out)', async () => {
    const user = await t.register('Recovering');
    const { key } = (await t.post('/api/api-keys', { label: 'integration' }, user.token)).body;
    assert.equal((await t.get('/api/auth/me', key)).status, 200);
    const token = await mailedToken(user.email);
    assert.equal(
      (await t.post('/api/auth/password-reset/confirm', { token, password: 'recovered-1' })).status,
      200,
    );
    assert.equal((await t.get('/api/auth/me', key)).status, 401);
    const left = await t.ctx.db
      .selectFrom('api_keys')
      .select('id')
      .where('user_id', '=', user.user.id)
      .execute();
    assert.deepEqual(left, []);
  });
});

describe('without SMTP', () => {
  let plain: TestApp;
  before(async () => {
    plain = await startTestApp();
  });
  after(() => plain.close());

  test('the config says so and a request is refused with a clear code', async () => {
    assert.equal((await plain.get('/api/config')).body.passwordReset, false);
    const res = await plain.post('/api/auth/password-reset', { email: 'admin@example.com' });
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, 'PASSWORD_RESET_UNAVAILABLE');
    const rows = await plain.ctx.db.selectFrom('password_reset_tokens').select('id').execute();
    assert.equal(rows.length, 0);
  });
});
