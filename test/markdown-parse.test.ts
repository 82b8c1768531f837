// test-runner: any database
// Issue 24, finding 7: the issue page froze on a crafted description (the
// Markdown table rule and the inline link rule backtracked: quadratic time).
// The parser of web/src/lib/markdown.tsx now counts its work; these tests
// bound it on adversarial inputs of size n and 4n and on generated ones, never
// by the clock, and check that the syntax still reads as before.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { type Block, parseInline, parseMarkdown, setTask, type Work } from '../web/src/lib/markdown-parse.js';

const stepsFor = (source: string) => {
  const work: Work = { steps: 0 };
  parseMarkdown(source, work);
  return work.steps;
};

/** Steps per character never exceed this, whatever the text. */
const STEPS_PER_CHAR = 12;

// Each builds a text of about n characters that made a backtracking rule (or
// a naive scanner) look at the same characters again and again.
const ADVERSARIAL: Record<string, (n: number) => string> = {
  'the finding: a table head, then a rule line of blanks': (n) => `|\n---${' '.repeat(n)}x`,
  'a rule line of dashes and pipes that never closes': (n) => `a|b\n${'|---'.repeat(n / 4)}|x`,
  'link openers without a closing bracket': (n) => '['.repeat(n),
  'link texts without a target': (n) => '[a]'.repeat(n / 3),
  'link targets that never close': (n) => '[a]('.repeat(n / 4),
  'a link target of groups that never closes': (n) => `[a](${'(b)'.repeat(n / 3)}`,
  'image openers': (n) => '!['.repeat(n / 2),
  'bold openers': (n) => '**a '.repeat(n / 4),
  'italic openers, both kinds': (n) => '*a _b '.repeat(n / 6),
  'strikethrough openers': (n) => '~~a'.repeat(n / 3),
  'code span openers': (n) => '`'.repeat(1) + 'a'.repeat(n),
  'URL schemes in one run': (n) => 'http://'.repeat(n / 7),
  'a URL of closing punctuation': (n) => `http://${'.'.repeat(n)}`,
  'mention openers with no name end': (n) => `@${'.'.repeat(n)}`,
  'mentions back to back': (n) => '@a.'.repeat(n / 3),
  'issue-reference look-alikes': (n) => 'ABCDEFGHIJK-1234567890 '.repeat(n / 23),
  'a long table': (n) => `a|b\n---|---\n${'x|y\n'.repeat(n / 4)}`,
  'nested emphasis in every kind': (n) => '**_~~[a](b)~~_** '.repeat(n / 18),
  'unclosed fences': (n) => '```\n'.repeat(n / 4),
  'quotes and lists': (n) => '> a\n- b\n1. c\n'.repeat(n / 13),
};

describe('the parser does work linear in the text', () => {
  for (const [what, build] of Object.entries(ADVERSARIAL)) {
    test(what, () => {
      const n = 20_000;
      const small = build(n);
      const large = build(4 * n);
      const a = stepsFor(small);
      const b = stepsFor(large);
      assert.ok(a <= STEPS_PER_CHAR * (small.length + 1), `${a} steps for ${small.length} characters`);
      assert.ok(b <= STEPS_PER_CHAR * (large.length + 1), `${b} steps for ${large.length} characters`);
      // Four times the text, about four times the work (quadratic would be sixteen).
      assert.ok(b <= 4.5 * a + 100, `n: ${a} steps, 4n: ${b} steps`);
    });
  }

  test('generated texts of Markdown punctuation stay within the bound', () => {
    const piece = fc.constantFrom(
      '[',
      ']',
      '(',
      ')',
      '![',
      '](',
      '*',
      '**',
      '_',
      '__',
      '~~',
      '`',
      '@',
      '.',
      '-',
      '|',
      '---',
      ':',
      ' ',
      '\n',
      '> ',
      '- ',
      '1. ',
      '```',
      'http://',
      'https://',
      'ENG-1',
      'a',
      'Zoë',
      '\\|',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 400 }), (pieces) => {
        const text = pieces.join('');
        const steps = stepsFor(text);
        assert.ok(steps <= STEPS_PER_CHAR * (text.length + 1), `${steps} steps for ${JSON.stringify(text)}`);
      }),
      { numRuns: Number(process.env['FUZZ_RUNS'] ?? 200) },
    );
  });
});

describe('the exact crafted description', () => {
  test('parses to the paragraph it is, in linear work', () => {
    const source = `|\n---${' '.repeat(199_990)}x`;
    const work: Work = { steps: 0 };
    const blocks = parseMarkdown(source, work);
    assert.equal(blocks.length, 1);
    const p = blocks[0] as Extract<Block, { kind: 'paragraph' }>;
    assert.equal(p.kind, 'paragraph');
    assert.deepEqual(p.lines, [['|'], [`---${' '.repeat(199_990)}x`]]);
    assert.ok(work.steps <= STEPS_PER_CHAR * source.length, `${work.steps} steps`);
  });
});

