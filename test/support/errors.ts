// Assertions on the REST error shape: { error: { status, code, message } }.
import assert from 'node:assert/strict';

/** A uuid no row has. */
export const ZERO_UUID = '00000000-0000-4000-8000-000000000000';

export function assertError(res: { status: number; body: any }, status: number, code: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.error.status, status);
  assert.equal(res.body.error.code, code);
  assert.equal(typeof res.body.error.message, 'string');
}
