// Markdown rendered as it streams in, block by block: the finished top-level blocks are rendered
// once and keep their HTML and key for good; each chunk parses again only the unfinished rest.
//
// The rule (why a block is finished), on markdown-it's top-level block tokens and their `map`
// line ranges:
//
//   Parse the complete lines of the unfinished text (up to its last newline). Every top-level
//   block that starts before the last top-level block's first line is finished.
//
// Why it holds: markdown-it, like CommonMark, builds blocks line by line. A top-level block
// starting on line L means everything open before it was closed by the lines up to L (a blank
// line, or line L starting something that ends it). What closes a block is decided by that line
// alone, except a table, which needs the line after its header too (its delimiter row), and
// setext headings, which the underline line makes of the paragraph above it — in both cases the
// lines that decide belong to the last block, which is not finished. Lines after L cannot reach
// back past L: lists, block quotes and fences continue only while their own lines do, and a
// fence left open runs to the end of the text, so it is always the last block.
// - Only complete lines count: a half-written line can look like a delimiter row (`|-`) or a
//   setext underline (`-`) and stop looking like one on the next chunk.
// - Reference definitions (`[x]: https://…`) make no token and may be used above them. The
//   finished blocks are rendered with the definitions of the finished text only; the unfinished
//   rest sees all of them. When the finished text gains a definition, the finished blocks are
//   rendered once again (new keys). Models rarely write them, so this is rare.
// - A list is one top-level block, items and nesting included, as is a code fence: while one
//   streams, it is the part parsed again per chunk.
//
// When the text is complete (the stored message), the rest is rendered as finished blocks too;
// the result is then exactly what markdown-it renders for the whole text.

import type { Env, MarkdownIt, Token } from 'markdown-it';

export interface RenderedBlock {
  /** Stable for a finished block: the same key always has the same HTML. */
  readonly key: string;
  /** markdown-it's HTML, not yet sanitised. */
  readonly html: string;
}

/** What to show: the finished blocks (a new array only when they change), then the rest. */
export interface MarkdownView {
  readonly finished: readonly RenderedBlock[];
  /** The unfinished last block(s), rendered again on every chunk; none once complete. */
  readonly unfinished?: RenderedBlock;
}

type References = NonNullable<Env['references']>;

const TAIL_KEY = 'unfinished';

export class IncrementalMarkdown {
  /** The finished part of the text: whole lines, up to where the unfinished rest starts. */
  private finished = '';
  /** Never changed in place: a new array when blocks finish (the view's `finished`). */
  private blocks: readonly RenderedBlock[] = [];
  /** The reference definitions of the finished part (markdown-it's `env.references`). */
  private references: References = {};
  /** How far (from the start of the text) complete lines have been looked at. */
  private examined = 0;
  /** Bumped when the finished blocks are rendered again: their keys change with it. */
  private generation = 0;
  private tail: { source: string; block: RenderedBlock | undefined } | undefined;
  /** The whole text, once it was rendered as complete. */
  private completed: string | undefined;

  constructor(private readonly md: MarkdownIt) {}

  /** How many characters at the end are parsed again on the next chunk (for tests and the bench). */
  get unfinishedLength(): number {
    return this.tail?.source.length ?? 0;
  }

