// Uploads: one-step (bytes in the request), two-step (a signed grant, then a
// PUT of the bytes), and downloads. Bytes are streamed to the file store and
// never held in memory whole; the files row is written only once the bytes are
// safely stored, so no row ever points at missing bytes.
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { TeamAccess } from '../../platform/access.js';
import type { Actor, AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { FileRow } from '../../platform/db/tables.js';
import { AppError, badRequest, conflict, forbidden, invalidField, notFound } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';
import { readContextOf, viewAnswer } from '../../platform/read/rest.js';
import { fileStoreFor, S3Store, StoredFileMissing, TooLarge } from '../../platform/storage/index.js';
import { teamAccess } from '../teams/access.js';
import { normalizeContentType, sanitizeFilename } from './names.js';
import { assertCanReadFiles, assertCanUpload } from './policy.js';
import { FILE_VIEW, fileUrl, ownFileId } from './present.js';
import * as q from './queries.js';

/**
 * A file as REST answers it, `{"file":...}`: read by id after the upload,
 * completion or confirmation that returned it, as the caller (its uploader) sees it.
 */
export async function fileJson(ctx: AppContext, actor: Actor, file: Pick<FileRow, 'id'>): Promise<string> {
  const access = await teamAccess(ctx.db, actor);
  return viewAnswer(ctx.db, FILE_VIEW, 'file', file.id, readContextOf(ctx, actor, access), 'File');
}

/** 25 MB, the limit of both upload routes. */
export const MAX_FILE_BYTES = 25 * 1024 * 1024;
/** How long a two-step upload URL stays valid. */
export const UPLOAD_URL_TTL_SECONDS = 10 * 60;
/** Pending grants older than this are deleted (well past their URL's expiry). */
const STALE_GRANT_MS = 24 * 60 * 60 * 1000;

const tooLarge = () =>
  new AppError(413, 'PAYLOAD_TOO_LARGE', `Files are limited to ${MAX_FILE_BYTES} bytes (25 MB)`);

function contentTypeOrThrow(raw: string | undefined | null, field: string): string {
  const ct = normalizeContentType(raw);
  if (!ct) throw invalidField(field, 'is not a media type such as image/png');
  return ct;
}

/** A Content-Length header as a number; undefined when absent, 400 when malformed. */
export function declaredLength(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  if (!/^\d{1,16}$/.test(header.trim())) throw badRequest('Content-Length is not a number');
  return Number(header);
}

async function storeBytes(ctx: AppContext, key: string, body: Readable, maxBytes: number) {
  try {
    return await fileStoreFor(ctx).put(key, body, { maxBytes });
  } catch (err) {
    if (err instanceof TooLarge) throw err;
    // The client went away mid-upload (or the disk failed): nothing was kept.
    if (
      (err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE' ||
      (err as Error).message === 'aborted'
    ) {
      throw badRequest('The upload was interrupted before the body was complete');
    }
    throw err;
  }
}

export interface OneStepUpload {
  body: Readable;
  /** Raw x-filename header (percent-encoded). */
  filename?: string | undefined;
  /** Raw Content-Type header. */
  contentType?: string | undefined;
  /** Content-Length header, when the client sent one. */
  contentLength?: number | undefined;
}

/** One-step upload: the request body is the file. */
export async function uploadFile(ctx: AppContext, actor: Actor, input: OneStepUpload): Promise<FileRow> {
  await assertCanUpload(ctx.db, actor);
  if (input.contentLength !== undefined && input.contentLength > MAX_FILE_BYTES) throw tooLarge();
  const filename = sanitizeFilename(input.filename);
  const contentType = contentTypeOrThrow(input.contentType, 'contentType');
  const id = randomUUID();
  let size: number;
  try {
    ({ size } = await storeBytes(ctx, id, input.body, MAX_FILE_BYTES));
  } catch (err) {
    if (err instanceof TooLarge) throw tooLarge();
    throw err;
  }
  try {
    return await q.insertFile(ctx.db, {
      id,
      uploader_id: actor.id,
      filename,
      content_type: contentType,
      size,
      storage_key: id,
      status: 'complete',
    });
  } catch (err) {
    await fileStoreFor(ctx).delete(id);
    throw err;
  }
}

/** A stored file and a stream of its bytes, for download. */
export async function openFile(
  ctx: AppContext,
  actor: Actor,
  id: string,
): Promise<{ file: FileRow; stream: Readable }> {
  await assertCanReadFiles(ctx.db);
  let file = isUuid(id) ? await q.findVisibleFile(ctx.db, id, await teamAccess(ctx.db, actor)) : undefined;
  if (file?.status === 'pending') file = await confirmDirectUpload(ctx, file);
  if (file?.status !== 'complete') throw notFound('File');
  try {
    return { file, stream: await fileStoreFor(ctx).get(file.storage_key) };
  } catch (err) {
    if (err instanceof StoredFileMissing) throw notFound('File');
    throw err;
  }
}

/**
 * The file an attachment url carries: only our own download URL of a file the
 * caller may read (the download rule, pending grants of their own included).
 * Null for anything else, so a file they cannot read answers exactly like one
 * that does not exist (docs/security.md, "The file rule").
 */
export async function attachableFileId(
  db: Db,
  publicUrl: string,
  url: string,
  access: TeamAccess,
): Promise<string | null> {
  const id = ownFileId(url, publicUrl);
  if (!id) return null;
  return (await q.findVisibleFile(db, id, access))?.id ?? null;
}

// ---- Two-step upload -------------------------------------------------------

export interface UploadGrantInput {
  contentType: string;
  filename: string;
  size: number;
}

export interface UploadGrant {
  /** Where to PUT the bytes: our own server, signed and short-lived. */
  uploadUrl: string;
  /** The file's download address, to reference from issues, comments and attachments. */
  assetUrl: string;
  /** Headers the PUT must carry (besides Authorization). */
  headers: { key: string; value: string }[];
  file: FileRow;
  expiresAt: Date;
}

function sign(ctx: AppContext, f: Pick<FileRow, 'id' | 'size' | 'content_type'>, expires: number): string {
  return createHmac('sha256', ctx.deriveKey('upload-url'))
    .update(`${f.id}\n${f.size}\n${f.content_type}\n${expires}`)
    .digest('base64url');
}

/** Step one: validates the declared file and hands out a signed upload URL. */
export async function createUploadGrant(
  ctx: AppContext,
  actor: Actor,
  input: UploadGrantInput,
): Promise<UploadGrant> {
  await assertCanUpload(ctx.db, actor);
  if (!Number.isInteger(input.size) || input.size < 1) {
    throw invalidField('size', 'must be a whole number of bytes, at least 1');
  }
  if (input.size > MAX_FILE_BYTES)
    throw invalidField('size', `must be at most ${MAX_FILE_BYTES} bytes (25 MB)`);
  const contentType = contentTypeOrThrow(input.contentType, 'contentType');
  const filename = sanitizeFilename(input.filename);
  await sweepStaleGrants(ctx);
  const id = randomUUID();
  const store = directStore(ctx);
  const file = await q.insertFile(ctx.db, {
    id,
    uploader_id: actor.id,
    filename,
    content_type: contentType,
    size: input.size,
    // A direct upload's key is fixed now, since the signed URL names it.
    storage_key: store ? directKey(id) : id,
    status: 'pending',
  });
  const expires = Math.floor(Date.now() / 1000) + UPLOAD_URL_TTL_SECONDS;
  const base = ctx.config.publicUrl;
  const uploadUrl = store
    ? await store.presignPut(file.storage_key, { contentType, size: input.size }, UPLOAD_URL_TTL_SECONDS)
    : `${base}/api/uploads/${id}?expires=${expires}&signature=${sign(ctx, file, expires)}`;
  return {
    uploadUrl,
    assetUrl: fileUrl(base, id),
    headers: [
      { key: 'Content-Type', value: contentType },
      { key: 'Cache-Control', value: 'public, max-age=31536000' },
    ],
    file,
    expiresAt: new Date(expires * 1000),
  };
}

export interface SignedPut {
  id: string;
  expires: number;
  signature: string;
  contentType: string | undefined;
  contentLength: number | undefined;
  body: Readable;
}

/** Step two: stores the bytes PUT to a signed upload URL. */
export async function completeUpload(ctx: AppContext, actor: Actor, put: SignedPut): Promise<FileRow> {
  await assertCanUpload(ctx.db, actor);
  const file = isUuid(put.id) ? await q.findFile(ctx.db, put.id) : undefined;
  if (!file) throw notFound('Upload');
  const expected = Buffer.from(sign(ctx, file, put.expires));
  const given = Buffer.from(put.signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw forbidden('The upload URL signature is not valid');
  }
  if (put.expires * 1000 < Date.now()) throw forbidden('The upload URL has expired; request a new one');
  if (file.uploader_id !== actor.id)
    throw forbidden('Only the user who requested this upload can complete it');
  if (file.status === 'complete') throw conflict('This upload is already complete');
  if (normalizeContentType(put.contentType) !== file.content_type) {
    throw new AppError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `Content-Type must be ${file.content_type}, as declared when the upload was requested`,
    );
  }
  const size = Number(file.size);
  if (put.contentLength !== undefined && put.contentLength > MAX_FILE_BYTES) throw tooLarge();
  if (put.contentLength !== undefined && put.contentLength !== size) {
    throw badRequest(`The body must be exactly ${size} bytes, as declared when the upload was requested`);
  }
  // Each attempt writes under its own key; the one that flips the row to
  // complete wins, so a racing second PUT can never replace accepted bytes.
  const key = `${file.id}-${randomUUID().slice(0, 8)}`;
  let stored: { size: number };
  try {
    stored = await storeBytes(ctx, key, put.body, size);
  } catch (err) {
    if (err instanceof TooLarge) {
      throw badRequest(`The body is larger than the ${size} bytes declared when the upload was requested`);
    }
    throw err;
  }
  if (stored.size !== size) {
    await fileStoreFor(ctx).delete(key);
    throw badRequest(
      `The body was ${stored.size} bytes, not the ${size} declared when the upload was requested`,
    );
  }
  const done = await q.markComplete(ctx.db, file.id, key);
  if (!done) {
    await fileStoreFor(ctx).delete(key);
    throw conflict('This upload is already complete');
  }
  return done;
}

// ---- Direct uploads to S3 (S3_PRESIGNED_UPLOADS) ----------------------------
// The grant hands out a presigned PUT into the bucket (type and length signed),
// so the bytes never pass through this server. Nothing tells us when that PUT
// happens, so a pending row is confirmed when it is next needed: downloaded,
// explicitly completed (POST /api/uploads/:id/complete), or swept as stale.
//
// The presigned URL names a staging key, never the file's own: a URL stays
// valid for minutes after the PUT, and S3 cannot revoke one, so confirmation
// copies the bytes to a key no URL names and deletes the staging object. A
// later PUT to the URL lands on a staging key nothing reads (issue 24,
// finding 10); a bucket lifecycle rule on STAGING_PREFIX clears such leftovers.

/** Where presigned PUTs land; nothing under it is ever served. */
export const STAGING_PREFIX = 'uploads/';
// Grants from before staging keys had a prefix are still confirmed the same way.
const DIRECT_KEY = /^(uploads\/)?[0-9a-f-]{36}-d[0-9a-f]{8}$/;
const directKey = (id: string) => `${STAGING_PREFIX}${id}-d${randomUUID().slice(0, 8)}`;
/** A completed file's own key: named by no URL. */
const finalKey = (id: string) => `${id}-${randomUUID().slice(0, 8)}`;

function directStore(ctx: AppContext): S3Store | undefined {
  const store = fileStoreFor(ctx);
  return ctx.config.s3?.presignedUploads && store instanceof S3Store ? store : undefined;
}

const declared = (file: FileRow, head: { size: number; contentType: string | undefined }) =>
  head.size === Number(file.size) && normalizeContentType(head.contentType) === file.content_type;

/**
 * Completes a pending direct upload whose bytes are in the bucket with the
 * declared size and type, moving them off the presigned key; the row as it
 * now is, or unchanged when they are not there.
 */
async function confirmDirectUpload(ctx: AppContext, file: FileRow): Promise<FileRow> {
  const store = fileStoreFor(ctx);
  if (file.status !== 'pending' || !DIRECT_KEY.test(file.storage_key) || !(store instanceof S3Store)) {
    return file;
  }
  // A concurrent confirmation may have moved the bytes already: the row then says so.
  const current = async () => (await q.findFile(ctx.db, file.id)) ?? file;
  const staging = file.storage_key;
  const head = await store.stat(staging);
  if (!head) return current();
  if (!declared(file, head)) {
    // The signature binds both, so only a service that ignores it lets this
    // through; drop the bytes so the grant can be used again correctly.
    await store.delete(staging);
    return file;
  }
  const key = finalKey(file.id);
  try {
    await store.copy(staging, key);
  } catch (err) {
    if (err instanceof StoredFileMissing) return current();
    throw err;
  }
  // Checked again on the copy: the URL could have been used between HEAD and copy.
  const copied = await store.stat(key);
  if (!copied || !declared(file, copied)) {
    await store.delete(key);
    return current();
  }
  const done = await q.markComplete(ctx.db, file.id, key);
  if (!done) {
    await store.delete(key);
    return current();
  }
  await store.delete(staging);
  return done;
}

/** Deletes grants that expired long ago, completing direct uploads that did arrive. */
async function sweepStaleGrants(ctx: AppContext): Promise<void> {
  const olderThan = new Date(Date.now() - STALE_GRANT_MS);
  const store = fileStoreFor(ctx);
  // Only a bucket can hold bytes of a pending grant; elsewhere one statement does.
  if (!(store instanceof S3Store)) return void (await q.deleteStalePending(ctx.db, olderThan));
  for (const file of await q.stalePending(ctx.db, olderThan)) {
    try {
      if ((await confirmDirectUpload(ctx, file)).status === 'complete') continue;
      if ((await q.deletePending(ctx.db, file.id)) > 0 && file.storage_key !== file.id) {
        await store.delete(file.storage_key);
      }
    } catch (err) {
      // The bucket being unreachable must not stop new grants; the next sweep retries.
      ctx.log.warn({ err, fileId: file.id }, 'sweeping a stale upload grant failed');
      return;
    }
  }
}

/** POST /api/uploads/:id/complete: the file once its bytes have arrived. */
export async function confirmUpload(ctx: AppContext, actor: Actor, id: string): Promise<FileRow> {
  await assertCanUpload(ctx.db, actor);
  const found = isUuid(id) ? await q.findFile(ctx.db, id) : undefined;
  if (!found || found.uploader_id !== actor.id) throw notFound('Upload');
  const file = await confirmDirectUpload(ctx, found);
  if (file.status !== 'complete') throw badRequest('The file has not been uploaded yet');
  return file;
}
