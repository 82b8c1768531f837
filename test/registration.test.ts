// Self-registration rules through HTTP: open by default, closable by an admin
// (invite-only), limitable to email domains, and rate-limited per address
// before the password is hashed. Refused registrations create nothing.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { type Res, startTestApp, type TestApp, uniqueEmail } from './support/harness.js';

let t: TestApp;
let member: { token: string };
let now = Date.UTC(2026, 10, 23, 12, 0, 0);

before(async () => {
  // Two registrations per address per hour, on a clock the tests move.
  t = await startTestApp(
    {},
    { clock: () => now, loginLimits: { registrations: { capacity: 2, windowMs: 3600_000 } } },
  );
  member = await t.userWithRole('member');
});
after(() => t.close());

let addressCounter = 0;
/** Each registration from its own address, unless a test says otherwise. */
function register(email: string, remoteAddress = `198.51.100.${++addressCounter}`) {
  return t.request('POST', '/api/auth/register', {
    body: { name: 'New Person', email, password: 'password-123' },
    remoteAddress,
  });
}

const setRegistration = (body: unknown, token = t.adminToken) =>
  t.patch('/api/admin/registration', body, token);

async function accountExists(email: string) {
  const res = await t.get('/api/admin/users?limit=250', t.adminToken);
  return res.body.users.some((u: { email: string }) => u.email === email.toLowerCase());
}

function assertError(res: Res, status: number, code: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.error.code, code);
}

afterEach(async () => {
  assert.equal((await setRegistration({ open: true, allowedEmailDomains: [] })).status, 200);
});

describe('defaults', () => {
  test('registration is open to any domain, and GET /config says so', async () => {
    assert.deepEqual((await t.get('/api/admin/registration', t.adminToken)).body, {
      registration: { open: true, allowedEmailDomains: [] },
    });
    assert.deepEqual((await t.get('/api/config')).body.registration, { open: true });
    assert.equal((await register(uniqueEmail('open'))).status, 201);
  });
});

describe('closed registration (invite-only)', () => {
  test('register is refused 403 REGISTRATION_CLOSED and creates nothing; admins still add users', async () => {
    const res = await setRegistration({ open: false });
    assert.deepEqual(res.body, { registration: { open: false, allowedEmailDomains: [] } });
    assert.deepEqual((await t.get('/api/config')).body.registration, { open: false });
    const email = uniqueEmail('closed');
    assertError(await register(email), 403, 'REGISTRATION_CLOSED');
    assert.equal(await accountExists(email), false);
    const added = await t.post(
      '/api/admin/users',
      { name: 'Invited', email, password: 'password-123', role: 'member' },
      t.adminToken,
    );
    assert.equal(added.status, 201);
    assert.equal((await t.post('/api/auth/login', { email, password: 'password-123' })).status, 200);
  });

  test('a refusal costs no registration from the address', async () => {
    await setRegistration({ open: false });
    const address = '192.0.2.30';
    for (let i = 0; i < 5; i++)
      assertError(await register(uniqueEmail('c'), address), 403, 'REGISTRATION_CLOSED');
    await setRegistration({ open: true });
    assert.equal((await register(uniqueEmail('c'), address)).status, 201);
    assert.equal((await register(uniqueEmail('c'), address)).status, 201);
  });
});

describe('allowed email domains', () => {
  test('stored lower-case without duplicates; matched case-insensitively and exactly', async () => {
    const res = await setRegistration({
      allowedEmailDomains: ['Example.COM', 'example.com', 'corp.example.org'],
    });
    assert.deepEqual(res.body.registration, {
      open: true,
      allowedEmailDomains: ['example.com', 'corp.example.org'],
    });
    const stamp = `${process.pid}-${Date.now()}`;
    assert.equal((await register(`ok-${stamp}@EXAMPLE.com`)).status, 201);
    assert.equal((await register(`ok-${stamp}@corp.example.org`)).status, 201);
    for (const email of [
      `no-${stamp}@sub.example.com`, // subdomains are listed separately
      `no-${stamp}@example.com.evil.io`,
      `no-${stamp}@notexample.com`,
      `no-${stamp}@example.org`,
    ]) {
      assertError(await register(email), 403, 'EMAIL_DOMAIN_NOT_ALLOWED');
      assert.equal(await accountExists(email), false, email);
    }
  });

  test('an empty list admits any domain again', async () => {
    await setRegistration({ allowedEmailDomains: ['example.com'] });
    assertError(
      await register(uniqueEmail('x').replace('example.com', 'example.net')),
      403,
      'EMAIL_DOMAIN_NOT_ALLOWED',
    );
    await setRegistration({ allowedEmailDomains: [] });
    assert.equal((await register(uniqueEmail('x').replace('example.com', 'example.net'))).status, 201);
  });
});

describe('rate limit per address', () => {
  test('two per hour from one address; the third is 429 with Retry-After and creates nothing', async () => {
    const address = '192.0.2.40';
    assert.equal((await register(uniqueEmail('r'), address)).status, 201);
    assert.equal((await register(uniqueEmail('r'), address)).status, 201);
    const email = uniqueEmail('r');
    const limited = await register(email, address);
    assertError(limited, 429, 'RATE_LIMITED');
    assert.equal(limited.headers['retry-after'], '1800');
    assert.equal(await accountExists(email), false);
    assert.equal(
      (await register(uniqueEmail('r'), '192.0.2.41')).status,
      201,
      'other addresses are not affected',
    );
    now += 1800_000;
    assert.equal((await register(email, address)).status, 201, 'one comes back every 30 minutes');
  });

  test('parallel registrations from one address: exactly the limit gets through', async () => {
    const emails = Array.from({ length: 10 }, () => uniqueEmail('p'));
    const results = await Promise.all(emails.map((e) => register(e, '192.0.2.42')));
    assert.deepEqual(results.map((r) => r.status).sort(), [201, 201, ...Array(8).fill(429)]);
    const created = await Promise.all(emails.map(accountExists));
    assert.equal(created.filter(Boolean).length, 2);
  });
});

describe('administration', () => {
  test('only admins read or change the settings; a member with a bad body gets 403, not 400', async () => {
    assertError(await t.get('/api/admin/registration', member.token), 403, 'FORBIDDEN');
    for (const body of [{ open: false }, { open: 'no' }, { allowedEmailDomains: 'x' }, {}, { bogus: 1 }]) {
      assertError(await setRegistration(body, member.token), 403, 'FORBIDDEN');
    }
    assert.equal((await setRegistration({ open: false })).status, 200);
    assert.equal((await setRegistration({ open: true }, member.token)).status, 403);
    assert.equal((await t.get('/api/config')).body.registration.open, false, 'unchanged by the member');
    assert.equal((await t.patch('/api/admin/registration', { open: false })).status, 401);
  });

  test('bad bodies are 400 and change nothing', async () => {
    await setRegistration({ allowedEmailDomains: ['example.com'] });
    for (const body of [
      {},
      { open: 'false' },
      { open: null },
      { allowedEmailDomains: ['@example.com'] },
      { allowedEmailDomains: ['example'] },
      { allowedEmailDomains: ['exa mple.com'] },
      { allowedEmailDomains: ['-bad.com'] },
      { allowedEmailDomains: 'example.com' },
      { allowedEmailDomains: Array(101).fill('example.com') },
      { open: true, extra: 1 },
    ]) {
      assertError(await setRegistration(body), 400, 'VALIDATION_FAILED');
    }
    assert.deepEqual((await t.get('/api/admin/registration', t.adminToken)).body.registration, {
      open: true,
      allowedEmailDomains: ['example.com'],
    });
  });
});
