// test-runner: any database
// Configuration parsing: every variable, its default, and that bad values stop
// start-up with a ConfigError naming the variable.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, test } from 'node:test';
import { SERVER_ARGS, SERVER_ROOT } from '../test/support/server-process.js';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig defaults', () => {
  test('an empty environment gives the documented defaults', () => {
    const c = loadConfig({});
    assert.equal(c.port, 3000);
    assert.equal(c.host, '0.0.0.0');
    assert.equal(c.dataDir, path.resolve('./data'));
    assert.equal(c.databaseUrl, undefined);
    assert.equal(c.publicUrl, 'http://localhost:3000');
    assert.equal(c.adminEmail, undefined);
    assert.equal(c.adminPassword, undefined);
    assert.equal(c.jwtSecret, undefined);
    assert.equal(c.webhookAllowPrivate, false);
    assert.equal(c.webhookRetryBaseMs, 60_000);
    assert.equal(c.graphqlRequestsPerHour, 5_000);
    assert.equal(c.graphqlComplexityPerHour, 3_000_000);
    assert.equal(c.logLevel, 'info');
    assert.equal(c.trustProxy, false);
    assert.equal(c.fileStorage, 'local');
    assert.equal(c.s3, undefined);
    assert.equal(c.mail, undefined);
  });

  test('blank values count as unset', () => {
    const c = loadConfig({ PORT: '', HOST: '  ', DATABASE_URL: '', LOG_LEVEL: ' ', ADMIN_PASSWORD: '' });
    assert.equal(c.port, 3000);
    assert.equal(c.host, '0.0.0.0');
    assert.equal(c.databaseUrl, undefined);
    assert.equal(c.logLevel, 'info');
    assert.equal(c.adminPassword, undefined);
  });
});

