// What the editor's documents are made of, and nothing that needs a page: the
// same list builds the editor in the browser and the Markdown round-trip test
// in Node (markdown-doc.unit.test.ts). Every node and mark here has a Markdown
// form the read-only renderer (lib/markdown-parse.ts) and the API's clients
// read; constructs outside that set (underline, tables, heading 4–6) are left
// out so the editor cannot write what nobody shows.
import { type AnyExtension, mergeAttributes, Node } from '@tiptap/core';
import Image from '@tiptap/extension-image';
import Link from '@tiptap/extension-link';
import { TaskItem, TaskList } from '@tiptap/extension-list';
import Paragraph from '@tiptap/extension-paragraph';
import StarterKit from '@tiptap/starter-kit';

/** Characters the Markdown writer escapes in text: a bare address with one would not read back. */
const ESCAPED = /[\\`*_[\]~&<>\s]/;

/**
 * A link whose text is its address is written bare (`https://x.y`, `a@b.c`), as
 * people type it and as GFM reads it back, not as `[https://x.y](https://x.y)`.
 */
const BareLink = Link.extend({
  renderMarkdown: (node, h, context) => {
    const href: string = node.attrs?.['href'] ?? '';
    const title: string = node.attrs?.['title'] ?? '';
    const text = h.renderChildren(node);
    // Marks are written as an opening and a closing around the text; `markText` is that text.
    const plain: string | undefined = context?.meta?.['markText'];
    const bare =
      plain !== undefined && (plain === href || `mailto:${plain}` === href) && !ESCAPED.test(plain);
    if (!title && bare) return text;
    return title ? `[${text}](${href} "${title}")` : `[${text}](${href})`;
  },
});

/** Lines that Markdown would read as the start of a block: a list, a quote, a heading, a rule. */
const MARK_START = /^( {0,3})([-+>#=])(?=[\s#=-]|$)/gm;
const NUMBER_START = /^( {0,3})(\d{1,9})(?=[.)](?:\s|$))/gm;

/**
 * A paragraph whose text begins like a block (`- not a list`, `1. not a list`,
 * `# not a heading`) keeps being text: the bridge escapes inline syntax only,
 * so the first character is escaped here (`\-`, `1\.`).
 */
const PlainParagraph = Paragraph.extend({
  renderMarkdown(node, h, context) {
    const text: string = this.parent?.(node, h, context) ?? '';
    return text.replace(MARK_START, '$1\\$2').replace(NUMBER_START, '$1$2\\');
  },
});

/**
 * `@displayName` as one piece (a chip). Stored as the plain `@name` the server's
 * mention parser reads (lib/mention.ts), never escaped: a text `@jo_ann` would
 * be written `@jo\_ann`, which the parser reads as `@jo`.
 */
export const PersonMention = Node.create({
  name: 'mention',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: false,
  addAttributes() {
    return {
      label: {
        default: '',
        parseHTML: (el) => el.getAttribute('data-label') ?? '',
        renderHTML: (attrs) => ({ 'data-label': attrs['label'] }),
      },
    };
  },
  parseHTML: () => [{ tag: 'span[data-type="mention"]' }],
  renderHTML({ node, HTMLAttributes }) {
    return [
      'span',
      mergeAttributes({ 'data-type': 'mention', class: 'mention' }, HTMLAttributes),
      `@${node.attrs['label']}`,
    ];
  },
  renderText: ({ node }) => `@${node.attrs['label']}`,
  renderMarkdown: (node) => `@${node.attrs?.['label'] ?? ''}`,
});

/**
 * The extensions that define the document (the browser adds behaviour on top:
 * keys, menus, uploads); `image` lets the browser show this server's images.
 */
export function documentExtensions({ image = Image }: { image?: typeof Image } = {}): AnyExtension[] {
  return [
    StarterKit.configure({
      heading: { levels: [1, 2, 3] },
      underline: false,
      paragraph: false,
      // A bare URL stays as typed; a link is made on purpose (Mod-K, Markdown, paste).
      link: false,
    }),
    // A bare URL stays as typed; a link is made on purpose (Mod-K, `[text](url)` typed, a URL pasted on a selection).
    BareLink.configure({ openOnClick: false, autolink: false, linkOnPaste: true, markdownLinks: true }),
    PlainParagraph,
    TaskList,
    TaskItem.configure({ nested: true }),
    image.configure({ inline: true }),
    PersonMention,
  ];
}
