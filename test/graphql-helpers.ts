// Helpers for GraphQL tests: an API key for a real @linear/sdk client, and a
// raw POST for what the SDK hides (status codes, headers).
import { LinearClient } from '@linear/sdk';
import { runGraphql } from '../src/graphql/execute.js';
import { graphqlSchema } from '../src/graphql/routes.js';
import type { Actor } from '../src/platform/context.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { StatementCounter } from './support/statement-counter.js';

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

/**
 * Runs a document in process as `actor`, compiled or through the resolvers
 * alone, counting its statements: the answer's text and body, whether the
 * compiled path answered, and how many statements it took. Pass a new actor
 * object per request (the caller's teams are then read again, as for a real one).
 */
export async function runCounted(
  t: TestApp,
  actor: Actor,
  compiled: boolean,
  query: string,
  variables: Record<string, unknown> = {},
) {
  const counter = new StatementCounter();
  const app = {
    ...t.ctx,
    db: t.ctx.db.withPlugin(counter),
    config: { ...t.ctx.config, graphqlCompiledReads: compiled },
  };
  const res = await runGraphql(graphqlSchema(), app, actor, { query, variables });
  const text = res.json ?? JSON.stringify(res.body);
  return { text, body: JSON.parse(text), compiled: res.compiled === true, statements: counter.count };
}
