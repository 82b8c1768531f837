// REST: scheduled backups for admins (docs/migrate.md, "Scheduled backups"):
// the settings, a run now (202: the worker makes it), and the runs so far.
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { PageInfo, pageOf, pageQuery } from '../../platform/http/pagination.js';
import { errors, Timestamp, Uuid } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import type { BackupRunRow } from './queries.js';
import {
  backupSettingsView,
  getBackupRun,
  listBackupRuns,
  requestBackup,
  updateBackupSettings,
} from './service.js';

const DirectoryTarget = Type.Object(
  {
    kind: Type.Literal('directory'),
    path: Type.String({
      minLength: 2,
      maxLength: 1000,
      pattern: '^/[^\\x00-\\x1f]*$',
      description: 'An absolute directory on the server (created when missing)',
    }),
  },
  { additionalProperties: false },
);

const S3Fields = {
  kind: Type.Literal('s3'),
  endpoint: Type.Union([Type.String({ format: 'uri', pattern: '^https?://', maxLength: 500 }), Type.Null()], {
    description: 'Null: AWS itself',
  }),
  region: Type.String({ pattern: '^[a-z0-9-]{1,50}$' }),
  bucket: Type.String({ pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$' }),
  prefix: Type.String({
    maxLength: 200,
    pattern: '^([A-Za-z0-9._-]+/)*$',
    description: "Put before each archive's name: empty or folder-like, ending in /",
  }),
  accessKeyId: Type.Union([
    Type.String({ minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e]+$' }),
    Type.Null(),
  ]),
  forcePathStyle: Type.Boolean(),
};

const S3TargetInput = Type.Object(
  {
    ...S3Fields,
    secretAccessKey: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 500 }), Type.Null()], {
        description: 'Write-only: absent keeps the saved one, null clears it',
      }),
    ),
  },
  { additionalProperties: false },
);

const S3TargetView = Type.Object({ ...S3Fields, secretAccessKeySet: Type.Boolean() });

const Common = {
  enabled: Type.Boolean(),
  intervalHours: Type.Integer({
    minimum: 1,
    maximum: 24 * 31,
    description: 'A backup every this many hours: 1 hourly, 24 daily, 168 weekly',
  }),
  retention: Type.Integer({ minimum: 1, maximum: 1000, description: 'Archives kept at the target' }),
};

const SettingsBody = Type.Object(
  { ...Common, target: Type.Union([DirectoryTarget, S3TargetInput, Type.Null()]) },
  { additionalProperties: false },
);

const SettingsView = Type.Object({
  settings: Type.Object({ ...Common, target: Type.Union([DirectoryTarget, S3TargetView, Type.Null()]) }),
  nextSlotAt: Type.Union([Timestamp, Type.Null()], {
    description: 'When the next scheduled slot begins (null while disabled or without a target)',
  }),
  currentSlot: Type.String(),
});

const BackupRunSchema = Type.Object({
  id: Type.String(),
  trigger: Type.Union([Type.Literal('schedule'), Type.Literal('manual')]),
  status: Type.Union([
    Type.Literal('pending'),
    Type.Literal('running'),
    Type.Literal('succeeded'),
    Type.Literal('failed'),
  ]),
  target: Type.String({ description: '`directory:<path>` or `s3:<bucket>/<prefix>`' }),
  archive: Type.String({ description: "The archive's name at the target" }),
  attempts: Type.Integer(),
  bytes: Type.Union([Type.Integer(), Type.Null()]),
  sha256: Type.Union([Type.String(), Type.Null()], { description: 'SHA-256 of the whole archive' }),
  manifestSha256: Type.Union([Type.String(), Type.Null()], {
    description: "SHA-256 of the archive's manifest.json, which holds every entry's checksum",
  }),
  error: Type.Union([Type.String(), Type.Null()]),
  deletedByRetention: Type.Integer(),
  requestedById: Type.Union([Type.String(), Type.Null()]),
  createdAt: Timestamp,
  startedAt: Type.Union([Timestamp, Type.Null()]),
  finishedAt: Type.Union([Timestamp, Type.Null()]),
});

export function presentBackupRun(r: BackupRunRow) {
  return {
    id: r.id,
    trigger: r.trigger,
    status: r.status,
    target: r.target,
    archive: r.archive,
    attempts: r.attempts,
    bytes: r.bytes,
    sha256: r.sha256,
    manifestSha256: r.manifest_sha256,
    error: r.error,
    deletedByRetention: r.deleted_by_retention,
    requestedById: r.requested_by,
    createdAt: r.created_at.toISOString(),
    startedAt: r.started_at?.toISOString() ?? null,
    finishedAt: r.finished_at?.toISOString() ?? null,
  };
}

const RunEnvelope = Type.Object({ backupRun: BackupRunSchema });

export function backupRoutes(app: Http, ctx: AppContext): void {
  app.get(
    '/api/admin/backups/settings',
    {
      schema: {
        tags: ['admin'],
        summary: 'Scheduled backup settings (admins only; the S3 secret is never shown)',
        response: { 200: SettingsView, ...errors(401, 403) },
      },
    },
    async (req) => backupSettingsView(ctx, actorOf(req)),
  );

  app.put(
    '/api/admin/backups/settings',
    {
      schema: {
        tags: ['admin'],
        summary: 'Replace the scheduled backup settings (audit entry backup.settingsChanged)',
        body: SettingsBody,
        response: { 200: SettingsView, ...errors(400, 401, 403) },
      },
    },
    async (req) => updateBackupSettings(ctx, actorOf(req), req.body),
  );

  app.post(
    '/api/admin/backups/run',
    {
      schema: {
        tags: ['admin'],
        summary: 'Back up now: 202 with the pending run, which a backup worker makes (409 without a target)',
        response: { 202: RunEnvelope, ...errors(401, 403, 409) },
      },
    },
    async (req, reply) => {
      const run = await requestBackup(ctx, actorOf(req));
      return reply.status(202).send({ backupRun: presentBackupRun(run) });
    },
  );

  app.get(
    '/api/admin/backups',
    {
      schema: {
        tags: ['admin'],
        summary: 'Backup runs, newest first',
        querystring: Type.Object(pageQuery(20), { additionalProperties: false }),
        response: {
          200: Type.Object({ backupRuns: Type.Array(BackupRunSchema), pageInfo: PageInfo }),
          ...errors(400, 401, 403),
        },
      },
    },
    async (req) => {
      const page = pageOf(req.query, 20);
      const { rows, total } = await listBackupRuns(ctx, actorOf(req), page);
      return { backupRuns: rows.map(presentBackupRun), pageInfo: { total, ...page } };
    },
  );

  app.get(
    '/api/admin/backups/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'One backup run',
        params: Type.Object({ id: Uuid }),
        response: { 200: RunEnvelope, ...errors(400, 401, 403, 404) },
      },
    },
    async (req) => ({ backupRun: presentBackupRun(await getBackupRun(ctx, actorOf(req), req.params.id)) }),
  );
}
