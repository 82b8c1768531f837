// Whether the server can be reached, as this tab last saw it: a request that
// could not be sent, the browser going offline or the change stream staying
// down marks it unreachable; any answer from the server, or a probe of
// /healthz every few seconds while it is down, marks it reachable again.
// TanStack Query follows this state: while the server is away queries pause
// (keeping what they show) instead of failing, and they resume only once the
// writes made meanwhile are sent (lib/write-queue.ts), so a read never puts
// back what a waiting edit changed.
import { onlineManager } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { serverAnswers } from './api';

const PROBE_MS = 3000;

let reachable = typeof navigator === 'undefined' || navigator.onLine;
/** Held offline for the queries while waiting writes are being sent. */
let holdQueries = false;
const listeners = new Set<() => void>();
let probeTimer: ReturnType<typeof setTimeout> | null = null;
const backListeners = new Set<() => void>();

function emit() {
  for (const l of listeners) l();
}

function syncQueries() {
  onlineManager.setOnline(reachable && !holdQueries);
}

/** A request could not reach the server (or the browser says it is offline). */
export function markUnreachable() {
  if (!reachable) return;
  reachable = false;
  syncQueries();
  emit();
  scheduleProbe(PROBE_MS);
}

/** The server answered something: it is there. */
export function markReachable() {
  if (reachable) return;
  if (typeof navigator !== 'undefined' && !navigator.onLine) return;
  reachable = true;
  if (probeTimer) clearTimeout(probeTimer);
  probeTimer = null;
  syncQueries();
  emit();
  for (const l of backListeners) l();
}

export const isReachable = () => reachable;

/** Queries wait (paused, showing what they have) while `hold` is true, even with the server there. */
export function holdQueriesOffline(hold: boolean) {
  holdQueries = hold;
  syncQueries();
}

/** Called each time the server comes back after being away. */
export function onReachable(fn: () => void): () => void {
  backListeners.add(fn);
  return () => backListeners.delete(fn);
}

export function subscribeConnection(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The component re-renders when the server goes away or comes back. */
export const useReachable = () => useSyncExternalStore(subscribeConnection, isReachable);

function scheduleProbe(delay: number) {
  if (probeTimer) clearTimeout(probeTimer);
  probeTimer = setTimeout(probe, delay);
}

async function probe() {
  probeTimer = null;
  if (reachable) return;
  if (await serverAnswers()) return markReachable();
  scheduleProbe(PROBE_MS);
}

if (typeof window !== 'undefined') {
  // TanStack Query takes its online state from here only, not from the browser's events.
  onlineManager.setEventListener(() => () => undefined);
  syncQueries();
  window.addEventListener('offline', markUnreachable);
  // The browser thinks it has a network again: see whether the server is there.
  window.addEventListener('online', () => void probe());
  if (!reachable) scheduleProbe(PROBE_MS);
}
