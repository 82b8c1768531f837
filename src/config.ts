// Every environment variable Trackway reads, parsed and validated here and
// nowhere else. A bad value stops start-up with a message naming the variable.
import { isIP } from 'node:net';
import path from 'node:path';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  jwtSecret: string | undefined;
  webhookAllowPrivate: boolean;
  webhookRetryBaseMs: number;
  /** Per-user budget of API clients (API keys) for each hour, GraphQL and REST: requests, and complexity points. */
  graphqlRequestsPerHour: number;
  /** Answer plannable GraphQL reads with one statement whose JSON PostgreSQL builds (docs/graphql.md). */
  graphqlCompiledReads: boolean;
  graphqlComplexityPerHour: number;
  /** Per-user budget of the web UI's sessions (login tokens) for each hour: requests, and complexity points. */
  sessionRequestsPerHour: number;
  sessionComplexityPerHour: number;
  logLevel: LogLevel;
  /** PostgreSQL's statement_timeout on every pooled connection, ms (0: none). */
  statementTimeoutMs: number;
  /** Days an audit entry is kept (docs/identity.md, "Audit log"); 0 keeps every entry. */
  auditRetentionDays: number;
  /** Database time one HTTP request may use, ms; its next statement is refused past it. */
  dbTimePerRequestMs: number;
  /** Change streams (docs/live.md): heartbeat interval, and the bounds on a slow client. */
  streamHeartbeatMs: number;
  streamDrainTimeoutMs: number;
  streamMaxBufferBytes: number;
  /** Open change streams: per user (sign-ins, and API keys together), per API key, per process. */
  streamMaxPerUser: number;
  streamMaxPerKey: number;
  streamMaxOpen: number;
  /** How far back (in sync ids) a stream may resume; older starts at the head with `reset`. */
  streamCatchUpLimit: number;
  /**
   * Which reverse proxies' X-Forwarded-For to believe for the client address
   * (Fastify's trustProxy): false, true (any), a hop count, or addresses/CIDRs.
   */
  trustProxy: boolean | number | string[];
  /** Where uploaded bytes live (docs/files.md, "Storage drivers"). */
  fileStorage: FileStorage;
  /** Set when fileStorage is 's3'. */
  s3: S3Settings | undefined;
  /** Outgoing email (docs/email.md); unset when SMTP_URL is not set. */
  mail: MailSettings | undefined;
  /** Single sign-on settings set by OIDC_* variables; each one set here overrides the admin page's. */
  oidc: Partial<SsoSettings>;
}

/** OpenID Connect sign-in (docs/identity.md, "Single sign-on"): what an admin sets, or the environment. */
export interface SsoSettings {
  issuer: string | null;
  clientId: string | null;
  /** Null for a public client (PKCE only). */
  clientSecret: string | null;
  buttonLabel: string;
  /** Space-separated; must include openid. */
  scopes: string;
  /** Email domains that may sign in; empty: any. */
  allowedDomains: string[];
  /** Create an account at the first sign-in of someone unknown (just in time). */
  autoCreate: boolean;
  /** The role of an account created at sign-in, and of everyone when no group maps to a role. */
  defaultRole: 'member' | 'guest';
  /** For providers that send no email_verified (Entra ID): take the email as verified. */
  trustUnverifiedEmail: boolean;
  /** The claim that lists the person's groups (e.g. groups); null: no mapping. */
  groupsClaim: string | null;
  adminGroups: string[];
  memberGroups: string[];
  guestGroups: string[];
  /** Group → team key: membership of each named team follows the group at every sign-in. */
  teamGroups: { group: string; team: string }[];
  /** Password sign-in and registration refused for all but the break-glass admins. */
  required: boolean;
  breakGlassEmails: string[];
}

export interface MailSettings {
  /** smtp:// or smtps:// URL, credentials included; handed to nodemailer as is. */
  smtpUrl: string;
  /** The From address of every message. */
  from: string;
  /** How long a user's first notification waits for others to join its digest. */
  batchWindowMs: number;
  /** Delay before the first retry of a refused or failed send; later ones double. */
  retryBaseMs: number;
}

