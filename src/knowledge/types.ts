// The data of knowledge bases (issue 34): a base holds documents the user added, each read into
// text and split into chunks; searches find chunks, and a knowledge tool hands them to the model as
// numbered sources that answers cite. Plain data only: the page imports it (through
// workers/knowledge/knowledge-protocol.ts), the library and the worker store it.
//
// What must stay true: a chunk's `start`/`end` are offsets into its document's extracted text, so
// the viewer can open the document at the chunk; a source handed to the model names its document
// and place in words (never an id alone), and carries the ids that open it.

/** How a base splits its documents, in characters. */
export interface ChunkingOptions {
  /** A chunk's length at most (a longer paragraph is split at sentences, then at spaces). */
  size: number;
  /** Characters of the chunk before that a chunk starts with (context across the cut). */
  overlap: number;
}

export const DEFAULT_CHUNKING: ChunkingOptions = { size: 1000, overlap: 150 };
/** What the user may set: chunks of 200–8,000 characters, overlap under half a chunk. */
export const CHUNKING_LIMITS = { minSize: 200, maxSize: 8000 } as const;

/** The model a base's vectors come from: a provider of Settings → Providers, and a model name. */
export interface EmbeddingChoice {
  providerId: string;
  model: string;
}

export interface KnowledgeBaseInfo {
  id: string;
  name: string;
  /** What it holds, in the user's words: a knowledge tool's description says it to the model. */
  description: string;
  chunking: ChunkingOptions;
  /** Absent: full-text search only. */
  embedding?: EmbeddingChoice;
  createdAt: number;
  updatedAt: number;
}

export type DocumentKind = 'text' | 'markdown' | 'html' | 'pdf';

export type DocumentStatus = 'indexing' | 'indexed' | 'stopped' | 'failed';

export interface KnowledgeDocument {
  id: string;
  baseId: string;
  /** The file's name, or the name given to pasted text. */
  name: string;
  kind: DocumentKind;
  /** The file's size in bytes (pasted text: its UTF-8 length). */
  size: number;
  /** Characters of extracted text. */
  chars: number;
  /** A PDF's pages. */
  pages?: number;
  chunkCount: number;
  status: DocumentStatus;
  /** Why it failed (a clear sentence, no secret). */
  error?: string;
  addedAt: number;
}

/** Where a page of a PDF lies in its extracted text. */
export interface PageSpan {
  /** 1-based. */
  page: number;
  start: number;
  end: number;
}

/** A document read into text. */
export interface ExtractedDocument {
  kind: DocumentKind;
  text: string;
  /** PDFs: each page's place in `text`, in order. */
  pages?: PageSpan[];
}

/** A piece of a document's text, as the chunker cuts it. */
export interface TextChunk {
  text: string;
  /** Offsets of `text` in the document's extracted text. */
  start: number;
  end: number;
  /** The headings the chunk is under, outermost first ("Setup › Install"). */
  heading?: string;
  /** A PDF's page the chunk starts on (1-based). */
  page?: number;
}

export interface KnowledgeChunk extends TextChunk {
  /** `${documentId}:${seq}`. */
  id: string;
  baseId: string;
  documentId: string;
  /** Its place in the document, from 0. */
  seq: number;
}

export type SearchMode = 'fulltext' | 'vector' | 'hybrid';

export interface KnowledgeHit {
  chunk: KnowledgeChunk;
  /** The document's name. */
  document: string;
  score: number;
}

/**
 * A chunk as a knowledge tool gives it to the model, and as the answer's references show it. The
 * shape is how the chat finds sources in any tool's response (`{ sources: KnowledgeSource[] }`),
 * whatever the tool is called (`search_knowledge`, or a Flowise retriever's own name).
 */
export interface KnowledgeSource {
  /** Its number in the turn, from 1: what an answer cites as [n]. */
  source: number;
  document: string;
  /** Where in the document, in words: "page 3", "Setup › Install", "part 4". */
  place: string;
  text: string;
  ref: { baseId: string; documentId: string; chunkId: string; start: number; end: number };
}

/**
 * The sources in a tool's response: those of `{ sources: [...] }` that have every field a source
 * has (a response is any tool's, even a hostile server's: the chat shows only what fits).
 */
export function sourcesOf(response: unknown): KnowledgeSource[] {
  const list = (response as { sources?: unknown } | null)?.sources;
  return Array.isArray(list) ? list.filter(isSource) : [];
}

function isSource(value: unknown): value is KnowledgeSource {
  const source = value as Partial<KnowledgeSource> | null;
  const ref = source?.ref as Partial<KnowledgeSource['ref']> | undefined;
  return (
    typeof source === 'object' &&
    source !== null &&
    Number.isInteger(source.source) &&
    source.source! > 0 &&
    typeof source.document === 'string' &&
    typeof source.place === 'string' &&
    typeof source.text === 'string' &&
    typeof ref === 'object' &&
    ref !== null &&
    typeof ref.chunkId === 'string' &&
    typeof ref.documentId === 'string' &&
    typeof ref.baseId === 'string'
  );
}

/** A place of a chunk in words, as sources name it. */
export function placeOf(chunk: Pick<TextChunk, 'page' | 'heading'> & { seq: number }): string {
  const parts: string[] = [];
  if (chunk.page !== undefined) parts.push(`page ${chunk.page}`);
  if (chunk.heading) parts.push(chunk.heading);
  return parts.length > 0 ? parts.join(', ') : `part ${chunk.seq + 1}`;
}

/** Progress of adding, re-indexing or embedding, for a progress bar. */
export interface KnowledgeProgress {
  baseId: string;
  /** The document being read, when there is one. */
  document?: string;
  phase: 'reading' | 'indexing' | 'embedding' | 'done' | 'stopped' | 'failed';
  /** Units done of `total` (documents, or chunks while embedding). */
  done: number;
  total: number;
  /** When `phase` is failed: why. */
  error?: string;
}

/**
 * What turns texts into vectors (src/knowledge/embedders.ts: Gemini, OpenAI-compatible; the
 * worker's local GGUF one). `key` names the vectors it makes: a base keeps them per key, so a
 * change of model re-embeds and never mixes two models' vectors.
 */
export interface Embedder {
  /** `${providerId}/${model}`. */
  readonly key: string;
  /** Texts per request at most. */
  readonly batchSize: number;
  /** One vector per text, in order; `query` marks a search's text (some models embed it apart). */
  embed(
    texts: string[],
    options?: { signal?: AbortSignal; purpose?: 'document' | 'query' },
  ): Promise<number[][]>;
}
