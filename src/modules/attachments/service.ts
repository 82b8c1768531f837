// Attachment rules: links (or our own uploads) on an issue, with events in the
// same transaction as each change. Creating one with a url the issue already
// has updates that attachment instead of adding a duplicate.
import type { Updateable } from 'kysely';
import type { Actor, AppContext } from '../../platform/context.js';
import type { AttachmentRow, AttachmentsTable } from '../../platform/db/tables.js';
import { invalidField, notFound } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';
import { recordEvent } from '../../platform/outbox.js';
import { attachableFileId } from '../files/service.js';
import { resolveIssueId } from '../issues/queries.js';
import { teamAccess } from '../teams/access.js';
import { assertCanReadAttachments, assertCanWriteAttachments } from './policy.js';
import { presentAttachment } from './present.js';
import * as q from './queries.js';

export interface AttachmentInput {
  /** Issue id or identifier. */
  issueId: string;
  title: string;
  subtitle?: string | null | undefined;
  url: string;
  metadata?: Record<string, unknown> | undefined;
}

export interface AttachmentPatch {
  title?: string | undefined;
  subtitle?: string | null | undefined;
  url?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
}

const MAX_METADATA_BYTES = 64 * 1024;

function checkTitle(title: string | undefined): string | undefined {
  if (title === undefined) return undefined;
  const t = title.trim();
  if (!t) throw invalidField('title', 'must not be blank');
  if (t.length > 500) throw invalidField('title', 'must be at most 500 characters');
  return t;
}

function checkUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw invalidField('url', 'must be an absolute http or https URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw invalidField('url', 'must be an absolute http or https URL');
  }
  if (url.length > 2048) throw invalidField('url', 'must be at most 2048 characters');
  return url.trim();
}

function checkMetadata(metadata: unknown): string | undefined {
  if (metadata === undefined) return undefined;
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) {
    throw invalidField('metadata', 'must be a JSON object');
  }
  const json = JSON.stringify(metadata);
  if (Buffer.byteLength(json) > MAX_METADATA_BYTES) {
    throw invalidField('metadata', `must be at most ${MAX_METADATA_BYTES} bytes of JSON`);
  }
  return json;
}

const subtitleOf = (s: string | null | undefined) =>
  s === undefined ? undefined : s === null ? null : s.trim() || null;

const event = (actor: Actor, row: AttachmentRow) => ({
  type: 'attachment' as const,
  data: presentAttachment(row),
  actor,
});

function changedFrom(before: AttachmentRow, after: AttachmentRow) {
  const a = presentAttachment(before) as Record<string, unknown>;
  const b = presentAttachment(after) as Record<string, unknown>;
  const from: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(a)) {
    if (k !== 'updatedAt' && JSON.stringify(v) !== JSON.stringify(b[k])) from[k] = v;
  }
  return from;
}

/** Resolves an issue id or identifier; 404 when there is no such issue or the caller may not see it. */
export async function issueIdOrNotFound(ctx: AppContext, actor: Actor, ref: string): Promise<string> {
  const id = await resolveIssueId(ctx.db, ref, await teamAccess(ctx.db, actor));
  if (!id) throw notFound('Issue');
  return id;
}

export async function listAttachments(
  ctx: AppContext,
  actor: Actor,
  input: { issueId: string; limit: number; offset: number },
): Promise<{ attachments: AttachmentRow[]; total: number }> {
  await assertCanReadAttachments(ctx.db);
  const issueId = await issueIdOrNotFound(ctx, actor, input.issueId);
  const { rows: attachments, total } = await q.listForIssue(ctx.db, issueId, input);
  return { attachments, total };
}

export async function getAttachment(ctx: AppContext, actor: Actor, id: string): Promise<AttachmentRow> {
  await assertCanReadAttachments(ctx.db);
  const row = isUuid(id) ? await q.findAttachment(ctx.db, id, await teamAccess(ctx.db, actor)) : undefined;
  if (!row) throw notFound('Attachment');
  return row;
}