export type FileStorage = 'local' | 'postgres' | 's3';
const FILE_STORAGES: readonly FileStorage[] = ['local', 'postgres', 's3'];

export interface S3Settings {
  bucket: string;
  region: string;
  /** Unset: AWS itself; set for other S3-compatible services. */
  endpoint: string | undefined;
  forcePathStyle: boolean;
  /** Unset: the SDK's default credential chain (environment, instance role, ...). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** Two-step uploads PUT straight to the bucket through a presigned URL. */
  presignedUploads: boolean;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

type Env = Record<string, string | undefined>;

function str(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = str(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function url(name: string, raw: string, protocols: string[]): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
  }
  return raw;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

// Named ranges proxy-addr (Fastify's trustProxy) understands.
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

function trustProxy(env: Env): boolean | number | string[] {
  const raw = str(env, 'TRUST_PROXY')?.toLowerCase();
  if (raw === undefined || ['0', 'false', 'no', 'off'].includes(raw)) return false;
  if (['true', 'yes', 'on'].includes(raw)) return true;
  if (/^\d+$/.test(raw)) return int(env, 'TRUST_PROXY', 0, 1, 100);
  const entries = raw.split(',').map((e) => e.trim());
  for (const entry of entries) {
    const [ip = '', prefix, extra] = entry.split('/');
    const version = isIP(ip);
    const prefixOk =
      prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
    if (!PROXY_RANGES.includes(entry) && (version === 0 || !prefixOk || extra !== undefined)) {
      throw new ConfigError(
        `TRUST_PROXY must be true, false, a number of proxy hops, or a comma-separated list of proxy addresses or CIDR ranges (or ${PROXY_RANGES.join(', ')}); "${entry}" is none of these`,
      );
    }
  }
  return entries;
}

function s3Settings(env: Env): S3Settings {
  const bucket = str(env, 'S3_BUCKET');
  if (!bucket) throw new ConfigError('S3_BUCKET must be set when FILE_STORAGE is s3');
  // Bucket naming rules of S3 itself; other services accept a subset.
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new ConfigError(`S3_BUCKET is not a valid bucket name, got "${bucket}"`);
  }
  const endpoint = str(env, 'S3_ENDPOINT');
  if (endpoint) url('S3_ENDPOINT', endpoint, ['http:', 'https:']);
  const region = str(env, 'S3_REGION') ?? 'us-east-1';
  if (!/^[a-z0-9-]+$/.test(region)) throw new ConfigError(`S3_REGION is not a region name, got "${region}"`);
  const accessKeyId = str(env, 'S3_ACCESS_KEY_ID');
  const secretAccessKey = str(env, 'S3_SECRET_ACCESS_KEY');
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together, or neither');
  }
  return {
    bucket,
    region,
    endpoint,
    forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE', false),
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    presignedUploads: bool(env, 'S3_PRESIGNED_UPLOADS', false),
  };
}

function mailSettings(env: Env): MailSettings | undefined {
  const smtpUrl = str(env, 'SMTP_URL');
  const from = str(env, 'MAIL_FROM');
  if (!smtpUrl) {
    if (from) throw new ConfigError('MAIL_FROM is set but SMTP_URL is not; set both, or neither');
    return undefined;
  }
  url('SMTP_URL', smtpUrl, ['smtp:', 'smtps:']);
  if (!new URL(smtpUrl).hostname) throw new ConfigError('SMTP_URL must name a host');
  if (!from) throw new ConfigError('MAIL_FROM must be set when SMTP_URL is set');
  // A bare address or "Name <address>"; no line breaks (header injection).
  const address = /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from;
  if (!EMAIL.test(address) || /[\r\n]/.test(from)) {
    throw new ConfigError(`MAIL_FROM must be an email address or "Name <address>", got "${from}"`);
  }
  return {
    smtpUrl,
    from,
    batchWindowMs: int(env, 'MAIL_BATCH_WINDOW_MS', 120_000, 0, 86_400_000),
    retryBaseMs: int(env, 'MAIL_RETRY_BASE_MS', 60_000, 1, 86_400_000),
  };
}

