// An issue's comments: add, edit and delete your own; a deleted comment that
// has replies stays as a marker.
import { type FormEvent, useState } from 'react';
import { graphql } from '../gql';
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
  const [state, setState] = useState<{ busy?: boolean; error?: unknown }>({});
  const sorted = [...items].sort((a, b) => a.createdAt.localeCompare(b.createdAt));

  async function add(e: FormEvent) {
    e.preventDefault();
    if (!body.trim()) return;
    setState({ busy: true });
    try {
      await gql(
        graphql(
          `mutation AddComment($input: CommentCreateInput!) { commentCreate(input: $input) { success comment { id } } }`,
        ),
        {
          input: { issueId, body },
        },
      );
      setBody('');
      setState({});
      onChange();
    } catch (error) {
      setState({ error });
    }
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
  const [error, setError] = useState<unknown>(null);
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
              onClick={async () => {
                if (!confirm('Delete this comment?')) return;
                try {
                  await gql(
                    graphql(`mutation DeleteComment($id: String!) { commentDelete(id: $id) { success } }`),
                    {
                      id: c.id,
                    },
                  );
                  onChange();
                } catch (e) {
                  setError(e);
                }
              }}
            >
              Delete
            </Button>
          </span>
        )}
      </div>
      {editing ? (
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            try {
              await gql(
                graphql(
                  `mutation EditComment($id: String!, $input: CommentUpdateInput!) { commentUpdate(id: $id, input: $input) { success } }`,
                ),
                { id: c.id, input: { body: draft } },
              );
              setEditing(false);
              onChange();
            } catch (err) {
              setError(err);
            }
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
