// The export writers' guards, case by case: plain text as Markdown shows that text and never
// markup; an answer keeps its Markdown but loses raw HTML and links to unsafe schemes, code left
// as written; a code block cannot be closed by what it holds; only raster images with base64
// bytes become data: URLs; HTML escaping leaves nothing that starts or ends markup.

import { describe, expect, it } from 'vitest';
import { codeBlock, escapeMarkdown, safeAnswer } from '../../../src/ui/export/export-markdown.ts';
import { escapeHtml } from '../../../src/ui/export/export-html.ts';
import { imageUrl } from '../../../src/ui/export/export-text.ts';
import { createMarkdownParser } from '../../../src/ui/markdown/markdown-parser.ts';

const md = createMarkdownParser();
/** What a viewer makes of Markdown (markdown-it with raw HTML on, as GitHub-like viewers allow). */
const viewer = new (md.constructor as new (options: object) => typeof md)({ html: true });

describe('plain text as Markdown', () => {
  it('is checked by a viewer that renders raw HTML', () => {
    expect(viewer.render('<b>x</b>')).toContain('<b>x</b>');
  });

  it.each([
    '<img src=x onerror=alert(1)>',
    '[x](javascript:alert(1))',
    '**not bold** _nor this_ `nor code`',
    '# not a heading',
    '- not a list\n1. nor this',
    '| a | b |\n|---|---|\n| not | a table |',
    '</style><script>alert(1)</script>',
    '&lt; stays as typed',
  ])('%j shows exactly as typed', (text) => {
    const html = viewer.render(escapeMarkdown(text));
    expect(html).not.toMatch(/<(img|script|a|strong|em|code|h1|ul|ol|table|style)\b/);
    const shown = html
      .replace(/<br>\n/g, '\n')
      .replace(/<\/?p>\n?/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&')
      .trim();
    expect(shown).toBe(text);
  });
});

describe("an answer's Markdown", () => {
  it('keeps its formatting and code, and loses raw HTML and unsafe links', () => {
    const answer = [
      '**bold** and `<b>code</b>` and <img src=x onerror=alert(1)>',
      '[ok](https://example.com) [bad](javascript:alert(2)) [data](data:text/html,x)',
      '[ref]: javascript:alert(3)',
      '```html',
      '<script>alert(4)</script>',
      '```',
    ].join('\n');
    const html = viewer.render(safeAnswer(answer));
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<code>&lt;b&gt;code&lt;/b&gt;</code>');
    expect(html).toContain('<a href="https://example.com">ok</a>');
    expect(html).toContain('&lt;script&gt;alert(4)&lt;/script&gt;');
    expect(html).not.toMatch(/<img|<script|href="(javascript|data):/);
  });
});

describe('a code block', () => {
  it('has a fence longer than any run of backticks inside it', () => {
    const text = 'a ``` b ```` c';
    const block = codeBlock(text, 'json');
    expect(block.startsWith('`````json\n')).toBe(true);
    expect(viewer.render(block)).toContain(
      `<pre><code class="language-json">${text}\n</code></pre>`,
    );
  });
});

describe('an image as a data: URL', () => {
  it.each([
    ['image/png', 'iVBORw0K', 'data:image/png;base64,iVBORw0K'],
    ['IMAGE/JPEG', 'ab-_', 'data:image/jpeg;base64,ab+/'],
    ['image/svg+xml', 'PHN2Zz4=', undefined],
    ['text/html', 'PHNjcmlwdD4=', undefined],
    ['image/png" onerror="alert(1)', 'iVBO', undefined],
    ['image/png', 'iVBO" onerror="x', undefined],
    [undefined, 'iVBO', undefined],
  ])('%s %j → %s', (mimeType, data, url) => {
    expect(imageUrl(mimeType, data)).toBe(url);
  });
});

describe('HTML escaping', () => {
  it('leaves no character that starts or ends markup or an attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      '&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;amp;&#60;/a&#62;',
    );
  });
});
