// The one rule for `@name` mentions, shared by the Markdown renderer (markdown.tsx)
// and the editor (components/editor/): its chips and its @-completion; the server's parser
// (src/modules/notifications/mentions.ts) reads the same: `@` not after a word
// character or `@`, then letters, digits, `.`, `_` or `-`, ending on a letter or digit.

/** A mentionable name, as a pattern source. */
export const MENTION_NAME = '[\\p{L}\\p{N}._-]*[\\p{L}\\p{N}]';
/** A whole mention, its name in group 1, as a pattern source (flags `u` required). */
export const MENTION = `(?<![\\w@])@(${MENTION_NAME})`;

const WHOLE_NAME = new RegExp(`^${MENTION_NAME}$`, 'u');

/** Whether `@name` can be written so the parser reads exactly this name. */
export const mentionable = (name: string) => WHOLE_NAME.test(name);

/** What the candidates need of a person (lib/ref.ts's Person). */
interface Named {
  name: string;
  displayName: string;
}

/** People `@query` may mean: display name first, then full name, starting with the query; unambiguous names only. */
export function mentionCandidates<P extends Named>(people: readonly P[], query: string, max = 8): P[] {
  const q = query.toLowerCase();
  const count = new Map<string, number>();
  for (const p of people)
    count.set(p.displayName.toLowerCase(), (count.get(p.displayName.toLowerCase()) ?? 0) + 1);
  // Two people with one display name: `@name` is ambiguous and mentions nobody, so neither is offered.
  const usable = people.filter(
    (p) => mentionable(p.displayName) && count.get(p.displayName.toLowerCase()) === 1,
  );
  const rank = (p: P) =>
    p.displayName.toLowerCase().startsWith(q)
      ? 0
      : p.name
            .toLowerCase()
            .split(/\s+/)
            .some((w) => w.startsWith(q))
        ? 1
        : 2;
  return usable
    .map((p) => ({ p, r: rank(p) }))
    .filter((x) => x.r < 2)
    .sort((a, b) => a.r - b.r || a.p.displayName.localeCompare(b.p.displayName))
    .slice(0, max)
    .map((x) => x.p);
}
