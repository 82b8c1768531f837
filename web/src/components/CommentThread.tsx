// A comment's thread: its replies nested under it, the earlier ones folded
// away when there are many, and a reply box. Replies are one level deep, as
// in Linear: a reply to a reply (which the API allows) shows in its first
// comment's thread, in time order.
import { type FormEvent, Fragment, type ReactNode, useState } from 'react';
import { graphql } from '../gql';
import { useAction } from '../lib/action';
import { gql } from '../lib/api';
import { identifierOf } from '../lib/issues';
import {
  type Comment,
  type NewComment,
  newComment,
  pendingComment,
  type WithComments,
  withNodes,
} from './IssueComments';
import { MarkdownField } from './MarkdownField';
import { Button, ErrorMessage } from './ui';

/** More replies than this fold, leaving the last SHOWN_WHEN_FOLDED in view. */
const FOLD_OVER = 3;
const SHOWN_WHEN_FOLDED = 2;

const AddReply = graphql(
  `mutation AddReply($input: CommentCreateInput!) { commentCreate(input: $input) { success comment { id } } }`,
);

export function CommentThread({
  issueId,
  root,
  replies,
  me,
  issueKey,
  render,
}: {
  issueId: string;
  root: Comment;
  replies: Comment[];
  me: { id: string; name: string } | null | undefined;
  issueKey: readonly unknown[];
  render: (c: Comment) => ReactNode;
}) {
  const [unfolded, setUnfolded] = useState(false);
  const [replying, setReplying] = useState(false);
  const [body, setBody] = useState('');
  const reply = useAction(
    ({ id, text }: NewComment) =>
      gql(
        AddReply,
        { input: { id, issueId, body: text, parentId: root.id } },
        { offline: `Reply on ${identifierOf(issueId) ?? 'an issue'}` },
      ),
    {
      optimistic: {
        key: issueKey,
        apply: (data: WithComments, written) =>
          withNodes(data, (all) => [...all, pendingComment(written, me, root.id)]),
      },
      onError: (_e, { text }) => {
        setReplying(true);
        setBody((now) => now || text);
      },
    },
  );
  const folded = !unfolded && replies.length > FOLD_OVER;
  const shown = folded ? replies.slice(-SHOWN_WHEN_FOLDED) : replies;
  const author = root.user?.name ?? 'Deleted user';
  // The server takes no replies to a deleted or unsaved comment.
  const canReply = !root.archivedAt && !root.sending;

  function send(e?: FormEvent) {
    e?.preventDefault();
    const text = body;
    if (!text.trim()) return;
    setBody('');
    setReplying(false);
    void reply.run(newComment(text));
  }

  return (
    <>
      {render(root)}
      {(replies.length > 0 || replying) && (
        <li className="comment-thread">
          <ul className="comment-replies" aria-label={`Replies to ${author}`}>
            {folded && (
              <li>
                <Button variant="ghost" onClick={() => setUnfolded(true)}>
                  Show {replies.length - SHOWN_WHEN_FOLDED} earlier replies
                </Button>
              </li>
            )}
            {shown.map((c) => (
              <Fragment key={c.id}>{render(c)}</Fragment>
            ))}
          </ul>
        </li>
      )}
      {canReply && (
        <li className="comment-thread-actions">
          {replying ? (
            <form onSubmit={send} className="reply-form comment-form">
              <MarkdownField
                label={`Reply to ${author}`}
                value={body}
                rows={2}
                placeholder="Reply…"
                autoFocus
                onText={setBody}
                onSubmit={() => send()}
              />
              <div className="row">
                <Button type="submit" variant="primary" disabled={!body.trim()}>
                  Reply
                </Button>
                <Button onClick={() => setReplying(false)}>Cancel</Button>
              </div>
            </form>
          ) : (
            <Button variant="ghost" aria-label={`Reply to ${author}`} onClick={() => setReplying(true)}>
              Reply
            </Button>
          )}
          <ErrorMessage error={reply.error} />
        </li>
      )}
    </>
  );
}
