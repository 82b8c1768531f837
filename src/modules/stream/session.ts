// One open stream: reads the events table from its cursor (woken by the hub,
// polled at every heartbeat as the safety net), keeps what the caller may see
// under their current team access, and writes Server-Sent Events. Memory per
// stream is one page: it reads no further while the socket is backed up, and a
// client that does not drain in time is told to resume from its last id and
// closed (it misses nothing: the table is the source of truth).
import type { ServerResponse } from 'node:http';
import { canSeeEvent, canSeeTeam, type TeamAccess } from '../../platform/access.js';
import type { Actor, AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { teamAccess } from '../teams/access.js';
import type { EventCursor } from './cursor.js';
import type { StreamHub } from './hub.js';
import type { StreamEventRow } from './queries.js';

/** Events read per query: bounds the memory of a stream and the size of a write. */
export const PAGE_SIZE = 200;
/** How soon to look again while a hole waits for an open transaction (nothing notifies a rollback). */
const GAP_POLL_MS = 50;
/** What EventSource waits before reconnecting. */
const RETRY_MS = 2000;
/** How long a closing stream's last bytes may take to reach the client before the socket is dropped. */
const END_GRACE_MS = { slow: 10_000, shutdown: 1_000 };

export interface StreamOptions {
  cursor: EventCursor;
  /** The caller again, with their current role; throws (401) once their credential is no longer good. */
  reauth: () => Promise<Actor>;
  /** True when the requested position was ahead of the table (a restored database): reload everything. */
  reset: boolean;
  requestId: string;
}

const sse = (id: number | null, event: string | null, data: unknown) =>
  `${id === null ? '' : `id: ${id}\n`}${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;

/** What a client gets of an event: what changed and where, never the record (it refetches what it shows). */
export function presentStreamEvent(row: StreamEventRow, access: TeamAccess) {
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
  const { cursor } = opts;
  const { streamHeartbeatMs, streamDrainTimeoutMs, streamMaxBufferBytes } = ctx.config;
  let ended = false;
  let woken = false;
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
    res.end(sse(cursor.position, event, data));
    setTimeout(() => res.destroy(), graceMs).unref();
  };

  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    // nginx and similar proxies would otherwise hold events back in their buffers.
    'x-accel-buffering': 'no',
    'x-request-id': opts.requestId,
  });
  res.write(
    `retry: ${RETRY_MS}\n${sse(cursor.position, 'ready', { syncId: cursor.position, reset: opts.reset })}`,
  );

  const heartbeat = setInterval(() => {
    if (!ended) res.write(': heartbeat\n\n');
    wake(); // and look at the table: the safety net for a lost notification
  }, streamHeartbeatMs);
  const unregister = hub.add({
    wake,
    async shutdown() {
      finish('resume', { reason: 'shutdown', after: cursor.position }, END_GRACE_MS.shutdown);
      await closed;
    },
  });

  try {
    while (!ended) {
      woken = false;
      const rows = await cursor.next();
      if (ended) break;
      if (rows.length > 0) {
        // Membership and role as they are now, for every batch.
        const access = await teamAccess(ctx.db, await opts.reauth());
        let chunk = '';
        let lastSent = -1;
        for (const row of rows) {
          if (!canSeeEvent(access, { scope: row.scope, teamIds: row.team_ids })) continue;
          chunk += sse(row.id, `${row.type}.${row.action}`, presentStreamEvent(row, access));
          lastSent = row.id;
        }
        // An id alone moves the client's resume point past events it may not see.
        if (lastSent !== cursor.position) chunk += `id: ${cursor.position}\n\n`;
        if (ended) break;
        const ok = res.write(chunk);
        if (
          res.writableLength > streamMaxBufferBytes ||
          (!ok && !(await drained(res, streamDrainTimeoutMs)))
        ) {
          finish('resume', { reason: 'slow', after: cursor.position }, END_GRACE_MS.slow);
          break;
        }
        // A full page, or one cut at a hole that may already be settled: read on at once.
        if (rows.length === PAGE_SIZE || cursor.waiting) continue;
      }
      if (!woken) await wait(cursor.waiting ? GAP_POLL_MS : streamHeartbeatMs);
    }
  } catch (err) {
    if (err instanceof AppError && err.status === 401) {
      finish('unauthorized', { message: err.message }, END_GRACE_MS.shutdown);
    } else {
      if (!ended) ctx.log.error({ err, reqId: opts.requestId }, 'change stream failed');
      finish('resume', { reason: 'error', after: cursor.position }, END_GRACE_MS.shutdown);
    }
  } finally {
    clearInterval(heartbeat);
    unregister();
  }
  await closed;
}
