// File names and types from untrusted headers, and the headers we answer with.
import { inlineType } from './inline-types.js';

const MAX_NAME = 200;

/**
 * The x-filename header, percent-decoded and made safe to store and echo:
 * no path (only the last segment counts), no control characters, bounded
 * length, never empty or only dots.
 */
export function sanitizeFilename(raw: string | undefined | null): string {
  if (raw === undefined || raw === null) return 'upload';
  let name = raw;
  try {
    name = decodeURIComponent(raw);
  } catch {
    // Not valid percent-encoding: take it literally.
  }
  name = name.normalize('NFC');
  name = name.split(/[/\\]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
  name = name.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '');
  name = name.trim();
  if ([...name].length > MAX_NAME) {
    // Keep the extension when shortening.
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
    name = [...name.slice(0, name.length - ext.length)].slice(0, MAX_NAME - ext.length).join('') + ext;
  }
  if (/^\.*$/.test(name)) return 'upload';
  return name;
}

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(
  `^(${TOKEN})/(${TOKEN})((?:\\s*;\\s*${TOKEN}=(?:${TOKEN}|"[^"\\\\\\r\\n]*"))*)\\s*$`,
);

/**
 * A Content-Type as we store it: type/subtype lower-cased, parameters kept.
 * Missing means application/octet-stream; undefined is returned for a value
 * that is not a media type.
 */
export function normalizeContentType(raw: string | undefined | null): string | undefined {
  if (raw === undefined || raw === null || raw.trim() === '') return 'application/octet-stream';
  const value = raw.trim();
  if (value.length > 255) return undefined;
  const m = MEDIA_TYPE.exec(value);
  if (!m) return undefined;
  const params = m[3]!
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean);
  return [`${m[1]!.toLowerCase()}/${m[2]!.toLowerCase()}`, ...params].join('; ');
}

/** RFC 6266 Content-Disposition with an ASCII fallback and the UTF-8 name. */
export function contentDisposition(filename: string, contentType: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  // Only types the shared allow-list shows inline; everything else is a download.
  const kind = inlineType(contentType) ? 'inline' : 'attachment';
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
