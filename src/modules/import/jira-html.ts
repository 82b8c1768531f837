// Jira's rendered HTML (the description and comments of its XML export) to
// Markdown. The project has no HTML-to-Markdown converter, so this is a walk of
// the elements Jira's renderer writes, as jira-adf.ts walks ADF: the fragment is
// parsed by fast-xml-parser in HTML mode (entities, void elements), and what it
// cannot parse falls back to its text. Mentions (`class="user-hover"`) become
// `@Name`, code panels fenced blocks, quotes `>` blocks, tables pipe tables.
import { XMLParser } from 'fast-xml-parser';

type Node = { [tag: string]: Node[] } & { ':@'?: Record<string, string>; '#text'?: string };

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  htmlEntities: true,
  processEntities: true,
  trimValues: false,
  unpairedTags: ['br', 'hr', 'img', 'input', 'col', 'wbr'],
});

const tagOf = (n: Node) => Object.keys(n).find((k) => k !== ':@');
const attrs = (n: Node) => n[':@'] ?? {};
const kids = (n: Node): Node[] => {
  const t = tagOf(n);
  return t && t !== '#text' ? (n[t] ?? []) : [];
};

function textOf(nodes: Node[]): string {
  return nodes.map((n) => (tagOf(n) === '#text' ? String(n['#text'] ?? '') : textOf(kids(n)))).join('');
}

/** Inline content: runs of text and marks, whitespace folded as HTML folds it. */
function inline(nodes: Node[]): string {
  let out = '';
  for (const n of nodes) {
    const tag = tagOf(n)?.toLowerCase();
    if (tag === '#text') {
      out += String(n['#text'] ?? '').replace(/\s+/g, ' ');
      continue;
    }
    const a = attrs(n);
    const inner = () => inline(kids(n));
    const wrap = (mark: string) => {
      const s = inner();
      return s.trim() ? `${mark}${s.trim()}${mark}` : s;
    };
    switch (tag) {
      case 'b':
      case 'strong':
        out += wrap('**');
        break;
      case 'i':
      case 'em':
      case 'cite':
        out += wrap('*');
        break;
      case 'del':
      case 's':
        out += wrap('~~');
        break;
      case 'tt':
      case 'code':
        out += `\`${textOf(kids(n)).replace(/`/g, "'")}\``;
        break;
      case 'br':
        out += '\n';
        break;
      case 'img':
        out += a.src ? `![${a.alt ?? ''}](${a.src})` : '';
        break;
      case 'a': {
        const label = inner().trim();
        if (/\buser-hover\b/.test(a.class ?? '')) out += `@${label || a.rel || 'someone'}`;
        else if (a.href && !a.href.startsWith('#')) out += `[${label || a.href}](${a.href})`;
        else out += label;
        break;
      }
      default:
        // A block inside inline content (a div in a table cell): its text, on one line.
        out += isBlock(tag) ? ` ${blocks(kids(n)).replace(/\n+/g, ' ')} ` : inner();
    }
  }
  return out;
}

const BLOCKS = new Set([
  'p',
  'div',
  'pre',
  'ul',
  'ol',
  'li',
  'blockquote',
  'table',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'panel',
]);
const isBlock = (tag: string | undefined) => !!tag && BLOCKS.has(tag);

function list(n: Node, ordered: boolean, depth: number): string {
  const items = kids(n).filter((k) => tagOf(k)?.toLowerCase() === 'li');
  return items
    .map((li, i) => {
      const marker = ordered ? `${i + 1}.` : '-';
      const pad = '  '.repeat(depth);
      const nested = kids(li).filter((k) => ['ul', 'ol'].includes(tagOf(k)?.toLowerCase() ?? ''));
      const own = kids(li).filter((k) => !nested.includes(k));
      const text = blocks(own).replace(/\n+/g, ' ').trim();
      const sub = nested.map((s) => list(s, tagOf(s)?.toLowerCase() === 'ol', depth + 1)).join('\n');
      return `${pad}${marker} ${text}${sub ? `\n${sub}` : ''}`;
    })
    .join('\n');
}

function table(n: Node): string {
  const rows: string[][] = [];
  const walk = (nodes: Node[]) => {
    for (const k of nodes) {
      const t = tagOf(k)?.toLowerCase();
      if (t === 'tr')
        rows.push(
          kids(k)
            .filter((c) => ['td', 'th'].includes(tagOf(c)?.toLowerCase() ?? ''))
            .map((c) => inline(kids(c)).trim().replace(/\|/g, '\\|').replace(/\n/g, ' ')),
        );
      else if (t && t !== '#text') walk(kids(k));
    }
  };
  walk(kids(n));
  if (rows.length === 0) return '';
  const width = Math.max(...rows.map((r) => r.length));
  const line = (r: string[]) => `| ${[...r, ...Array(width - r.length).fill('')].join(' | ')} |`;
  return [line(rows[0]!), line(Array(width).fill('---')), ...rows.slice(1).map(line)].join('\n');
}

/** Block content: paragraphs and blocks separated by blank lines. */
function blocks(nodes: Node[]): string {
  const out: string[] = [];
  let run: Node[] = [];
  const flush = () => {
    const s = inline(run)
      .replace(/ *\n */g, '\n')
      .trim();
    if (s) out.push(s);
    run = [];
  };
  for (const n of nodes) {
    const tag = tagOf(n)?.toLowerCase();
    if (!isBlock(tag)) {
      run.push(n);
      continue;
    }
    flush();
    const a = attrs(n);
    switch (tag) {
      case 'pre': {
        const lang = /code-(\w+)/.exec(a.class ?? '')?.[1];
        const code = textOf(kids(n)).replace(/\n+$/, '');
        out.push(`\`\`\`${lang && lang !== 'none' ? lang : ''}\n${code}\n\`\`\``);
        break;
      }
      case 'ul':
      case 'ol':
        out.push(list(n, tag === 'ol', 0));
        break;
      case 'blockquote':
        out.push(
          blocks(kids(n))
            .split('\n')
            .map((l) => (l ? `> ${l}` : '>'))
            .join('\n'),
        );
        break;
      case 'table':
        out.push(table(n));
        break;
      case 'hr':
        out.push('---');
        break;
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6':
        out.push(`${'#'.repeat(Number(tag[1]))} ${inline(kids(n)).trim()}`);
        break;
      default: {
        // p, div, li outside a list: their content as blocks of their own.
        const s = blocks(kids(n));
        if (s) out.push(s);
      }
    }
  }
  flush();
  return out.filter(Boolean).join('\n\n');
}

export function htmlToMarkdown(html: string | null | undefined): string {
  if (!html?.trim()) return '';
  try {
    return blocks(kids((parser.parse(`<root>${html}</root>`) as Node[])[0]!)).trim();
  } catch {
    // Not well-formed enough to parse: its text, tags dropped, is still the content.
    return html
      .replace(/<br\s*\/?>/gi, '\n')
      .replace(/<\/p>/gi, '\n\n')
      .replace(/<[^>]*>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&')
      .trim();
  }
}
