// Helpers for GraphQL tests: an API key for a real @linear/sdk client, and a
// raw POST for what the SDK hides (status codes, headers).
import { LinearClient } from '@linear/sdk';
import { startTestApp, type TestApp } from './support/harness.js';

export async function apiKeyFor(t: TestApp, token: string): Promise<string> {
  const res = await t.post('/api/api-keys', { label: 'graphql tests' }, token);
  if (res.status !== 201) throw new Error(`api key: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.key as string;
}

export const sdk = (base: string, apiKey: string) => new LinearClient({ apiKey, apiUrl: `${base}/graphql` });

export async function gql(
  base: string,
  authorization: string | undefined,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/** A test app listening on a port, with an admin API key and an SDK client on it. */
export async function startGraphqlApp() {
  const t = await startTestApp();
  const base = await t.listen();
  const key = await apiKeyFor(t, t.adminToken);
  const client = sdk(base, key);
  return { t, base, key, client, teamId: (await client.teams()).nodes[0]!.id };
}
