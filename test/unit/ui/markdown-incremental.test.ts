// Markdown while it streams (src/ui/markdown/incremental.ts): at every chunk the blocks show what
// markdown-it itself renders for the text so far, a finished block never changes, and only the
// last block is parsed again.

import { describe, expect, it } from 'vitest';
import {
  IncrementalMarkdown,
  lastBlockStart,
  shownWhileStreaming,
  type MarkdownView,
} from '../../../src/ui/markdown/incremental.ts';
import { createMarkdownParser } from '../../../src/ui/markdown/markdown-parser.ts';

const md = createMarkdownParser();

/** Documents that end up with many top-level blocks of every kind, written as a model would. */
const DOCUMENTS: Record<string, string> = {
  'paragraphs and headings':
    '# Title\n\nFirst paragraph\nwith a soft break.\n\nSecond one.\n\n## Part\nText under it.\n',
  'setext headings': 'Heading one\n===\n\nHeading two\n---\nAnd text.\n',
  'a table after a paragraph, no blank line':
    'Here is a table:\n| Name | Age |\n|:-----|----:|\n| Ann | 31 |\n| Bob | 7 |\n\nAfter it.\n',
  'a table ended by a heading': '| a | b |\n|---|---|\n| 1 | 2 |\n# Next\nmore',
  'nested and ordered lists':
    'Steps:\n1. First\n   - sub a\n   - sub b\n2. Second\n\n   still second\n3. Third\n\nDone.\n- [ ] task-looking\n- [x] done-looking\n\nEnd.',
  'a list that turns loose': '- one\n- two\n\n- three\n\nafter\n',
  'fences, closed and open':
    'Code:\n```ts\nconst a = 1;\n\nconst b = `x`;\n```\nText\n\n```python\ndef f():\n    return 1\n',
  'a fence with a longer closing run': '````md\n```\ninner\n```\n````\nafter\n',
  'indented code after blank lines': 'Para\n\n    indented code\n\n    more code\n\nnot code\n',
  'block quotes with lazy lines': '> quoted\nlazy line\n> > nested\n\nout\n> again\n',
  'horizontal rules and emphasis': 'a **bold** and *em* and ~~gone~~\n\n---\n\n***\nb `code` c\n',
  'links and autolinks':
    'See [docs](https://example.com/docs) and <https://example.com> or https://example.org/x.\n\nMail <me@example.com>.\n',
  'html-looking text':
    '<div onclick="x">hi</div>\n\n<script>alert(1)</script>\n\ntext <b>bold?</b>\n',
  'carriage returns': 'one\r\ntwo\r\n\r\n# three\rfour\r\n',
  'a line that only looks like a delimiter or an underline':
    'text\n|-x\n\nmore text\n-\n\nlast\n= = =\n',
};

/** A deterministic split of `text` into chunks of 1 to 7 characters. */
function chunks(text: string, seed: number): string[] {
  const out: string[] = [];
  let state = seed;
  for (let i = 0; i < text.length;) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const size = 1 + (state % 7);
    out.push(text.slice(i, i + size));
    i += size;
  }
  return out;
}

const blocksOf = (view: MarkdownView) => [
  ...view.finished,
  ...(view.unfinished ? [view.unfinished] : []),
];
const html = (view: MarkdownView) =>
  blocksOf(view)
    .map((block) => block.html)
    .join('');
const normalized = (text: string) => text.replace(/\r\n?/g, '\n');

