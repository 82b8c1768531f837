// The public shape of an uploaded file.
import { Type } from 'typebox';
import type { FileRow } from '../../platform/db/tables.js';

export const fileUrl = (publicUrl: string, id: string) => `${publicUrl}/api/files/${id}`;

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
