// The lazily loaded half of Markdown messages (load-markdown.ts imports it the first time a
// message needs it): markdown-it, highlight.js, DOMPurify and the styles, none of them in the
// first page chunk.

import './markdown.css';
import { IncrementalMarkdown, type RenderedBlock } from './incremental.ts';
import { createMarkdownParser } from './markdown-parser.ts';
import { markdownElement } from './sanitize.ts';

export { onMarkdownClick } from './copy-code.ts';

const parser = createMarkdownParser();

/**
 * Renderers of recent messages by event id, so that the stored message takes over what its
 * stream already rendered (its finished blocks, their DOM included) instead of starting again.
 */
const recent = new Map<string, IncrementalMarkdown>();
const RECENT = 16;

/** A renderer for message `id`: a copy of the one its stream used, if there was one. */
export function rendererFor(id: string): IncrementalMarkdown {
  const renderer = recent.get(id)?.clone() ?? new IncrementalMarkdown(parser);
  recent.delete(id);
  recent.set(id, renderer);
  if (recent.size > RECENT) recent.delete(recent.keys().next().value!);
  return renderer;
}

const elements = new WeakMap<RenderedBlock, HTMLElement>();

/** A block's sanitised DOM, made once per block. */
export function blockElement(block: RenderedBlock): HTMLElement {
  let element = elements.get(block);
  if (!element) {
    element = markdownElement(block.html);
    elements.set(block, element);
  }
  return element;
}
