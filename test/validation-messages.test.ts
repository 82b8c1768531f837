// Refusals of bad input say what is wrong in plain words, next to the field:
// the sign-up form shows these messages as they are.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t?.close());

const fields = (body: { error: { details: { field: string; message: string }[] } }) =>
  Object.fromEntries(body.error.details.map((d) => [d.field, d.message]));

describe('validation messages', () => {
  test('sign-up: short password, blank name, malformed email', async () => {
    const res = await t.post('/api/auth/register', { name: '   ', email: 'not-an-address', password: 'abc' });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'VALIDATION_FAILED');
    assert.deepEqual(fields(res.body), {
      '/name': 'must not be blank',
      '/email': 'must be a valid email address',
      '/password': 'must be at least 6 characters',
    });
    assert.equal(res.body.error.message, 'Invalid input: name must not be blank');
  });

  test('numbers, lists, types and choices', async () => {
    const limit = await t.get('/api/issues?limit=999', t.adminToken);
    assert.equal(limit.status, 400);
    assert.equal(fields(limit.body)['/limit'], 'must be at most 250');
    const type = await t.post('/api/issues', { teamId: 'ENG', title: 'x', priority: 'high' }, t.adminToken);
    assert.equal(type.status, 400);
    assert.match(fields(type.body)['/priority']!, /^must be (a whole number|one of)/);
    const empty = await t.post('/api/issues', { teamId: 'ENG', title: '' }, t.adminToken);
    assert.equal(empty.status, 400);
    assert.match(fields(empty.body)['/title']!, /^must (not be empty|not be blank)$/);
  });
});
