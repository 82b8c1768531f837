// An issue's comments: add, edit and delete your own; a deleted comment that
// has replies stays as a marker.
import { type FormEvent, useState } from 'react';
import { graphql } from '../gql';
import { useAction } from '../lib/action';
import { gql } from '../lib/api';
import { Markdown } from '../lib/markdown';
import { MentionTextArea } from './MentionTextArea';
import { RelativeTime } from './RelativeTime';
import { Button, ErrorMessage } from './ui';

export interface Comment {
  id: string;
  body: string;
  createdAt: string;
  editedAt: string | null;
  /** Set on a deleted comment kept for its replies. */
  archivedAt: string | null;
  user: { id: string; name: string } | null;
}
export function Comments({
  issueId,
  items,
  meId,
  onChange,
}: {
  issueId: string;
  items: Comment[];
  meId: string | undefined;
  onChange: () => void;
}) {
  const [body, setBody] = useState('');
  const state = useAction(
    () =>
      gql(
        graphql(
          `mutation AddComment($input: CommentCreateInput!) { commentCreate(input: $input) { success comment { id } } }`,
        ),
        { input: { issueId, body } },
      ),
    {
      onSuccess: () => {
        setBody('');
        onChange();
      },
    },
  );
  const sorted = [...items].sort((a, b) => a.createdAt.localeCompare(b.createdAt));

  function add(e: FormEvent) {
    e.preventDefault();
    if (body.trim()) state.submit();
  }

  return (
    <section className="comments" aria-labelledby="comments-h">
      <h2 id="comments-h">Comments</h2>
      <ul className="comment-list">
        {sorted.map((c) => (
          <CommentItem key={c.id} c={c} mine={c.user?.id === meId} onChange={onChange} />
        ))}
      </ul>
      <form onSubmit={add} className="comment-form">
        <MentionTextArea
          label="Add a comment"
          value={body}
          rows={3}
          placeholder="Leave a comment (Markdown; @ mentions someone)…"
          onText={setBody}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) void add(e);
          }}
        />
        <ErrorMessage error={state.error} />
        <Button type="submit" variant="primary" busy={state.busy} disabled={!body.trim()}>
          Comment
        </Button>
      </form>
    </section>
  );
}

function CommentItem({ c, mine, onChange }: { c: Comment; mine: boolean; onChange: () => void }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(c.body);
  const removing = useAction(
    () =>
      gql(graphql(`mutation DeleteComment($id: String!) { commentDelete(id: $id) { success } }`), {
        id: c.id,
      }),
    { onSuccess: onChange },
  );
  const saving = useAction(
    () =>
      gql(
        graphql(
          `mutation EditComment($id: String!, $input: CommentUpdateInput!) { commentUpdate(id: $id, input: $input) { success } }`,
        ),
        { id: c.id, input: { body: draft } },
      ),
    {
      onSuccess: () => {
        setEditing(false);
        onChange();
      },
    },
  );
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
        <span className="avatar" aria-hidden="true">
          {author.slice(0, 1).toUpperCase()}
        </span>
        <strong>{author}</strong>
        <span className="muted small">
          <RelativeTime iso={c.createdAt} />
          {c.editedAt ? ' (edited)' : ''}
        </span>
        {mine && !editing && (
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
            saving.submit();
          }}
        >
          <MentionTextArea label="Edit comment" value={draft} rows={3} onText={setDraft} autoFocus />
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
      <ErrorMessage error={error} />
    </li>
  );
}
