// The exported page's own styles, inlined in its <style> (the page loads nothing): the app's
// colours, light and dark by the reader's system (prefers-color-scheme), and highlight.js's
// classes. A constant: nothing from the session ever goes in here, so no `</style>` can.

export const EXPORT_CSS = `
:root {
  color-scheme: light dark;
  --ink: #17201c; --muted: #56635d; --line: #dde4e0; --paper: #ffffff; --ground: #f5f7f6;
  --bubble: #eef2f0; --green: #1f5f4a; --danger: #b3261e; --danger-soft: #fdf1f0;
  --warn: #7a4f00; --code-bg: #f4f6f5; --link: #1a5fb4;
  --hl-comment: #5f6b66; --hl-keyword: #8e2a8b; --hl-string: #2d6a1f; --hl-number: #9a4a00;
  --hl-title: #1a5fb4; --hl-type: #7a3e00; --hl-attr: #1c6b7a; --hl-meta: #6b5800;
  --hl-added: #1f6b2a; --hl-removed: #a4161a;
}
@media (prefers-color-scheme: dark) {
  :root {
    --ink: #e4ece8; --muted: #a3b3ac; --line: #34423c; --paper: #1a2120; --ground: #121816;
    --bubble: #223029; --green: #62c9a2; --danger: #ffaaa6; --danger-soft: #3d1a1a;
    --warn: #f2c57c; --code-bg: #1b2320; --link: #8cb8ff;
    --hl-comment: #97a39d; --hl-keyword: #e0a6ff; --hl-string: #9fd89a; --hl-number: #ffb870;
    --hl-title: #8cb8ff; --hl-type: #f2c57c; --hl-attr: #7fd3e0; --hl-meta: #e6d27a;
    --hl-added: #9fe0a8; --hl-removed: #ffaaa6;
  }
}
* { box-sizing: border-box; }
body {
  margin: 0; background: var(--ground); color: var(--ink);
  font: 16px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
}
header, main, footer { max-width: 50rem; margin: 0 auto; padding: 0 1rem; }
header { padding-top: 1.5rem; }
h1 { font-size: 1.5rem; margin: 0 0 0.25rem; overflow-wrap: anywhere; }
.meta, .totals, footer, .turn-head, .message-usage, .cut { color: var(--muted); font-size: 0.875rem; }
.meta, .totals { margin: 0.2rem 0; }
.turn { border-top: 1px solid var(--line); padding: 0.75rem 0; }
.turn-head { display: flex; flex-wrap: wrap; gap: 0.25rem 0.75rem; align-items: baseline;
  font-size: 0.8125rem; font-weight: 600; margin: 0 0 0.5rem; }
.turn-head .turn-usage { font-weight: 400; }
.message { margin: 0.5rem 0; padding: 0.6rem 0.85rem; border-radius: 10px;
  background: var(--paper); border: 1px solid var(--line); max-width: 100%; overflow-wrap: anywhere; }
.from-user { background: var(--bubble); margin-left: 3rem; }
.author { margin: 0 0 0.25rem; font-size: 0.8125rem; font-weight: 650; color: var(--green); }
.plain { white-space: pre-wrap; margin: 0; }
.message-usage, .cut { margin: 0.25rem 0 0; }
pre { background: var(--code-bg); border: 1px solid var(--line); border-radius: 6px;
  padding: 0.6rem; overflow-x: auto; font-size: 0.875rem; white-space: pre; }
code { font-family: ui-monospace, 'SF Mono', Menlo, Consolas, monospace; }
:not(pre) > code { background: var(--code-bg); border-radius: 4px; padding: 0 0.25em; }
.markdown > :first-child { margin-top: 0; } .markdown > :last-child { margin-bottom: 0; }
.markdown table { border-collapse: collapse; display: block; overflow-x: auto; }
.markdown th, .markdown td { border: 1px solid var(--line); padding: 0.25rem 0.5rem; }
.markdown .align-center { text-align: center; } .markdown .align-right { text-align: right; }
.markdown blockquote { margin: 0.5rem 0; padding-left: 0.75rem; border-left: 3px solid var(--line); color: var(--muted); }
a { color: var(--link); }
img { max-width: 100%; height: auto; border-radius: 6px; border: 1px solid var(--line); }
figure { margin: 0.5rem 0; } figcaption, .file { font-size: 0.8125rem; color: var(--muted); }
details { margin: 0.4rem 0; }
summary { cursor: pointer; }
.tool { border: 1px solid var(--line); border-radius: 8px; padding: 0.3rem 0.6rem; background: var(--paper); font-size: 0.875rem; }
.tool summary code { font-weight: 600; }
.tool .args { color: var(--muted); overflow-wrap: anywhere; }
.status { font-size: 0.75rem; border: 1px solid var(--line); border-radius: 999px; padding: 0 0.4rem; }
.status-failed, .status-declined, .status-interrupted { color: var(--danger); }
.error { background: var(--danger-soft); color: var(--danger); padding: 0.4rem 0.7rem; border-radius: 8px; }
.note, .compaction { color: var(--muted); font-style: italic; font-size: 0.875rem; }
.branches { border-left: 3px dashed var(--line); padding-left: 0.75rem; color: var(--muted); }
.branches > summary { font-size: 0.875rem; }
.branch { opacity: 0.9; }
.branch + .branch { border-top: 1px dashed var(--line); margin-top: 0.5rem; }
.branch .turn { border-top-style: dashed; }
footer { border-top: 1px solid var(--line); margin-top: 1rem; padding: 1rem; }
.hljs-comment, .hljs-quote { color: var(--hl-comment); font-style: italic; }
.hljs-keyword, .hljs-selector-tag, .hljs-built_in, .hljs-literal { color: var(--hl-keyword); }
.hljs-string, .hljs-regexp, .hljs-tag { color: var(--hl-string); }
.hljs-number, .hljs-symbol, .hljs-bullet { color: var(--hl-number); }
.hljs-title, .hljs-section, .hljs-name { color: var(--hl-title); }
.hljs-type, .hljs-class { color: var(--hl-type); }
.hljs-attr, .hljs-attribute, .hljs-variable, .hljs-property { color: var(--hl-attr); }
.hljs-meta { color: var(--hl-meta); }
.hljs-addition { color: var(--hl-added); } .hljs-deletion { color: var(--hl-removed); }
@media (max-width: 600px) { .from-user { margin-left: 1rem; } body { font-size: 15px; } }
@media print { details { display: block; } .branches { display: none; } }
`;