  /**
   * The blocks of `text`, in order. `complete`: no more text will come (the stored message);
   * otherwise `text` is a stream's text so far, and the next call should extend it.
   */
  render(input: string, complete: boolean): MarkdownView {
    const text = input.includes('\r') ? input.replace(/\r\n?/g, '\n') : input;
    if (this.completed !== undefined) {
      if (text === this.completed) return { finished: this.blocks };
      this.reset();
    }
    if (!text.startsWith(this.finished)) this.reset();
    if (complete) {
      if (text.length > this.finished.length) this.finish(text.slice(this.finished.length));
      this.tail = undefined;
      this.completed = text;
      return { finished: this.blocks };
    }

    const lastLineStart = text.lastIndexOf('\n') + 1;
    if (lastLineStart > this.examined) {
      this.examined = lastLineStart;
      const lines = text.slice(this.finished.length, lastLineStart);
      const cut = lastBlockStart(this.md, lines);
      if (cut > 0) this.finish(lines.slice(0, cut));
    }

    const source = shownWhileStreaming(text.slice(this.finished.length));
    if (this.tail?.source !== source) {
      const env = { references: { ...this.references } };
      const html = source ? this.md.render(source, env) : '';
      this.tail = { source, block: html ? { key: TAIL_KEY, html } : undefined };
    }
    return this.tail.block
      ? { finished: this.blocks, unfinished: this.tail.block }
      : { finished: this.blocks };
  }

  /** An independent copy (the stored message takes over what its stream rendered). */
  clone(): IncrementalMarkdown {
    const copy = new IncrementalMarkdown(this.md);
    copy.finished = this.finished;
    copy.blocks = this.blocks;
    copy.references = { ...this.references };
    copy.examined = this.examined;
    copy.generation = this.generation;
    copy.tail = this.tail;
    copy.completed = this.completed;
    return copy;
  }

  private reset(): void {
    this.finished = '';
    this.blocks = [];
    this.references = {};
    this.examined = 0;
    this.generation++;
    this.tail = undefined;
    this.completed = undefined;
  }

  /** Renders `part` (whole lines following the finished text) as finished blocks. */
  private finish(part: string): void {
    const known = Object.keys(this.references).length;
    const before = this.finished;
    this.blocks = [...this.blocks, ...this.renderBlocks(part, this.blocks.length)];
    this.finished += part;
    if (before && Object.keys(this.references).length > known) {
      // A new definition may turn `[text][label]` above it into a link: render everything again.
      this.generation++;
      this.blocks = this.renderBlocks(this.finished, 0);
    }
  }

  private renderBlocks(source: string, firstIndex: number): RenderedBlock[] {
    const env = { references: this.references };
    const tokens = this.md.parse(source, env);
    return topLevelBlocks(tokens).map((block, i) => ({
      key: `${this.generation}.${firstIndex + i}`,
      html: this.md.renderer.render(block, this.md.options, env),
    }));
  }
}

/**
 * The text shown while it streams: a last, unfinished line made only of `-`, `=`, `|`, `:` and
 * spaces is held back until its line ends or it becomes something else. Such a line shows nothing
 * of its own yet, but can make the lines above it flip from paragraph to setext heading or to
 * table and back from one chunk to the next (`|-`, then `|-x`).
 */
export function shownWhileStreaming(text: string): string {
  const lineStart = text.lastIndexOf('\n') + 1;
  return /^[ \t]*[-=|:][-=|: \t]*$/.test(text.slice(lineStart)) ? text.slice(0, lineStart) : text;
}

/**
 * Where the last top-level block of `lines` (complete lines) starts, as an offset; 0 when there
 * is at most one block. Only the block structure is needed: markdown-it's block parser alone.
 */
export function lastBlockStart(md: MarkdownIt, lines: string): number {
  const tokens: Token[] = [];
  md.block.parse(lines, md, {}, tokens);
  let last = 0;
  let count = 0;
  for (const token of tokens) {
    if (token.level === 0 && token.nesting !== -1 && token.map) {
      last = token.map[0];
      count++;
    }
  }
  if (count < 2) return 0;
  let offset = 0;
  for (let line = 0; line < last; line++) offset = lines.indexOf('\n', offset) + 1;
  return offset;
}

/** The tokens of each top-level block: from a level-0 token to its closing one (or itself). */
export function topLevelBlocks(tokens: Token[]): Token[][] {
  const blocks: Token[][] = [];
  let start = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.level !== 0 || token.nesting === 1) continue;
    blocks.push(tokens.slice(start, i + 1));
    start = i + 1;
  }
  return blocks;
}
