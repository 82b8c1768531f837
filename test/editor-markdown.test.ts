// test-runner: any database
// The editor keeps descriptions and comments as Markdown: what the API stores
// goes into the editor (Tiptap's document) and comes back out the same. Here
// without a browser: Tiptap's Markdown bridge and the editor's own schema
// (web/src/components/editor/schema.ts), the document checked against the
// ProseMirror schema on the way, as the editor does.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getSchema } from '@tiptap/core';
import { MarkdownManager } from '@tiptap/markdown';
import fc from 'fast-check';
import { docToMarkdown, markdownToDoc } from '../web/src/components/editor/markdown-doc.js';
import { documentExtensions } from '../web/src/components/editor/schema.js';
import { type Inline, parseMarkdown } from '../web/src/lib/markdown-parse.js';

const extensions = documentExtensions();
const manager = new MarkdownManager({ extensions });
const schema = getSchema(extensions);

/** Markdown → editor document → Markdown. */
function roundTrip(markdown: string): string {
  const doc = schema.nodeFromJSON(markdownToDoc(manager, markdown));
  doc.check();
  return docToMarkdown(manager, doc.toJSON());
}

const word = fc.stringMatching(/^[A-Za-z][a-z0-9]{0,7}$/);
const words = fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
// `_` or `.` or `-` inside a name, between letters or digits: `_` beside punctuation could open emphasis.
const name = fc.stringMatching(/^[a-z][a-z0-9]{0,3}([._-][a-z0-9]{1,3})?$/);
/** One inline piece, in the form the editor writes it. */
const piece = fc.oneof(
  { weight: 4, arbitrary: words },
  words.map((t) => `**${t}**`),
  words.map((t) => `*${t}*`),
  words.map((t) => `~~${t}~~`),
  fc
    .stringMatching(/^[a-z0-9 =+()]{1,12}$/)
    .filter((c) => c.trim() === c && c.length > 0)
    .map((c) => `\`${c}\``),
  fc.tuple(words, word).map(([t, path]) => `[${t}](https://example.com/${path})`),
  fc.tuple(word, fc.uuid()).map(([alt, id]) => `![${alt}](/api/files/${id})`),
  word.map((path) => `https://example.com/${path}`),
  name.map((n) => `@${n}`),
  fc
    .tuple(fc.stringMatching(/^[A-Z][A-Z0-9]{0,4}$/), fc.integer({ min: 1, max: 99999 }))
    .map(([k, n]) => `${k}-${n}`),
  // Characters that mean something in Markdown, written as the editor escapes them.
  fc.constantFrom('\\*', '\\_', '\\[', '\\]', '\\~', '\\`', '\\\\', '&amp;', '&lt;', '&gt;'),
);
const inline = fc.array(piece, { minLength: 1, maxLength: 5 }).map((p) => p.join(' '));

const listOf = (marker: (n: number) => string) =>
  fc
    .array(
      fc.tuple(inline, fc.option(fc.array(inline, { minLength: 1, maxLength: 2 }), { nil: undefined })),
      {
        minLength: 1,
        maxLength: 4,
      },
    )
    .map((items) =>
      items
        .map(([text, sub], n) => {
          const head = `${marker(n)}${text}`;
          const pad = ' '.repeat(marker(n).length);
          return sub ? [head, ...sub.map((s, m) => `${pad}${marker(m)}${s}`)].join('\n') : head;
        })
        .join('\n'),
    );

const block = fc.oneof(
  { weight: 3, arbitrary: inline },
  fc.tuple(fc.integer({ min: 1, max: 3 }), inline).map(([level, text]) => `${'#'.repeat(level)} ${text}`),
  listOf(() => '- '),
  listOf((n) => `${n + 1}. `),
  fc
    .array(fc.tuple(fc.boolean(), inline), { minLength: 1, maxLength: 4 })
    .map((items) => items.map(([done, text]) => `- [${done ? 'x' : ' '}] ${text}`).join('\n')),
  fc
    .tuple(
      fc.option(fc.constantFrom('ts', 'sql', 'python', 'bash'), { nil: '' }),
      fc.array(fc.stringMatching(/^[ a-z0-9*_#>\-[\]()`{};=<&]{0,20}$/), { minLength: 1, maxLength: 4 }),
    )
    .filter(([, lines]) => lines.every((l) => !l.startsWith('```')) && lines.some((l) => l.trim()))
    .map(([lang, lines]) => `\`\`\`${lang}\n${lines.join('\n')}\n\`\`\``),
  inline.map((text) => `> ${text}`),
  fc.constant('---'),
);
const isList = (b: string) => /^(- |\d+\. )/.test(b);
const document = fc
  .array(block, { minLength: 1, maxLength: 6 })
  // Two lists one after the other are one list in Markdown (loose, with a blank line between items).
  .filter((blocks) => blocks.every((b, n) => n === 0 || !(isList(b) && isList(blocks[n - 1] ?? ''))))
  .map((b) => b.join('\n\n'));

describe('editor Markdown round trip', () => {
  test('documents built from every construct the API stores come back unchanged', () => {
    fc.assert(
      fc.property(document, (markdown) => {
        assert.equal(roundTrip(markdown), markdown);
      }),
      { numRuns: 300 },
    );
  });

  test('any text typed, as the editor writes it, the renderer shows as typed (escapes and references read back)', () => {
    const asText = (nodes: Inline[]): string =>
      nodes
        .map((n) =>
          typeof n === 'string'
            ? n
            : n.kind === 'url'
              ? n.href
              : n.kind === 'issue'
                ? n.ref
                : n.kind === 'mention'
                  ? n.raw
                  : `<${n.kind}>`,
        )
        .join('');
    const typed = fc
      .string({
        unit: fc.constantFrom(...'ab1 *_`~[]()!&<>\\#-.:/@;'.split('')),
        minLength: 1,
        maxLength: 30,
      })
      .filter((t) => t.trim() === t);
    fc.assert(
      fc.property(typed, (text) => {
        const markdown = docToMarkdown(manager, {
          type: 'doc',
          content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
        });
        const [only, ...rest] = parseMarkdown(markdown);
        assert.equal(rest.length, 0, markdown);
        assert.equal(only?.kind, 'paragraph', markdown);
        if (only?.kind === 'paragraph') assert.equal(only.lines.map(asText).join('\n'), text, markdown);
      }),
      { numRuns: 1000 },
    );
  });

  test('the documented normal forms', () => {
    const cases: [string, string][] = [
      ['_italic_', '*italic*'],
      ['* a\n* b', '- a\n- b'],
      ['AT&T <b>', 'AT&amp;T &lt;b&gt;'],
      ['a_b', 'a\\_b'],
      ['[https://x.y](https://x.y)', 'https://x.y'],
      ['Title\n===', '# Title'],
      ['\\- not a list', '\\- not a list'],
      ['\\# not a heading', '\\# not a heading'],
      ['1\\. not a list either', '1\\. not a list either'],
    ];
    for (const [stored, normal] of cases) assert.equal(roundTrip(stored), normal, stored);
  });

  test('mentions stay `@name` as the server reads them, underscores and dots included', () => {
    assert.equal(roundTrip('ask @jo_ann.b and @li'), 'ask @jo_ann.b and @li');
    const doc = markdownToDoc(manager, 'ask @jo_ann');
    assert.deepEqual(doc.content?.[0]?.content?.[1], { type: 'mention', attrs: { label: 'jo_ann' } });
    assert.equal(roundTrip('mail a@b.com'), 'mail a@b.com', 'an address is not a mention');
    assert.equal(roundTrip('`@code`'), '`@code`', 'nor is code');
  });
});
