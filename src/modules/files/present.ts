// The public shape of an uploaded file: its schema, and FILE_VIEW over the
// read model's declaration (platform/read/entities.ts file), which every REST
// answer about a file reads.
import { Type } from 'typebox';
import { file } from '../../platform/read/entities.js';
import { restView } from '../../platform/read/rest.js';

/** A file's download address; the declaration's `url` is the same in SQL. */
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

export const FileSchema = Type.Object({
  id: Type.String(),
  url: Type.String({ description: 'Absolute address to download the file (Bearer token required)' }),
  filename: Type.String(),
  contentType: Type.String(),
  size: Type.Integer(),
});

/** REST's file over the read model's: the schema's keys in its order. */
export const FILE_VIEW = restView(file, FileSchema);
