// A reaction bar: each emoji given to an issue or a comment with how many gave
// it (who, on hover and to screen readers), pressed where you gave it; a
// click toggles yours, and "Add reaction" offers the common emoji. Every
// toggle shows at once and is put back if the server refuses (lib/action.ts).
import type { QueryKey } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { COMMON_EMOJI } from '../../../src/modules/reactions/emoji';
import { graphql } from '../gql';
import { useAction } from '../lib/action';
import { gql } from '../lib/api';
import { ErrorMessage } from './ui';

export interface Reaction {
  id: string;
  emoji: string;
  user: { id: string; name: string } | null;
}

/** What is reacted to. */
type ReactionTarget = { issueId: string } | { commentId: string };

/** A reaction shown before the server has it. */
const PENDING = 'pending:';

const CreateReaction = graphql(
  `mutation CreateReaction($input: ReactionCreateInput!) { reactionCreate(input: $input) { success reaction { id } } }`,
);
const DeleteReaction = graphql(
  `mutation DeleteReaction($id: String!) { reactionDelete(id: $id) { success } }`,
);

/** The reactions grouped by emoji, in the order each was first given. */
function groups(reactions: Reaction[]) {
  const byEmoji = new Map<string, Reaction[]>();
  for (const r of reactions) byEmoji.set(r.emoji, [...(byEmoji.get(r.emoji) ?? []), r]);
  return [...byEmoji].map(([emoji, given]) => ({ emoji, given }));
}

type Toggle = { emoji: string; mine: Reaction | undefined };

/**
 * `patch` changes the target's reactions inside the data cached under
 * `cacheKey` (the issue page), for the optimistic toggle.
 */
export function ReactionBar<D>({
  target,
  reactions,
  me,
  cacheKey,
  patch,
  label,
}: {
  target: ReactionTarget;
  reactions: Reaction[];
  me: { id: string; name: string } | null | undefined;
  cacheKey: QueryKey;
  patch: (data: D, change: (all: Reaction[]) => Reaction[]) => D;
  /** What the bar is for, for screen readers ("the description", "comment by Mia"). */
  label: string;
}) {
  const [picking, setPicking] = useState(false);
  const toggle = useAction(
    ({ emoji, mine }: Toggle): Promise<unknown> =>
      mine ? gql(DeleteReaction, { id: mine.id }) : gql(CreateReaction, { input: { ...target, emoji } }),
    {
      optimistic: {
        key: cacheKey,
        apply: (data: D, { emoji, mine }) =>
          patch(data, (all) =>
            mine
              ? all.filter((r) => r.id !== mine.id)
              : [...all, { id: `${PENDING}${crypto.randomUUID()}`, emoji, user: me ?? null }],
          ),
      },
    },
  );
  const run = (emoji: string) => {
    const mine = reactions.find((r) => r.emoji === emoji && r.user?.id === me?.id);
    // A reaction still on its way has no id to take back yet.
    if (mine?.id.startsWith(PENDING)) return;
    void toggle.run({ emoji, mine });
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: a toolbar of toggle buttons, not a form group
    <div className="reactions" role="group" aria-label={`Reactions to ${label}`}>
      {groups(reactions).map(({ emoji, given }) => {
        const mine = given.some((r) => r.user?.id === me?.id);
        const names = given.map((r) => r.user?.name ?? 'someone').join(', ');
        return (
          <button
            key={emoji}
            type="button"
            className={`reaction${mine ? ' reaction-mine' : ''}`}
            aria-pressed={mine}
            aria-label={`${emoji} ${given.length}: ${names}`}
            title={names}
            onClick={() => run(emoji)}
          >
            <span aria-hidden="true">{emoji}</span>
            <span className="reaction-count" aria-hidden="true">
              {given.length}
            </span>
          </button>
        );
      })}
      <EmojiPicker
        open={picking}
        onOpen={setPicking}
        onPick={(emoji) => {
          setPicking(false);
          // Picking one you gave already keeps it (the bar's button takes it back).
          if (!reactions.some((r) => r.emoji === emoji && r.user?.id === me?.id)) run(emoji);
        }}
      />
      <ErrorMessage error={toggle.error} />
    </div>
  );
}

/** "Add reaction" and its popover of common emoji; Esc or a click elsewhere closes it. */
function EmojiPicker({
  open,
  onOpen,
  onPick,
}: {
  open: boolean;
  onOpen: (open: boolean) => void;
  onPick: (emoji: string) => void;
}) {
  const box = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (!open) return;
    const outside = (e: MouseEvent) => {
      if (!box.current?.contains(e.target as Node)) onOpen(false);
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, [open, onOpen]);
  return (
    <span className="reaction-picker" ref={box}>
      <button
        type="button"
        className="reaction reaction-add"
        aria-label="Add reaction"
        aria-expanded={open}
        onClick={() => onOpen(!open)}
      >
        <span aria-hidden="true">☺︎+</span>
      </button>
      {open && (
        // biome-ignore lint/a11y/useSemanticElements: a small popover of buttons
        <div
          className="reaction-choices"
          role="group"
          aria-label="Pick a reaction"
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              onOpen(false);
            }
          }}
        >
          {COMMON_EMOJI.map((emoji, i) => (
            <button
              key={emoji}
              type="button"
              className="reaction-choice"
              aria-label={`React with ${emoji}`}
              // biome-ignore lint/a11y/noAutofocus: the popover was opened to pick one
              autoFocus={i === 0}
              onClick={() => onPick(emoji)}
            >
              {emoji}
            </button>
          ))}
        </div>
      )}
    </span>
  );
}

/** The reactions to the issue itself, under its description (pages/Issue.tsx). */
export function IssueReactions<D extends { reactions: Reaction[] }>({
  issue,
  me,
  queryKey,
}: {
  issue: D & { id: string };
  me: { id: string; name: string } | null | undefined;
  queryKey: QueryKey;
}) {
  return (
    <ReactionBar
      target={{ issueId: issue.id }}
      reactions={issue.reactions}
      me={me}
      cacheKey={queryKey}
      label="the issue"
      patch={(data: D, change) => ({ ...data, reactions: change(data.reactions) })}
    />
  );
}
