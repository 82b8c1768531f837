// test-runner: any database
// docs/security.md states every limit with its number. The numbers are facts
// about the code, so this test reads the page's Limits table and checks each
// row against the constant that enforces it: change one without the other and
// this fails.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { JSON_BODY_LIMIT } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { MAX_COMPLEXITY, MAX_DEPTH, MAX_ROOT_FIELDS } from '../src/graphql/cost.js';
import { MAX_ALIASES, MAX_DOCUMENT_NESTING, MAX_TOKENS } from '../src/graphql/document-limits.js';
import { REFUSAL_CHARGE } from '../src/graphql/execute.js';
import { MAX_RESPONSE_BYTES } from '../src/graphql/response-size.js';
import { RESET_TOKEN_LENGTH, RESET_TOKEN_TTL_MS } from '../src/modules/auth/password-reset.js';
import { MAX_FILE_BYTES } from '../src/modules/files/service.js';
import { CAP_RETRY_AFTER_SECONDS } from '../src/modules/stream/caps.js';
import { CATCH_UP_PAGE_INTERVAL_MS } from '../src/modules/stream/catch-up.js';
import { PAGE_SIZE as STREAM_PAGE } from '../src/modules/stream/session.js';
import { TICKET_LIFETIME_SECONDS } from '../src/modules/stream/ticket.js';
import { Password } from '../src/modules/users/inputs.js';
import { HASH_CONCURRENCY } from '../src/platform/auth/hash-slots.js';
import { DEFAULT_LOGIN_LIMITS as L } from '../src/platform/auth/login-limiter.js';
import { MIN_PASSWORD_LENGTH, PASSWORD_HASH } from '../src/platform/auth/passwords.js';
import { TOKEN_LIFETIME_SECONDS } from '../src/platform/auth/tokens.js';
import { MAX_JSON_DEPTH } from '../src/platform/http/json-depth.js';
import { REST_RECORD_PRICE, REST_REQUEST_PRICE } from '../src/platform/http/request-budget.js';
import { FILTER_LIMITS, LONG_TEXT_MIN_RUN } from '../src/platform/list/filter.js';
import { MAX_REQUEST_PRICE, PRICES } from '../src/platform/list/price.js';
import { MAX_YEAR } from '../src/platform/list/relative-time.js';
import { MAX_PAGE } from '../src/platform/list/window.js';

const page = readFileSync(new URL('../docs/security.md', import.meta.url), 'utf8');

/** The Limits table as { what: limit }. */
function limitsTable(): Record<string, string> {
  const section = page.slice(page.indexOf('## Limits'));
  const rows = section
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| What') && !l.startsWith('|---'));
  return Object.fromEntries(rows.map((r) => r.split('|').map((c) => c.trim())).map((c) => [c[1], c[2]]));
}

const n = (x: number) => x.toLocaleString('en-US');
const mib = (bytes: number) => `${bytes / 1024 / 1024} MiB`;
const minutes = (ms: number) => ms / 60_000;
const seconds = (ms: number) => ms / 1000;
const defaults = loadConfig({});

