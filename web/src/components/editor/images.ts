// Images pasted, dropped or picked (the `/image` command) are uploaded through
// the ordinary file upload (lib/files.ts) and placed at the cursor as a
// Markdown image, `![name](url)`, not as an attachment. While the bytes travel
// a placeholder (a widget decoration, so never part of the stored text) holds
// the place; a refused upload removes it and says why.
import { type Editor, Extension } from '@tiptap/core';
import Image from '@tiptap/extension-image';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet, type EditorView } from '@tiptap/pm/view';
import type { EditorContext } from './context';

type Placeholders = DecorationSet;
type Meta = { add: { id: string; pos: number } } | { remove: { id: string } };

const key = new PluginKey<Placeholders>('imageUploads');

function placeholder(id: string): HTMLElement {
  const el = document.createElement('span');
  el.className = 'image-uploading';
  el.dataset['upload'] = id;
  el.setAttribute('role', 'status');
  el.textContent = 'Uploading image…';
  return el;
}

const where = (view: EditorView, id: string) =>
  key.getState(view.state)?.find(undefined, undefined, (spec) => spec['id'] === id)[0]?.from;

export const imageFiles = (files: FileList | null | undefined) =>
  [...(files ?? [])].filter((f) => f.type.startsWith('image/'));

/** Uploads each file, each behind a placeholder at `pos`, then puts the image there. */
export function uploadImages(view: EditorView, files: File[], pos: number, context: EditorContext) {
  for (const file of files) {
    const id = crypto.randomUUID();
    view.dispatch(view.state.tr.setMeta(key, { add: { id, pos } } satisfies Meta));
    context
      .services()
      .upload(file)
      .then(
        (url) => {
          const at = where(view, id);
          const tr = view.state.tr.setMeta(key, { remove: { id } } satisfies Meta);
          if (at !== undefined) {
            const image = view.state.schema.nodes['image']?.create({ src: url, alt: file.name || 'image' });
            if (image) tr.insert(at, image);
          }
          view.dispatch(tr);
        },
        (error: unknown) => {
          view.dispatch(view.state.tr.setMeta(key, { remove: { id } } satisfies Meta));
          context.uploadFailed(error);
        },
      );
  }
}

/** The `/image` command: a file picker, then the upload at the cursor. */
export function pickImages(editor: Editor, context: EditorContext) {
  const input = document.createElement('input');
  input.type = 'file';
  input.accept = 'image/*';
  input.multiple = true;
  input.addEventListener('change', () => {
    const files = imageFiles(input.files);
    if (files.length) uploadImages(editor.view, files, editor.state.selection.from, context);
  });
  input.click();
}

export function imageUploads(context: EditorContext) {
  return Extension.create({
    name: 'imageUploads',
    addProseMirrorPlugins() {
      return [
        new Plugin<Placeholders>({
          key,
          state: {
            init: () => DecorationSet.empty,
            apply(tr, set) {
              let next = set.map(tr.mapping, tr.doc);
              const meta = tr.getMeta(key) as Meta | undefined;
              if (meta && 'add' in meta)
                next = next.add(tr.doc, [
                  Decoration.widget(meta.add.pos, () => placeholder(meta.add.id), { id: meta.add.id }),
                ]);
              if (meta && 'remove' in meta)
                next = next.remove(next.find(undefined, undefined, (spec) => spec['id'] === meta.remove.id));
              return next;
            },
          },
          props: {
            decorations: (state) => key.getState(state),
            handlePaste(view, event) {
              const files = imageFiles(event.clipboardData?.files);
              if (!files.length || !context.services().canUpload) return false;
              uploadImages(view, files, view.state.selection.from, context);
              return true;
            },
            handleDrop(view, event, _slice, moved) {
              const files = imageFiles(event.dataTransfer?.files);
              if (moved || !files.length || !context.services().canUpload) return false;
              const at = view.posAtCoords({ left: event.clientX, top: event.clientY });
              event.preventDefault();
              uploadImages(view, files, at?.pos ?? view.state.selection.from, context);
              return true;
            },
          },
        }),
      ];
    },
  });
}

/**
 * Images from this server need the sign-in token, which an <img src> cannot
 * send: those are fetched and shown from a blob (lib/files.ts imageUrl), as
 * the rendered Markdown does.
 */
export function serverImage(context: EditorContext) {
  return Image.extend({
    addNodeView() {
      return ({ node }) => {
        const img = document.createElement('img');
        img.alt = node.attrs['alt'] ?? '';
        context
          .services()
          .showImage(node.attrs['src'] ?? '')
          .then(
            (shown) => {
              if (shown) img.src = shown;
            },
            () => undefined,
          );
        return { dom: img };
      };
    },
  });
}
