// An issue's comments: add, edit and delete your own, react, reply in threads
// (CommentThread.tsx); a deleted comment that has replies stays as a marker.

import { type FormEvent, useState } from 'react';
import { graphql } from '../gql';
import { useAction } from '../lib/action';
import { gql } from '../lib/api';
import { identifierOf } from '../lib/issues';
import { Markdown } from '../lib/markdown';
import { AppMarker } from './AppMarker';
import { CommentThread } from './CommentThread';
import { Initials } from './IssueBits';
import { MarkdownField } from './MarkdownField';
import { type Reaction, ReactionBar } from './Reactions';
import { RelativeTime } from './RelativeTime';
import { Button, ErrorMessage } from './ui';

export interface Comment {
  id: string;
  body: string;
  createdAt: string;
  editedAt: string | null;
  /** Set on a deleted comment kept for its replies. */
  archivedAt: string | null;
  user: { id: string; name: string; app?: boolean } | null;
  parent: { id: string } | null;
  reactions: Reaction[];
  /** Written here and not yet answered by the server: shown at once, no actions until saved. */
  sending?: true;
}

/** The cached issue page, as far as comments are concerned. */
export interface WithComments {
  comments: { nodes: Comment[] };
}

/**
 * A comment being written: its id is chosen here, before sending, so the one
 * shown at once and the saved one are the same comment, and a create sent
 * again (lib/write-queue.ts, when its answer was lost) answers the comment it
 * made rather than making a second one.
 */
export interface NewComment {
  id: string;
  text: string;
}

export const newComment = (text: string): NewComment => ({ id: crypto.randomUUID(), text });

/** The comment as shown until the server has it (a reply names its thread's first comment). */
export const pendingComment = (
  { id, text }: NewComment,
  me: { id: string; name: string } | null | undefined,
  parentId: string | null,
): Comment => ({
  id,
  sending: true,
  body: text,
  createdAt: new Date().toISOString(),
  editedAt: null,
  archivedAt: null,
  user: me ? { id: me.id, name: me.name } : null,
  parent: parentId ? { id: parentId } : null,
  reactions: [],
});

export const withNodes = <D extends WithComments>(data: D, nodes: (all: Comment[]) => Comment[]): D => ({
  ...data,
  comments: { ...data.comments, nodes: nodes(data.comments.nodes) },
});

/**
 * Comments show the moment they are written, edited or deleted, and are put
 * back as they were if the server refuses; `issueKey` is the cached issue
 * page (lib/query-keys.ts), read again after every write.
 */
export function Comments({
  issueId,
  items,
  me,
  issueKey,
}: {
  issueId: string;
  items: Comment[];
  me: { id: string; name: string } | null | undefined;
  issueKey: readonly unknown[];
}) {
  const [body, setBody] = useState('');
  const state = useAction(
    ({ id, text }: NewComment) =>
      gql(
        graphql(
          `mutation AddComment($input: CommentCreateInput!) { commentCreate(input: $input) { success comment { id } } }`,
        ),
        { input: { id, issueId, body: text } },
        { offline: `Comment on ${identifierOf(issueId) ?? 'an issue'}` },
      ),
    {
      optimistic: {
        key: issueKey,
        apply: (data: WithComments, written) =>
          withNodes(data, (all) => [...all, pendingComment(written, me, null)]),
      },
      // The draft comes back, unless something new was typed meanwhile.
      onError: (_e, { text }) => setBody((now) => now || text),
    },
  );
  const sorted = [...items].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const threads = threadsOf(sorted);
  const item = (c: Comment) => (
    <CommentItem
      key={c.id}
      c={c}
      mine={c.user?.id === me?.id}
      me={me}
      hasReplies={items.some((r) => r.parent?.id === c.id)}
      issueKey={issueKey}
    />
  );

  function add(e?: FormEvent) {
    e?.preventDefault();
    const text = body;
    if (!text.trim()) return;
    setBody('');
    void state.run(newComment(text));
  }

  return (
    <section className="comments" aria-labelledby="comments-h">
      <h2 id="comments-h">Comments</h2>
      <ul className="comment-list">
        {threads.map(({ root, replies }) => (
          <CommentThread
            key={root.id}
            issueId={issueId}
            root={root}
            replies={replies}
            me={me}
            issueKey={issueKey}
            render={item}
          />
        ))}
      </ul>
      <form onSubmit={add} className="comment-form">
        <MarkdownField
          label="Add a comment"
          value={body}
          rows={3}
          placeholder="Leave a comment… (/ for blocks, @ to mention)"
          onText={setBody}
          onSubmit={add}
        />
        <ErrorMessage error={state.error} />
        <Button type="submit" variant="primary" disabled={!body.trim()}>
          Comment
        </Button>
      </form>
    </section>
  );
}

