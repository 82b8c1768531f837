// The one rule for `@name` mentions, shared by the Markdown renderer (markdown.tsx)
// and the @-completion (components/MentionTextArea.tsx); the server's parser
// (src/modules/notifications/mentions.ts) reads the same: `@` not after a word
// character or `@`, then letters, digits, `.`, `_` or `-`, ending on a letter or digit.

/** A mentionable name, as a pattern source. */
export const MENTION_NAME = '[\\p{L}\\p{N}._-]*[\\p{L}\\p{N}]';
/** A whole mention, its name in group 1, as a pattern source (flags `u` required). */
export const MENTION = `(?<![\\w@])@(${MENTION_NAME})`;

const WHOLE_NAME = new RegExp(`^${MENTION_NAME}$`, 'u');
/** A mention being typed just before the caret: `@` and the letters so far (maybe none). */
const TYPING = /(?<![\w@])@([\p{L}\p{N}._-]*)$/u;

/** Whether `@name` can be written so the parser reads exactly this name. */
export const mentionable = (name: string) => WHOLE_NAME.test(name);

/** The mention typed up to `caret` in `text`: where its `@` is and the query after it. */
export function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const m = TYPING.exec(text.slice(0, caret));
  return m ? { start: m.index, query: m[1] ?? '' } : null;
}
