// What becomes a link in an agent's Markdown (src/ui/markdown/link-policy.ts and the parser that
// applies it): http, https and mailto, written plainly; everything else stays text.

import { describe, expect, it } from 'vitest';
import { isSafeLink } from '../../../src/ui/markdown/link-policy.ts';
import { createMarkdownParser } from '../../../src/ui/markdown/markdown-parser.ts';

describe('the link policy', () => {
  it.each([
    ['https://example.com/docs?q=1#top', true],
    ['http://127.0.0.1:8080/', true],
    ['HTTPS://EXAMPLE.COM', true],
    ['mailto:someone@example.com', true],
    ['javascript:alert(1)', false],
    ['JaVaScRiPt:alert(1)', false],
    ['vbscript:msgbox(1)', false],
    ['data:text/html,<script>alert(1)</script>', false],
    ['data:image/png;base64,iVBORw0KGgo=', false],
    ['file:///etc/passwd', false],
    ['ftp://example.com/', false],
    ['blob:https://example.com/1', false],
    ['/relative/path', false],
    ['docs.html', false],
    ['#anchor', false],
    ['//example.com/protocol-relative', false],
    [' https://example.com', false],
    ['\x01javascript:alert(1)', false],
    ['java\tscript:alert(1)', false],
    ['java\nscript:alert(1)', false],
    ['java%09script:alert(1)', false],
    ['&#106;avascript:alert(1)', false],
    ['https:', false],
    ['https://', false],
    ['http:example.com', true], // the URL parser reads it as http://example.com/: still http
    ['mailto:', false],
    ['', false],
  ])('%j → %s', (href, allowed) => {
    expect(isSafeLink(href)).toBe(allowed);
  });

  it('refuses what is not a string', () => {
    expect(isSafeLink(null)).toBe(false);
    expect(isSafeLink(undefined)).toBe(false);
    expect(isSafeLink(42)).toBe(false);
  });
});

describe('links in Markdown', () => {
  const md = createMarkdownParser();
  const render = (text: string) => md.renderInline(text);

  it.each([
    ['[docs](https://example.com/docs)', '<a href="https://example.com/docs">docs</a>'],
    ['<https://example.com>', '<a href="https://example.com">https://example.com</a>'],
    ['<me@example.com>', '<a href="mailto:me@example.com">me@example.com</a>'],
    [
      'see https://example.com/x.',
      'see <a href="https://example.com/x">https://example.com/x</a>.',
    ],
    ['[x](javascript:alert(1))', '[x](javascript:alert(1))'],
    ['[x](JaVaScRiPt:alert(1))', '[x](JaVaScRiPt:alert(1))'],
    ['[x](&#106;avascript:alert(1))', '[x](javascript:alert(1))'], // the entity is text, decoded
    ['[x](<java\tscript:alert(1)>)', '[x](&lt;java\tscript:alert(1)&gt;)'],
    ['[x](data:text/html,hi)', '[x](data:text/html,hi)'],
    ['[x](/relative)', '[x](/relative)'],
    ['[x]()', 'x'],
    ['<javascript:alert(1)>', '&lt;javascript:alert(1)&gt;'],
    ['file.py and index.md and www.example.com', 'file.py and index.md and www.example.com'],
  ])('%j', (text, html) => {
    expect(render(text)).toBe(html);
  });

  it('leaves a reference to a refused URL as text', () => {
    expect(md.render('[x][r]\n\n[r]: javascript:alert(1)\n')).toBe(
      '<p>[x][r]</p>\n<p>[r]: javascript:alert(1)</p>\n',
    );
    expect(md.render('[x][r]\n\n[r]: https://example.com\n')).toBe(
      '<p><a href="https://example.com">x</a></p>\n',
    );
  });

  it.each([
    [
      '![a chart](https://example.com/c.png)',
      '<a href="https://example.com/c.png" class="image-link" title="Image (not loaded): https://example.com/c.png">a chart</a>',
    ],
    ['![](https://example.com/c.png)', 'https://example.com/c.png</a>'],
    ['![x](javascript:alert(1))', '![x](javascript:alert(1))'],
    ['![x](data:image/png;base64,AAAA)', '![x](data:image/png;base64,AAAA)'],
    [
      '[![alt](https://example.com/i.png)](https://example.com)',
      '<a href="https://example.com">alt</a>',
    ],
  ])('never loads an image: %j', (text, html) => {
    const rendered = render(text);
    expect(rendered).toContain(html);
    expect(rendered).not.toContain('<img');
  });
});