const list = (raw: string) =>
  raw
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

/** The OIDC_* variables that are set, checked; the rest are left to the admin page. */
function oidcSettings(env: Env): Partial<SsoSettings> {
  const o: Partial<SsoSettings> = {};
  const issuer = str(env, 'OIDC_ISSUER');
  if (issuer) o.issuer = url('OIDC_ISSUER', issuer, ['https:', 'http:']);
  const clientId = str(env, 'OIDC_CLIENT_ID');
  if (clientId) o.clientId = clientId;
  const secret = str(env, 'OIDC_CLIENT_SECRET');
  if (secret) o.clientSecret = secret;
  const label = str(env, 'OIDC_BUTTON_LABEL');
  if (label) o.buttonLabel = label.slice(0, 60);
  const scopes = str(env, 'OIDC_SCOPES');
  if (scopes) {
    if (!scopes.split(/\s+/).includes('openid')) throw new ConfigError('OIDC_SCOPES must include openid');
    o.scopes = scopes;
  }
  const domains = str(env, 'OIDC_ALLOWED_DOMAINS');
  if (domains) o.allowedDomains = list(domains).map((d) => d.toLowerCase().replace(/^@/, ''));
  if (str(env, 'OIDC_AUTO_CREATE') !== undefined) o.autoCreate = bool(env, 'OIDC_AUTO_CREATE', true);
  const role = str(env, 'OIDC_DEFAULT_ROLE')?.toLowerCase();
  if (role) {
    if (role !== 'member' && role !== 'guest') {
      throw new ConfigError(`OIDC_DEFAULT_ROLE must be member or guest, got "${role}"`);
    }
    o.defaultRole = role;
  }
  if (str(env, 'OIDC_TRUST_UNVERIFIED_EMAIL') !== undefined) {
    o.trustUnverifiedEmail = bool(env, 'OIDC_TRUST_UNVERIFIED_EMAIL', false);
  }
  const claim = str(env, 'OIDC_GROUPS_CLAIM');
  if (claim) o.groupsClaim = claim;
  for (const [name, key] of [
    ['OIDC_ADMIN_GROUPS', 'adminGroups'],
    ['OIDC_MEMBER_GROUPS', 'memberGroups'],
    ['OIDC_GUEST_GROUPS', 'guestGroups'],
  ] as const) {
    const raw = str(env, name);
    if (raw) o[key] = list(raw);
  }
  const teams = str(env, 'OIDC_TEAM_GROUPS');
  if (teams) {
    o.teamGroups = list(teams).map((pair) => {
      const at = pair.lastIndexOf('=');
      if (at <= 0 || at === pair.length - 1) {
        throw new ConfigError(
          `OIDC_TEAM_GROUPS must be group=TEAMKEY pairs separated by commas, got "${pair}"`,
        );
      }
      return {
        group: pair.slice(0, at).trim(),
        team: pair
          .slice(at + 1)
          .trim()
          .toUpperCase(),
      };
    });
  }
  if (str(env, 'OIDC_REQUIRED') !== undefined) o.required = bool(env, 'OIDC_REQUIRED', false);
  const breakGlass = str(env, 'OIDC_BREAK_GLASS_EMAILS');
  if (breakGlass) {
    o.breakGlassEmails = list(breakGlass).map((e) => e.toLowerCase());
    for (const e of o.breakGlassEmails) {
      if (!EMAIL.test(e)) throw new ConfigError(`OIDC_BREAK_GLASS_EMAILS: "${e}" is not an email address`);
    }
  }
  return o;
}

