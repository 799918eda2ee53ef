// A document's text cut into chunks for a knowledge base: by Markdown headings (the heading path
// goes with each chunk), then by paragraphs packed up to the chunk size; a paragraph longer than a
// chunk is cut at a sentence's end, else at a space, else anywhere. Each chunk after the first of
// a section starts with the end of the chunk before it (the overlap), so a fact cut in two is
// whole in one of them.
//
// What must stay true:
// - every chunk is `doc.text.slice(start, end)`: the viewer opens the document at it;
// - a chunk is at most `size` characters, its overlap included, and holds more than whitespace;
// - the chunks are in the text's order, and the new text of each starts after the one before's;
// - a PDF's chunk never crosses a page, so its `page` is right for every word in it (a page's
//   last chunk may be short for it);
// - linear in the text's length: 1 MB chunks in milliseconds (no string built up in a loop, no
//   regular expression that backtracks over a long line).

import { InvalidRequestError } from '../core/errors.ts';
import {
  CHUNKING_LIMITS,
  type ChunkingOptions,
  type ExtractedDocument,
  type TextChunk,
} from './types.ts';

/** A stretch of the text chunked on its own: a section under one heading path, or a page. */
interface Segment {
  start: number;
  end: number;
  heading?: string;
  page?: number;
}

interface Paragraph {
  start: number;
  end: number;
}

/** How a heading path reads: outermost first. */
export const HEADING_SEPARATOR = ' › ';
/** A heading's words kept in a path at most (a "heading" that is a whole line of text). */
const HEADING_CHARS = 200;

/** The document's chunks, in order. Invalid options are an InvalidRequestError. */
export function chunkDocument(doc: ExtractedDocument, options: ChunkingOptions): TextChunk[] {
  checkChunking(options);
  const chunks: TextChunk[] = [];
  for (const segment of segmentsOf(doc)) chunkSegment(doc.text, segment, options, chunks);
  return chunks;
}

/** Chunking options as a base may hold them, or an InvalidRequestError saying what is wrong. */
export function checkChunking(options: ChunkingOptions): void {
  const { size, overlap } = options;
  const { minSize, maxSize } = CHUNKING_LIMITS;
  if (!Number.isInteger(size) || size < minSize || size > maxSize)
    throw new InvalidRequestError(
      `A chunk's size must be a whole number of characters from ${minSize} to ${maxSize.toLocaleString('en')} (it is ${String(size)}).`,
    );
  if (!Number.isInteger(overlap) || overlap < 0 || overlap * 2 >= size)
    throw new InvalidRequestError(
      `A chunk's overlap must be a whole number of characters from 0 to under half its size (${String(overlap)} of ${size}).`,
    );
}

function segmentsOf(doc: ExtractedDocument): Segment[] {
  if (doc.pages && doc.pages.length > 0)
    return doc.pages
      .filter((span) => span.end > span.start)
      .map((span) => ({ start: span.start, end: span.end, page: span.page }));
  if (doc.kind === 'markdown' || doc.kind === 'html') return sectionsOf(doc.text);
  return [{ start: 0, end: doc.text.length }];
}

/**
 * The text's sections by its ATX headings (`## Title`; not inside a code fence; setext headings,
 * underlined with `===`, are read as text). A heading with nothing under it before the next one
 * opens that one's first chunk rather than being a chunk of its own.
 */
function sectionsOf(text: string): Segment[] {
  const found: { start: number; bodyStart: number; heading?: string }[] = [
    { start: 0, bodyStart: 0 },
  ];
  const path: { level: number; title: string }[] = [];
  let fence = '';
  for (let lineStart = 0; lineStart <= text.length;) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    let i = lineStart;
    while (i < lineEnd && i - lineStart < 3 && text[i] === ' ') i++;
    const mark = text[i];
    if (mark === '`' || mark === '~') {
      let run = i;
      while (run < lineEnd && text[run] === mark) run++;
      const marks = text.slice(i, run);
      if (marks.length >= 3) {
        if (fence === '') fence = marks;
        else if (
          marks[0] === fence[0] &&
          marks.length >= fence.length &&
          isBlank(text, run, lineEnd)
        )
          fence = '';
      }
    } else if (mark === '#' && fence === '') {
      const heading = headingAt(text, i, lineEnd);
      if (heading) {
        while (path.length > 0 && path.at(-1)!.level >= heading.level) path.pop();
        path.push(heading);
        const next = lineEnd + 1;
        const headingPath = path.map((part) => part.title).join(HEADING_SEPARATOR);
        found.push({
          start: lineStart,
          bodyStart: Math.min(next, text.length),
          heading: headingPath,
        });
      }
    }
    lineStart = lineEnd + 1;
  }
  const sections: Segment[] = [];
  let carried: number | undefined;
  for (let n = 0; n < found.length; n++) {
    const section = found[n]!;
    const end = found[n + 1]?.start ?? text.length;
    const last = n === found.length - 1;
    if (isBlank(text, section.bodyStart, end) && !last) {
      // Only its heading: the heading line opens the next section's first chunk.
      if (section.heading !== undefined) carried ??= section.start;
      continue;
    }
    const start = carried ?? section.start;
    carried = undefined;
    if (!isBlank(text, start, end))
      sections.push({
        start,
        end,
        ...(section.heading !== undefined && { heading: section.heading }),
      });
  }
  return sections;
}

