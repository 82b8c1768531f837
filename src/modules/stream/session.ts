// One open stream: takes the events after its position from the hub (the
// shared tail, or the shared catch-up while it is behind: it never reads the
// table itself); keeps what the caller may see under their current team
// access, and writes Server-Sent Events. Memory per stream is one page: it
// takes no more while the socket is backed up, and a client that does not
// drain in time is told to resume from its last id and closed (it misses
// nothing: the table is the source of truth).
import type { ServerResponse } from 'node:http';
import { canSeeEvent, canSeeTeam, type TeamAccess } from '../../platform/access.js';
import type { AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { teamAccess } from '../teams/access.js';
import type { StreamCredential } from './credential.js';
import { PAGE_SIZE } from './cursor.js';
import { grantedAccess } from './grants.js';
import { GAP_POLL_MS, type StreamHandle, type StreamHub } from './hub.js';
import type { StreamEventRow } from './queries.js';

export { PAGE_SIZE };

/** What EventSource waits before reconnecting. */
const RETRY_MS = 2000;
/** How long a closing stream's last bytes may take to reach the client before the socket is dropped. */
const END_GRACE_MS = { slow: 10_000, shutdown: 1_000 };

export interface StreamOptions {
  /** The id the stream starts after. */
  start: number;
  /** The caller's credential, re-checked for every batch (401 once it is no longer good). */
  credential: StreamCredential;
  /**
   * True when the requested position was ahead of the table (a restored
   * database) or further back than STREAM_CATCH_UP_LIMIT: reload everything.
   */
  reset: boolean;
  requestId: string;
}

const sse = (id: number | null, event: string | null, data: unknown) =>
  `${id === null ? '' : `id: ${id}\n`}${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;

/**
 * An event's SSE message as written. A reader who sees all of the event's
 * teams gets the same text as every other such reader, so that text is made
 * once per row (rows from the shared feed are shared by its streams).
 */
const sameForAll = new WeakMap<StreamEventRow, string>();
function message(row: StreamEventRow, access: TeamAccess): string {
  const shared = row.team_ids.every((id) => canSeeTeam(access, id));
  let text = shared ? sameForAll.get(row) : undefined;
  if (text === undefined) {
    text = sse(row.id, `${row.type}.${row.action}`, presentStreamEvent(row, access));
    if (shared) sameForAll.set(row, text);
  }
  return text;
}

/** What a client gets of an event: what changed and where, never the record (it refetches what it shows). */
export function presentStreamEvent(row: StreamEventRow, access: TeamAccess) {
  // The recipient's own: what the inbox needs to update its unread count, and what it is about.
  if (row.type === 'notification') {
    const about = row.project_id ? { projectId: row.project_id } : { issueId: row.issue_id };
    return { syncId: row.id, type: row.type, action: row.action, id: row.record_id, ...about };
  }
  const teamIds = row.team_ids.filter((id) => canSeeTeam(access, id));
  return {
    syncId: row.id,
    type: row.type,
    action: row.action,
    id: row.record_id,
    teamId: row.scope === 'teams' && teamIds.length === 1 ? teamIds[0] : null,
    teamIds,
    createdAt: row.created_at.toISOString(),
    ...(row.identifier && row.type === 'issue' ? { identifier: row.identifier } : {}),
    ...(row.issue_id ? { issueId: row.issue_id } : {}),
    ...(row.related_issue_id ? { relatedIssueId: row.related_issue_id } : {}),
    ...(row.project_id ? { projectId: row.project_id } : {}),
    ...(row.action === 'update' ? { changedFields: row.changed ?? [] } : {}),
  };
}

function drained(res: ServerResponse, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const finish = (ok: boolean) => {
      clearTimeout(timer);
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = () => finish(true);
    const onClose = () => finish(false);
    const timer = setTimeout(() => finish(false), ms);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}

export async function runStream(ctx: AppContext, hub: StreamHub, res: ServerResponse, opts: StreamOptions) {
  const { credential } = opts;
  /** The last id handed out (sent, or passed as not for this caller): the resume point. */
  let position = opts.start;
  const { streamHeartbeatMs, streamDrainTimeoutMs, streamMaxBufferBytes } = ctx.config;
  let ended = false;
  let woken = false;
  /** The caller's credentials changed since the last check (hub.ts, the credential cache's forget). */
  let mustCheck = false;
  let wakeUp: (() => void) | null = null;
  const closed = new Promise<void>((resolve) => res.once('close', resolve));
  void closed.then(() => {
    ended = true;
    wakeUp?.();
  });

  const wake = () => {
    woken = true;
    wakeUp?.();
  };
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || ended) return resolve();
      const finish = () => {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      wakeUp = finish;
    });
  /** The last words: where to resume, then the end; a client that does not read them is dropped. */
  const finish = (event: string, data: Record<string, unknown>, graceMs: number) => {
    if (ended) return;
    ended = true;
    wakeUp?.();
    res.end(sse(position, event, data));
    setTimeout(() => res.destroy(), graceMs).unref();
  };

  /**
   * The next events and the access to filter them with: the batch's grants
   * (the full credential check and a team read only when those do not vouch
   * for the caller, e.g. a user whose first stream opened after the load).
   */
  const nextBatch = async (): Promise<{ rows: StreamEventRow[]; access?: TeamAccess; more: boolean }> => {
    const shared = await hub.next(handle);
    if (shared.rows.length === 0) return { rows: [], more: shared.more };
    const access =
      (await grantedAccess(shared.grants, credential)) ??
      (await teamAccess(ctx.db, await credential.check()));
    return { rows: shared.rows, access, more: shared.more };
  };
  const handle: StreamHandle = {
    userId: credential.actor.id,
    get position() {
      return position;
    },
    wake,
    recheck() {
      mustCheck = true;
      wake();
    },
    async shutdown() {
      finish('resume', { reason: 'shutdown', after: position }, END_GRACE_MS.shutdown);
      await closed;
    },
  };

  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    // nginx and similar proxies would otherwise hold events back in their buffers.
    'x-accel-buffering': 'no',
    // The connection ends with the stream: left open for reuse, a client's idle connection
    // would keep a closing server waiting (it closes idle connections only as it starts to close).
    connection: 'close',
    'x-request-id': opts.requestId,
  });
  res.write(`retry: ${RETRY_MS}\n${sse(position, 'ready', { syncId: position, reset: opts.reset })}`);

  const heartbeat = setInterval(() => {
    if (!ended) res.write(': heartbeat\n\n');
    wake(); // a stream catching up looks again (the hub's own poll covers the tail)
  }, streamHeartbeatMs);
  const unregister = hub.add(handle);

  try {
    while (!ended) {
      woken = false;
      if (mustCheck) {
        mustCheck = false;
        await credential.check(); // a 401 ends the stream below
      }
      const batch = await nextBatch();
      if (ended) break;
      const { rows, access } = batch;
      if (access && rows.length > 0) {
        let chunk = '';
        let lastSent = -1;
        for (const row of rows) {
          if (!canSeeEvent(access, { scope: row.scope, teamIds: row.team_ids, userId: row.user_id }))
            continue;
          chunk += message(row, access);
          lastSent = row.id;
        }
        position = rows[rows.length - 1]!.id;
        // An id alone moves the client's resume point past events it may not see.
        if (lastSent !== position) chunk += `id: ${position}\n\n`;
        if (ended) break;
        const ok = res.write(chunk);
        if (
          res.writableLength > streamMaxBufferBytes ||
          (!ok && !(await drained(res, streamDrainTimeoutMs)))
        ) {
          finish('resume', { reason: 'slow', after: position }, END_GRACE_MS.slow);
          break;
        }
        // A full page, or more to catch up: read on at once.
        if (rows.length === PAGE_SIZE || batch.more) continue;
      }
      if (!woken) await wait(batch.more ? GAP_POLL_MS : streamHeartbeatMs);
    }
  } catch (err) {
    if (err instanceof AppError && err.status === 401) {
      finish('unauthorized', { message: err.message }, END_GRACE_MS.shutdown);
    } else {
      if (!ended) ctx.log.error({ err, reqId: opts.requestId }, 'change stream failed');
      finish('resume', { reason: 'error', after: position }, END_GRACE_MS.shutdown);
    }
  } finally {
    clearInterval(heartbeat);
    unregister();
  }
  await closed;
}
