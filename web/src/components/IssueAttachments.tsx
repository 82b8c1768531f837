// An issue's attachments: upload by picker, drag-and-drop or paste; images
// preview in place, other files download with the signed-in user's token.
// Files go up one after another; a refusal stops the rest.

import { type ClipboardEvent, type DragEvent, useEffect, useRef, useState } from 'react';
import { useAction } from '../lib/action';
import { fullDate } from '../lib/dates';
import { attachFile, downloadFile, imageUrl, isServerFile } from '../lib/files';
import { safeHref } from '../lib/markdown';
import { Button, Dialog, ErrorMessage } from './ui';

export interface Attachment {
  id: string;
  title: string;
  url: string;
  createdAt: string;
  metadata: Record<string, unknown> | null;
}

export function Attachments({
  issueId,
  items,
  issueKey,
  readOnly,
}: {
  issueId: string;
  items: Attachment[];
  /** The cached issue page (lib/query-keys.ts), read again after an upload, saved or refused. */
  issueKey: readonly unknown[];
  readOnly?: boolean;
}) {
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const uploading = useAction(
    async (files: File[]) => {
      for (const f of files) await attachFile(issueId, f);
    },
    { refreshes: [issueKey] },
  );
  const upload = (files: File[]) => {
    if (files.length) void uploading.run(files);
  };
  const sending = uploading.busy ? (uploading.input ?? []) : [];

  useEffect(() => {
    const onPaste = (e: Event) => {
      // Taken already: the text editor places a pasted image in the text instead.
      if (e.defaultPrevented) return;
      const files = [...((e as unknown as ClipboardEvent).clipboardData?.files ?? [])];
      if (files.length) {
        e.preventDefault();
        upload(files);
      }
    };
    window.addEventListener('paste', onPaste);
    return () => window.removeEventListener('paste', onPaste);
  });

  return (
    <section className="attachments" aria-labelledby="att-h">
      <h2 id="att-h">Attachments</h2>
      {!readOnly && (
        // biome-ignore lint/a11y/noStaticElementInteractions: dropping is a mouse shortcut; the file picker is the keyboard path
        <div
          className={`dropzone${over ? ' over' : ''}`}
          onDragOver={(e: DragEvent) => {
            if (e.dataTransfer.types.includes('Files')) {
              e.preventDefault();
              setOver(true);
            }
          }}
          onDragLeave={() => setOver(false)}
          onDrop={(e: DragEvent) => {
            e.preventDefault();
            setOver(false);
            upload([...e.dataTransfer.files]);
          }}
        >
          <span className="muted">Drop files here, paste, or</span>
          <label className="btn btn-secondary" htmlFor="file-input">
            Choose files
          </label>
          <input
            id="file-input"
            ref={input}
            type="file"
            multiple
            className="sr-only"
            aria-label="Attach files"
            onChange={(e) => {
              upload([...(e.target.files ?? [])]);
              e.target.value = '';
            }}
          />
          {sending.length > 0 && (
            <span className="loading" role="status">
              <span className="spinner" aria-hidden="true" /> Uploading{' '}
              {sending.length === 1 ? sending[0]!.name : `${sending.length} files`}…
            </span>
          )}
        </div>
      )}
      <ErrorMessage error={uploading.error} />
      {items.length > 0 && (
        <ul className="att-list">
          {items.map((a) => (
            <AttachmentItem key={a.id} a={a} />
          ))}
        </ul>
      )}
    </section>
  );
}

function AttachmentItem({ a }: { a: Attachment }) {
  // Only files on this server are fetched (with the token); other URLs are plain links.
  const onServer = isServerFile(a.url);
  const link = onServer ? null : safeHref(a.url);
  // The hint (declared type or name) only decides whether to fetch a preview;
  // whether anything is shown is decided by the type the server reports.
  const hint = String(a.metadata?.contentType ?? '');
  const looksLikeImage = hint.startsWith('image/') || /\.(png|jpe?g|gif|webp|avif)$/i.test(a.title);
  const [src, setSrc] = useState<string | null>(null);
  const [viewing, setViewing] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (onServer && looksLikeImage) imageUrl(a.url).then(setSrc, setError);
  }, [a.url, onServer, looksLikeImage]);

  // Images on the allow-list open in the page; everything else is downloaded,
  // never opened in a tab (a blob: page would run in the app's origin).
  async function open() {
    try {
      const shown = await imageUrl(a.url);
      if (shown) setViewing(shown);
      else await downloadFile(a.url, a.title);
    } catch (e) {
      setError(e);
    }
  }

  return (
    <li className="att">
      {src && <img src={src} alt={a.title} className="att-preview" />}
      {onServer && looksLikeImage && !src && !error && (
        <span className="att-preview placeholder" aria-hidden="true" />
      )}
      {onServer ? (
        <button type="button" className="link-btn" onClick={() => void open()}>
          {a.title}
        </button>
      ) : link ? (
        <a className="link-btn" href={link} target="_blank" rel="noopener noreferrer nofollow">
          {a.title}
        </a>
      ) : (
        <span>{a.title}</span>
      )}
      <span className="muted small">{fullDate(a.createdAt)}</span>
      <ErrorMessage error={error} />
      {viewing && (
        <Dialog title={a.title} onClose={() => setViewing(null)} wide>
          <div className="dialog-body">
            <img src={viewing} alt={a.title} className="att-full" />
          </div>
          <div className="dialog-foot">
            <span />
            <Button variant="secondary" onClick={() => void downloadFile(a.url, a.title).catch(setError)}>
              Download
            </Button>
          </div>
        </Dialog>
      )}
    </li>
  );
}