export async function createAttachment(
  ctx: AppContext,
  actor: Actor,
  input: AttachmentInput,
): Promise<AttachmentRow> {
  await assertCanWriteAttachments(ctx.db, actor);
  const access = await teamAccess(ctx.db, actor);
  const title = checkTitle(input.title)!;
  const url = checkUrl(input.url)!;
  const metadata = checkMetadata(input.metadata);
  const subtitle = subtitleOf(input.subtitle);
  return ctx.db.transaction().execute(async (trx) => {
    const issueId = await resolveIssueId(trx, input.issueId, access);
    if (!issueId) throw invalidField('issueId', 'no such issue');
    // The file rule: only a reader attaching our own URL makes it carry the file.
    const fileId = await attachableFileId(trx, ctx.config.publicUrl, url, access);
    const existing = await q.findByIssueAndUrl(trx, issueId, url);
    if (existing) {
      const row = await q.updateAttachmentRow(trx, existing.id, {
        title,
        // A reader makes the url carry its file; a non-reader leaves it as it was.
        ...(fileId !== null ? { file_id: fileId } : {}),
        ...(subtitle !== undefined ? { subtitle } : {}),
        ...(metadata !== undefined ? { metadata } : {}),
      });
      await recordEvent(ctx, trx, {
        ...event(actor, row),
        action: 'update',
        updatedFrom: changedFrom(existing, row),
      });
      return row;
    }
    const row = await q.insertAttachment(trx, {
      issue_id: issueId,
      creator_id: actor.id,
      title,
      subtitle: subtitle ?? null,
      url,
      file_id: fileId,
      ...(metadata !== undefined ? { metadata } : {}),
    });
    await recordEvent(ctx, trx, { ...event(actor, row), action: 'create' });
    return row;
  });
}

export async function updateAttachment(
  ctx: AppContext,
  actor: Actor,
  id: string,
  patch: AttachmentPatch,
): Promise<AttachmentRow> {
  await assertCanWriteAttachments(ctx.db, actor);
  const access = await teamAccess(ctx.db, actor);
  const title = checkTitle(patch.title);
  const url = checkUrl(patch.url);
  const metadata = checkMetadata(patch.metadata);
  const subtitle = subtitleOf(patch.subtitle);
  return ctx.db.transaction().execute(async (trx) => {
    const current = isUuid(id) ? await q.findAttachment(trx, id, access, true) : undefined;
    if (!current) throw notFound('Attachment');
    // A new url carries a file only by the file rule; the same url keeps what it carries.
    const urlChange =
      url !== undefined && url !== current.url
        ? { url, file_id: await attachableFileId(trx, ctx.config.publicUrl, url, access) }
        : {};
    const set: Updateable<AttachmentsTable> = {
      ...(title !== undefined ? { title } : {}),
      ...urlChange,
      ...(subtitle !== undefined ? { subtitle } : {}),
      ...(metadata !== undefined ? { metadata } : {}),
    };
    const row = await q.updateAttachmentRow(trx, id, set);
    await recordEvent(ctx, trx, {
      ...event(actor, row),
      action: 'update',
      updatedFrom: changedFrom(current, row),
    });
    return row;
  });
}

export async function deleteAttachment(ctx: AppContext, actor: Actor, id: string): Promise<AttachmentRow> {
  await assertCanWriteAttachments(ctx.db, actor);
  const access = await teamAccess(ctx.db, actor);
  return ctx.db.transaction().execute(async (trx) => {
    const current = isUuid(id) ? await q.findAttachment(trx, id, access, true) : undefined;
    if (!current) throw notFound('Attachment');
    await q.deleteAttachmentRow(trx, id);
    await recordEvent(ctx, trx, { ...event(actor, current), action: 'remove' });
    return current;
  });
}
