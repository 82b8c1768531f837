// Delivery knobs that are not environment variables: production uses the
// defaults; tests and the benchmark shorten them per app (tuneWebhookDelivery).
import type { AppContext } from '../../platform/context.js';

export interface DeliveryTuning {
  /** A receiver must answer with a 2xx within this. */
  timeoutMs: number;
  /** How long a claimed delivery stays reserved for the claiming worker (> timeoutMs). */
  leaseMs: number;
  /** Poll interval; LISTEN/NOTIFY and local kicks usually wake the worker sooner. */
  pollMs: number;
  /** Attempts in one retry schedule before a delivery is marked failed. */
  maxAttempts: number;
  /** An endpoint failing continuously for this long is disabled. */
  disableAfterMs: number;
  /** Deliveries in flight at once per worker (each to a different endpoint). */
  concurrency: number;
  /** How long stop() waits for in-flight attempts. */
  stopTimeoutMs: number;
}

const DAY = 24 * 60 * 60 * 1000;

export const DEFAULT_TUNING: DeliveryTuning = {
  timeoutMs: 10_000,
  leaseMs: 30_000,
  pollMs: 500,
  maxAttempts: 18,
  disableAfterMs: 3 * DAY,
  concurrency: 32,
  stopTimeoutMs: 5_000,
};

const overrides = new WeakMap<object, Partial<DeliveryTuning>>();

export function tuningFor(ctx: AppContext): DeliveryTuning {
  return { ...DEFAULT_TUNING, ...overrides.get(ctx) };
}

/** Overrides knobs for one app (read afresh on every attempt, so it applies at once). */
export function tuneWebhookDelivery(ctx: AppContext, patch: Partial<DeliveryTuning>): void {
  overrides.set(ctx, { ...overrides.get(ctx), ...patch });
}
