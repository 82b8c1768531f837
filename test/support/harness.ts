// Starts the real application on a fresh database for one test file, and gives
// tests a small HTTP client over app.inject (no sockets) or a real listener.
import type { LightMyRequestResponse } from 'fastify';
import { type BuildOptions, buildApp } from '../../src/app.js';
import type { Config } from '../../src/config.js';
import type { AppContext } from '../../src/platform/context.js';
import { freshDatabase, type TestDatabase } from './database.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, testConfig } from './env.js';

export interface Res<T = any> {
  status: number;
  body: T;
  headers: LightMyRequestResponse['headers'];
}

export interface TestApp {
  app: Awaited<ReturnType<typeof buildApp>>['app'];
  ctx: AppContext;
  database: TestDatabase;
  config: Config;
  /** Login token of the seeded admin. */
  adminToken: string;
  request<T = any>(method: string, url: string, opts?: RequestOpts): Promise<Res<T>>;
  get<T = any>(url: string, token?: string): Promise<Res<T>>;
  post<T = any>(url: string, body?: unknown, token?: string): Promise<Res<T>>;
  patch<T = any>(url: string, body?: unknown, token?: string): Promise<Res<T>>;
  del<T = any>(url: string, token?: string): Promise<Res<T>>;
  /** Signs in through the API, as the web app's form does: a new session's token and its user. */
  login(email: string, password: string): Promise<{ token: string; user: any }>;
  /** Registers a member and returns its token and user. */
  register(name?: string): Promise<{ token: string; user: any; email: string; password: string }>;
  /**
   * Creates a user with a role (as admin) and signs it in. `teams` (ids or
   * keys) are added as memberships: guests see only the teams they are in.
   */
  userWithRole(
    role: 'admin' | 'member' | 'guest',
    opts?: { teams?: string[]; name?: string; email?: string },
  ): Promise<{ token: string; user: any; email: string; password: string }>;
  /** Listens on a loopback port; returns the base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export interface RequestOpts {
  token?: string | undefined;
  body?: unknown;
  /** Raw payload (string or Buffer) sent as is. */
  payload?: string | Buffer;
  headers?: Record<string, string>;
  /** The client address the server sees (app.inject's default is 127.0.0.1). */
  remoteAddress?: string;
}

/** Every test request comes from one address, so the per-address limits are lifted unless a test sets them. */
const TEST_LOGIN_LIMITS: BuildOptions['loginLimits'] = {
  perAddress: { capacity: 100_000, windowMs: 15 * 60_000 },
  registrations: { capacity: 100_000, windowMs: 60 * 60_000 },
  oauthPerAddress: { capacity: 100_000, windowMs: 15 * 60_000 },
  oauthPerClient: { capacity: 100_000, windowMs: 15 * 60_000 },
  oauthRegistrations: { capacity: 100_000, windowMs: 60 * 60_000 },
};

let counter = 0;
export const uniqueEmail = (prefix = 'user') =>
  `${prefix}-${process.pid}-${Date.now().toString(36)}-${++counter}@example.com`;

export async function startTestApp(
  overrides: Partial<Config> = {},
  options: Pick<
    BuildOptions,
    'loginLimits' | 'clock' | 'mailWorker' | 'gitWorker' | 'backupWorker' | 'cycleWorker'
  > = {},
): Promise<TestApp> {
  const config = testConfig(overrides);
  const database = await freshDatabase({ statementTimeoutMs: config.statementTimeoutMs });
  const built = await buildApp({
    config,
    database,
    logger: false,
    loginLimits: { ...TEST_LOGIN_LIMITS, ...options.loginLimits },
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.mailWorker !== undefined ? { mailWorker: options.mailWorker } : {}),
    ...(options.gitWorker !== undefined ? { gitWorker: options.gitWorker } : {}),
    ...(options.backupWorker !== undefined ? { backupWorker: options.backupWorker } : {}),
    ...(options.cycleWorker !== undefined ? { cycleWorker: options.cycleWorker } : {}),
  });
  const { app, ctx } = built;
  await app.ready();

  const request = async (method: string, url: string, opts: RequestOpts = {}): Promise<Res> => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers['authorization'] = `Bearer ${opts.token}`;
    let payload: string | Buffer | undefined = opts.payload;
    if (opts.body !== undefined) {
      payload = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(payload !== undefined ? { payload } : {}),
      ...(opts.remoteAddress ? { remoteAddress: opts.remoteAddress } : {}),
    });
    let body: unknown = res.body;
    // JSON and its +json kinds, not NDJSON (the audit export): that is lines of JSON, kept as text.
    if (/^application\/([\w.-]+\+)?json\b/.test(String(res.headers['content-type'] ?? '')) && res.body)
      body = res.json();
    return { status: res.statusCode, body, headers: res.headers };
  };

  const login = async (email: string, password: string) => {
    const res = await request('POST', '/api/auth/login', { body: { email, password } });
    if (res.status !== 200)
      throw new Error(`login ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { token: string; user: any };
  };
  const admin = await login(ADMIN_EMAIL, ADMIN_PASSWORD);

  const t: TestApp = {
    app,
    ctx,
    database,
    config,
    adminToken: admin.token,
    request,
    get: (url, token) => request('GET', url, { token }),
    post: (url, body, token) => request('POST', url, { body, token }),
    patch: (url, body, token) => request('PATCH', url, { body, token }),
    del: (url, token) => request('DELETE', url, { token }),
    login,
    async register(name = 'Test User') {
      const email = uniqueEmail('member');
      const password = 'password-123';
      const res = await request('POST', '/api/auth/register', { body: { name, email, password } });
      if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
      return { ...res.body, email, password };
    },
    async userWithRole(role, opts = {}) {
      const email = opts.email ?? uniqueEmail(role);
      const password = 'password-123';
      const res = await request('POST', '/api/admin/users', {
        token: admin.token,
        body: { name: opts.name ?? `A ${role}`, email, password, role },
      });
      if (res.status !== 201)
        throw new Error(`create ${role} failed: ${res.status} ${JSON.stringify(res.body)}`);
      for (const team of opts.teams ?? []) {
        const added = await request('POST', `/api/teams/${team}/members`, {
          token: admin.token,
          body: { userId: res.body.user.id },
        });
        if (added.status !== 201 && added.status !== 409)
          throw new Error(`joining ${team} failed: ${added.status} ${JSON.stringify(added.body)}`);
      }
      const session = await login(email, password);
      return { ...session, email, password };
    },
    async listen() {
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      return address;
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
  return t;
}
