// Edits made while the server cannot be reached: kept in this browser's
// storage (a reload keeps them) and sent in the order they were made once it
// is back. Only the writes that opt in wait here (gql's `offline` label: issue
// field changes, comments, new issues); they keep showing as made meanwhile.
// A write the server then refuses (the issue was deleted, a value no longer
// valid) is dropped and reported, and every query is read again, so what
// shows is what the server has. A refused session (401) stops the sending and
// keeps the rest for after signing in again.
// A write kept here may have reached the server already (the connection was
// cut after sending, before the answer): sending it again is harmless. Field
// edits set values; new issues and comments carry the id chosen for them
// before the first try (lib/issues.ts createIssue, components/IssueComments.tsx
// newComment), and the server answers a create sent again by its maker with
// the record it made (docs/API.md, "Client-chosen ids").
import { useSyncExternalStore } from 'react';
import { ApiError, postGraphql, setWriteQueue } from './api';
import { holdQueriesOffline, isReachable, markReachable, markUnreachable, onReachable } from './connection';
import { queryClient } from './query';

const STORE_KEY = 'trackway.waiting-writes';

export interface WaitingWrite {
  /** Made here, to tell the entries apart in this list (the server never sees it). */
  key: string;
  /** What the person did, in words ("ENG-3: status"). */
  label: string;
  /** The user who made it: never sent with someone else's session. */
  userId: string;
  query: string;
  variables: unknown;
  madeAt: string;
}

export interface RefusedWrite {
  key: string;
  label: string;
  message: string;
}

interface State {
  waiting: readonly WaitingWrite[];
  refused: readonly RefusedWrite[];
  sending: boolean;
  /** The session ended while writes were waiting: they go once the person signs in again. */
  needsSignIn: boolean;
}

let owner: string | null = null;
let state: State = { waiting: read(), refused: [], sending: false, needsSignIn: false };
const listeners = new Set<() => void>();

function read(): WaitingWrite[] {
  try {
    const raw = localStorage.getItem(STORE_KEY);
    const list = raw ? (JSON.parse(raw) as unknown) : [];
    return Array.isArray(list) ? (list as WaitingWrite[]) : [];
  } catch {
    return [];
  }
}

function set(next: Partial<State>) {
  state = { ...state, ...next };
  if (next.waiting) {
    if (state.waiting.length > 0) localStorage.setItem(STORE_KEY, JSON.stringify(state.waiting));
    else localStorage.removeItem(STORE_KEY);
  }
  for (const l of listeners) l();
}

/** Thrown by a write that was kept to send later: the caller keeps showing it as made. */
export class QueuedWrite extends ApiError {
  constructor(readonly label: string) {
    super('Saved on this device; it will be sent when the server is back.', 0, 'QUEUED');
  }
}

export const isQueued = (e: unknown): e is QueuedWrite => e instanceof QueuedWrite;

/** Writes wait while the server is away, and behind earlier waiting writes so the order holds. */
const mustWait = () => !isReachable() || state.waiting.length > 0 || state.sending;

function add(label: string, query: string, variables: unknown) {
  const entry: WaitingWrite = {
    key: crypto.randomUUID(),
    label,
    userId: owner ?? '',
    query,
    variables,
    madeAt: new Date().toISOString(),
  };
  set({ waiting: [...state.waiting, entry] });
  void replay();
}

setWriteQueue({ mustWait, add, makeError: (label) => new QueuedWrite(label) });

/**
 * The signed-in user (null when signed out). Writes left by someone else
 * on this browser are dropped: they must never go out under this session.
 */
export function setQueueOwner(userId: string | null) {
  owner = userId;
  if (!userId) return;
  const mine = state.waiting.filter((w) => w.userId === userId || w.userId === '');
  if (mine.length !== state.waiting.length) set({ waiting: mine });
  set({ needsSignIn: false });
  void replay();
}

/** Signing out on purpose drops what was waiting (it was this person's choice to leave). */
export function discardWaiting() {
  set({ waiting: [], refused: [], needsSignIn: false });
}

export function dismissRefused() {
  set({ refused: [] });
}

type Outcome = 'sent' | 'refused' | 'unreachable' | 'signed-out' | 'later';

/** How long to wait when the server asks to slow down (429) before sending again. */
const SLOW_DOWN_MS = 5000;

async function send(w: WaitingWrite): Promise<{ outcome: Outcome; message?: string }> {
  let res: Response;
  try {
    res = await postGraphql(w.query, w.variables);
  } catch {
    return { outcome: 'unreachable' };
  }
  // A proxy in front says the server is away: not the server refusing this write.
  if (res.status === 502 || res.status === 503 || res.status === 504) return { outcome: 'unreachable' };
  // Too many at once: the write is fine, it goes a little later.
  if (res.status === 429) return { outcome: 'later' };
  const data = res.headers.get('content-type')?.includes('json') ? await res.json().catch(() => null) : null;
  const first = data?.errors?.[0] as
    | { message?: string; extensions?: { type?: string; userPresentableMessage?: string } }
    | undefined;
  if (res.status === 401 || first?.extensions?.type === 'authentication error')
    return { outcome: 'signed-out' };
  if (res.ok && !first) return { outcome: 'sent' };
  const message =
    first?.extensions?.userPresentableMessage ??
    first?.message ??
    data?.error?.message ??
    `Request failed (${res.status})`;
  return { outcome: 'refused', message };
}

let onSignedOut: () => void = () => {};
/** How a refused session is handled (lib/session.tsx: back to the sign-in page, the queue kept). */
export const setQueueSignedOutHandler = (fn: () => void) => {
  onSignedOut = fn;
};

/** Sends the waiting writes one by one, oldest first; runs again when the server comes back. */
export async function replay() {
  if (state.sending || !owner || !isReachable() || state.waiting.length === 0) return;
  set({ sending: true });
  // Reads wait until every write is in: one in between would show the old values again.
  holdQueriesOffline(true);
  let refusedAny = false;
  let stop: Outcome | null = null;
  try {
    while (state.waiting.length > 0 && owner) {
      const next = state.waiting[0]!;
      const { outcome, message } = await send(next);
      if (outcome === 'unreachable' || outcome === 'signed-out' || outcome === 'later') {
        stop = outcome;
        break;
      }
      markReachable();
      if (outcome === 'refused') {
        refusedAny = true;
        set({ refused: [...state.refused, { key: next.key, label: next.label, message: message ?? '' }] });
      }
      set({ waiting: state.waiting.filter((w) => w.key !== next.key) });
    }
  } finally {
    set({ sending: false });
    holdQueriesOffline(false);
  }
  if (stop === 'unreachable') markUnreachable();
  if (stop === 'later') setTimeout(() => void replay(), SLOW_DOWN_MS);
  if (stop === 'signed-out') {
    set({ needsSignIn: true });
    onSignedOut();
  }
  // What the page shows was patched as the writes were made: read it all again from the
  // server, which puts back whatever a refused write had changed.
  if (stop === null || refusedAny) void queryClient.invalidateQueries();
}

onReachable(() => void replay());

/** The waiting and refused writes, for the status in the shell. */
export const useWriteQueue = () =>
  useSyncExternalStore(
    (fn) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    () => state,
  );
