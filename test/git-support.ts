// Helpers of the git tests: the hosts' real example payloads, signed and sent
// as each host sends them, and a wait for the queued work.
import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Res, TestApp } from './support/harness.js';

type Json = any;
const require = createRequire(import.meta.url);
const examples: Json[] = require('@octokit/webhooks-examples');
const fixtures = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures', 'git');

/** A copy of one of @octokit/webhooks-examples' payloads. */
export function githubExample(
  event: string,
  action: string | undefined,
  pick: (e: Json) => boolean = () => true,
): Json {
  const group = examples.find((e) => e.name === event);
  const found = group?.examples.find((e: Json) => e.action === action && pick(e));
  if (!found) throw new Error(`no ${event}.${action} example`);
  return structuredClone(found);
}

export const gitlabExample = (): Json =>
  JSON.parse(readFileSync(path.join(fixtures, 'gitlab-merge-request.json'), 'utf8'));
export const giteaExample = (): Json =>
  JSON.parse(readFileSync(path.join(fixtures, 'gitea-pull-request.json'), 'utf8'));

export async function connect(
  t: TestApp,
  host: 'github' | 'gitlab' | 'gitea',
  repos: { fullName: string; teamId: string }[],
): Promise<{ id: string; secret: string }> {
  const res = await t.post(
    '/api/admin/git/connections',
    { host, name: `${host} test`, repositories: repos },
    t.adminToken,
  );
  if (res.status !== 201) throw new Error(`connect: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.connection.id, secret: res.body.webhookSecret };
}

/** Sends a payload signed as `host` signs it; `proof` overrides the signature or token. */
export function deliver(
  t: TestApp,
  host: 'github' | 'gitlab' | 'gitea',
  secret: string,
  event: string,
  payload: Json,
  opts: { deliveryId?: string; proof?: string } = {},
): Promise<Res> {
  const body = JSON.stringify(payload);
  const id = opts.deliveryId ?? randomUUID();
  const hmac = createHmac('sha256', secret).update(body).digest('hex');
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (host === 'github') {
    Object.assign(headers, {
      'x-github-event': event,
      'x-github-delivery': id,
      'x-hub-signature-256': opts.proof ?? `sha256=${hmac}`,
      'user-agent': 'GitHub-Hookshot/abc',
    });
  } else if (host === 'gitlab') {
    Object.assign(headers, {
      'x-gitlab-event': event,
      'x-gitlab-event-uuid': id,
      'idempotency-key': id,
      'x-gitlab-token': opts.proof ?? secret,
    });
  } else {
    Object.assign(headers, {
      'x-gitea-event': event,
      'x-gitea-delivery': id,
      'x-gitea-signature': opts.proof ?? hmac,
      'x-forgejo-event': event,
    });
  }
  return t.request('POST', `/api/integrations/${host}/webhook`, { payload: body, headers });
}

/** Waits until the queued delivery is processed; returns its row. */
export async function processed(t: Pick<TestApp, 'ctx'>, id: string) {
  for (let i = 0; i < 400; i++) {
    const row = await t.ctx.db
      .selectFrom('git_deliveries')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    // A failed attempt (waiting for its retry) ends the wait too: the caller sees last_error.
    if (row && (row.status === 'done' || row.status === 'failed' || row.last_error !== null)) return row;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`delivery ${id} was not processed`);
}

/** Delivers and waits for the work; asserts it was queued. */
export async function deliverAndWait(
  t: TestApp,
  host: 'github' | 'gitlab' | 'gitea',
  secret: string,
  event: string,
  payload: Json,
) {
  const res = await deliver(t, host, secret, event, payload);
  if (res.status !== 202 || res.body.status !== 'queued') {
    throw new Error(`not queued: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return processed(t, res.body.id);
}

export async function newIssue(t: TestApp, title = 'Git linked') {
  const res = await t.post('/api/issues', { title, teamId: 'ENG' }, t.adminToken);
  if (res.status !== 201) throw new Error(`issue: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.issue as { id: string; identifier: string; stateId: string };
}

export async function stateName(t: TestApp, issueId: string): Promise<string> {
  const row = await t.ctx.db
    .selectFrom('issues')
    .innerJoin('workflow_states', 'workflow_states.id', 'issues.state_id')
    .select('workflow_states.name')
    .where('issues.id', '=', issueId)
    .executeTakeFirstOrThrow();
  return row.name;
}

export async function gitAttachments(t: TestApp, issueId: string) {
  const res = await t.get(`/api/issues/${issueId}/attachments`, t.adminToken);
  return (res.body.attachments as Json[]).filter((a) => a.sourceType !== null);
}
