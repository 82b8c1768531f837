// The rich text editor (Tiptap on ProseMirror) for descriptions and comments.
// It reads and writes Markdown (markdown-doc.ts), so the API and other clients
// keep seeing the text they always did. Loaded on demand (components/
// MarkdownField.tsx): the list pages never pay for it.
import { Placeholder } from '@tiptap/extensions';
import { MarkdownManager } from '@tiptap/markdown';
import { EditorContent, useEditor } from '@tiptap/react';
import { useEffect, useId, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { EditorContext, EditorServices } from './context';
import { imageUploads, serverImage } from './images';
import { issueRefs } from './issue-refs';
import { editorKeys } from './keys';
import { docToMarkdown, markdownToDoc } from './markdown-doc';
import { mentions } from './mentions';
import { MenuStore } from './menu';
import { pasteMarkdown } from './paste-markdown';
import { SuggestionMenu } from './SuggestionMenu';
import './editor.css';
import { documentExtensions } from './schema';
import { slashCommands } from './slash';

export interface MarkdownEditorProps {
  label: string;
  value: string;
  onText: (markdown: string) => void;
  /** Mod-Enter. */
  onSubmit?: () => void;
  placeholder?: string;
  autoFocus?: boolean;
  /** Height when empty, in lines. */
  rows?: number;
}

interface MarkdownEditorInnerProps extends MarkdownEditorProps {
  services: EditorServices;
}

/** Markdown in and out: the document's node types only (how images show does not matter here). */
const markdown = new MarkdownManager({ extensions: documentExtensions() });

export default function MarkdownEditor({
  label,
  value,
  onText,
  onSubmit,
  placeholder,
  autoFocus,
  rows = 3,
  services,
}: MarkdownEditorInnerProps) {
  const id = useId();
  const listId = `${id}-menu`;
  const [uploadError, setUploadError] = useState<unknown>(null);
  /** The editor's view exists only once it is mounted; its DOM is touched after that. */
  const [mounted, setMounted] = useState(false);
  const latest = useRef({ services, onSubmit, onText });
  latest.current = { services, onSubmit, onText };
  /** The Markdown last written by this editor: a `value` that differs came from outside. */
  const written = useRef(value);

  const store = useMemo(() => new MenuStore(), []);
  const context = useMemo<EditorContext>(
    () => ({
      services: () => latest.current.services,
      submit: () => latest.current.onSubmit?.(),
      uploadFailed: setUploadError,
    }),
    [],
  );

  // Made once (a field's placeholder does not change): the schema and plugins are fixed when the editor is created.
  const extensions = useMemo(
    () => [
      ...documentExtensions({ image: serverImage(context) }),
      Placeholder.configure({ placeholder: placeholder ?? '' }),
      slashCommands(store, context),
      mentions(store, context),
      issueRefs(context),
      imageUploads(context),
      pasteMarkdown((text) => markdownToDoc(markdown, text)),
      editorKeys(context),
    ],
    [store, context, placeholder],
  );
  // Options that keep their identity from render to render. useEditor compares them on every
  // render and, when one differs, sets them on the live editor, which puts the view's state back
  // into the DOM: a new `content` object or `editorProps` each time did that on every keystroke
  // and on every refetch around the editor, and could move the caret under the typing.
  const [content] = useState(() => markdownToDoc(markdown, value));
  const [autofocus] = useState<'end' | false>(autoFocus ? 'end' : false);
  const editorProps = useMemo(
    () => ({
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': `${id}-label`,
        class: 'md-editor-text markdown',
      },
    }),
    [id],
  );
  const editor = useEditor({
    extensions,
    content,
    // Its <style> element would break the CSP (style-src 'self'); editor.css has what it holds.
    injectCSS: false,
    autofocus,
    editorProps,
    onCreate: () => setMounted(true),
    onDestroy: () => setMounted(false),
    onUpdate: ({ editor: e }) => {
      const text = docToMarkdown(markdown, e.getJSON());
      if (text === written.current) return;
      written.current = text;
      setUploadError(null);
      latest.current.onText(text);
    },
  });

  // A value set from outside (cleared after sending, a refused draft put back, a live update).
  useEffect(() => {
    if (!editor || !mounted || value === written.current) return;
    written.current = value;
    editor.commands.setContent(markdownToDoc(markdown, value), { emitUpdate: false });
  }, [editor, mounted, value]);

  // Set through the CSSOM: a style attribute would break the CSP.
  useEffect(() => {
    if (editor && mounted) editor.view.dom.style.minHeight = `${rows * 1.5}em`;
  }, [editor, mounted, rows]);

  // Team keys arrive with the reference data; chips are drawn again then.
  const teamKeys = services.teamKeys;
  useEffect(() => {
    if (editor && mounted && teamKeys.size > 0) editor.commands.refreshIssueRefs();
  }, [editor, mounted, teamKeys]);

  // The open list is announced from the text box, which keeps focus.
  const menu = useSyncExternalStore(store.subscribe, store.get);
  useEffect(() => {
    if (!editor || !mounted) return;
    const dom = editor.view.dom;
    if (menu) {
      dom.setAttribute('aria-controls', listId);
      dom.setAttribute('aria-activedescendant', `${listId}-${menu.active}`);
    } else {
      dom.removeAttribute('aria-controls');
      dom.removeAttribute('aria-activedescendant');
    }
  }, [editor, mounted, menu, listId]);

  return (
    // Focusable by script only: Escape in the text leaves the keyboard here (keys.ts).
    <div className="field md-editor" tabIndex={-1}>
      <span className="label" id={`${id}-label`}>
        {label}
      </span>
      <EditorContent editor={editor} />
      <SuggestionMenu store={store} id={listId} />
      {uploadError != null && (
        <div className="error-message" role="alert">
          {uploadError instanceof Error ? uploadError.message : String(uploadError)}
        </div>
      )}
    </div>
  );
}
