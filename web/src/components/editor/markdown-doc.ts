// Markdown in and out of the editor's documents through Tiptap's Markdown
// bridge (@tiptap/markdown, on marked), plus the one thing it does not know:
// `@name` mentions, read with the shared rule of lib/mention.ts.
import type { JSONContent } from '@tiptap/core';
import type { MarkdownManager } from '@tiptap/markdown';
import { MENTION } from '../../lib/mention.js';

const MENTION_GLOBAL = new RegExp(MENTION, 'gu');

/** Text nodes (outside code) split so that each `@name` becomes a mention chip. */
export function withMentions(node: JSONContent): JSONContent {
  if (!node.content) return node;
  if (node.type === 'codeBlock') return node;
  const content: JSONContent[] = [];
  for (const child of node.content) {
    const inCode = child.marks?.some((m) => m.type === 'code');
    if (child.type !== 'text' || !child.text || inCode) {
      content.push(withMentions(child));
      continue;
    }
    const text = child.text;
    let from = 0;
    for (const m of text.matchAll(MENTION_GLOBAL)) {
      const at = m.index ?? 0;
      if (at > from) content.push({ ...child, text: text.slice(from, at) });
      content.push({
        type: 'mention',
        attrs: { label: m[1] },
        ...(child.marks ? { marks: child.marks } : {}),
      });
      from = at + m[0].length;
    }
    if (from < text.length) content.push(from === 0 ? child : { ...child, text: text.slice(from) });
  }
  return { ...node, content };
}

const INLINE = new Set(['text', 'image', 'mention', 'hardBreak']);
const HOLDS_BLOCKS = new Set(['doc', 'blockquote', 'listItem', 'taskItem']);

/**
 * Inline nodes where blocks belong wrapped in a paragraph: the bridge lifts an
 * image alone on its line out of its paragraph, and our images are inline.
 * An empty document or container gets one empty paragraph.
 */
function wrapInline(node: JSONContent): JSONContent {
  const children = (node.content ?? []).map(wrapInline);
  if (!HOLDS_BLOCKS.has(node.type ?? '')) return node.content ? { ...node, content: children } : node;
  const content: JSONContent[] = [];
  for (const child of children) {
    if (!INLINE.has(child.type ?? '')) content.push(child);
    else {
      const last = content.at(-1);
      if (last?.type === 'paragraph' && last.attrs?.['wrapped']) last.content?.push(child);
      else content.push({ type: 'paragraph', attrs: { wrapped: true }, content: [child] });
    }
  }
  for (const c of content) if (c.attrs?.['wrapped']) delete c.attrs;
  // `>` or `1.` alone: a container with nothing in it, which the schema does not allow.
  if (content.length === 0) content.push({ type: 'paragraph' });
  return { ...node, content };
}

export function markdownToDoc(manager: MarkdownManager, markdown: string): JSONContent {
  return wrapInline(withMentions(manager.parse(markdown)));
}

/** The stored form: trailing line breaks trimmed (an empty editor is ''). */
export function docToMarkdown(manager: MarkdownManager, doc: JSONContent): string {
  return manager.serialize(doc).replace(/\n+$/, '');
}
