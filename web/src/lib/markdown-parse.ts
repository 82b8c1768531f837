// The Markdown subset of markdown.tsx, parsed to a small tree in time linear
// in the text's length (issue 24, finding 7: a table rule and the inline
// rules were regular expressions that backtrack, and a crafted description of
// 200,000 characters froze the page for 16 s). No regular expression here
// runs over more than one line, and none of those can backtrack more than a
// bounded amount; inline syntax is scanned by hand, each closing delimiter
// found through a forward-only cursor, so every character is looked at a
// bounded number of times. `work.steps` counts what the scanner does, so
// tests can check the bound without timing anything.
import { MENTION_NAME } from './mention.js';

export type Inline =
  | string
  | { kind: 'code'; text: string }
  | { kind: 'image'; src: string; alt: string }
  | { kind: 'link'; href: string; text: string; children: Inline[] }
  | { kind: 'strong' | 'em' | 'del'; children: Inline[] }
  | { kind: 'url'; href: string }
  /** `ENG-12`: a link when the team is known (the renderer decides). */
  | { kind: 'issue'; ref: string; teamKey: string }
  /** `@name`: a link when the person is known (the renderer decides). */
  | { kind: 'mention'; raw: string; name: string };

export type Block =
  | { kind: 'code'; text: string }
  | { kind: 'heading'; level: 1 | 2 | 3; content: Inline[] }
  | { kind: 'rule' }
  | { kind: 'quote'; content: Inline[] }
  | { kind: 'list'; ordered: boolean; items: ListItem[] }
  | {
      kind: 'table';
      align: ('center' | 'right' | undefined)[];
      head: Inline[][];
      rows: Inline[][][];
    }
  | { kind: 'paragraph'; lines: Inline[][] };

/** A list line; `line` is its index in the source (0-based), which a ticked task rewrites. */
export interface ListItem {
  task: boolean | null;
  content: Inline[];
  line: number;
}

/** What the parser did: one step per character looked at (tests bound it). */
export interface Work {
  steps: number;
}

export function safeHref(url: string): string | null {
  const u = url.trim();
  if (/^(https?:|mailto:)/i.test(u)) return u;
  if (/^\/(?!\/)/.test(u)) return u; // same-origin path such as an uploaded asset
  return null;
}

export const safeImage = (url: string) => {
  const u = url.trim();
  return /^https?:/i.test(u) || /^\/(?!\/)/.test(u) ? u : null;
};

// ---------------------------------------------------------------- blocks

const FENCE = /^```/;
const HEADING = /^(#{1,3})\s+(.*)$/;
const RULE = /^(-{3,}|\*{3,})\s*$/;
const QUOTE = /^>\s?/;
const LIST_ITEM = /^\s*([-*+]|\d+[.)])\s+/;
const TASK = /^\[( |x)\]\s+(.*)$/i;
const STARTS_BLOCK = /^(```|#{1,3}\s|>|\s*([-*+]|\d+[.)])\s)/;
const TABLE_CELL_RULE = /^:?-{3,}:?$/;

/** `| a | b |` into its cells (outer pipes optional, `\|` is a literal pipe); one pass. */
export function tableCells(line: string, work: Work = { steps: 0 }): string[] {
  let text = line.trim();
  work.steps += line.length;
  if (text.startsWith('|')) text = text.slice(1);
  if (text.endsWith('|') && !text.endsWith('\\|')) text = text.slice(0, -1);
  const cells: string[] = [];
  let cell = '';
  for (let i = 0; i < text.length; i++) {
    work.steps++;
    const c = text[i]!;
    if (c === '\\' && text[i + 1] === '|') {
      cell += '|';
      i++;
    } else if (c === '|') {
      cells.push(cell.trim());
      cell = '';
    } else cell += c;
  }
  cells.push(cell.trim());
  return cells;
}

/** The line under a table's head: cells of three or more dashes, each maybe with colons. */
function isTableRule(line: string, work: Work): boolean {
  if (!line.includes('-')) return false;
  return tableCells(line, work).every((c) => TABLE_CELL_RULE.test(c));
}

