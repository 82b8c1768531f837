// Retry schedule: exponential from WEBHOOK_RETRY_BASE_MS, doubling up to a cap
// of 512 x base, with +-20% jitter so endpoints coming back up are not hit by
// every queued retry at once. With the default base of one minute and 18
// attempts: 1, 2, 4, ... 256 min, then 8.5 h steps; about 3.2 days in all.
export const MAX_BACKOFF_FACTOR = 512;

/** Delay before the next attempt, after `failedAttempts` failures in the current schedule (>= 1). */
export function retryDelayMs(baseMs: number, failedAttempts: number, random: () => number = Math.random) {
  const factor = Math.min(2 ** Math.max(0, failedAttempts - 1), MAX_BACKOFF_FACTOR);
  const jitter = 0.8 + 0.4 * random();
  return Math.max(1, Math.round(baseMs * factor * jitter));
}

/** Total nominal wait across a schedule of `maxAttempts` attempts (for docs and tests). */
export function scheduleSpanMs(baseMs: number, maxAttempts: number): number {
  let total = 0;
  for (let n = 1; n < maxAttempts; n++) total += baseMs * Math.min(2 ** (n - 1), MAX_BACKOFF_FACTOR);
  return total;
}
