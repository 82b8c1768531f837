// Uploads (fileUpload -> PUT bytes -> attachmentCreate) and authenticated
// downloads. The token only ever goes to this server's file route. What may be
// shown in the page is decided by the server's allow-list, shared with it.
import { inlineType } from '../../../src/modules/files/inline-types';
import { graphql } from '../gql';
import { ApiError, gql, tokenStore } from './api';

export const sameOrigin = (url: string) => {
  try {
    return new URL(url, location.href).origin === location.origin;
  } catch {
    return false;
  }
};

export async function uploadFile(file: File): Promise<string> {
  const contentType = file.type || 'application/octet-stream';
  const d = await gql(
    graphql(`mutation Upload($contentType: String!, $filename: String!, $size: Int!) {
      fileUpload(contentType: $contentType, filename: $filename, size: $size) {
        success uploadFile { uploadUrl assetUrl headers { key value } } } }`),
    { contentType, filename: file.name, size: file.size },
  );
  const grant = d.fileUpload.uploadFile;
  if (!grant) throw new ApiError('The server did not grant the upload.', 500, 'UPLOAD');
  const { uploadUrl, assetUrl, headers } = grant;
  // Headers.set: the grant may name Content-Type in another case; never send it twice.
  const h = new Headers({ 'content-type': contentType });
  for (const { key, value } of headers) h.set(key, value);
  const token = tokenStore.get();
  if (token && sameOrigin(uploadUrl)) h.set('authorization', `Bearer ${token}`);
  const res = await fetch(uploadUrl, { method: 'PUT', headers: h, body: file });
  if (!res.ok) {
    const body = await res.json().catch(() => null);
    throw new ApiError(body?.error?.message ?? `Upload failed (${res.status})`, res.status, 'UPLOAD');
  }
  return assetUrl;
}

export async function attachFile(issueId: string, file: File) {
  const url = await uploadFile(file);
  await gql(
    graphql(
      `mutation Attach($input: AttachmentCreateInput!) { attachmentCreate(input: $input) { success attachment { id url } } }`,
    ),
    { input: { issueId, title: file.name, url, metadata: { contentType: file.type, size: file.size } } },
  );
}

/** A file on this server's download route: the only address the token is sent to. */
export function isServerFile(url: string): boolean {
  try {
    const u = new URL(url, location.href);
    return u.origin === location.origin && u.pathname.startsWith('/api/files/');
  } catch {
    return false;
  }
}

interface Fetched {
  blob: Blob;
  /** The allow-listed type the server reported, or null: then the file is only ever downloaded. */
  inline: string | null;
  shown?: string;
}

const fetched = new Map<string, Promise<Fetched>>();

function fetchServerFile(url: string): Promise<Fetched> {
  let p = fetched.get(url);
  if (!p) {
    const token = tokenStore.get();
    p = fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} }).then(async (r) => {
      if (!r.ok) throw new Error(`Could not load file (${r.status})`);
      return { blob: await r.blob(), inline: inlineType(r.headers.get('content-type')) };
    });
    p.catch(() => fetched.delete(url));
    fetched.set(url, p);
  }
  return p;
}

/**
 * An object URL to show a file from this server in an <img>, or null when the
 * type the server reports is not on the allow-list. The blob carries the
 * allow-listed type, so it is decoded as an image whatever its bytes are.
 */
export async function imageUrl(url: string): Promise<string | null> {
  const f = await fetchServerFile(url);
  if (!f.inline) return null;
  f.shown ??= URL.createObjectURL(new Blob([f.blob], { type: f.inline }));
  return f.shown;
}

/**
 * Saves a file from this server as a download. The blob is re-typed as
 * application/octet-stream and handed to <a download>, so the browser never
 * renders it: a same-origin blob: page would run any script in it with the
 * app's origin, where the sign-in token is.
 */
export async function downloadFile(url: string, filename: string): Promise<void> {
  const f = await fetchServerFile(url);
  if (!f.inline) fetched.delete(url); // only images are kept for showing again
  const href = URL.createObjectURL(new Blob([f.blob], { type: 'application/octet-stream' }));
  const a = document.createElement('a');
  a.href = href;
  a.download = filename || 'download';
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  // The download has taken the bytes by then; revoking at once can cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}