/** `source` with the task on `line` (a list item's `line`) ticked or not; anything else unchanged. */
export function setTask(source: string, line: number, done: boolean): string {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const text = lines[line];
  if (text === undefined) return source;
  lines[line] = text.replace(/^(\s*(?:[-*+]|\d+[.)])\s+)\[[ xX]\]/, `$1[${done ? 'x' : ' '}]`);
  return lines.join('\n');
}

export function parseMarkdown(source: string, work: Work = { steps: 0 }): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  work.steps += source.length;
  const at = (n: number) => {
    const line = lines[n] ?? '';
    work.steps += line.length;
    return line;
  };
  const inl = (text: string) => parseInline(text, work);
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = at(i);
    if (FENCE.test(line)) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !FENCE.test(at(i))) body.push(lines[i++] ?? '');
      i++;
      blocks.push({ kind: 'code', text: body.join('\n') });
      continue;
    }
    const h = HEADING.exec(line);
    if (h) {
      blocks.push({ kind: 'heading', level: (h[1] ?? '#').length as 1 | 2 | 3, content: inl(h[2] ?? '') });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ kind: 'rule' });
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const body: string[] = [];
      while (i < lines.length && QUOTE.test(at(i))) body.push((lines[i++] ?? '').replace(QUOTE, ''));
      blocks.push({ kind: 'quote', content: inl(body.join(' ')) });
      continue;
    }
    if (LIST_ITEM.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const items: ListItem[] = [];
      while (i < lines.length && LIST_ITEM.test(at(i))) {
        const line = i;
        const text = (lines[i++] ?? '').replace(LIST_ITEM, '');
        const task = TASK.exec(text);
        items.push(
          task
            ? { task: task[1] !== ' ', content: inl(task[2] ?? ''), line }
            : { task: null, content: inl(text), line },
        );
      }
      blocks.push({ kind: 'list', ordered, items });
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && isTableRule(at(i + 1), work)) {
      const head = tableCells(line, work);
      const align = tableCells(lines[i + 1] ?? '', work).map((c) =>
        c.startsWith(':') && c.endsWith(':')
          ? ('center' as const)
          : c.endsWith(':')
            ? ('right' as const)
            : undefined,
      );
      i += 2;
      const rows: Inline[][][] = [];
      while (i < lines.length && at(i).includes('|') && (lines[i] ?? '').trim() !== '') {
        const cells = tableCells(lines[i++] ?? '', work);
        rows.push(head.map((_, n) => inl(cells[n] ?? '')));
      }
      blocks.push({ kind: 'table', align, head: head.map(inl), rows });
      continue;
    }
    if (line.trim() === '') {
      i++;
      continue;
    }
    const para: Inline[][] = [inl(line)];
    i++;
    while (i < lines.length && at(i).trim() !== '' && !STARTS_BLOCK.test(lines[i] ?? ''))
      para.push(inl(lines[i++] ?? ''));
    blocks.push({ kind: 'paragraph', lines: para });
  }
  return blocks;
}

// ---------------------------------------------------------------- inline

const WORD = /[A-Za-z0-9_]/;
const UPPER = /[A-Z]/;
const UPPER_OR_DIGIT = /[A-Z0-9]/;
const DIGIT = /[0-9]/;
const SPACE = /\s/;
const NAME_CHAR = new RegExp(`^${MENTION_NAME.replace(/\]\*.*$/, ']')}$`, 'u');
const NAME_END = /^[\p{L}\p{N}]$/u;
const URL_TAIL_EXCLUDED = '.,;:!?)';

/**
 * The next index of `char` at or after `from`, through a cursor that only
 * moves forward: callers ask with growing `from` (or a `from` before the last
 * answer, which is still right), so each character is passed once per cursor.
 */
class NextIndex {
  private found = -1;
  constructor(
    private readonly text: string,
    private readonly char: string,
    private readonly work: Work,
  ) {}
  from(from: number): number {
    if (this.found === Number.POSITIVE_INFINITY) return -1;
    if (this.found !== -1 && this.found >= from) return this.found;
    const start = Math.max(from, this.found + 1);
    const at = this.text.indexOf(this.char, start);
    this.work.steps += (at === -1 ? this.text.length : at) - start + 1;
    this.found = at === -1 ? Number.POSITIVE_INFINITY : at;
    return at;
  }
}

