// Feature flags: read by everyone (public config), changed by admins, and
// enforced by the domains they switch (see assertFeature).
import type { Actor, AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { FlagRow } from '../../platform/db/tables.js';
import { featureDisabled, notFound } from '../../platform/errors.js';
import { auditActorOf, recordAudit } from '../audit/record.js';
import { assertAdmin } from '../users/policy.js';
import type { FlagKey } from './catalog.js';
import * as q from './queries.js';

export function listFlags(db: Db): Promise<FlagRow[]> {
  return q.allFlags(db);
}

/** Throws 403 FEATURE_DISABLED when the feature is switched off. */
export async function assertFeature(db: Db, key: FlagKey, label: string = key): Promise<void> {
  if (!(await q.flagEnabled(db, key))) throw featureDisabled(label);
}

export async function adminListFlags(ctx: AppContext, actor: Actor): Promise<FlagRow[]> {
  assertAdmin(actor);
  return listFlags(ctx.db);
}

export async function adminSetFlag(
  ctx: AppContext,
  actor: Actor,
  key: string,
  enabled: boolean,
): Promise<FlagRow> {
  assertAdmin(actor);
  const row = await ctx.db.transaction().execute(async (trx) => {
    const before = await q.lockFlag(trx, key);
    const after = before && (await q.setFlag(trx, key, enabled));
    if (before && after && before.enabled !== after.enabled) {
      await recordAudit(trx, {
        type: 'featureFlag.changed',
        actor: auditActorOf(actor),
        entity: { type: 'featureFlag', id: key, label: key },
        before: { enabled: before.enabled },
        after: { enabled: after.enabled },
      });
    }
    return after;
  });
  if (!row) throw notFound(`Feature flag "${key}"`);
  return row;
}
