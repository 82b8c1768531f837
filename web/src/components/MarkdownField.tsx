// A Markdown field with the rich editor, loaded on first use so that pages
// without one (the lists, the board) do not download it. Until it arrives a
// box of the same size holds its place.
import { lazy, Suspense } from 'react';
import type { MarkdownEditorProps } from './editor/MarkdownEditor';

const MarkdownEditor = lazy(() => import('./editor/MarkdownEditor'));

export function MarkdownField(props: MarkdownEditorProps) {
  return (
    <Suspense
      fallback={
        <div className="field md-editor" aria-busy="true">
          <span className="label">{props.label}</span>
          <div
            className="md-editor-text md-editor-loading"
            style={{ minHeight: `${(props.rows ?? 3) * 1.5}em` }}
          />
        </div>
      }
    >
      <MarkdownEditor {...props} />
    </Suspense>
  );
}