describe('docs/security.md states the limits the code enforces', () => {
  const table = limitsTable();
  const expect: Record<string, (string | number)[]> = {
    'JSON request body': [mib(JSON_BODY_LIMIT)],
    'JSON nesting': [`${MAX_JSON_DEPTH} levels`, `${MAX_DOCUMENT_NESTING} levels`],
    'Uploaded file': [mib(MAX_FILE_BYTES)],
    Password: [
      `${MIN_PASSWORD_LENGTH} to ${n((Password as { maxLength?: number }).maxLength ?? 0)} characters`,
      `${Math.round(PASSWORD_HASH.memoryCost / 1024)} MiB`,
      `${PASSWORD_HASH.timeCost} passes`,
      `at most ${HASH_CONCURRENCY} hashes or checks at once`,
    ],
    'Sign-in, one account from one address': [
      `${L.perAccountAddress.free} failures`,
      `${seconds(L.perAccountAddress.firstDelayMs)} s`,
      `up to ${minutes(L.perAccountAddress.maxDelayMs)} min`,
      `after ${L.perAccountAddress.forgetAfterMs / 3_600_000} h`,
    ],
    [`Sign-in, one account from addresses that have not signed in to it for ${L.knownAddressMs / 86_400_000} days`]:
      [
        `a burst of ${L.perAccount.capacity}`,
        `one every ${seconds(L.perAccount.windowMs / L.perAccount.capacity)} s`,
      ],
    'OAuth endpoints (`/oauth/*`: authorize, token, revoke, registration, introspection), one address': [
      `a burst of ${L.oauthPerAddress.capacity}`,
      `one every ${seconds(L.oauthPerAddress.windowMs / L.oauthPerAddress.capacity)} s`,
    ],
    'OAuth endpoints, one app (`client_id` in the query, the form or HTTP Basic) from one address': [
      `a burst of ${L.oauthPerClient.capacity}`,
      `one every ${seconds(L.oauthPerClient.windowMs / L.oauthPerClient.capacity)} s`,
    ],
    'OAuth dynamic client registration, one address': [
      `a burst of ${L.oauthRegistrations.capacity}`,
      `one every ${minutes(L.oauthRegistrations.windowMs / L.oauthRegistrations.capacity)} min`,
    ],
    'Sign-in, one address on any account': [
      `a burst of ${L.perAddress.capacity}`,
      `one every ${seconds(L.perAddress.windowMs / L.perAddress.capacity)} s`,
    ],
    'Registration, one address': [
      `a burst of ${L.registrations.capacity}`,
      `one every ${minutes(L.registrations.windowMs / L.registrations.capacity)} min`,
    ],
    'Password-reset requests, one email address': [
      `a burst of ${L.passwordResets.capacity}`,
      `one every ${minutes(L.passwordResets.windowMs / L.passwordResets.capacity)} min`,
    ],
    'Password-reset confirmations, one address': ['the sign-in bucket of the address', 'hashes nothing'],
    'Current password of a password change': ['counted as a sign-in attempt'],
    'Password-reset token': [`${minutes(RESET_TOKEN_TTL_MS)} min`, `${RESET_TOKEN_LENGTH} characters`],
    'Login token': [`${TOKEN_LIFETIME_SECONDS / 86_400} days`],
    Filter: [
      `${FILTER_LIMITS.depth} levels deep`,
      `${n(FILTER_LIMITS.nodes)} nodes`,
      `0001 to ${MAX_YEAR}`,
      `up to ${n(FILTER_LIMITS.stringLength)} characters`,
    ],
    'GraphQL query cost': [`${n(MAX_COMPLEXITY)} points`, `depth ${MAX_DEPTH}`],
    'GraphQL document': [
      `${n(MAX_TOKENS)} tokens`,
      `${MAX_ROOT_FIELDS} root fields`,
      `at most ${MAX_ALIASES} times`,
    ],
    'GraphQL answer': [mib(MAX_RESPONSE_BYTES)],
    'Request budget per user and hour, API keys': [
      `${n(defaults.graphqlRequestsPerHour)} requests`,
      `${n(defaults.graphqlComplexityPerHour)} points`,
      `charged ${n(REFUSAL_CHARGE)} points`,
    ],
    'Request budget per user and hour, sessions (the web UI)': [
      `${n(defaults.sessionRequestsPerHour)} requests`,
      `${n(defaults.sessionComplexityPerHour)} points`,
    ],
    'REST request price': [
      `${REST_REQUEST_PRICE} point`,
      `${REST_RECORD_PRICE} a record`,
      `${PRICES.skippedRow} a row`,
      `over ${n(MAX_REQUEST_PRICE)} points`,
    ],
    'List pages': [`${MAX_PAGE} records`],
    'Database time': [
      `one statement ${seconds(defaults.statementTimeoutMs)} s`,
      `one HTTP request ${seconds(defaults.dbTimePerRequestMs)} s`,
    ],
    'Long text filter (comment body, issue description)': [`${LONG_TEXT_MIN_RUN} letters or digits`],
    'Change stream': [
      `${STREAM_PAGE} at a time`,
      `within ${seconds(defaults.streamDrainTimeoutMs)} s`,
      `more than ${mib(defaults.streamMaxBufferBytes)}`,
      `every ${seconds(defaults.streamHeartbeatMs)} s`,
      `at most ${n(defaults.streamCatchUpLimit)} events back`,
      `one page every ${CATCH_UP_PAGE_INTERVAL_MS} ms`,
    ],
    'Open change streams': [
      `${defaults.streamMaxPerUser} per user from sign-ins`,
      `${defaults.streamMaxPerUser} per user from API keys`,
      `${defaults.streamMaxPerKey} per API key`,
      `${n(defaults.streamMaxOpen)} per process`,
      `Retry-After: ${CAP_RETRY_AFTER_SECONDS}`,
    ],
    'Stream ticket': [`${TICKET_LIFETIME_SECONDS} s`],
  };

  test('every row of the table is checked here, and every check has its row', () => {
    assert.deepEqual(Object.keys(table).sort(), Object.keys(expect).sort());
  });

  for (const [what, parts] of Object.entries(expect)) {
    test(what, () => {
      for (const part of parts)
        assert.ok(table[what]?.includes(String(part)), `"${what}" should say "${part}": ${table[what]}`);
    });
  }
});
