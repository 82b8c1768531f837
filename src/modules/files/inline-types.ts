// Which uploaded files a browser may show, and which it may only download.
// The one list for the server's download route and for the web UI (which
// imports this file too, so it must stay free of imports).
//
// Only raster image formats are shown: a browser decodes them as pixels and
// nothing in them can run. Everything else is downloaded, including types that
// look harmless: HTML, SVG and XML carry script; PDF viewers run script of
// their own (pdf.js has run page script in the embedding origin); text/plain
// has been sniffed into HTML by browsers. Opened from a blob: URL, a file runs
// in the app's origin, where the sign-in token lives, so the list stays short.

const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);

/** type/subtype of a Content-Type, lower-cased, without parameters. */
export const essence = (contentType: string | null | undefined): string =>
  (contentType ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * The type to show the file as, or null when it must only be downloaded.
 * Decided from the type the server reports, never from the file name.
 */
export function inlineType(contentType: string | null | undefined): string | null {
  const type = essence(contentType);
  return INLINE_TYPES.has(type) ? type : null;
}
