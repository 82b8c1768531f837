// Several issues created, or several issues changed alike, in one
// transaction: all of them or none. A refusal names the item it came from
// (`issues[3].teamId`, `ids[1]`), so a client can show it beside the right row.
import type { Actor, AppContext } from '../../platform/context.js';
import { AppError, invalidField } from '../../platform/errors.js';
import type { IssueRecord } from './present.js';
import { createIssue, type IssueCreateInput, type IssueUpdateInput, updateIssue } from './service.js';

/** Most issues one batch may hold: a batch runs as one transaction, holding its teams' counters. */
export const MAX_BATCH = 50;

export function checkBatchSize(field: string, n: number) {
  if (n === 0) throw invalidField(field, 'must hold at least one item');
  if (n > MAX_BATCH) throw invalidField(field, `must hold at most ${MAX_BATCH} items`);
}

/** Re-throws an item's error with the item named in its message and fields. */
function atItem(prefix: string, err: unknown): never {
  if (!(err instanceof AppError)) throw err;
  const details = err.details?.map((d) => ({ ...d, field: `/${prefix}${d.field.replace(/^\/?/, '/')}` }));
  throw new AppError(
    err.status,
    err.code,
    `${prefix}: ${err.message}`,
    details ?? [{ field: `/${prefix}`, message: err.message }],
  );
}

export async function createIssues(
  ctx: AppContext,
  actor: Actor,
  inputs: IssueCreateInput[],
): Promise<IssueRecord[]> {
  checkBatchSize('issues', inputs.length);
  return ctx.db.transaction().execute(async (trx) => {
    const out: IssueRecord[] = [];
    for (const [i, input] of inputs.entries()) {
      out.push(await createIssue(ctx, actor, input, trx).catch((e) => atItem(`issues[${i}]`, e)));
    }
    return out;
  });
}

/** Each issue with its own patch (the same change, or one adjusted per issue such as added labels). */
export async function updateIssues(
  ctx: AppContext,
  actor: Actor,
  changes: { id: string; patch: IssueUpdateInput }[],
): Promise<IssueRecord[]> {
  checkBatchSize('ids', changes.length);
  if (new Set(changes.map((c) => c.id)).size !== changes.length)
    throw invalidField('ids', 'must not repeat an issue');
  return ctx.db.transaction().execute(async (trx) => {
    const out: IssueRecord[] = [];
    for (const [i, { id, patch }] of changes.entries()) {
      out.push(await updateIssue(ctx, actor, id, patch, trx).catch((e) => atItem(`ids[${i}]`, e)));
    }
    return out;
  });
}
