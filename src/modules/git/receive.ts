// The receivers' rules: a delivery is first proven (its signature or token
// against each of the host's connections, in constant time), then read
// (delivery id, event, JSON), then queued in git_deliveries in one statement
// whose unique (host, delivery id) refuses replays. The work happens later,
// in worker.ts: the answer is fast and a crash after it loses nothing.
import type { AppContext } from '../../platform/context.js';
import type { GitConnectionRow, GitHost } from '../../platform/db/tables.js';
import { badRequest, unauthenticated } from '../../platform/errors.js';
import { repositoryOf } from './events.js';
import { webhookSecretOf } from './process.js';
import * as q from './queries.js';
import { SEALING_PURPOSE } from './service.js';
import { DELIVERY_HEADERS, EVENT_HEADERS, PROOF_HEADER, verifyDelivery } from './verify.js';

/** A host's connections a delivery is checked against, at most (each check is one HMAC). */
const MAX_CONNECTIONS_PER_HOST = 50;

export type ReceiveAnswer =
  | { status: 202; body: { status: 'queued'; id: string } }
  | { status: 202; body: { status: 'ignored'; reason: string } }
  | { status: 200; body: { status: 'duplicate' } };

type Headers = Record<string, string | string[] | undefined>;

const header = (headers: Headers, names: readonly string[]): string | null => {
  for (const n of names) {
    const v = headers[n];
    const s = Array.isArray(v) ? v[0] : v;
    if (typeof s === 'string' && s.length > 0) return s;
  }
  return null;
};

async function provenConnection(
  ctx: AppContext,
  host: GitHost,
  body: string,
  proof: string,
): Promise<GitConnectionRow | null> {
  const key = ctx.deriveKey(SEALING_PURPOSE);
  // Every connection is checked, whichever matches, so timing says nothing about which one did.
  let found: GitConnectionRow | null = null;
  for (const c of await q.connectionsOfHost(ctx.db, host, MAX_CONNECTIONS_PER_HOST)) {
    const secret = webhookSecretOf(key, c);
    if (secret !== null && (await verifyDelivery(host, secret, body, proof)) && !found) found = c;
  }
  return found;
}

/** GitHub may send its JSON form-encoded (payload=...); every host's JSON is read here. */
function parsePayload(body: string, contentType: string | null): unknown {
  let json = body;
  if (contentType?.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    json = new URLSearchParams(body).get('payload') ?? '';
  }
  try {
    return JSON.parse(json);
  } catch {
    throw badRequest('The body is not JSON');
  }
}

export async function receiveDelivery(
  ctx: AppContext,
  host: GitHost,
  headers: Headers,
  body: string,
  kick: () => void,
): Promise<ReceiveAnswer> {
  const proof = header(headers, [PROOF_HEADER[host]]);
  if (!proof || proof.length > 1024) throw unauthenticated(`Missing ${PROOF_HEADER[host]}`);
  const connection = await provenConnection(ctx, host, body, proof);
  if (!connection) throw unauthenticated('The signature or token does not match');
  const deliveryId = header(headers, DELIVERY_HEADERS[host]);
  if (!deliveryId || deliveryId.length > 200) {
    throw badRequest(`Missing or overlong delivery id (${DELIVERY_HEADERS[host].join(' or ')})`);
  }
  const event = header(headers, EVENT_HEADERS[host]);
  if (!event || event.length > 100) throw badRequest(`Missing event header (${EVENT_HEADERS[host][0]})`);
  const payload = parsePayload(body, header(headers, ['content-type']));
  const repo = repositoryOf(host, payload);
  if (!repo) return { status: 202, body: { status: 'ignored', reason: 'no repository in the payload' } };
  if (!(await q.findRepository(ctx.db, connection.id, repo))) {
    return { status: 202, body: { status: 'ignored', reason: 'repository not connected' } };
  }
  const id = await q.enqueueDelivery(ctx.db, {
    host,
    deliveryId,
    connectionId: connection.id,
    event,
    payload: JSON.stringify(payload),
  });
  if (!id) return { status: 200, body: { status: 'duplicate' } };
  kick();
  return { status: 202, body: { status: 'queued', id } };
}
