// Live updates: the server's change stream (GET /api/stream, docs/live.md)
// applied to the query cache, so what one person changes shows in everyone
// else's lists, board and pages without a reload. Events name what changed;
// the changed issue is read once and put in place in every cached list (never
// the lists read again), so the server's visibility rules apply as for any read.
import { useEffect } from 'react';
import { ok, rest, writesInFlight } from './api';
import { markReachable, markUnreachable, onReachable } from './connection';
import { cachedIssue, placeIssues } from './issue-pages';
import { placeChanged, refreshIssuePages } from './issues';
import { refreshInbox } from './notifications';
import { invalidate, queryClient } from './query';
import { keys } from './query-keys';

interface Change {
  syncId: number;
  type: string;
  action: 'create' | 'update' | 'remove';
  id: string;
  identifier?: string;
  issueId?: string;
}

const TYPES = [
  'issue',
  'comment',
  'project',
  'projectMilestone',
  'cycle',
  'label',
  'attachment',
  'relation',
  'reaction',
  'projectUpdate',
];
const ACTIONS = ['create', 'update', 'remove'];
/** Changes that arrive together (a bulk edit, an import) are applied together. */
const BATCH_MS = 100;
/** A stream down longer than this means the server is away (lib/connection.ts), not a blip. */
const DOWN_MS = 4000;

/** Keeps one stream open while `enabled` (signed in); reconnects with a fresh ticket from the last id seen. */
export function useLiveUpdates(enabled: boolean) {
  useEffect(() => {
    if (!enabled) return;
    const live = new LiveStream();
    live.open();
    return () => live.close();
  }, [enabled]);
}

class LiveStream {
  #source: EventSource | null = null;
  #last: number | null = null;
  #closed = false;
  #retry = 1000;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #pending: Change[] = [];
  #down: ReturnType<typeof setTimeout> | null = null;
  #reopening: ReturnType<typeof setTimeout> | null = null;
  #stopWatching = onReachable(() => {
    // The server is back: open the stream now rather than at the end of a long back-off.
    if (this.#reopening) this.#reopen(0);
  });

  async open() {
    if (this.#closed) return;
    try {
      // EventSource cannot send the token; a ticket opens this one stream for a minute (docs/live.md).
      const { ticket } = await ok(rest.POST('/api/stream/tickets', { body: {} }));
      if (this.#closed) return;
      const after = this.#last === null ? '' : `&after=${this.#last}`;
      const source = new EventSource(`/api/stream?ticket=${encodeURIComponent(ticket)}${after}`);
      this.#source = source;
      source.addEventListener('ready', (e) => this.#ready(e as MessageEvent));
      for (const t of TYPES)
        for (const a of ACTIONS) source.addEventListener(`${t}.${a}`, (e) => this.#change(e as MessageEvent));
      // Sent to its recipient only: a notification was written for this user.
      source.addEventListener('notification.create', (e) => this.#change(e as MessageEvent));
      source.addEventListener('resume', () => this.#reopen(0));
      source.addEventListener('unauthorized', () => this.close());
      source.onopen = () => {
        this.#retry = 1000;
        this.#clearDown();
        markReachable();
      };
      // The browser retries a dropped connection by itself; a refused one (an old ticket) ends it.
      source.onerror = () => {
        this.#down ??= setTimeout(markUnreachable, DOWN_MS);
        if (source.readyState === EventSource.CLOSED) this.#reopen(this.#retry);
      };
    } catch {
      this.#reopen(this.#retry);
    }
  }

  close() {
    this.#closed = true;
    this.#source?.close();
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#reopening) clearTimeout(this.#reopening);
    this.#clearDown();
    this.#stopWatching();
  }

  #clearDown() {
    if (this.#down) clearTimeout(this.#down);
    this.#down = null;
  }

  #reopen(delay: number) {
    this.#source?.close();
    this.#source = null;
    this.#retry = Math.min(this.#retry * 2, 30_000);
    // One reopening at a time: the server coming back may cut a back-off short.
    if (this.#reopening) clearTimeout(this.#reopening);
    this.#reopening = setTimeout(() => {
      this.#reopening = null;
      void this.open();
    }, delay);
  }

  #ready(e: MessageEvent) {
    const { syncId, reset } = JSON.parse(e.data) as { syncId: number; reset: boolean };
    // What the page loaded before this tab's first stream was ready may predate a change the
    // stream will never send (made between that read and `ready`): read it again, as
    // docs/live.md asks of every client. A reset (a database restored from a backup) means the
    // changes missed cannot be listed either. A reopened stream resumes after its last id.
    if (reset || this.#last === null) refetchWhenIdle();
    this.#last = syncId;
  }

  #change(e: MessageEvent) {
    const change = JSON.parse(e.data) as Change;
    this.#last = change.syncId;
    this.#pending.push(change);
    this.#timer ??= setTimeout(() => {
      this.#timer = null;
      const batch = this.#pending;
      this.#pending = [];
      void apply(batch);
    }, BATCH_MS);
  }
}

