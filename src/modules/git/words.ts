// Which issues a pull request names, and how (docs/git.md "Magic words").
// An identifier (team key + number, e.g. ENG-123 or eng-123 in a branch name)
// anywhere in the branch name, title, description or a commit message links
// the issue. Preceded by a reference word it only links ('ref'); otherwise
// (bare, or after a closing word) the pull request drives the issue through
// the automation and its merge completes it ('closes'). When one issue is
// named both ways, the closing way wins. Import-free, so unit tests and the
// UI can share it.

export type LinkKind = 'closes' | 'ref';

const CLOSING = [
  'close',
  'closes',
  'closed',
  'closing',
  'fix',
  'fixes',
  'fixed',
  'fixing',
  'resolve',
  'resolves',
  'resolved',
  'resolving',
  'complete',
  'completes',
  'completed',
  'completing',
  'implement',
  'implements',
  'implemented',
  'implementing',
] as const;
const REFERENCE = [
  'ref',
  'refs',
  'references',
  'part of',
  'related to',
  'contributes to',
  'toward',
  'towards',
] as const;

export const CLOSING_WORDS: readonly string[] = CLOSING;
export const REFERENCE_WORDS: readonly string[] = REFERENCE;

/** More identifiers than this in one pull request are not looked at (a bounded cost per delivery). */
export const MAX_REFERENCES = 50;
/** Texts are read up to this many characters each. */
const MAX_TEXT = 64 * 1024;

// An identifier as issues/queries.ts parses one: a letter and up to 6 more
// letters or digits, a dash, a number; not inside a longer word (an underscore
// separates, as in branch names).
const ID = String.raw`[A-Za-z][A-Za-z0-9]{0,6}-\d{1,9}`;
const IDENT = new RegExp(String.raw`(?<![A-Za-z0-9])(${ID})(?![A-Za-z0-9]|-\d)`, 'g');
// A run of identifiers after a word: "Fixes ENG-1, ENG-2 and ENG-3".
const LIST = String.raw`(?:#|\b)?${ID}(?:\s*(?:,|and|&)?\s*${ID})*`;
const wordsRe = (words: readonly string[]) =>
  new RegExp(
    String.raw`(?<![A-Za-z])(${words.map((w) => w.replace(' ', String.raw`\s+`)).join('|')})\s*:?\s+(${LIST})`,
    'gi',
  );
const REFERENCE_RE = wordsRe(REFERENCE);

const normal = (id: string) => {
  const dash = id.lastIndexOf('-');
  return `${id.slice(0, dash).toUpperCase()}-${Number(id.slice(dash + 1))}`;
};

function identifiersIn(text: string): string[] {
  return [...text.matchAll(IDENT)].map((m) => normal(m[1]!));
}

/**
 * The issues `texts` name, identifier (upper-cased key) -> how. Branch names
 * may use any case and separators ("eng-123-fix-login", "feature/ENG-123").
 */
export function findReferences(texts: readonly (string | null | undefined)[]): Map<string, LinkKind> {
  const found = new Map<string, LinkKind>();
  for (const raw of texts) {
    if (!raw) continue;
    const text = raw.slice(0, MAX_TEXT);
    const refOnly = new Set<string>();
    for (const m of text.matchAll(REFERENCE_RE)) for (const id of identifiersIn(m[2]!)) refOnly.add(id);
    for (const id of identifiersIn(text)) {
      const kind: LinkKind = refOnly.has(id) ? 'ref' : 'closes';
      if (found.get(id) !== 'closes') {
        if (!found.has(id) && found.size >= MAX_REFERENCES) continue;
        found.set(id, kind);
      }
    }
  }
  return found;
}
