// Settings shared by the template preparation and every test file.
import { type Config, loadConfig } from '../../src/config.js';

export const ADMIN_EMAIL = 'admin@example.com';
export const ADMIN_PASSWORD = 'admin-password';

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      PUBLIC_URL: 'http://trackway.test',
      LOG_LEVEL: process.env['TEST_LOG_LEVEL'] ?? 'silent',
      WEBHOOK_RETRY_BASE_MS: '50',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      DATA_DIR: process.env['TEST_DATA_DIR'] ?? '.test-cache/data',
      // The budget is wall time of statements, summed over a request's parallel ones: in CI four
      // test processes and Chromium share two cores, and deep documents (visibility-matrix,
      // graphql-schema-model) spent the default 15 s waiting for a CPU. The tests of the budget
      // itself (search-cost) set theirs; the attack guard runs with the real default.
      DB_TIME_PER_REQUEST_MS: '60000',
    }),
    ...overrides,
  };
}

/** Where the prepared template lives (set by scripts/test.mjs). */
export const templateSource = () => ({
  pgliteTarball: process.env['TEST_PGLITE_TEMPLATE'],
  postgresUrl: process.env['DATABASE_URL'],
  postgresTemplate: process.env['TEST_PG_TEMPLATE'],
});
