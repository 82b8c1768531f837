// The public shape of an uploaded file.
import { Type } from 'typebox';
import type { FileRow } from '../../platform/db/tables.js';

export const fileUrl = (publicUrl: string, id: string) => `${publicUrl}/api/files/${id}`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The file id in a URL that is exactly our download address of a file
 * (`fileUrl`): same scheme, host and port as PUBLIC_URL, under its path, with
 * no query, fragment or credentials. Undefined for every other URL, which is a
 * plain link however much it looks like ours.
 */
export function ownFileId(url: string, publicUrl: string): string | undefined {
  let u: URL;
  let base: URL;
  try {
    u = new URL(url);
    base = new URL(publicUrl);
  } catch {
    return undefined;
  }
  if (u.origin !== base.origin || u.search || u.hash || u.username || u.password) return undefined;
  const prefix = `${base.pathname.replace(/\/+$/, '')}/api/files/`;
  if (!u.pathname.startsWith(prefix)) return undefined;
  const id = u.pathname.slice(prefix.length);
  return UUID.test(id) ? id.toLowerCase() : undefined;
}

export function presentFile(f: FileRow, publicUrl: string) {
  return {
    id: f.id,
    url: fileUrl(publicUrl, f.id),
    filename: f.filename,
    contentType: f.content_type,
    size: Number(f.size),
  };
}

export type FileJson = ReturnType<typeof presentFile>;

export const FileSchema = Type.Object({
  id: Type.String(),
  url: Type.String({ description: 'Absolute address to download the file (Bearer token required)' }),
  filename: Type.String(),
  contentType: Type.String(),
  size: Type.Integer(),
});
