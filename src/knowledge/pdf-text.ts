// A PDF read into text page by page with pdf.js (pdfjs-dist), for a knowledge base. pdf.js is
// loaded on first use (a chunk of its own, never in the first page's load), and its parser runs in
// this same thread: in the app this is already the runtime worker, so no nested worker and no
// worker script URL; `isEvalSupported: false` keeps it within the policy that allows no eval
// (src/security-headers.ts). In Node (tests, the library) the legacy build runs, as the modern one
// needs newer Node than 20; the bundler never sees that import. No CMap files are shipped, so a
// PDF whose fonts need one of Adobe's predefined CMaps (some CJK ones) may read poorly.
//
// What must stay true: `pages` are the pages' exact places in `text`, in order, one per page (an
// empty page spans nothing); a PDF without any text (scanned images), a damaged one or one that
// needs a password is a clear InvalidRequestError; a Stop is seen between pages and ends the read
// with an AbortError; the caller's bytes are never detached or changed.

import { InvalidRequestError } from '../core/errors.ts';
import type { ExtractedDocument, PageSpan } from './types.ts';

type Pdfjs = typeof import('pdfjs-dist');

/** What a text item of pdf.js holds that the text is built from. */
interface PdfTextItem {
  str: string;
  hasEOL: boolean;
  /** [a, b, c, d, x, y]: x and y are where the item starts, y up the page. */
  transform: number[];
  width: number;
  height: number;
}

interface PdfLine {
  text: string;
  y: number;
  height: number;
}

// Held in variables so the bundler leaves them alone: only Node takes this path.
const NODE_LIBRARY = 'pdfjs-dist/legacy/build/pdf.mjs';
const NODE_PARSER = 'pdfjs-dist/legacy/build/pdf.worker.mjs';

let loading: Promise<Pdfjs> | undefined;

const runsInNode = () =>
  typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node ===
  'string';

/** pdf.js, with its parser in this thread (pdf.js looks for it at `globalThis.pdfjsWorker`). */
function loadPdfjs(): Promise<Pdfjs> {
  loading ??= (async () => {
    const scope = globalThis as { pdfjsWorker?: unknown };
    if (runsInNode()) {
      scope.pdfjsWorker ??= await import(/* @vite-ignore */ NODE_PARSER);
      return (await import(/* @vite-ignore */ NODE_LIBRARY)) as Pdfjs;
    }
    scope.pdfjsWorker ??= await withoutParserGreeting(
      () => import('pdfjs-dist/build/pdf.worker.mjs'),
    );
    return await import('pdfjs-dist');
  })();
  // A failed load (a chunk that did not arrive) is tried again next time.
  loading.catch(() => (loading = undefined));
  return loading;
}

/**
 * Runs `load` (the import of pdf.js's parser) without letting the parser greet its page. Loaded in
 * a dedicated worker, the parser module takes the worker for one of its own and posts a "ready"
 * message to the worker's page, which here is the app's page talking Comlink with the runtime;
 * that one message is dropped, every other passes as it would (the import is asynchronous, and
 * the runtime's own replies go on meanwhile). The parser's listener on the worker stays, and
 * answers only messages addressed to a pdf.js worker, which nothing sends.
 */
async function withoutParserGreeting<T>(load: () => Promise<T>): Promise<T> {
  const scope = globalThis as { postMessage?: unknown };
  const post = scope.postMessage;
  if (typeof post !== 'function') return load();
  const own = Object.hasOwn(scope, 'postMessage');
  scope.postMessage = function (this: unknown, message: unknown, ...rest: unknown[]) {
    if (isParserGreeting(message)) return;
    return (post as (...args: unknown[]) => void).call(this, message, ...rest);
  };
  try {
    return await load();
  } finally {
    if (own) scope.postMessage = post;
    else delete scope.postMessage;
  }
}

function isParserGreeting(message: unknown): boolean {
  const data = message as { sourceName?: unknown; targetName?: unknown; action?: unknown } | null;
  return data?.sourceName === 'worker' && data.targetName === 'main' && data.action === 'ready';
}

