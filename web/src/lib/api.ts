// REST and GraphQL calls with the signed-in user's token. Failures become
// ApiError with a message fit to show a person, plus per-field messages.
import createClient, { type ClientPathsWithMethod, type MethodResponse } from 'openapi-fetch';
import type { TypedDocumentString } from '../gql/graphql';
import type { paths } from '../rest/openapi';
import { markReachable, markUnreachable } from './connection';

const TOKEN_KEY = 'trackway.token';

export const tokenStore = {
  get: () => localStorage.getItem(TOKEN_KEY),
  set: (t: string | null) => (t ? localStorage.setItem(TOKEN_KEY, t) : localStorage.removeItem(TOKEN_KEY)),
};

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }
}

let onUnauthenticated: () => void = () => {};
export const setUnauthenticatedHandler = (fn: () => void) => {
  onUnauthenticated = fn;
};

function authHeaders(): Record<string, string> {
  const token = tokenStore.get();
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** How writes that may wait for the server are kept (lib/write-queue.ts registers itself here). */
interface WriteQueue {
  mustWait(): boolean;
  add(label: string, query: string, variables: unknown): void;
  makeError(label: string): Error;
}
let writeQueue: WriteQueue | null = null;
export const setWriteQueue = (q: WriteQueue) => {
  writeQueue = q;
};

/** A fetch that threw: the server is unreachable, unless the page itself cancelled it. */
function lostConnection(e: unknown) {
  if (!(e instanceof DOMException && e.name === 'AbortError')) markUnreachable();
}

/** Sends a GraphQL document as it was kept (lib/write-queue.ts replays writes made offline); throws if not sent. */
export const postGraphql = (query: string, variables: unknown): Promise<Response> =>
  fetch('/graphql', {
    method: 'POST',
    headers: { ...authHeaders(), 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });

/** Whether the server answers at all (lib/connection.ts, while it is away): no token, no session effects. */
export const serverAnswers = (): Promise<boolean> =>
  fetch('/healthz', { cache: 'no-store' }).then(
    (res) => res.ok,
    () => false,
  );

const fieldName = (pointer: string) => pointer.replace(/^\//, '').split('/')[0] ?? '';
const UNREACHABLE = 'Cannot reach the server. Check your connection and try again.';

/**
 * The REST API, typed from the server's OpenAPI document (`npm run codegen`
 * prints it with scripts/print-openapi.ts and generates web/src/rest/): a path,
 * its parameters, its body and its answer are checked against the routes'
 * own schemas. Pass a call to `ok` for its answer.
 */
export const rest = createClient<paths>();
rest.use({
  onRequest: ({ request }) => {
    const token = tokenStore.get();
    if (token) request.headers.set('authorization', `Bearer ${token}`);
    if (request.method !== 'GET') writing++;
    return request;
  },
  onResponse: ({ request }) => {
    if (request.method !== 'GET') writing--;
  },
  onError: ({ request }) => {
    if (request.method !== 'GET') writing--;
  },
});

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** What a call through `rest` answers on success (for types built from the API's own). */
export type RestData<M extends Method, P extends ClientPathsWithMethod<typeof rest, M>> = MethodResponse<
  typeof rest,
  M,
  P
>;

/** The JSON body a route takes. */
export type RestBody<M extends Method, P extends keyof paths> =
  NonNullable<paths[P][M]> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

interface RestError {
  error?: { message?: string; code?: string; details?: { field: string; message: string }[] };
}

/** The answer of a call through `rest`; a refusal becomes ApiError (a 401 also signs the user out). */
export async function ok<R extends { data?: unknown; error?: unknown; response: Response }>(
  call: Promise<R>,
): Promise<NonNullable<R['data']>> {
  let result: R;
  try {
    result = await call;
  } catch (e) {
    lostConnection(e);
    throw new ApiError(UNREACHABLE, 0, 'NETWORK');
  }
  const { response } = result;
  markReachable();
  if (response.ok) return result.data as NonNullable<R['data']>;
  const e = (result.error as RestError | undefined)?.error ?? {};
  const fields: Record<string, string> = {};
  for (const d of e.details ?? []) fields[fieldName(d.field)] ??= d.message;
  // A wrong password at sign-in is a 401 too; only a refused token ends the session.
  if (response.status === 401 && tokenStore.get() && !new URL(response.url).pathname.startsWith('/api/auth/'))
    onUnauthenticated();
  throw new ApiError(
    e.message ?? `Request failed (${response.status})`,
    response.status,
    e.code ?? 'ERROR',
    fields,
  );
}

interface GqlError {
  message: string;
  extensions?: { type?: string; userPresentableMessage?: string; code?: string };
}

/**
 * Writes sent and not yet answered (GraphQL mutations and REST calls other than GET). lib/live.ts
 * waits for none to be on its way before it reads the page again: a read answered before a write
 * would replace what the write shows meanwhile (a new issue's row marked as sending).
 */
let writing = 0;
export const writesInFlight = () => writing;

/**
 * Sends a document written with `graphql(...)`; its result and variables are typed by code generation.
 * A write given an `offline` label (what it does, in words) waits in lib/write-queue.ts while the
 * server cannot be reached, and throws QueuedWrite: its caller keeps showing it as made.
 */
export async function gql<T, V>(
  document: TypedDocumentString<T, V>,
  variables?: V,
  opts: { offline?: string } = {},
): Promise<T> {
  const query = document.toString();
  if (!/^\s*mutation\b/.test(query)) return send(query, variables, opts.offline);
  writing++;
  try {
    return await send(query, variables, opts.offline);
  } finally {
    writing--;
  }
}

async function send<T>(query: string, variables: unknown, label: string | undefined): Promise<T> {
  const queue = label ? writeQueue : null;
  if (label && queue?.mustWait()) {
    queue.add(label, query, variables ?? {});
    throw queue.makeError(label);
  }
  let res: Response;
  try {
    res = await fetch('/graphql', {
      method: 'POST',
      headers: { ...authHeaders(), 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables: variables ?? {} }),
    });
  } catch (e) {
    lostConnection(e);
    // Never sent (no connection, the server down): kept to send when it is back.
    if (label && queue) {
      queue.add(label, query, variables ?? {});
      throw queue.makeError(label);
    }
    throw new ApiError(UNREACHABLE, 0, 'NETWORK');
  }
  markReachable();
  const data = res.headers.get('content-type')?.includes('json') ? await res.json() : null;
  const first: GqlError | undefined = data?.errors?.[0];
  if (first || !res.ok) {
    const type = first?.extensions?.type ?? '';
    const message =
      first?.extensions?.userPresentableMessage ??
      first?.message ??
      data?.error?.message ??
      `Request failed (${res.status})`;
    if (type === 'authentication error' || res.status === 401) onUnauthenticated();
    throw new ApiError(message, res.status, type || 'ERROR');
  }
  return data.data as T;
}

/** Where single sign-on starts: a page the browser navigates to (it leaves for the provider), not a fetch. */
const SSO_START: keyof paths = '/api/auth/sso/start';
export const ssoStartUrl = (returnTo?: string) =>
  returnTo ? `${SSO_START}?returnTo=${encodeURIComponent(returnTo)}` : SSO_START;
