// Requests that would fail validation (or parsing) if validation ran before the
// role check, for the tests that walk the route table (test/*route-roles*).
import type { Res, TestApp } from './harness.js';

export const ZERO_UUID = '00000000-0000-4000-8000-000000000000';

/** Bodies no route accepts: none at all, empty, unparsable, wrongly typed, unknown fields. */
export const BAD_BODIES: { what: string; payload?: string }[] = [
  { what: 'no body' },
  { what: '{}', payload: '{}' },
  { what: 'garbage JSON', payload: '{"name": ' },
  { what: 'wrong types', payload: '{"name":5,"email":[],"enabled":"yes","role":{},"url":false}' },
  { what: 'unknown fields', payload: '{"zzz":1}' },
];

/** The route's path with each :param replaced by `idOf(url, name)`. */
export const fill = (url: string, idOf: (url: string, param: string) => string) =>
  url.replace(/:(\w+)/g, (_, name: string) => idOf(url, name));

/** Sends one bad body, with a query string no route accepts, as `token` (anonymous without). */
export function probe(
  t: TestApp,
  method: string,
  path: string,
  body: { payload?: string },
  token?: string,
): Promise<Res> {
  const sent = body.payload !== undefined;
  return t.request(method, `${path}?limit=abc`, {
    token,
    ...(sent ? { headers: { 'content-type': 'application/json' }, payload: body.payload } : {}),
  });
}
