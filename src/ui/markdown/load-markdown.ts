// Loads the Markdown renderer (markdown-it, highlight.js, DOMPurify: tens of KB) the first time a
// message needs it, in a chunk of its own, so that the first page load does not pay for it.

import { unbrokenCut } from '../../core/value-preview.ts';

export type MarkdownLibrary = typeof import('./markdown-renderer.ts');

/** Longer messages are shown as plain text: parsing and highlighting them would cost too much. */
export const MARKDOWN_MAX_CHARS = 200_000;

/**
 * Whether a message is shown as Markdown: one too long, or holding a run too long to break
 * (value-preview's UNBROKEN_CHARS: a base64 blob, a 64 KB "word"), is shown as plain text, cut
 * short with Show all, since Markdown lays out every character of it.
 */
export const fitsMarkdown = (text: string) =>
  text.length <= MARKDOWN_MAX_CHARS && unbrokenCut(text, text.length) === text.length;

let library: MarkdownLibrary | undefined;
let loading: Promise<MarkdownLibrary> | undefined;

/** The renderer, if it has been loaded. */
export const loadedMarkdown = () => library;

export function loadMarkdown(): Promise<MarkdownLibrary> {
  loading ??= import('./markdown-renderer.ts').then(
    (module) => (library = module),
    (error: unknown) => {
      loading = undefined; // a later message tries again (the chunk may be reachable by then)
      throw error;
    },
  );
  return loading;
}