describe('the syntax reads as before', () => {
  test('tables with alignment, escaped pipes and short rows', () => {
    const [table] = parseMarkdown('| a | b | c |\n|:---|:---:|---:|\n| 1 | x \\| y |\n');
    assert.deepEqual(table, {
      kind: 'table',
      align: [undefined, 'center', 'right'],
      head: [['a'], ['b'], ['c']],
      rows: [[['1'], ['x | y'], []]],
    });
  });

  test('inline: code, links, images, emphasis, strikethrough, URLs, references, mentions', () => {
    assert.deepEqual(
      parseInline('`a*b*` [t **x**](https://e.com/p_(1)) ![alt](/api/files/1) **b** __c__ *d* _e_ ~~f~~'),
      [
        { kind: 'code', text: 'a*b*' },
        ' ',
        {
          kind: 'link',
          href: 'https://e.com/p_(1)',
          text: 't **x**',
          children: ['t ', { kind: 'strong', children: ['x'] }],
        },
        ' ',
        { kind: 'image', src: '/api/files/1', alt: 'alt' },
        ' ',
        { kind: 'strong', children: ['b'] },
        ' ',
        { kind: 'strong', children: ['c'] },
        ' ',
        { kind: 'em', children: ['d'] },
        ' ',
        { kind: 'em', children: ['e'] },
        ' ',
        { kind: 'del', children: ['f'] },
      ],
    );
    assert.deepEqual(parseInline('see https://example.com/a?b=1. ENG-12, @zoë.x and mail@example.com'), [
      'see ',
      { kind: 'url', href: 'https://example.com/a?b=1' },
      '. ',
      { kind: 'issue', ref: 'ENG-12', teamKey: 'ENG' },
      ', ',
      { kind: 'mention', raw: '@zoë.x', name: 'zoë.x' },
      ' and mail@example.com',
    ]);
  });

  test('unsafe targets stay text; nothing inside a link becomes a link; look-alikes are text', () => {
    assert.deepEqual(parseInline('[click](javascript:alert(1)) ![x](data:image/png)'), [
      'click',
      ' ',
      '![x](data:image/png)',
    ]);
    assert.deepEqual(parseInline('[ENG-1 @bob https://x.y](https://e.com)'), [
      {
        kind: 'link',
        href: 'https://e.com',
        text: 'ENG-1 @bob https://x.y',
        children: ['ENG-1 @bob https://x.y'],
      },
    ]);
    assert.deepEqual(parseInline('xENG-1 ENG-0 ENG-1x a@b @. ** * a* `'), [
      'xENG-1 ENG-0 ENG-1x a@b @. ** * a* `',
    ]);
  });

  test('backslash escapes and character references read as the characters (the editor writes them)', () => {
    assert.deepEqual(parseInline('a\\_b\\_c \\*no\\* AT&amp;T &lt;b&gt; &#65;&#x42; &bogus; \\q'), [
      'a',
      '_',
      'b',
      '_',
      'c ',
      '*',
      'no',
      '*',
      ' AT',
      '&',
      'T ',
      '<',
      'b',
      '>',
      ' ',
      'A',
      'B',
      ' &bogus; \\q',
    ]);
    assert.deepEqual(parseInline('`a\\_b &amp;`'), [{ kind: 'code', text: 'a\\_b &amp;' }], 'not in code');
  });

  test('setTask ticks the task on one source line and changes nothing else', () => {
    const source = '- [ ] one\n```\n- [ ] in code\n```\n  1. [x] two\n- plain';
    const lists = parseMarkdown(source).filter((b) => b.kind === 'list');
    const lines = lists.flatMap((b) => (b.kind === 'list' ? b.items.filter((i) => i.task !== null) : []));
    assert.deepEqual(
      lines.map((i) => i.line),
      [0, 4],
    );
    assert.equal(setTask(source, 0, true), source.replace('- [ ] one', '- [x] one'));
    assert.equal(setTask(source, 4, false), source.replace('1. [x] two', '1. [ ] two'));
    assert.equal(setTask(source, 5, true), source, 'not a task: unchanged');
    assert.equal(setTask(source, 99, true), source);
  });

  test('setTask, for any text and line, changes at most that line and only its box', () => {
    const line = fc.oneof(
      fc.constantFrom('- [ ] a', '- [x] b', '  * [X] c', '1. [ ] d', '```', '- e', '[ ] f', ''),
      fc.string({ unit: fc.constantFrom(...'- [x]1.`*'.split('')), maxLength: 10 }),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), fc.nat(10), fc.boolean(), (lines, at, done) => {
        const source = lines.join('\n');
        const after = setTask(source, at, done).split('\n');
        const before = source.split('\n');
        assert.equal(after.length, before.length);
        before.forEach((text, n) => {
          if (n !== at) assert.equal(after[n], text);
          else assert.equal(after[n]?.replace(/\[[ xX]\]/, '[?]'), text.replace(/\[[ xX]\]/, '[?]'));
        });
      }),
    );
  });

  test('blocks: headings, fences, rules, quotes, lists and tasks, paragraphs with line breaks', () => {
    const blocks = parseMarkdown(
      '# T\n```\n**raw**\n```\n---\n> q1\n> q2\n- [x] done\n- item\n\n1. one\ntext\nmore\n\nnext',
    );
    assert.deepEqual(
      blocks.map((b) => b.kind),
      ['heading', 'code', 'rule', 'quote', 'list', 'list', 'paragraph', 'paragraph'],
    );
    assert.deepEqual(blocks[1], { kind: 'code', text: '**raw**' });
    assert.deepEqual(blocks[3], { kind: 'quote', content: ['q1 q2'] });
    assert.deepEqual(blocks[4], {
      kind: 'list',
      ordered: false,
      items: [
        { task: true, content: ['done'], line: 7 },
        { task: null, content: ['item'], line: 8 },
      ],
    });
    assert.deepEqual(blocks[6], { kind: 'paragraph', lines: [['text'], ['more']] });
  });
});