/** The text of a PDF, page by page, and where each page lies in it. */
export async function pdfToText(
  name: string,
  bytes: Uint8Array,
  options: { signal?: AbortSignal } = {},
): Promise<ExtractedDocument> {
  const { signal } = options;
  signal?.throwIfAborted();
  const pdfjs = await loadPdfjs();
  signal?.throwIfAborted();
  const task = pdfjs.getDocument({
    // A copy: pdf.js may take the buffer over, and the caller's bytes stay the caller's.
    data: bytes.slice(),
    isEvalSupported: false,
    isOffscreenCanvasSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  });
  const stop = () => void task.destroy();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    const pdf = await task.promise.catch((error: unknown) => {
      signal?.throwIfAborted();
      throw unreadable(name, error);
    });
    const texts: string[] = [];
    const pages: PageSpan[] = [];
    let length = 0;
    for (let number = 1; number <= pdf.numPages; number++) {
      signal?.throwIfAborted();
      const pageText = await readPage(pdf, number);
      if (pageText !== '' && length > 0) {
        texts.push('\n\n');
        length += 2;
      }
      pages.push({ page: number, start: length, end: length + pageText.length });
      texts.push(pageText);
      length += pageText.length;
    }
    signal?.throwIfAborted();
    if (length === 0)
      throw new InvalidRequestError(
        `"${name}" has no text to read: it may be scanned images, which cannot be searched.`,
      );
    return { kind: 'pdf', text: texts.join(''), pages };
  } catch (error) {
    signal?.throwIfAborted();
    if (error instanceof InvalidRequestError) throw error;
    throw unreadable(name, error);
  } finally {
    signal?.removeEventListener('abort', stop);
    await task.destroy();
  }
}

type PdfDocument = Awaited<ReturnType<Pdfjs['getDocument']>['promise']>;

async function readPage(pdf: PdfDocument, number: number): Promise<string> {
  const page = await pdf.getPage(number);
  try {
    const content = await page.getTextContent();
    return pageTextOf(content.items.filter(isTextItem));
  } finally {
    page.cleanup();
  }
}

function unreadable(name: string, error: unknown): InvalidRequestError {
  const kind = (error as { name?: unknown } | null)?.name;
  if (kind === 'PasswordException')
    return new InvalidRequestError(
      `"${name}" is protected by a password, so it cannot be read: add an unprotected copy.`,
    );
  return new InvalidRequestError(
    `"${name}" could not be read as a PDF: it may be damaged or not a PDF (${messageOf(error)}).`,
  );
}

const messageOf = (error: unknown) =>
  error instanceof Error ? error.message : String(error ?? 'unknown error');

function isTextItem<T extends object>(item: T): item is T & PdfTextItem {
  return typeof (item as { str?: unknown }).str === 'string';
}

/**
 * A page's text from its items, in their order: an item that ends a line (`hasEOL`) or one set
 * lower or higher than the line so far starts a new line; a gap between lines well over the
 * page's usual line spacing (or a jump up, to a new column) is a blank line, so paragraphs stay.
 */
export function pageTextOf(items: readonly PdfTextItem[]): string {
  const lines: PdfLine[] = [];
  let parts: string[] = [];
  let lineY = 0;
  let lineHeight = 0;
  let lastEnd = 0;
  const endLine = () => {
    const text = parts
      .join('')
      .replace(/[ \t\u00a0]+/g, ' ')
      .trim();
    if (text !== '') lines.push({ text, y: lineY, height: lineHeight });
    parts = [];
  };
  for (const item of items) {
    const x = item.transform[4] ?? 0;
    const y = item.transform[5] ?? 0;
    const height = Math.abs(item.height) || Math.abs(item.transform[3] ?? 0) || 10;
    if (parts.length > 0 && Math.abs(y - lineY) > Math.max(height, lineHeight) * 0.5) endLine();
    if (item.str !== '') {
      if (parts.length === 0) {
        lineY = y;
        lineHeight = height;
      } else if (
        x - lastEnd > height * 0.2 &&
        !/\s$/.test(parts.at(-1)!) &&
        !/^\s/.test(item.str)
      ) {
        // Words placed apart with no space between them in the text.
        parts.push(' ');
      }
      parts.push(item.str);
      lastEnd = x + item.width;
    }
    if (item.hasEOL) endLine();
  }
  endLine();
  return joinLines(lines);
}

function joinLines(lines: readonly PdfLine[]): string {
  const gaps: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const gap = lines[i - 1]!.y - lines[i]!.y;
    if (gap > 0) gaps.push(gap);
  }
  gaps.sort((a, b) => a - b);
  // The lower median: on a page of few lines, one paragraph gap must not set the usual spacing.
  // With a single gap there is nothing to compare: a usual line spacing is about 1.2 lines.
  const usual = gaps.length >= 2 ? gaps[Math.floor((gaps.length - 1) / 2)]! : undefined;
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (i > 0) {
      const gap = lines[i - 1]!.y - line.y;
      const spacing = usual ?? line.height * 1.2;
      const newBlock = gap < -line.height || (gap > spacing * 1.4 && gap > line.height * 1.3);
      out.push(newBlock ? '\n\n' : '\n');
    }
    out.push(line.text);
  }
  return out.join('');
}
