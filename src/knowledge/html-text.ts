// HTML read into plain text for a knowledge base: what a reader of the page would see, with its
// headings as Markdown heading lines (`## Title`) so the chunker (chunk.ts) can split by them.
// htmlparser2 tokenises it (never a hand-written parser, never a DOM: this runs in Node and in the
// worker, which has none).
//
// What must stay true: nothing of a script, style, template or other unseen element reaches the
// text (a hostile page's `<script>` or `onerror` is never text to index or hand to a model, and
// attributes are never read); blocks are separated by blank lines, so paragraphs survive; runs of
// whitespace outside `<pre>` are one space.

import { Parser } from 'htmlparser2';

/** Elements whose content no reader sees. */
const UNSEEN = new Set([
  'head',
  'title',
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'canvas',
  'select',
]);

/** Elements that stand apart as a paragraph: a blank line before and after. */
const PARAGRAPH = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'aside',
  'header',
  'footer',
  'nav',
  'blockquote',
  'pre',
  'ul',
  'ol',
  'dl',
  'table',
  'figure',
  'figcaption',
  'form',
  'fieldset',
  'details',
  'summary',
  'address',
  'hr',
  'body',
]);

/** Elements that start a new line of their own. */
const LINE = new Set(['li', 'dt', 'dd', 'tr', 'br', 'caption', 'option', 'legend']);

const HEADING = /^h([1-6])$/;
const BREAK_NONE = 0;
const BREAK_LINE = 1;
const BREAK_PARAGRAPH = 2;

/**
 * Builds the text lazily: a break or a prefix (`## `, `- `) waits for the next visible text, so
 * empty elements leave no blank lines and a heading without text no lone `##`.
 */
class TextWriter {
  private readonly parts: string[] = [];
  private empty = true;
  private pendingBreak = BREAK_NONE;
  private pendingSpace = false;
  private prefix = '';
  private atLineStart = true;

  requestBreak(level: number): void {
    if (level > this.pendingBreak) this.pendingBreak = level;
    this.pendingSpace = false;
    // A prefix belongs to the line it was set for: an empty list item's dash goes with it.
    this.prefix = '';
  }

  setPrefix(prefix: string): void {
    this.prefix = prefix;
  }

  /** Text outside `<pre>`: whitespace collapses to single spaces. */
  flowing(data: string): void {
    // Only runs that are not already one space are replaced: most text has none, and a replace
    // of every space of a long text is slow.
    const text = data.replace(/[\t\n\r\f\u00a0][ \t\n\r\f\u00a0]*| [ \t\n\r\f\u00a0]+/g, ' ');
    const from = text.startsWith(' ') ? 1 : 0;
    const to = text.length > from && text.endsWith(' ') ? text.length - 1 : text.length;
    if (from === 1) this.pendingSpace = true;
    if (to > from) this.emit(text.slice(from, to));
    if (to < text.length) this.pendingSpace = true;
  }

  /** Text inside `<pre>`: kept as written, line by line. */
  preformatted(data: string): void {
    const lines = data.replace(/\r\n?/g, '\n').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (i > 0 && !this.empty) this.requestBreak(BREAK_LINE);
      const line = lines[i]!.replace(/\s+$/, '');
      if (line.trim() !== '') this.emit(line);
    }
  }

  private emit(text: string): void {
    if (!this.empty && this.pendingBreak !== BREAK_NONE) {
      this.parts.push(this.pendingBreak === BREAK_PARAGRAPH ? '\n\n' : '\n');
      this.atLineStart = true;
    }
    this.pendingBreak = BREAK_NONE;
    if (this.atLineStart) {
      if (this.prefix) this.parts.push(this.prefix);
      this.prefix = '';
    } else if (this.pendingSpace) {
      this.parts.push(' ');
    }
    this.pendingSpace = false;
    this.parts.push(text);
    this.empty = false;
    this.atLineStart = false;
  }

  toString(): string {
    return this.parts.join('');
  }
}

/** The visible text of an HTML document, headings as Markdown heading lines. */
export function htmlToText(html: string): string {
  const out = new TextWriter();
  let unseenDepth = 0;
  let preDepth = 0;
  let headingDepth = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (UNSEEN.has(name)) unseenDepth++;
        if (unseenDepth > 0) return;
        const heading = HEADING.exec(name);
        if (heading) {
          headingDepth++;
          out.requestBreak(BREAK_PARAGRAPH);
          out.setPrefix(`${'#'.repeat(Number(heading[1]))} `);
        } else if (headingDepth > 0) {
          // A heading stays one line: a <br> or <div> inside it is a space.
          out.flowing(' ');
        } else if (PARAGRAPH.has(name)) {
          out.requestBreak(BREAK_PARAGRAPH);
        } else if (LINE.has(name)) {
          out.requestBreak(BREAK_LINE);
          if (name === 'li') out.setPrefix('- ');
        } else if (name === 'td' || name === 'th') {
          out.flowing(' ');
        }
        if (name === 'pre') preDepth++;
      },
      onclosetag(name) {
        if (UNSEEN.has(name)) {
          unseenDepth = Math.max(0, unseenDepth - 1);
          return;
        }
        if (unseenDepth > 0) return;
        if (HEADING.test(name)) {
          headingDepth = Math.max(0, headingDepth - 1);
          out.setPrefix('');
          out.requestBreak(BREAK_PARAGRAPH);
        } else if (headingDepth > 0) {
          out.flowing(' ');
        } else if (PARAGRAPH.has(name)) {
          out.requestBreak(BREAK_PARAGRAPH);
        } else if (LINE.has(name) && name !== 'br') {
          out.requestBreak(BREAK_LINE);
        }
        if (name === 'pre') preDepth = Math.max(0, preDepth - 1);
      },
      ontext(data) {
        if (unseenDepth > 0) return;
        if (preDepth > 0 && headingDepth === 0) out.preformatted(data);
        else out.flowing(data);
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return out.toString();
}