describe('loadConfig parses each variable', () => {
  test('PORT and HOST', () => {
    const c = loadConfig({ PORT: '8080', HOST: '127.0.0.1' });
    assert.equal(c.port, 8080);
    assert.equal(c.host, '127.0.0.1');
    assert.equal(loadConfig({ PORT: '0' }).port, 0);
    assert.equal(loadConfig({ PORT: '65535' }).port, 65535);
  });

  test('PUBLIC_URL defaults to the port and loses trailing slashes', () => {
    assert.equal(loadConfig({ PORT: '8080' }).publicUrl, 'http://localhost:8080');
    assert.equal(
      loadConfig({ PUBLIC_URL: 'https://track.example.com/' }).publicUrl,
      'https://track.example.com',
    );
    assert.equal(
      loadConfig({ PUBLIC_URL: 'https://example.com/tracker//' }).publicUrl,
      'https://example.com/tracker',
    );
  });

  test('DATA_DIR is resolved to an absolute path', () => {
    assert.equal(loadConfig({ DATA_DIR: 'some/dir' }).dataDir, path.resolve('some/dir'));
    assert.equal(loadConfig({ DATA_DIR: '/var/lib/trackway' }).dataDir, '/var/lib/trackway');
  });

  test('DATABASE_URL accepts postgres: and postgresql:', () => {
    for (const url of ['postgres://u:p@db:5432/app', 'postgresql://db/app']) {
      assert.equal(loadConfig({ DATABASE_URL: url }).databaseUrl, url);
    }
  });

  test('ADMIN_EMAIL is lower-cased; ADMIN_PASSWORD kept as given', () => {
    const c = loadConfig({ ADMIN_EMAIL: 'Boss@Example.COM', ADMIN_PASSWORD: ' spaced pw ' });
    assert.equal(c.adminEmail, 'boss@example.com');
    assert.equal(c.adminPassword, ' spaced pw ');
  });

  test('JWT_SECRET of 32 characters or more is kept', () => {
    assert.equal(loadConfig({ JWT_SECRET: 's'.repeat(32) }).jwtSecret, 's'.repeat(32));
  });

  test('WEBHOOK_ALLOW_PRIVATE accepts the usual spellings of true and false', () => {
    for (const v of ['true', 'TRUE', '1', 'yes', 'on']) {
      assert.equal(loadConfig({ WEBHOOK_ALLOW_PRIVATE: v }).webhookAllowPrivate, true, v);
    }
    for (const v of ['false', '0', 'no', 'off', 'Off']) {
      assert.equal(loadConfig({ WEBHOOK_ALLOW_PRIVATE: v }).webhookAllowPrivate, false, v);
    }
  });

  test('WEBHOOK_RETRY_BASE_MS', () => {
    assert.equal(loadConfig({ WEBHOOK_RETRY_BASE_MS: '50' }).webhookRetryBaseMs, 50);
  });

  test('GraphQL hourly budget', () => {
    const c = loadConfig({ GRAPHQL_REQUESTS_PER_HOUR: '20', GRAPHQL_COMPLEXITY_PER_HOUR: '1000' });
    assert.equal(c.graphqlRequestsPerHour, 20);
    assert.equal(c.graphqlComplexityPerHour, 1000);
    assert.throws(() => loadConfig({ GRAPHQL_REQUESTS_PER_HOUR: '0' }), /GRAPHQL_REQUESTS_PER_HOUR/);
    assert.throws(() => loadConfig({ GRAPHQL_COMPLEXITY_PER_HOUR: 'lots' }), /GRAPHQL_COMPLEXITY_PER_HOUR/);
  });

  test('LOG_LEVEL accepts every pino level, case-insensitively', () => {
    for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) {
      assert.equal(loadConfig({ LOG_LEVEL: level.toUpperCase() }).logLevel, level);
    }
  });

  test('TRUST_PROXY: off, on, a hop count, or proxy addresses and ranges', () => {
    const trust = (v: string) => loadConfig({ TRUST_PROXY: v }).trustProxy;
    assert.equal(trust('false'), false);
    assert.equal(trust('0'), false);
    assert.equal(trust('TRUE'), true);
    assert.equal(trust('2'), 2);
    assert.deepEqual(trust('10.0.0.1'), ['10.0.0.1']);
    assert.deepEqual(trust(' 10.0.0.0/8, fd00::/8 ,loopback'), ['10.0.0.0/8', 'fd00::/8', 'loopback']);
  });

  test('FILE_STORAGE and the S3 settings', () => {
    assert.equal(loadConfig({ FILE_STORAGE: 'Postgres' }).fileStorage, 'postgres');
    // S3 settings are read only for the s3 driver.
    assert.equal(loadConfig({ FILE_STORAGE: 'local', S3_BUCKET: '!' }).s3, undefined);
    assert.deepEqual(loadConfig({ FILE_STORAGE: 's3', S3_BUCKET: 'files' }).s3, {
      bucket: 'files',
      region: 'us-east-1',
      endpoint: undefined,
      forcePathStyle: false,
      credentials: undefined,
      presignedUploads: false,
    });
    const c = loadConfig({
      FILE_STORAGE: 's3',
      S3_BUCKET: 'my.files-1',
      S3_REGION: 'eu-west-3',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_FORCE_PATH_STYLE: 'yes',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_PRESIGNED_UPLOADS: 'true',
    });
    assert.deepEqual(c.s3, {
      bucket: 'my.files-1',
      region: 'eu-west-3',
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      presignedUploads: true,
    });
  });

  test('SMTP_URL, MAIL_FROM and the mail timings', () => {
    assert.deepEqual(
      loadConfig({ SMTP_URL: 'smtp://mail.example.com:587', MAIL_FROM: 'tw@example.com' }).mail,
      {
        smtpUrl: 'smtp://mail.example.com:587',
        from: 'tw@example.com',
        batchWindowMs: 120_000,
        retryBaseMs: 60_000,
      },
    );
    const c = loadConfig({
      SMTP_URL: 'smtps://user:p%40ss@mail.example.com',
      MAIL_FROM: 'Trackway <tw@example.com>',
      MAIL_BATCH_WINDOW_MS: '0',
      MAIL_RETRY_BASE_MS: '500',
    });
    assert.equal(c.mail?.smtpUrl, 'smtps://user:p%40ss@mail.example.com');
    assert.equal(c.mail?.from, 'Trackway <tw@example.com>');
    assert.equal(c.mail?.batchWindowMs, 0);
    assert.equal(c.mail?.retryBaseMs, 500);
  });
});