describe('incremental Markdown', () => {
  describe.each(Object.entries(DOCUMENTS))('%s', (_, document) => {
    it.each([
      ['character by character', [...document]],
      ['in chunks of 1–7 characters', chunks(document, 7)],
      ['in other chunks', chunks(document, 1234)],
    ])('renders %s as markdown-it renders the text so far', (_, parts) => {
      const renderer = new IncrementalMarkdown(md);
      const seen = new Map<string, string>();
      let text = '';
      for (const part of parts) {
        text += part;
        const view = renderer.render(text, false);
        expect(html(view)).toBe(md.render(shownWhileStreaming(normalized(text))));
        for (const block of view.finished) {
          expect(seen.get(block.key) ?? block.html, `block ${block.key} changed`).toBe(block.html);
          seen.set(block.key, block.html);
        }
      }
      const done = renderer.render(text, true);
      expect(html(done)).toBe(md.render(normalized(text)));
      // The stored message takes over every finished block the stream rendered, as it was.
      expect(done.unfinished).toBeUndefined();
      for (const block of done.finished)
        if (seen.has(block.key)) expect(seen.get(block.key)).toBe(block.html);
    });
  });

  it('parses again only the last block while a long answer streams', () => {
    const paragraphs = Array.from({ length: 200 }, (_, i) => `Paragraph ${i} with **bold** text.`);
    const renderer = new IncrementalMarkdown(md);
    let text = '';
    for (const paragraph of paragraphs) {
      text += `${paragraph}\n\n`;
      renderer.render(text, false);
    }
    text += 'The last one, half';
    const view = renderer.render(text, false);
    // The last paragraph is finished only once a complete line starts the next block.
    expect(view.finished).toHaveLength(199);
    expect(renderer.unfinishedLength).toBe(
      'Paragraph 199 with **bold** text.\n\nThe last one, half'.length,
    );
  });

  it('gives the same finished blocks, the same array, until another block finishes', () => {
    const renderer = new IncrementalMarkdown(md);
    const before = renderer.render('one\n\ntwo\n\nthr', false);
    const same = renderer.render('one\n\ntwo\n\nthree', false);
    expect(same.finished).toBe(before.finished);
    const more = renderer.render('one\n\ntwo\n\nthree\n\nfo', false);
    expect(more.finished).not.toBe(before.finished);
    expect(more.finished.slice(0, before.finished.length)).toEqual(before.finished);
  });

  it('keeps an unclosed fence a code block while it streams', () => {
    const renderer = new IncrementalMarkdown(md);
    const view = renderer.render('Intro\n\n```js\nconst a = 1;\nconst b', false);
    expect(html(view)).toContain('<pre><code class="hljs language-javascript">');
    expect(html(view)).toContain('const</span> b');
  });

  it('shows a table with a half-written last row as a table', () => {
    const renderer = new IncrementalMarkdown(md);
    const table = '| Name | Age |\n|------|-----|\n| Ann | 31 |\n';
    for (const row of ['|', '| B', '| Bob |', '| Bob | 7']) {
      const shown = html(renderer.render(table + row, false));
      expect(shown, row).toMatch(/^<table>/);
      expect(shown).not.toContain('<p>');
      // A row is shown once it has text: a lone pipe adds no empty row.
      expect(shown.match(/<tr>/g)?.length, row).toBe(row === '|' ? 2 : 3);
    }
  });

  it('links earlier text once the reference definition below it is finished', () => {
    const renderer = new IncrementalMarkdown(md);
    const start = 'See [the docs][d].\n\n';
    expect(html(renderer.render(start + 'More text.\n\n', false))).not.toContain('<a');
    const withDefinition = start + 'More text.\n\n[d]: https://example.com/docs\n\nAfter.\n\nLast';
    expect(html(renderer.render(withDefinition, false))).toContain(
      '<p>See <a href="https://example.com/docs">the docs</a>.</p>',
    );
  });
});

describe('the last block of complete lines', () => {
  it.each([
    ['one paragraph', 'a\nb\n', 0],
    ['two paragraphs', 'a\n\nb\n', 'a\n\n'.length],
    ['a paragraph a table interrupts', 'p\n| a |\n|---|\n', 'p\n'.length],
    ['a table header without its delimiter yet', 'p\n| a |\n', 0],
    ['a list, then a paragraph', '- a\n\n  b\n- c\n\nd\n', '- a\n\n  b\n- c\n\n'.length],
    ['an open fence', 'a\n\n```\ncode\n\nmore\n', 'a\n\n'.length],
    // markdown-it 15 gives a definition a block token of its own (stripped before rendering).
    ['a definition, then a paragraph', '[x]: https://a.example\n\np\n', 24],
    ['a paragraph, then a definition', 'p\n\n[x]: https://a.example\n', 'p\n\n'.length],
    ['a quote with a lazy line', '> a\nb\n', 0],
  ])('%s', (_, lines, offset) => {
    expect(lastBlockStart(md, lines)).toBe(offset);
  });
});

describe('what is held back while streaming', () => {
  it.each([
    ['para\n-', 'para\n'],
    ['para\n--', 'para\n'],
    ['para\n- item', 'para\n- item'],
    ['| a | b |\n|--', '| a | b |\n'],
    ['| a | b |\n|---|:-', '| a | b |\n'],
    ['| a | b |\n| 1', '| a | b |\n| 1'],
    ['title\n===', 'title\n'],
    ['plain text', 'plain text'],
    ['ends with a newline\n', 'ends with a newline\n'],
  ])('%j shows %j', (text, shown) => {
    expect(shownWhileStreaming(text)).toBe(shown);
  });
});
