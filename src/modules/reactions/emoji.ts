// What a reaction's emoji may be, and the picker's common ones. Free of
// imports: the web UI imports this file as it is (docs/ARCHITECTURE.md).
//
// An emoji is stored as given, as the third-party schema's Reaction.emoji: a
// Unicode emoji (one sequence: skin tones, joiners, flags and keycaps
// included) or a shortcode name as other clients send them ("+1", "tada").

/** At most this many code points (a family with skin tones is about a dozen); the column checks 32. */
export const MAX_EMOJI_CODE_POINTS = 16;

const SHORTCODE = /^[a-z0-9_+-]{1,32}$/;
// Pictographs, and what joins or modifies them into one emoji.
const EMOJI_PART = /^(?:\p{Extended_Pictographic}|\p{Emoji_Component}|\u200d|\ufe0f|\u20e3)$/u;
const EMOJI_BASE = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20e3/u;

/** Whether `text` is an emoji or shortcode a reaction may carry. */
export function isReactionEmoji(text: unknown): text is string {
  if (typeof text !== 'string' || text === '') return false;
  if (SHORTCODE.test(text)) return true;
  const points = [...text];
  return (
    points.length <= MAX_EMOJI_CODE_POINTS && points.every((p) => EMOJI_PART.test(p)) && EMOJI_BASE.test(text)
  );
}

/** The picker's choices, most used first. */
export const COMMON_EMOJI = ['👍', '👎', '❤️', '🎉', '😄', '😕', '👀', '🚀'] as const;
