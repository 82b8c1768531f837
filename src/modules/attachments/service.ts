// Attachment rules: links (or our own uploads) on an issue, with events in the
// same transaction as each change. Creating one with a url the issue already
// has updates that attachment instead of adding a duplicate. REST's answers
// and each event's data are ATTACHMENT_VIEW (present.ts), read from the read
// model.
import type { Updateable } from 'kysely';
import type { Actor, AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { AttachmentRow, AttachmentsTable } from '../../platform/db/tables.js';
import { invalidField, notFound } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';
import { recordEvent } from '../../platform/outbox.js';
import {
  changedFrom,
  eventData,
  readContextOf,
  viewAnswer,
  viewListAnswer,
} from '../../platform/read/rest.js';
import { attachableFileId } from '../files/service.js';
import { resolveIssueId } from '../issues/queries.js';
import { teamAccess } from '../teams/access.js';
import { assertCanReadAttachments, assertCanWriteAttachments } from './policy.js';
import { ATTACHMENT_VIEW } from './present.js';
import * as q from './queries.js';

export interface AttachmentInput {
  /** Issue id or identifier. */
  issueId: string;
  title: string;
  subtitle?: string | null | undefined;
  url: string;
  metadata?: Record<string, unknown> | undefined;
  /** Set by integrations only (modules/git: 'github', 'gitlab', 'gitea'); not a REST field. */
  sourceType?: string | undefined;
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

/** An attachment event: its data is ATTACHMENT_VIEW as an admin's GET shows it, read in `trx`. */
async function eventOf(ctx: AppContext, trx: Db, actor: Actor, id: string) {
  return { type: 'attachment' as const, data: await eventData(ctx, trx, ATTACHMENT_VIEW, id, actor), actor };
}

/** An update's updatedFrom: every write of a row moves its updatedAt, so there is always one. */
const updatedFrom = (old: Record<string, unknown>, data: Record<string, unknown>) =>
  changedFrom(old, data) ?? { updatedAt: old['updatedAt'] };

/** Resolves an issue id or identifier; 404 when there is no such issue or the caller may not see it. */
export async function issueIdOrNotFound(ctx: AppContext, actor: Actor, ref: string): Promise<string> {
  const id = await resolveIssueId(ctx.db, ref, await teamAccess(ctx.db, actor));
  if (!id) throw notFound('Issue');
  return id;
}

/** A page of an issue's attachments as REST answers it: the page's ids, then their JSON in one statement. */
export async function listAttachmentsJson(
  ctx: AppContext,
  actor: Actor,
  input: { issueId: string; limit: number; offset: number },
): Promise<string> {
  await assertCanReadAttachments(ctx.db);
  const access = await teamAccess(ctx.db, actor);
  const issueId = await resolveIssueId(ctx.db, input.issueId, access);
  if (!issueId) throw notFound('Issue');
  const { rows, total } = await q.listForIssue(ctx.db, issueId, input);
  const ids = rows.map((r) => r.id);
  return viewListAnswer(ctx.db, ATTACHMENT_VIEW, 'attachments', ids, readContextOf(ctx, actor, access), {
    pageInfo: { total, limit: input.limit, offset: input.offset },
  });
}

/** One attachment as REST answers it, `{"attachment":...}` (its GET, and a write's answer read back as the GET would). */
export async function attachmentJson(ctx: AppContext, actor: Actor, id: string): Promise<string> {
  await assertCanReadAttachments(ctx.db);
  const access = await teamAccess(ctx.db, actor);
  return viewAnswer(
    ctx.db,
    ATTACHMENT_VIEW,
    'attachment',
    id,
    readContextOf(ctx, actor, access),
    'Attachment',
  );
}

export async function createAttachment(
  ctx: AppContext,
  actor: Actor,
  input: AttachmentInput,
  /** The caller's transaction (an importer writes an issue and its links as one). */
  within?: Db,
): Promise<AttachmentRow> {
  await assertCanWriteAttachments(within ?? ctx.db, actor);
  const access = await teamAccess(within ?? ctx.db, actor);
  const title = checkTitle(input.title)!;
  const url = checkUrl(input.url)!;
  const metadata = checkMetadata(input.metadata);
  const subtitle = subtitleOf(input.subtitle);
  const run = <T>(f: (trx: Db) => Promise<T>) => (within ? f(within) : ctx.db.transaction().execute(f));
  return run(async (trx) => {
    const issueId = await resolveIssueId(trx, input.issueId, access);
    if (!issueId) throw invalidField('issueId', 'no such issue');
    // The file rule: only a reader attaching our own URL makes it carry the file.
    const fileId = await attachableFileId(trx, ctx.config.publicUrl, url, access);
    const existing = await q.findByIssueAndUrl(trx, issueId, url);
    if (existing) {
      const old = await eventData(ctx, trx, ATTACHMENT_VIEW, existing.id, actor);
      const row = await q.updateAttachmentRow(trx, existing.id, {
        title,
        // A reader makes the url carry its file; a non-reader leaves it as it was.
        ...(fileId !== null ? { file_id: fileId } : {}),
        ...(subtitle !== undefined ? { subtitle } : {}),
        ...(metadata !== undefined ? { metadata } : {}),
        ...(input.sourceType !== undefined ? { source_type: input.sourceType } : {}),
      });
      const ev = await eventOf(ctx, trx, actor, row.id);
      await recordEvent(ctx, trx, { ...ev, action: 'update', updatedFrom: updatedFrom(old, ev.data) });
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
      ...(input.sourceType !== undefined ? { source_type: input.sourceType } : {}),
    });
    await recordEvent(ctx, trx, { ...(await eventOf(ctx, trx, actor, row.id)), action: 'create' });
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
    const old = await eventData(ctx, trx, ATTACHMENT_VIEW, id, actor);
    const row = await q.updateAttachmentRow(trx, id, set);
    const ev = await eventOf(ctx, trx, actor, id);
    await recordEvent(ctx, trx, { ...ev, action: 'update', updatedFrom: updatedFrom(old, ev.data) });
    return row;
  });
}

export async function deleteAttachment(ctx: AppContext, actor: Actor, id: string): Promise<AttachmentRow> {
  await assertCanWriteAttachments(ctx.db, actor);
  const access = await teamAccess(ctx.db, actor);
  return ctx.db.transaction().execute(async (trx) => {
    const current = isUuid(id) ? await q.findAttachment(trx, id, access, true) : undefined;
    if (!current) throw notFound('Attachment');
    const ev = await eventOf(ctx, trx, actor, id);
    await q.deleteAttachmentRow(trx, id);
    await recordEvent(ctx, trx, { ...ev, action: 'remove' });
    return current;
  });
}
