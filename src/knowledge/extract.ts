// Documents read into text for a knowledge base: a file the user added (text, Markdown, HTML, PDF)
// or text they pasted. The text read here is what chunks point into (their offsets) and what the
// document viewer shows, so it is kept as read, with line ends made `\n`.
//
// What must stay true: a document that cannot be read (a kind not accepted, bytes that are not
// UTF-8 text, a binary file, a damaged or scanned PDF, too large, empty) is an InvalidRequestError
// whose message names the file and says why, and nothing is read from it; the caller's bytes are
// never changed. PDFs are read by pdf-text.ts, loaded only when a PDF comes.

import { InvalidRequestError } from '../core/errors.ts';
import { htmlToText } from './html-text.ts';
import type { DocumentKind, ExtractedDocument } from './types.ts';

/** What a document may be at most: a file's bytes, and the characters read from it. */
export const DOCUMENT_LIMITS = { maxBytes: 50 * 1024 * 1024, maxChars: 20_000_000 } as const;

/** The kinds a knowledge base accepts, as an error message lists them. */
const ACCEPTED =
  'text (.txt, .text, .log, .csv), Markdown (.md, .markdown), HTML (.html, .htm), PDF';

const BY_TYPE: Readonly<Record<string, DocumentKind>> = {
  'text/plain': 'text',
  'text/csv': 'text',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'application/pdf': 'pdf',
};

const BY_EXTENSION: Readonly<Record<string, DocumentKind>> = {
  txt: 'text',
  text: 'text',
  log: 'text',
  csv: 'text',
  md: 'markdown',
  markdown: 'markdown',
  html: 'html',
  htm: 'html',
  pdf: 'pdf',
};

/**
 * Types a browser gives files it knows little about: the name's extension says more (a `.md`
 * file is often `text/plain`, or has no type at all).
 */
const VAGUE_TYPES = new Set(['', 'text/plain', 'application/octet-stream']);

/** A file's kind, by its MIME type, else by its name's extension; undefined: not accepted. */
export function kindOf(name: string, type: string): DocumentKind | undefined {
  const mime = type.split(';')[0]!.trim().toLowerCase();
  const dot = name.lastIndexOf('.');
  const byExtension = dot >= 0 ? BY_EXTENSION[name.slice(dot + 1).toLowerCase()] : undefined;
  if (VAGUE_TYPES.has(mime)) return byExtension ?? (mime === 'text/plain' ? 'text' : undefined);
  return BY_TYPE[mime] ?? (mime.startsWith('text/') ? 'text' : undefined);
}

/** A file read into text: its kind decides how. */
export async function extractDocument(
  input: { name: string; type: string; bytes: Uint8Array },
  options: { signal?: AbortSignal } = {},
): Promise<ExtractedDocument> {
  const { name, type, bytes } = input;
  options.signal?.throwIfAborted();
  const kind = kindOf(name, type);
  if (kind === undefined)
    throw new InvalidRequestError(
      `"${name}" is not a kind of document a knowledge base can read${type ? ` (${type})` : ''}: add ${ACCEPTED}.`,
    );
  if (bytes.byteLength > DOCUMENT_LIMITS.maxBytes)
    throw new InvalidRequestError(
      `"${name}" is ${megabytes(bytes.byteLength)}: a document may be at most ${megabytes(DOCUMENT_LIMITS.maxBytes)}.`,
    );
  if (bytes.byteLength === 0) throw new InvalidRequestError(`"${name}" is empty.`);
  if (kind === 'pdf') {
    const { pdfToText } = await import('./pdf-text.ts');
    return checked(name, await pdfToText(name, bytes, options));
  }
  const text = decodeText(name, bytes);
  return checked(name, { kind, text: kind === 'html' ? normalise(htmlToText(text)) : text });
}

/** Pasted text, as a document: Markdown when its name or its look says so, else plain text. */
export function extractText(name: string, text: string): ExtractedDocument {
  const named = kindOf(name, '');
  const kind: DocumentKind =
    named === 'markdown' || named === 'html'
      ? named
      : looksLikeMarkdown(text)
        ? 'markdown'
        : 'text';
  if (text.length > DOCUMENT_LIMITS.maxChars) throw tooLong(name, text.length);
  const read = normalise(text);
  return checked(name, { kind, text: kind === 'html' ? normalise(htmlToText(read)) : read });
}

function checked(name: string, document: ExtractedDocument): ExtractedDocument {
  if (document.text.length > DOCUMENT_LIMITS.maxChars) throw tooLong(name, document.text.length);
  if (document.text.trim() === '') throw new InvalidRequestError(`"${name}" has no text in it.`);
  return document;
}

const tooLong = (name: string, chars: number) =>
  new InvalidRequestError(
    `"${name}" holds ${chars.toLocaleString('en')} characters of text: a document may hold at most ${DOCUMENT_LIMITS.maxChars.toLocaleString('en')}. Split it into smaller files.`,
  );

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** Line ends as `\n`, so offsets mean the same wherever the text came from. */
const normalise = (text: string) => text.replace(/\r\n?/g, '\n');

/**
 * Bytes as text: UTF-8 (its byte order mark dropped), or UTF-16 when a byte order mark says so.
 * NUL bytes near the start mean a binary file, as git decides.
 */
function decodeText(name: string, bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return normalise(decode(name, 'utf-16le', bytes));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return normalise(decode(name, 'utf-16be', bytes));
  if (bytes.subarray(0, 8000).includes(0))
    throw new InvalidRequestError(
      `"${name}" is not a text file (it holds binary data): add ${ACCEPTED}.`,
    );
  return normalise(decode(name, 'utf-8', bytes));
}

function decode(name: string, encoding: string, bytes: Uint8Array): string {
  try {
    // TextDecoder drops the byte order mark itself (ignoreBOM is false).
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    const label = encoding === 'utf-8' ? 'UTF-8' : 'UTF-16';
    throw new InvalidRequestError(
      `"${name}" is not ${label} text: save it as UTF-8 and add it again.`,
    );
  }
}

/** Whether pasted text reads as Markdown: a heading, a code fence, a link, or a list. */
function looksLikeMarkdown(text: string): boolean {
  const sample = text.length > 20_000 ? text.slice(0, 20_000) : text;
  return (
    /^ {0,3}#{1,6}[ \t]+\S/m.test(sample) ||
    /^ {0,3}(```|~~~)/m.test(sample) ||
    /\[[^\]\n]{1,200}\]\([^)\s]{1,500}\)/.test(sample) ||
    (sample.match(/^ {0,3}[-*+][ \t]+\S/gm)?.length ?? 0) >= 2
  );
}