export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 3000, 0, 65535);
  const host = str(env, 'HOST') ?? '0.0.0.0';
  const databaseUrl = str(env, 'DATABASE_URL');
  if (databaseUrl) url('DATABASE_URL', databaseUrl, ['postgres:', 'postgresql:']);
  const publicUrl = (str(env, 'PUBLIC_URL') ?? `http://localhost:${port}`).replace(/\/+$/, '');
  url('PUBLIC_URL', publicUrl, ['http:', 'https:']);

  const adminEmail = str(env, 'ADMIN_EMAIL');
  if (adminEmail && !EMAIL.test(adminEmail)) throw new ConfigError(`ADMIN_EMAIL is not an email address`);
  const adminPassword = env['ADMIN_PASSWORD'] || undefined;
  if (adminPassword !== undefined && adminPassword.length < 6) {
    throw new ConfigError('ADMIN_PASSWORD must be at least 6 characters');
  }
  const jwtSecret = env['JWT_SECRET'] || undefined;
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    throw new ConfigError('JWT_SECRET must be at least 32 characters');
  }
  const logLevel = (str(env, 'LOG_LEVEL') ?? 'info').toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }

  const fileStorage = (str(env, 'FILE_STORAGE') ?? 'local').toLowerCase() as FileStorage;
  if (!FILE_STORAGES.includes(fileStorage)) {
    throw new ConfigError(`FILE_STORAGE must be one of ${FILE_STORAGES.join(', ')}, got "${fileStorage}"`);
  }

  return {
    port,
    host,
    dataDir: path.resolve(str(env, 'DATA_DIR') ?? './data'),
    databaseUrl,
    publicUrl,
    adminEmail: adminEmail?.toLowerCase(),
    adminPassword,
    jwtSecret,
    webhookAllowPrivate: bool(env, 'WEBHOOK_ALLOW_PRIVATE', false),
    webhookRetryBaseMs: int(env, 'WEBHOOK_RETRY_BASE_MS', 60_000, 1, 86_400_000),
    graphqlRequestsPerHour: int(env, 'GRAPHQL_REQUESTS_PER_HOUR', 5_000, 1, 1_000_000_000),
    graphqlCompiledReads: bool(env, 'GRAPHQL_COMPILED_READS', true),
    graphqlComplexityPerHour: int(env, 'GRAPHQL_COMPLEXITY_PER_HOUR', 3_000_000, 1, 1_000_000_000_000),
    sessionRequestsPerHour: int(env, 'SESSION_REQUESTS_PER_HOUR', 20_000, 1, 1_000_000_000),
    sessionComplexityPerHour: int(env, 'SESSION_COMPLEXITY_PER_HOUR', 30_000_000, 1, 1_000_000_000_000),
    logLevel,
    statementTimeoutMs: int(env, 'STATEMENT_TIMEOUT_MS', 5_000, 0, 3_600_000),
    auditRetentionDays: int(env, 'AUDIT_RETENTION_DAYS', 0, 0, 36_500),
    dbTimePerRequestMs: int(env, 'DB_TIME_PER_REQUEST_MS', 15_000, 1, 3_600_000),
    streamHeartbeatMs: int(env, 'STREAM_HEARTBEAT_MS', 15_000, 10, 3_600_000),
    streamDrainTimeoutMs: int(env, 'STREAM_DRAIN_TIMEOUT_MS', 30_000, 10, 3_600_000),
    streamMaxBufferBytes: int(env, 'STREAM_MAX_BUFFER_BYTES', 1_048_576, 1024, 1_073_741_824),
    streamMaxPerUser: int(env, 'STREAM_MAX_PER_USER', 10, 1, 10_000),
    streamMaxPerKey: int(env, 'STREAM_MAX_PER_KEY', 5, 1, 10_000),
    streamMaxOpen: int(env, 'STREAM_MAX_OPEN', 1_000, 1, 1_000_000),
    streamCatchUpLimit: int(env, 'STREAM_CATCH_UP_LIMIT', 10_000, 1, 1_000_000_000),
    trustProxy: trustProxy(env),
    fileStorage,
    s3: fileStorage === 's3' ? s3Settings(env) : undefined,
    mail: mailSettings(env),
    oidc: oidcSettings(env),
  };
}
