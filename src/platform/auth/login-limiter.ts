// Sign-in and registration limits, kept in the database (table auth_throttle).
// An attempt is counted *before* the password hash is computed, in a short
// transaction that locks the attempt's counter rows, so parallel requests
// cannot all pass the check, and instances sharing one PostgreSQL share the
// limits. The rules (login-limiter-rules.ts) and the design are in
// docs/security.md; in short, per sign-in attempt (and per current-password
// check of a password change, which is the same guess by another door):
//
// - (account, address): back-off. Failures are free at first, then each waits
//   twice as long as the last. Keyed on the address too, so an attacker's
//   failures slow the attacker, never the owner signing in from elsewhere.
// - address: a bucket of attempts on any account (password spraying).
// - account, from addresses it has not signed in from lately: a bucket, so
//   guesses spread over many addresses are slowed too, while the owner on an
//   address they used before is never locked out by someone else.
import { isIPv4, isIPv6 } from 'node:net';
import type { Db } from '../db/database.js';
import {
  Backoff,
  Bucket,
  EMPTY,
  type Rule,
  retryAfterSeconds,
  type ThrottleState,
} from './login-limiter-rules.js';
import * as q from './queries.js';

export interface LoginLimits {
  /** Failures on one account from one address: `free`, then doubling delays. */
  perAccountAddress: { free: number; firstDelayMs: number; maxDelayMs: number; forgetAfterMs: number };
  /** Attempts on one account from addresses it has not signed in from within `knownAddressMs`. */
  perAccount: { capacity: number; windowMs: number };
  /** Attempts from one address on any account, successful or not. */
  perAddress: { capacity: number; windowMs: number };
  /** Self-registrations from one address. */
  registrations: { capacity: number; windowMs: number };
  /** Password-reset requests for one email address (each may send a message). */
  passwordResets: { capacity: number; windowMs: number };
  /** How long a successful sign-in makes its address known for the account. */
  knownAddressMs: number;
  /** Requests to the OAuth endpoints (/oauth/*) from one address, whatever the app. */
  oauthPerAddress: { capacity: number; windowMs: number };
  /** Requests to them naming one app (client id) from one address, so no address starves an app for others. */
  oauthPerClient: { capacity: number; windowMs: number };
  /** Dynamic client registrations from one address (each stores an app). */
  oauthRegistrations: { capacity: number; windowMs: number };
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export const DEFAULT_LOGIN_LIMITS: LoginLimits = {
  perAccountAddress: { free: 5, firstDelayMs: 1000, maxDelayMs: 15 * MINUTE, forgetAfterMs: DAY },
  perAccount: { capacity: 10, windowMs: 15 * MINUTE },
  perAddress: { capacity: 100, windowMs: 15 * MINUTE },
  registrations: { capacity: 10, windowMs: 60 * MINUTE },
  passwordResets: { capacity: 5, windowMs: 60 * MINUTE },
  knownAddressMs: 30 * DAY,
  oauthPerAddress: { capacity: 300, windowMs: 15 * MINUTE },
  oauthPerClient: { capacity: 60, windowMs: 15 * MINUTE },
  oauthRegistrations: { capacity: 10, windowMs: 60 * MINUTE },
};

/** Allowed (and counted), or refused with the seconds to wait. */
export type Reservation = { ok: true } | { ok: false; retryAfter: number };
export type LoginReservation = { ok: true; succeeded(): Promise<void> } | { ok: false; retryAfter: number };

interface Check {
  scope: string;
  key: string;
  rule: Rule;
}

// Expired rows are deleted at most this often per process.
const PRUNE_EVERY_MS = 10 * MINUTE;

export class LoginLimiter {
  readonly #backoff: Backoff;
  readonly #account: Bucket;
  readonly #address: Bucket;
  readonly #registrations: Bucket;
  readonly #resets: Bucket;
  readonly #oauthAddress: Bucket;
  readonly #oauthClient: Bucket;
  readonly #oauthRegistrations: Bucket;
  #prunedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Db,
    private readonly limits: LoginLimits = DEFAULT_LOGIN_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    const p = limits.perAccountAddress;
    this.#backoff = new Backoff(p.free, p.firstDelayMs, p.maxDelayMs, p.forgetAfterMs);
    this.#account = new Bucket(limits.perAccount.capacity, limits.perAccount.windowMs);
    this.#address = new Bucket(limits.perAddress.capacity, limits.perAddress.windowMs);
    this.#registrations = new Bucket(limits.registrations.capacity, limits.registrations.windowMs);
    this.#resets = new Bucket(limits.passwordResets.capacity, limits.passwordResets.windowMs);
    this.#oauthAddress = new Bucket(limits.oauthPerAddress.capacity, limits.oauthPerAddress.windowMs);
    this.#oauthClient = new Bucket(limits.oauthPerClient.capacity, limits.oauthPerClient.windowMs);
    this.#oauthRegistrations = new Bucket(
      limits.oauthRegistrations.capacity,
      limits.oauthRegistrations.windowMs,
    );
  }

  /**
   * Counts a request to an OAuth endpoint before the provider sees it: on
   * its address, on the app it names from that address, and for a dynamic
   * registration on the address's registrations.
   */
  async reserveOAuthRequest(
    ip: string,
    clientId: string | undefined,
    registration: boolean,
  ): Promise<Reservation> {
    await this.#prune();
    const address = addressKey(ip);
    const checks: Check[] = [{ scope: 'oauth-address', key: address, rule: this.#oauthAddress }];
    if (clientId)
      checks.push({ scope: 'oauth-client', key: `${address}|${clientId}`, rule: this.#oauthClient });
    if (registration) checks.push({ scope: 'oauth-register', key: address, rule: this.#oauthRegistrations });
    return this.db.transaction().execute((trx) => reserve(trx, checks, this.now));
  }

  /**
   * Counts a sign-in attempt as a failure before the password is checked;
   * `succeeded()` then clears it. `email` is normalised by the caller.
   */
  async reserveLogin(email: string, ip: string): Promise<LoginReservation> {
    await this.#prune();
    const address = addressKey(ip);
    const pair = `${address}|${email}`;
    const result = await this.db.transaction().execute(async (trx) => {
      const known = await q.throttleLastAt(trx, { scope: 'login-known', key: pair });
      const isKnown = known !== undefined && this.now() - known.getTime() < this.limits.knownAddressMs;
      const checks: Check[] = [
        { scope: 'login', key: pair, rule: this.#backoff },
        { scope: 'login-address', key: address, rule: this.#address },
      ];
      if (!isKnown) checks.push({ scope: 'login-account', key: email, rule: this.#account });
      return { ...(await reserve(trx, checks, this.now)), isKnown };
    });
    if (!result.ok) return result;
    return { ok: true, succeeded: () => this.#succeeded(email, pair, !result.isKnown) };
  }

  /** Counts a self-registration from this address before its password is hashed. */
  async reserveRegistration(ip: string): Promise<Reservation> {
    await this.#prune();
    const check = { scope: 'register-address', key: addressKey(ip), rule: this.#registrations };
    return this.db.transaction().execute((trx) => reserve(trx, [check], this.now));
  }

  /**
   * Counts a password-reset request: against the address (the sign-in
   * bucket: one budget for guessing and for mail bombing) and the email.
   */
  async reservePasswordReset(email: string, ip: string): Promise<Reservation> {
    await this.#prune();
    const checks: Check[] = [
      { scope: 'login-address', key: addressKey(ip), rule: this.#address },
      { scope: 'reset-account', key: email, rule: this.#resets },
    ];
    return this.db.transaction().execute((trx) => reserve(trx, checks, this.now));
  }

  /**
   * Counts an attempt that presents some other credential on its address's
   * sign-in bucket, before the credential is looked at: a password-reset
   * token (guessing one spends the same budget as guessing passwords), or a
   * single sign-on return (each costs a token request to the provider).
   */
  async reserveAddressAttempt(ip: string): Promise<Reservation> {
    await this.#prune();
    const check = { scope: 'login-address', key: addressKey(ip), rule: this.#address };
    return this.db.transaction().execute((trx) => reserve(trx, [check], this.now));
  }

  /** The owner got in: forget the pair's failures, give back the account-wide attempt, remember the address. */
  async #succeeded(email: string, pair: string, countedOnAccount: boolean): Promise<void> {
    // Statements in the same scope order as reserve() takes its locks: no deadlock.
    await this.db.transaction().execute(async (trx) => {
      await q.deleteThrottleRow(trx, { scope: 'login', key: pair });
      if (countedOnAccount) {
        const row = await q.lockThrottleRow(trx, { scope: 'login-account', key: email });
        if (row) {
          const now = this.now();
          const state = this.#account.refund({ count: row.count, lastAt: row.last_at.getTime() }, now);
          await save(trx, { scope: 'login-account', key: email, rule: this.#account }, state);
        }
      }
      const now = this.now();
      await q.putThrottleRow(
        trx,
        { scope: 'login-known', key: pair },
        { count: 0, lastAt: new Date(now), expiresAt: new Date(now + this.limits.knownAddressMs) },
      );
    });
  }

  async #prune(): Promise<void> {
    const now = this.now();
    if (now - this.#prunedAt < PRUNE_EVERY_MS) return;
    this.#prunedAt = now;
    await q.pruneThrottle(this.db, new Date(now));
  }
}

/**
 * Locks the checks' rows (creating missing ones) and, when every rule allows
 * the attempt, counts it on each. Rows are locked in one order (scope, key) by
 * every caller, so two attempts sharing rows wait for each other instead of
 * deadlocking. The clock is read once the rows are held, so attempts are
 * counted in the order they got them.
 */
async function reserve(trx: Db, checks: Check[], clock: () => number): Promise<Reservation> {
  const sorted = [...checks].sort((a, b) =>
    a.scope === b.scope ? (a.key < b.key ? -1 : 1) : a.scope < b.scope ? -1 : 1,
  );
  const rows = await q.lockThrottleRows(
    trx,
    sorted.map((c) => ({ scope: c.scope, key: c.key })),
  );
  const now = clock();
  const stateOf = (c: Check): ThrottleState => {
    const row = rows.find((r) => r.scope === c.scope && r.key === c.key);
    return row ? { count: row.count, lastAt: row.last_at.getTime() } : EMPTY;
  };
  const wait = Math.max(...sorted.map((c) => c.rule.wait(stateOf(c), now)));
  if (wait > 0) return { ok: false, retryAfter: retryAfterSeconds(wait) };
  for (const c of sorted) await save(trx, c, c.rule.take(stateOf(c), now));
  return { ok: true };
}

async function save(trx: Db, c: Check, state: ThrottleState): Promise<void> {
  const at = {
    count: state.count,
    lastAt: new Date(state.lastAt),
    expiresAt: new Date(c.rule.expiresAt(state)),
  };
  await q.saveThrottleRow(trx, { scope: c.scope, key: c.key }, at);
}

/**
 * The address a limit is keyed on: IPv4 as is (also when written as an
 * IPv4-mapped IPv6 address), IPv6 by its /64 prefix, since one host usually
 * holds a whole /64 and could otherwise take a fresh address per attempt.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (isIPv4(ip)) return ip;
  const bare = ip.split('%')[0]!;
  if (!isIPv6(bare)) return ip;
  const [head = '', tail] = bare.toLowerCase().split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  // A dotted IPv4 tail (::ffff:0:1.2.3.4) stands for two groups.
  const width = (gs: string[]) => gs.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const missing = tail === undefined ? [] : Array(8 - width(headGroups) - width(tailGroups)).fill('0');
  const groups = [...headGroups, ...missing, ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
