// The admin's export over HTTP: who may, and the audit entry saying it was
// done (an archive holds every password hash and API-key hash).
import type { Readable } from 'node:stream';
import type { Actor, AppContext } from '../../platform/context.js';
import { outsideDbTimeBudget } from '../../platform/db/db-time.js';
import { fileStoreFor } from '../../platform/storage/index.js';
import { auditActorOf, recordAudit } from '../audit/record.js';
import { assertAdmin } from '../users/policy.js';
import { exportArchive } from './export.js';

export async function exportWorkspace(ctx: AppContext, actor: Actor): Promise<Readable> {
  assertAdmin(actor);
  await recordAudit(ctx.db, {
    type: 'workspace.exported',
    actor: auditActorOf(actor),
    entity: { type: 'workspace', id: 'workspace' },
  });
  // The export runs as long as its download: bounded by the workspace's size
  // and each statement's own timeout, not by one request's database time.
  return outsideDbTimeBudget(() =>
    exportArchive(ctx.db, { storeFor: (db) => fileStoreFor({ config: ctx.config, db }) }),
  );
}
