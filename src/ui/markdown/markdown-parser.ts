// The Markdown parser for agent messages: markdown-it (CommonMark with GFM tables and
// strikethrough) configured for untrusted text. Its HTML still goes through the sanitiser
// (sanitize.ts); what is decided here is what markdown-it may produce at all:
// - raw HTML is off: `<script>` in a message is text, never a tag;
// - a link is made only of an http(s) or mailto URL (link-policy.ts); any other link syntax,
//   autolink or reference definition stays the text it was written as;
// - images are never loaded (a prompt-injected model could leak data through an image URL):
//   `![alt](url)` is a link to the URL, with the alt text as its text;
// - a fence's info string never reaches an attribute: code gets a class only for a language
//   we highlight;
// - table alignment is a class, not a `style` attribute (the sanitiser allows no styles).

import markdownIt, { type MarkdownIt, type Token } from 'markdown-it';
import { highlight, languageOf } from './highlight.ts';
import { isSafeLink } from './link-policy.ts';

export type { MarkdownIt };

export function createMarkdownParser(): MarkdownIt {
  const md = markdownIt({ html: false, linkify: true, breaks: true, typographer: false });
  // Only URLs with their scheme written out: "file.py" or "index.md" are not links.
  md.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
  md.validateLink = isSafeLink;
  const { escapeHtml } = md.utils;

  md.core.ruler.push('trellis_link_policy', (state) => {
    for (const token of state.tokens) {
      if (token.type === 'inline' && token.children) token.children = linksAsText(token.children);
      if ((token.type === 'th_open' || token.type === 'td_open') && token.attrs) {
        const align = /text-align:(left|center|right)/.exec(String(token.attrGet('style')))?.[1];
        token.attrs = align ? [['class', `align-${align}`]] : null;
      }
    }
  });

  md.renderer.rules.fence = (tokens, idx) => {
    const token = tokens[idx]!;
    const language = languageOf(token.info ? md.utils.unescapeAll(token.info) : '');
    return language
      ? `<pre><code class="hljs language-${language}">${highlight(token.content, language)}</code></pre>\n`
      : `<pre><code>${escapeHtml(token.content)}</code></pre>\n`;
  };

  md.renderer.rules.image = (tokens, idx, options, env, self) => {
    const token = tokens[idx]!;
    const src = String(token.attrGet('src') ?? '');
    const alt = self.renderInlineAsText(token.children ?? [], options, env);
    // validateLink already refused any other image URL; this is the second lock.
    if (!isSafeLink(src) || insideLink(tokens, idx)) return escapeHtml(alt || src);
    const title = escapeHtml(`Image (not loaded): ${src}`);
    return `<a href="${escapeHtml(src)}" class="image-link" title="${title}">${escapeHtml(alt || src)}</a>`;
  };

  return md;
}

/**
 * Inline tokens with every link whose URL the policy refuses turned back into its text. markdown-it
 * still makes `[text]()` a link with an empty href; validateLink keeps the rest out already.
 */
function linksAsText(children: Token[]): Token[] {
  let dropping = false; // links never nest: the next link_close is the refused link's
  return children.filter((child) => {
    if (child.type === 'link_open' && !isSafeLink(child.attrGet('href'))) return !(dropping = true);
    if (child.type === 'link_close' && dropping) return (dropping = false);
    return true;
  });
}

/** Whether inline token `idx` is inside a link's text (an image there shows its alt text). */
function insideLink(tokens: Token[], idx: number): boolean {
  for (let i = idx - 1; i >= 0; i--) {
    if (tokens[i]!.type === 'link_close') return false;
    if (tokens[i]!.type === 'link_open') return true;
  }
  return false;
}