/** `#` to `######`, a space, a title: the title without closing `#`s, and its level. */
function headingAt(
  text: string,
  at: number,
  lineEnd: number,
): { level: number; title: string } | undefined {
  let i = at;
  while (i < lineEnd && text[i] === '#') i++;
  const level = i - at;
  if (level > 6 || i >= lineEnd || !isSpace(text.charCodeAt(i))) return undefined;
  let end = lineEnd;
  while (end > i && isSpace(text.charCodeAt(end - 1))) end--;
  let closing = end;
  while (closing > i && text[closing - 1] === '#') closing--;
  if (closing < end && isSpace(text.charCodeAt(closing - 1))) end = closing;
  const title = text.slice(i, Math.min(end, i + HEADING_CHARS * 2)).trim();
  return title === '' ? undefined : { level, title: title.slice(0, HEADING_CHARS) };
}

/** The segment's paragraphs (runs of lines that are not blank), each without its outer spaces. */
function paragraphsOf(text: string, segment: Segment): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  let open: Paragraph | undefined;
  for (let lineStart = segment.start; lineStart < segment.end;) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0 || lineEnd > segment.end) lineEnd = segment.end;
    let first = lineStart;
    while (first < lineEnd && isSpace(text.charCodeAt(first))) first++;
    if (first === lineEnd) {
      if (open) paragraphs.push(open);
      open = undefined;
    } else {
      let last = lineEnd;
      while (isSpace(text.charCodeAt(last - 1))) last--;
      if (open) open.end = last;
      else open = { start: first, end: last };
    }
    lineStart = lineEnd + 1;
  }
  if (open) paragraphs.push(open);
  return paragraphs;
}

function chunkSegment(
  text: string,
  segment: Segment,
  { size, overlap }: ChunkingOptions,
  out: TextChunk[],
): void {
  const paragraphs = paragraphsOf(text, segment);
  const place = {
    ...(segment.heading !== undefined && { heading: segment.heading }),
    ...(segment.page !== undefined && { page: segment.page }),
  };
  let index = 0;
  let at = paragraphs[0]?.start ?? segment.end;
  let previous: Paragraph | undefined;
  while (index < paragraphs.length) {
    const start = previous ? overlapStart(text, previous, at, overlap) : at;
    const limit = start + size;
    let end: number;
    if (paragraphs[index]!.end <= limit) {
      // Whole paragraphs (or a long one's rest), as many as fit.
      end = paragraphs[index]!.end;
      index++;
      while (index < paragraphs.length && paragraphs[index]!.end <= limit) {
        end = paragraphs[index]!.end;
        index++;
      }
      at = paragraphs[index]?.start ?? segment.end;
    } else {
      const paragraph = paragraphs[index]!;
      end = cutPoint(text, at, limit);
      at = end;
      while (at < paragraph.end && isSpace(text.charCodeAt(at))) at++;
      if (at >= paragraph.end) {
        index++;
        at = paragraphs[index]?.start ?? segment.end;
      }
    }
    out.push({ text: text.slice(start, end), start, end, ...place });
    previous = { start, end };
  }
}

/**
 * Where a chunk starts that goes on from `previous` with new text at `at`: up to `overlap`
 * characters back, at the start of a word of the chunk before; `at` when no whole word fits.
 */
function overlapStart(text: string, previous: Paragraph, at: number, overlap: number): number {
  let start = Math.max(at - overlap, previous.start);
  // Mid-word: on to the next word.
  if (start > previous.start && !isSpace(text.charCodeAt(start - 1)))
    while (start < at && !isSpace(text.charCodeAt(start))) start++;
  while (start < at && isSpace(text.charCodeAt(start))) start++;
  return start < previous.end ? start : at;
}

/**
 * Where to end a chunk of a paragraph too long for it, after `from` and at most at `limit`: the
 * last sentence's end in the window's second half, else the last space, else `limit` (never
 * between the two halves of a surrogate pair).
 */
function cutPoint(text: string, from: number, limit: number): number {
  const half = from + Math.ceil((limit - from) / 2);
  for (let end = limit; end > half; end--) if (endsSentence(text, end)) return end;
  for (let end = limit; end > from + 1; end--)
    if (isSpace(text.charCodeAt(end)) && !isSpace(text.charCodeAt(end - 1))) return end;
  const code = text.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff && limit - 1 > from ? limit - 1 : limit;
}

const CLOSERS = `"')]”’»`;

/** Whether a sentence ends just before `end`: `.`, `!` or `?` (and a closing quote) then a space. */
function endsSentence(text: string, end: number): boolean {
  const before = text[end - 1];
  if (before === '。' || before === '！' || before === '？') return true;
  if (!isSpace(text.charCodeAt(end))) return false;
  let i = end - 1;
  if (i > 0 && CLOSERS.includes(text[i]!)) i--;
  const mark = text[i];
  return mark === '.' || mark === '!' || mark === '?';
}

function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}

/** White space, as chunks are trimmed and cut at it (NaN, past the text's end, is not). */
function isSpace(code: number): boolean {
  return (
    code === 32 ||
    (code >= 9 && code <= 13) ||
    code === 0xa0 ||
    code === 0x3000 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0xfeff
  );
}