/**
 * The end (exclusive) of a link target starting at `from`, before its `)`:
 * characters other than parentheses and blanks, and balanced `(...)` groups
 * without nesting. -1 when there is none. Stops at the first character that
 * cannot belong, so a failed attempt scans only up to there.
 */
function linkTargetEnd(text: string, from: number, work: Work): number {
  let i = from;
  while (i < text.length) {
    work.steps++;
    const c = text[i]!;
    if (c === ')') return i > from ? i : -1;
    if (SPACE.test(c)) return -1;
    if (c === '(') {
      let j = i + 1;
      while (j < text.length && text[j] !== '(' && text[j] !== ')' && !SPACE.test(text[j]!)) {
        work.steps++;
        j++;
      }
      if (text[j] !== ')') return -1;
      i = j + 1;
      continue;
    }
    i++;
  }
  return -1;
}

const ESCAPABLE = /^[!-/:-@[-`{-~]$/;
const CHAR_REF = /^&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|(lt|gt|quot|amp|apos|nbsp));/;
const NAMED_REFS: Record<string, string> = {
  lt: '<',
  gt: '>',
  quot: '"',
  amp: '&',
  apos: "'",
  nbsp: '\u00a0',
};

function characterReference(ref: RegExpExecArray): string {
  const code = ref[1] ? Number(ref[1]) : ref[2] ? Number.parseInt(ref[2], 16) : null;
  if (code === null) return NAMED_REFS[ref[3] ?? ''] ?? ref[0];
  // Zero, surrogates and beyond Unicode read as the replacement character, as CommonMark says.
  return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)
    ? '\ufffd'
    : String.fromCodePoint(code);
}

/** Inline syntax: code, images, links, bold, italic, strikethrough, bare URLs, issue references, mentions. */
export function parseInline(text: string, work: Work = { steps: 0 }, insideLink = false): Inline[] {
  const out: Inline[] = [];
  const next = {
    tick: new NextIndex(text, '`', work),
    close: new NextIndex(text, ']', work),
    star: new NextIndex(text, '*', work),
    under: new NextIndex(text, '_', work),
    tilde: new NextIndex(text, '~', work),
  };
  let plainFrom = 0;
  const emit = (start: number, node: Inline) => {
    if (start > plainFrom) out.push(text.slice(plainFrom, start));
    out.push(node);
  };

  /** `open` + content without `c` + the same delimiter: the content's end, or -1. */
  const delimited = (i: number, c: string, double: boolean, cursor: NextIndex): number => {
    const first = i + (double ? 2 : 1);
    const end = cursor.from(first);
    if (end === -1 || end === first) return -1;
    if (double && text[end + 1] !== c) return -1;
    return end;
  };

  let i = 0;
  while (i < text.length) {
    work.steps++;
    const c = text[i]!;
    const consumed = ((): number => {
      // CommonMark's escapes and character references, as the editor writes them (`\_`, `&lt;`).
      if (c === '\\' && ESCAPABLE.test(text[i + 1] ?? '')) {
        emit(i, text[i + 1]!);
        return i + 2;
      }
      if (c === '&') {
        const ref = CHAR_REF.exec(text.slice(i, i + 12));
        if (ref) {
          emit(i, characterReference(ref));
          return i + ref[0].length;
        }
        return 0;
      }
      if (c === '`') {
        const end = next.tick.from(i + 1);
        if (end > i + 1) {
          emit(i, { kind: 'code', text: text.slice(i + 1, end) });
          return end + 1;
        }
        return 0;
      }
      if (c === '!' && text[i + 1] === '[') {
        const close = next.close.from(i + 2);
        if (close !== -1 && text[close + 1] === '(') {
          const end = linkTargetEnd(text, close + 2, work);
          if (end !== -1) {
            const raw = text.slice(i, end + 1);
            const src = safeImage(text.slice(close + 2, end));
            emit(i, src ? { kind: 'image', src, alt: text.slice(i + 2, close) } : raw);
            return end + 1;
          }
        }
      }
      if (c === '[') {
        const close = next.close.from(i + 1);
        if (close > i + 1 && text[close + 1] === '(') {
          const end = linkTargetEnd(text, close + 2, work);
          if (end !== -1) {
            const label = text.slice(i + 1, close);
            const href = safeHref(text.slice(close + 2, end));
            emit(
              i,
              href ? { kind: 'link', href, text: label, children: parseInline(label, work, true) } : label,
            );
            return end + 1;
          }
        }
        return 0;
      }
      if (c === '*' || c === '_') {
        const cursor = c === '*' ? next.star : next.under;
        if (text[i + 1] === c) {
          const end = delimited(i, c, true, cursor);
          if (end !== -1) {
            emit(i, { kind: 'strong', children: parseInline(text.slice(i + 2, end), work, insideLink) });
            return end + 2;
          }
        }
        const after = text[i + 1];
        if (after !== undefined && after !== c && !SPACE.test(after)) {
          const end = delimited(i, c, false, cursor);
          if (end !== -1) {
            emit(i, { kind: 'em', children: parseInline(text.slice(i + 1, end), work, insideLink) });
            return end + 1;
          }
        }
        return 0;
      }
      if (c === '~' && text[i + 1] === '~') {
        const end = delimited(i, c, true, next.tilde);
        if (end !== -1) {
          emit(i, { kind: 'del', children: parseInline(text.slice(i + 2, end), work, insideLink) });
          return end + 2;
        }
        return 0;
      }
      if (insideLink) return 0;
      if (c === 'h' && (text.startsWith('http://', i) || text.startsWith('https://', i))) {
        const start = i + (text[i + 4] === 's' ? 8 : 7);
        let end = start;
        while (end < text.length && text[end] !== '<' && !SPACE.test(text[end]!)) {
          work.steps++;
          end++;
        }
        // The last character may not be closing punctuation; at least two after the scheme.
        while (end > start && URL_TAIL_EXCLUDED.includes(text[end - 1]!)) {
          work.steps++;
          end--;
        }
        if (end - start >= 2) {
          emit(i, { kind: 'url', href: text.slice(i, end) });
          return end;
        }
        return 0;
      }
      if (UPPER.test(c) && (i === 0 || !WORD.test(text[i - 1]!))) return issueRef(i);
      if (c === '@' && (i === 0 || !/[\w@]/.test(text[i - 1]!))) {
        // By code points (names may have letters outside the BMP); the name ends on its last letter or digit.
        let end = i + 1;
        let nameEnd = -1;
        while (end < text.length) {
          work.steps++;
          const char = String.fromCodePoint(text.codePointAt(end)!);
          if (!NAME_CHAR.test(char)) break;
          end += char.length;
          if (NAME_END.test(char)) nameEnd = end;
        }
        if (nameEnd !== -1) {
          const raw = text.slice(i, nameEnd);
          emit(i, { kind: 'mention', raw, name: raw.slice(1) });
          return nameEnd;
        }
      }
      return 0;
    })();
    if (consumed > 0) {
      i = consumed;
      plainFrom = consumed;
    } else i++;
  }
  if (plainFrom < text.length) out.push(text.slice(plainFrom));
  return out;

  /** `ENG-12` at `i`: a team key (a capital, up to 9 capitals or digits), `-`, a number; at word boundaries. */
  function issueRef(i: number): number {
    let j = i + 1;
    while (j < text.length && j - i < 10 && UPPER_OR_DIGIT.test(text[j]!)) j++;
    if (text[j] !== '-' || !/[1-9]/.test(text[j + 1] ?? '')) return 0;
    let k = j + 2;
    while (k < text.length && k - j - 1 < 9 && DIGIT.test(text[k]!)) k++;
    work.steps += k - i;
    if (k < text.length && WORD.test(text[k]!)) return 0;
    emit(i, { kind: 'issue', ref: text.slice(i, k), teamKey: text.slice(i, j) });
    return k;
  }
}
