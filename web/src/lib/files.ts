// Uploads (fileUpload -> PUT bytes -> attachmentCreate) and authenticated
// downloads. The token only ever goes to this server's own origin.
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
  const d = await gql<{
    fileUpload: {
      uploadFile: { uploadUrl: string; assetUrl: string; headers: { key: string; value: string }[] };
    };
  }>(
    `mutation Upload($contentType: String!, $filename: String!, $size: Int!) {
      fileUpload(contentType: $contentType, filename: $filename, size: $size) {
        success uploadFile { uploadUrl assetUrl headers { key value } } } }`,
    { contentType, filename: file.name, size: file.size },
  );
  const { uploadUrl, assetUrl, headers } = d.fileUpload.uploadFile;
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
    `mutation Attach($input: AttachmentCreateInput!) { attachmentCreate(input: $input) { success attachment { id url } } }`,
    { input: { issueId, title: file.name, url, metadata: { contentType: file.type, size: file.size } } },
  );
}

const blobs = new Map<string, Promise<string>>();

/** An object URL for a file on this server (fetched with the token), or the URL itself. */
export function authedUrl(url: string): Promise<string> {
  if (!sameOrigin(url)) return Promise.resolve(url);
  let p = blobs.get(url);
  if (!p) {
    const token = tokenStore.get();
    p = fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} }).then(async (r) => {
      if (!r.ok) throw new Error(`Could not load file (${r.status})`);
      return URL.createObjectURL(await r.blob());
    });
    p.catch(() => blobs.delete(url));
    blobs.set(url, p);
  }
  return p;
}