describe('loadConfig refuses bad values, naming the variable', () => {
  const bad: [string, Record<string, string>][] = [
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['PORT', { PORT: '-1' }],
    ['PORT', { PORT: '80.5' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['DATABASE_URL', { DATABASE_URL: 'not a url' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'nope' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'ftp://example.com' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['ADMIN_EMAIL', { ADMIN_EMAIL: 'not-an-email' }],
    ['ADMIN_PASSWORD', { ADMIN_PASSWORD: '123' }],
    ['JWT_SECRET', { JWT_SECRET: 'short' }],
    ['WEBHOOK_ALLOW_PRIVATE', { WEBHOOK_ALLOW_PRIVATE: 'maybe' }],
    ['WEBHOOK_RETRY_BASE_MS', { WEBHOOK_RETRY_BASE_MS: '0' }],
    ['WEBHOOK_RETRY_BASE_MS', { WEBHOOK_RETRY_BASE_MS: 'soon' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'maybe' }],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/33' }],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.1,nginx' }],
    ['TRUST_PROXY', { TRUST_PROXY: '101' }],
    ['FILE_STORAGE', { FILE_STORAGE: 'ftp' }],
    ['S3_BUCKET', { FILE_STORAGE: 's3' }],
    ['S3_BUCKET', { FILE_STORAGE: 's3', S3_BUCKET: 'No_Such' }],
    ['S3_ENDPOINT', { FILE_STORAGE: 's3', S3_BUCKET: 'files', S3_ENDPOINT: 'minio:9000' }],
    ['S3_REGION', { FILE_STORAGE: 's3', S3_BUCKET: 'files', S3_REGION: 'EU West' }],
    ['S3_FORCE_PATH_STYLE', { FILE_STORAGE: 's3', S3_BUCKET: 'files', S3_FORCE_PATH_STYLE: 'maybe' }],
    ['S3_SECRET_ACCESS_KEY', { FILE_STORAGE: 's3', S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'id' }],
    ['SMTP_URL', { SMTP_URL: 'http://mail.example.com', MAIL_FROM: 'a@b.c' }],
    ['SMTP_URL', { SMTP_URL: 'not a url', MAIL_FROM: 'a@b.c' }],
    ['MAIL_FROM', { SMTP_URL: 'smtp://mail.example.com' }],
    ['MAIL_FROM', { SMTP_URL: 'smtp://mail.example.com', MAIL_FROM: 'nobody' }],
    ['MAIL_FROM', { MAIL_FROM: 'a@b.c' }],
    [
      'MAIL_BATCH_WINDOW_MS',
      { SMTP_URL: 'smtp://m.example.com', MAIL_FROM: 'a@b.c', MAIL_BATCH_WINDOW_MS: '-1' },
    ],
    ['MAIL_RETRY_BASE_MS', { SMTP_URL: 'smtp://m.example.com', MAIL_FROM: 'a@b.c', MAIL_RETRY_BASE_MS: '0' }],
  ];
  for (const [name, env] of bad) {
    test(`${name}=${env[name] ?? '(unset)'} (${JSON.stringify(env)})`, () => {
      assert.throws(
        () => loadConfig(env),
        (err: unknown) => err instanceof ConfigError && err.message.includes(name),
      );
    });
  }
});

describe('the server refuses to start with a bad value', () => {
  test('PORT=abc exits non-zero with a message naming PORT', () => {
    const r = spawnSync(process.execPath, SERVER_ARGS, {
      cwd: SERVER_ROOT,
      env: { ...process.env, PORT: 'abc', DATABASE_URL: '', DATA_DIR: '/nonexistent/never-created' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /configuration error: PORT must be a whole number, got "abc"/);
    assert.ok(!/at .*\.ts:\d+/.test(r.stderr), 'no stack trace for a configuration error');
  });
});