/**
 * Comments by thread, in time order: each first comment (no parent, or one
 * not listed) with every comment below it, however deep, in time order.
 */
function threadsOf(sorted: Comment[]) {
  const byId = new Map(sorted.map((c) => [c.id, c]));
  const rootOf = (c: Comment): Comment => {
    let at = c;
    for (
      let parent = at.parent && byId.get(at.parent.id);
      parent;
      parent = at.parent && byId.get(at.parent.id)
    )
      at = parent;
    return at;
  };
  const threads = new Map<string, { root: Comment; replies: Comment[] }>();
  for (const c of sorted) {
    const root = rootOf(c);
    const thread = threads.get(root.id) ?? { root, replies: [] };
    if (root !== c) thread.replies.push(c);
    threads.set(root.id, thread);
  }
  return [...threads.values()];
}

function CommentItem({
  c,
  mine,
  me,
  hasReplies,
  issueKey,
}: {
  c: Comment;
  mine: boolean;
  me: { id: string; name: string } | null | undefined;
  hasReplies: boolean;
  issueKey: readonly unknown[];
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(c.body);
  const pending = c.sending === true;
  const removing = useAction(
    () =>
      gql(graphql(`mutation DeleteComment($id: String!) { commentDelete(id: $id) { success } }`), {
        id: c.id,
      }),
    {
      optimistic: {
        key: issueKey,
        // One with replies stays as a marker, as the server keeps it.
        apply: (data: WithComments) =>
          withNodes(data, (all) =>
            hasReplies
              ? all.map((x) => (x.id === c.id ? { ...x, archivedAt: new Date().toISOString() } : x))
              : all.filter((x) => x.id !== c.id),
          ),
      },
    },
  );
  const saving = useAction(
    (text: string) =>
      gql(
        graphql(
          `mutation EditComment($id: String!, $input: CommentUpdateInput!) { commentUpdate(id: $id, input: $input) { success } }`,
        ),
        { id: c.id, input: { body: text } },
      ),
    {
      optimistic: {
        key: issueKey,
        apply: (data: WithComments, text) =>
          withNodes(data, (all) =>
            all.map((x) => (x.id === c.id ? { ...x, body: text, editedAt: new Date().toISOString() } : x)),
          ),
      },
      // Refused: the editor opens again with what was typed.
      onError: () => setEditing(true),
    },
  );
  const save = () => {
    setEditing(false);
    void saving.run(draft);
  };
  const error = saving.error ?? removing.error;
  const author = c.user?.name ?? 'Deleted user';
  // A deleted comment with replies keeps its place in the thread, nothing else.
  if (c.archivedAt) {
    return (
      <li className="comment comment-deleted">
        <p className="muted">Comment deleted</p>
      </li>
    );
  }
  return (
    <li className="comment">
      <div className="comment-head">
        <Initials person={c.user} />
        <strong>{author}</strong>
        {c.user?.app ? <AppMarker /> : null}
        <span className="muted small">
          <RelativeTime iso={c.createdAt} />
          {c.editedAt ? ' (edited)' : ''}
          {pending ? ' · sending…' : ''}
        </span>
        {mine && !editing && !pending && (
          <span className="comment-actions">
            <Button variant="ghost" aria-label={`Edit comment by ${author}`} onClick={() => setEditing(true)}>
              Edit
            </Button>
            <Button
              variant="ghost"
              aria-label={`Delete comment by ${author}`}
              onClick={() => {
                if (confirm('Delete this comment?')) removing.submit();
              }}
            >
              Delete
            </Button>
          </span>
        )}
      </div>
      {editing ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            save();
          }}
        >
          <MarkdownField
            label="Edit comment"
            value={draft}
            rows={3}
            onText={setDraft}
            onSubmit={save}
            autoFocus
          />
          <div className="row">
            <Button type="submit" variant="primary">
              Save comment
            </Button>
            <Button onClick={() => setEditing(false)}>Cancel</Button>
          </div>
        </form>
      ) : (
        <Markdown source={c.body} />
      )}
      {!pending && (
        <ReactionBar
          target={{ commentId: c.id }}
          reactions={c.reactions}
          me={me}
          cacheKey={issueKey}
          label={`the comment by ${author}`}
          patch={(data: WithComments, change) =>
            withNodes(data, (all) =>
              all.map((x) => (x.id === c.id ? { ...x, reactions: change(x.reactions) } : x)),
            )
          }
        />
      )}
      <ErrorMessage error={error} />
    </li>
  );
}
