// REST and GraphQL calls with the signed-in user's token. Failures become
// ApiError with a message fit to show a person, plus per-field messages.
import type { TypedDocumentString } from '../gql/graphql';

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

const fieldName = (pointer: string) => pointer.replace(/^\//, '').split('/')[0] ?? '';

export async function rest<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`/api${path}`, {
      method,
      headers: { ...authHeaders(), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch {
    throw new ApiError('Cannot reach the server. Check your connection and try again.', 0, 'NETWORK');
  }
  const data = res.headers.get('content-type')?.includes('json') ? await res.json() : null;
  if (!res.ok) {
    const e = data?.error ?? {};
    const fields: Record<string, string> = {};
    for (const d of e.details ?? []) fields[fieldName(d.field)] ??= d.message;
    if (res.status === 401 && tokenStore.get() && !path.startsWith('/auth/')) onUnauthenticated();
    throw new ApiError(e.message ?? `Request failed (${res.status})`, res.status, e.code ?? 'ERROR', fields);
  }
  return data as T;
}

export const api = {
  get: <T>(p: string) => rest<T>('GET', p),
  post: <T>(p: string, b?: unknown) => rest<T>('POST', p, b ?? {}),
  patch: <T>(p: string, b: unknown) => rest<T>('PATCH', p, b),
  put: <T>(p: string, b?: unknown) => rest<T>('PUT', p, b ?? {}),
  del: <T>(p: string) => rest<T>('DELETE', p),
};

interface GqlError {
  message: string;
  extensions?: { type?: string; userPresentableMessage?: string; code?: string };
}

/** Sends a document written with `graphql(...)`; its result and variables are typed by code generation. */
export async function gql<T, V>(document: TypedDocumentString<T, V>, variables?: V): Promise<T> {
  const query = document.toString();
  let res: Response;
  try {
    res = await fetch('/graphql', {
      method: 'POST',
      headers: { ...authHeaders(), 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables: variables ?? {} }),
    });
  } catch {
    throw new ApiError('Cannot reach the server. Check your connection and try again.', 0, 'NETWORK');
  }
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
