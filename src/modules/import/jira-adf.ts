// Atlassian Document Format (Jira Cloud's descriptions and comments) to
// Markdown. No maintained converter is published on npm (the ones there are
// unmaintained or ship odd runtime dependencies), so this walks the tree by
// ADF's published schema: block nodes become Markdown blocks, marks wrap their
// text, and a node this does not know keeps its text rather than failing. Any
// JSON goes in (a source's answer is not trusted): what is not a node is skipped.

interface Node {
  type?: unknown;
  text?: unknown;
  attrs?: Record<string, unknown>;
  marks?: { type?: unknown; attrs?: Record<string, unknown> }[];
  content?: unknown;
}

const isNode = (x: unknown): x is Node => typeof x === 'object' && x !== null && !Array.isArray(x);
const str = (x: unknown) => (typeof x === 'string' ? x : typeof x === 'number' ? String(x) : '');
const childrenOf = (n: Node): Node[] => (Array.isArray(n.content) ? n.content.filter(isNode) : []);

/** Deep enough for any real document; a deeper (hostile) one is cut rather than overflowing the stack. */
const MAX_DEPTH = 60;

/** Markdown of an ADF document (or of null, a string, anything else: '' or the string itself). */
export function adfToMarkdown(doc: unknown): string {
  if (typeof doc === 'string') return doc;
  if (!isNode(doc)) return '';
  return blocks(childrenOf(doc).length || doc.type === 'doc' ? childrenOf(doc) : [doc], 0)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function blocks(nodes: Node[], depth: number): string {
  return nodes
    .map((n) => block(n, depth))
    .filter((b) => b !== '')
    .join('\n\n');
}

function block(n: Node, depth: number): string {
  if (depth > MAX_DEPTH) return '';
  const kids = childrenOf(n);
  const a = n.attrs ?? {};
  switch (n.type) {
    case 'paragraph':
      return inline(kids, depth);
    case 'heading': {
      const level = Math.min(6, Math.max(1, Number(a.level) || 1));
      return `${'#'.repeat(level)} ${inline(kids, depth)}`;
    }
    case 'bulletList':
    case 'orderedList':
    case 'taskList':
    case 'decisionList':
      return list(n, depth);
    case 'codeBlock': {
      const code = kids.map((k) => str(k.text)).join('');
      const fence = code.includes('```') ? '~~~~' : '```';
      return `${fence}${str(a.language)}\n${code}\n${fence}`;
    }
    case 'blockquote':
      return quote(blocks(kids, depth + 1));
    case 'panel': {
      const kind = str(a.panelType);
      const body = blocks(kids, depth + 1);
      return quote(kind ? `**${kind[0]!.toUpperCase()}${kind.slice(1)}:** ${body}` : body);
    }
    case 'rule':
      return '---';
    case 'expand':
    case 'nestedExpand': {
      const title = str(a.title);
      const body = blocks(kids, depth + 1);
      return title ? `**${title}**\n\n${body}` : body;
    }
    case 'table':
      return table(kids, depth);
    case 'mediaSingle':
    case 'mediaGroup':
      return kids.map((k) => media(k)).join('\n');
    case 'media':
      return media(n);
    case 'blockCard':
    case 'embedCard':
      return str(a.url) ? `<${str(a.url)}>` : '';
    case 'text':
    case 'hardBreak':
    case 'mention':
    case 'emoji':
    case 'inlineCard':
    case 'status':
    case 'date':
      return inline([n], depth);
    default:
      // An extension, a layout, a node newer than this: what it holds, as blocks or text.
      if (kids.some((k) => k.type === 'text')) return inline(kids, depth);
      return blocks(kids, depth + 1);
  }
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((l) => (l ? `> ${l}` : '>'))
    .join('\n');
}

function list(n: Node, depth: number): string {
  const start = Number(n.attrs?.order) || 1;
  return childrenOf(n)
    .map((item, i) => {
      const marker =
        n.type === 'orderedList'
          ? `${start + i}.`
          : n.type === 'taskList'
            ? item.attrs?.state === 'DONE'
              ? '- [x]'
              : '- [ ]'
            : '-';
      // A task or decision item holds inline content directly; a list item holds blocks.
      const kids = childrenOf(item);
      const body =
        item.type === 'taskItem' || item.type === 'decisionItem'
          ? inline(kids, depth + 1)
          : blocks(kids, depth + 1);
      const pad = ' '.repeat(marker.length + 1);
      return `${marker} ${body.split('\n').join(`\n${pad}`)}`.replace(/\n\s+\n/g, '\n\n');
    })
    .join('\n');
}

function table(rows: Node[], depth: number): string {
  const cells = rows.map((r) =>
    childrenOf(r).map((c) =>
      blocks(childrenOf(c), depth + 1)
        .replace(/\n+/g, ' ')
        .replace(/\|/g, '\\|'),
    ),
  );
  const width = Math.max(0, ...cells.map((r) => r.length));
  if (width === 0) return '';
  const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => r[i] ?? '').join(' | ')} |`;
  const [head, ...body] = cells;
  return [line(head!), line(Array(width).fill('---')), ...body.map(line)].join('\n');
}

function media(n: Node): string {
  const a = n.attrs ?? {};
  const name = str(a.alt) || str(a.id) || 'attachment';
  return str(a.url) ? `![${name}](${str(a.url)})` : `*(attachment: ${name})*`;
}

function inline(nodes: Node[], depth: number): string {
  return nodes.map((n) => inlineOne(n, depth)).join('');
}

function inlineOne(n: Node, depth: number): string {
  if (depth > MAX_DEPTH) return '';
  const a = n.attrs ?? {};
  switch (n.type) {
    case 'text':
      return withMarks(str(n.text), n.marks);
    case 'hardBreak':
      return '  \n';
    case 'mention':
      // The text is "@Name" as Jira shows it; the account id means nothing here.
      return str(a.text) || '@someone';
    case 'emoji':
      return str(a.text) || str(a.shortName);
    case 'inlineCard':
      return str(a.url) ? `<${str(a.url)}>` : '';
    case 'status':
      return `\`${str(a.text)}\``;
    case 'date': {
      const ms = Number(a.timestamp);
      return Number.isFinite(ms) && Math.abs(ms) < 8.64e15 ? new Date(ms).toISOString().slice(0, 10) : '';
    }
    default:
      return childrenOf(n).length ? inline(childrenOf(n), depth + 1) : str(n.text);
  }
}

function withMarks(text: string, marks: Node['marks']): string {
  if (!text.trim() || !Array.isArray(marks)) return text;
  let out = text;
  if (marks.some((m) => isNode(m) && m.type === 'code')) {
    const tick = text.includes('`') ? '``' : '`';
    out = `${tick}${out}${tick}`;
  }
  for (const m of marks) {
    if (!isNode(m)) continue;
    // Emphasis wraps the text without its edge spaces, which Markdown would not read as emphasis.
    const wrap = (w: string) => out.replace(/^(\s*)([\s\S]*?)(\s*)$/, `$1${w}$2${w}$3`);
    if (m.type === 'strong') out = wrap('**');
    else if (m.type === 'em') out = wrap('_');
    else if (m.type === 'strike') out = wrap('~~');
    else if (m.type === 'link' && str(m.attrs?.href)) out = `[${out}](${str(m.attrs?.href)})`;
  }
  return out;
}