/** Within this, the reads of the first screen finish before the refetch at `ready` starts. */
const FIRST_READS_MS = 3000;

/**
 * Reads again what the page shows, once no write is on its way (a read then would put back what
 * an optimistic edit just changed) and the first screen's own reads are done (they would share
 * the server with it: at 10,000 issues the refetch landed in the middle of the list's first pages).
 */
function refetchWhenIdle(waited = 0) {
  const reading = queryClient.isFetching() > 0 && waited < FIRST_READS_MS;
  if (queryClient.isMutating() > 0 || writesInFlight() > 0 || reading)
    setTimeout(() => refetchWhenIdle(waited + 100), 100);
  else {
    // Marked on the page once read again, so a browser test can start after it, not race it.
    void queryClient.invalidateQueries().finally(() => {
      document.documentElement.dataset['live'] = 'synced';
    });
  }
}

async function apply(changes: Change[]) {
  const touched = new Set(changes.map((c) => c.type));
  const issues = changes.filter((c) => c.type === 'issue');
  // The inbox and its count, before the lists' read below: only this user's own
  // notification events (docs/live.md), not every issue change of every tab.
  if (touched.has('notification')) refreshInbox();
  if (issues.length > 0) {
    // Each changed issue is read once (one request for the batch) and put in place in every list.
    const created = new Set(issues.filter((c) => c.action === 'create').map((c) => c.id));
    const removed = issues.filter((c) => c.action === 'remove').map((c) => c.id);
    const gone = new Set(removed);
    const read = [...new Set(issues.map((c) => c.id))].filter((id) => !gone.has(id));
    if (removed.length > 0) placeIssues(removed.map((id) => ({ id, now: null, was: cachedIssue(id) })));
    // A read that fails leaves the lists as they were: re-read them rather than show a stale row.
    const parents =
      read.length > 0
        ? await placeChanged(read, created).catch(() => {
            void invalidate(keys.issues.lists);
            return [];
          })
        : [];
    // Only the pages showing a changed issue (or its parent's sub-issues) read again, not every issue page cached.
    refreshIssuePages([
      ...issues.flatMap((c) => [c.id, ...(c.identifier ? [c.identifier] : [])]),
      ...parents,
    ]);
  }
  // An attachment (a pull request linked, its status or checks) changes the rows' pull request
  // marker: issues shown in a list are read again and put in place, as an issue change is.
  const marked = [
    ...new Set(
      changes
        .filter((c) => c.type === 'attachment' && c.issueId && !issues.some((i) => i.id === c.issueId))
        .map((c) => c.issueId!),
    ),
  ].filter((id) => cachedIssue(id) !== undefined);
  if (marked.length > 0) void placeChanged(marked).catch(() => void invalidate(keys.issues.lists));
  const onPages = changes.filter(
    (c) => c.type === 'comment' || c.type === 'attachment' || c.type === 'reaction',
  );
  if (onPages.some((c) => !c.issueId)) void invalidate(keys.issues.details);
  else if (onPages.length > 0)
    refreshIssuePages(
      onPages.map((c) => c.issueId!),
      ['detail'],
    );
  if (touched.has('relation')) {
    void invalidate(keys.issues.allRelations);
    void invalidate(keys.issues.allBlocked);
  }
  if (
    touched.has('issue') ||
    touched.has('project') ||
    touched.has('projectMilestone') ||
    touched.has('projectUpdate')
  )
    void invalidate(keys.projects.all);
  if (touched.has('issue') || touched.has('cycle')) void invalidate(keys.cycles.all);
  if (touched.has('issue') || touched.has('relation')) void invalidate(keys.triage.all);
  if (touched.has('project')) void invalidate(keys.ref.projects);
  if (touched.has('cycle')) void invalidate(keys.ref.cycles);
  if (touched.has('label')) void invalidate(keys.ref.core);
}
