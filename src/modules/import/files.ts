// Copying a source's files (Jira attachments, uploads linked from GitHub and
// Linear text) into this workspace's file store, so an imported issue does not
// depend on the old tracker staying up. Each file is fetched through the
// outbound guard (platform/net/safe-download.ts: every connection and redirect
// vetted at connect time), streamed into the store under a cap, and recorded in
// import_records by its URL in the source, so a re-run or a resumed run reuses
// it. The issue then carries it as an attachment and its text links to our copy.
// A file that cannot be fetched is reported and its original link kept: it
// never fails the import.
import { randomUUID } from 'node:crypto';
import type { Actor, AppContext } from '../../platform/context.js';
import { type Resolver, UnsafeDestinationError } from '../../platform/net/safe-destination.js';
import { DownloadError, openDownload } from '../../platform/net/safe-download.js';
import { fileStoreFor, TooLarge } from '../../platform/storage/index.js';
import { normalizeContentType, sanitizeFilename } from '../files/names.js';
import { fileUrl } from '../files/present.js';
import * as files from '../files/queries.js';
import { type ImportIssue, type ImportSource, linksIn } from './model.js';
import * as q from './queries.js';

/** Larger than an upload here may be (25 MB): trackers allow big attachments, and a copy is read once. */
export const MAX_IMPORTED_FILE_BYTES = 100 * 1024 * 1024;
const FILE_TIMEOUT_MS = 60_000;

export interface FileOptions {
  allowPrivate: boolean;
  resolver?: Resolver | undefined;
  signal?: AbortSignal | undefined;
}

export interface CopiedFile {
  fileId: string;
  ourUrl: string;
  filename: string;
  /** Copied from one of the issue's attachments, which then carries it. */
  attached: boolean;
}

interface RunHooks {
  runId: string;
  count(key: string): void;
  error(message: string): void;
}

interface Wanted {
  filename: string | undefined;
  attached: boolean;
}

/** The files an issue names: attachments that are files, then the source's file links in its text. */
export function wantedFiles(source: ImportSource, issue: ImportIssue): Map<string, Wanted> {
  const wanted = new Map<string, Wanted>();
  for (const a of issue.attachments ?? [])
    if (a.file) wanted.set(a.url, { filename: a.filename, attached: true });
  if (!source.files) return wanted;
  for (const text of [issue.description, ...(issue.comments ?? []).map((c) => c.body)]) {
    for (const link of linksIn(text)) {
      if (wanted.has(link)) continue;
      let url: URL;
      try {
        url = new URL(link);
      } catch {
        continue;
      }
      if (source.files.isFile(url)) wanted.set(link, { filename: undefined, attached: false });
    }
  }
  return wanted;
}

const lastSegment = (url: string) => {
  try {
    return new URL(url).pathname.split('/').filter(Boolean).pop();
  } catch {
    return undefined;
  }
};

/** Copies the issue's files (or finds them copied before); the ones copied, by their URL in the source. */
export async function copyFiles(
  ctx: AppContext,
  source: ImportSource,
  issue: ImportIssue,
  uploader: Actor,
  opts: FileOptions,
  run: RunHooks,
): Promise<Map<string, CopiedFile>> {
  const copied = new Map<string, CopiedFile>();
  for (const [url, want] of wantedFiles(source, issue)) {
    const known = await q.findRecord(ctx.db, source.name, 'file', url);
    const row = known ? await files.findFile(ctx.db, known) : undefined;
    if (row) {
      run.count('file.existing');
      copied.set(url, {
        fileId: row.id,
        ourUrl: fileUrl(ctx.config.publicUrl, row.id),
        filename: row.filename,
        attached: want.attached,
      });
      continue;
    }
    const id = randomUUID();
    const store = fileStoreFor(ctx);
    let stored: { size: number; contentType: string; filename: string };
    try {
      const download = await openDownload(url, {
        allowPrivate: opts.allowPrivate,
        resolver: opts.resolver,
        headers: source.files ? (u) => source.files!.headers(u) : undefined,
        maxBytes: MAX_IMPORTED_FILE_BYTES,
        timeoutMs: FILE_TIMEOUT_MS,
        signal: opts.signal,
      });
      const { size } = await store.put(id, download.body, { maxBytes: MAX_IMPORTED_FILE_BYTES });
      stored = {
        size,
        contentType: normalizeContentType(download.contentType) ?? 'application/octet-stream',
        filename: sanitizeFilename(want.filename ?? download.filename ?? lastSegment(url)),
      };
    } catch (err) {
      await store.delete(id).catch(() => undefined);
      if (opts.signal?.aborted) throw err;
      run.count('file.failed');
      run.error(`${issue.identifier}: file ${url} not copied (${reasonOf(err)}); the link to it is kept`);
      continue;
    }
    await ctx.db.transaction().execute(async (trx) => {
      await files.insertFile(trx, {
        id,
        uploader_id: uploader.id,
        filename: stored.filename,
        content_type: stored.contentType,
        size: stored.size,
        storage_key: id,
        status: 'complete',
      });
      await q.insertRecord(trx, {
        source: source.name,
        entity: 'file',
        externalId: url,
        localId: id,
        runId: run.runId,
      });
    });
    run.count('file.created');
    copied.set(url, {
      fileId: id,
      ourUrl: fileUrl(ctx.config.publicUrl, id),
      filename: stored.filename,
      attached: want.attached,
    });
  }
  return copied;
}

function reasonOf(err: unknown): string {
  if (err instanceof UnsafeDestinationError) return `destination refused: ${err.message}`;
  if (err instanceof TooLarge) return `larger than ${err.maxBytes} bytes`;
  if (err instanceof DownloadError) return err.message;
  return (err as Error)?.message ?? String(err);
}

/** The issue with its text linking to our copies, and its file attachments pointing at them. */
export function rewriteLinks(issue: ImportIssue, copied: Map<string, CopiedFile>): ImportIssue {
  if (copied.size === 0) return issue;
  // Longest first, so a URL that is the start of another never rewrites part of it.
  const urls = [...copied.keys()].sort((a, b) => b.length - a.length);
  const rewrite = (text: string) => urls.reduce((t, u) => t.split(u).join(copied.get(u)!.ourUrl), text);
  return {
    ...issue,
    description: issue.description ? rewrite(issue.description) : issue.description,
    comments: issue.comments?.map((c) => ({ ...c, body: rewrite(c.body) })),
    attachments: issue.attachments?.map((a) => {
      const file = a.file ? copied.get(a.url) : undefined;
      return file ? { ...a, url: file.ourUrl } : a;
    }),
  };
}
