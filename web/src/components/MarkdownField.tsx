// A Markdown field with the rich editor, loaded on first use so that pages
// without one (the lists, the board) do not download it. Until it arrives a
// box of the same size holds its place. The app's data and doors the editor
// uses are gathered here and handed in (editor/context.ts says why).
import { lazy, Suspense, useMemo } from 'react';
import { graphql } from '../gql';
import { gql } from '../lib/api';
import { imageUrl, isServerFile, uploadFile } from '../lib/files';
import { searchFilters } from '../lib/issues';
import { useRefData } from '../lib/ref';
import { useSession } from '../lib/session';
import type { EditorServices } from './editor/context';
import type { MarkdownEditorProps } from './editor/MarkdownEditor';

const MarkdownEditor = lazy(() => import('./editor/MarkdownEditor'));

function searchIssues(query: string) {
  return gql(
    graphql(
      `query EditorIssueSearch($filter: IssueFilter) { issues(first: 5, filter: $filter) { nodes { identifier title } } }`,
    ),
    { filter: { or: searchFilters(query) } },
  ).then((d) => d.issues.nodes);
}

/** An address an <img> can show: this server's files come with the token, as a blob. */
const showImage = async (src: string) => (isServerFile(src) ? imageUrl(src) : src);

export function MarkdownField(props: MarkdownEditorProps) {
  const ref = useRefData().data;
  const canUpload = useSession().flag('attachments');
  const services = useMemo<EditorServices>(
    () => ({
      people: ref?.people ?? [],
      teamKeys: new Set(ref?.teams.map((t) => t.key)),
      canUpload,
      searchIssues,
      upload: uploadFile,
      showImage,
    }),
    [ref, canUpload],
  );
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
      <MarkdownEditor {...props} services={services} />
    </Suspense>
  );
}
