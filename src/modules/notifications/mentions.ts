// `@name` mentions in Markdown text, by the web UI's rule
// (web/src/lib/markdown.tsx): `@` not preceded by a word character or `@`,
// then letters, digits, `.`, `_` or `-`, ending on a letter or digit; the name
// is compared with users' display names lower-cased. Like the UI, text in code
// (fenced blocks and inline spans) and inside URLs is not a mention.
// Pure, no imports: the notification writer resolves the names.

const MENTION = /(?<![\w@])@([\p{L}\p{N}._-]*[\p{L}\p{N}])/gu;
const FENCED = /^(```|~~~)[^\n]*\n[\s\S]*?(?:^\1[^\n]*$|(?![\s\S]))/gm;
const INLINE_CODE = /`[^`\n]+`/g;
const URL = /https?:\/\/[^\s<]+/g;

/** The distinct names mentioned in `text`, lower-cased, in order of first appearance. */
export function mentionedNames(text: string | null | undefined): string[] {
  if (!text) return [];
  const plain = text.replace(FENCED, ' ').replace(INLINE_CODE, ' ').replace(URL, ' ');
  const names = new Set<string>();
  for (const m of plain.matchAll(MENTION)) names.add((m[1] as string).toLowerCase());
  return [...names];
}

/** Names in `after` that were not already in `before` (an edit notifies only the new mentions). */
export function newMentions(before: string | null | undefined, after: string | null | undefined): string[] {
  const old = new Set(mentionedNames(before));
  return mentionedNames(after).filter((n) => !old.has(n));
}
