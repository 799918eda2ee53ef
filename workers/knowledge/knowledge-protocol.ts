// What crosses the worker boundary about knowledge bases (workers/knowledge/knowledge.ts): plain
// data only. `protocol.ts` re-exports it, as the page may import nothing else of the worker's.

import type {
  ChunkingOptions,
  EmbeddingChoice,
  KnowledgeBaseInfo,
  KnowledgeDocument,
  KnowledgeProgress,
  SearchMode,
} from '../../src/knowledge/types.ts';

export type {
  ChunkingOptions,
  DocumentKind,
  DocumentStatus,
  EmbeddingChoice,
  KnowledgeBaseInfo,
  KnowledgeDocument,
  KnowledgeProgress,
  KnowledgeSource,
  SearchMode,
} from '../../src/knowledge/types.ts';
export { CHUNKING_LIMITS, DEFAULT_CHUNKING, sourcesOf } from '../../src/knowledge/types.ts';

/** A base as the Knowledge view lists it. */
export interface KnowledgeBaseSummary extends KnowledgeBaseInfo {
  documents: KnowledgeDocument[];
  /** Chunks of all its documents. */
  chunks: number;
  /** Chunks that have a vector of the base's embedding model (absent: no model chosen). */
  embedded?: number;
  /** The job running on it now (adding, re-indexing, embedding), if any. */
  progress?: KnowledgeProgress;
}

/** A file to add, read by the page. */
export interface KnowledgeFileInput {
  name: string;
  /** Its MIME type as the browser gave it ('' when unknown: the name's extension decides). */
  type: string;
  bytes: ArrayBuffer;
}

export interface KnowledgeBaseDraft {
  name: string;
  description?: string;
  chunking?: ChunkingOptions;
  /** null: full-text only. */
  embedding?: EmbeddingChoice | null;
}

/** A search hit as the Knowledge view's "Try a search" shows it. */
export interface KnowledgeSearchHit {
  chunkId: string;
  documentId: string;
  document: string;
  place: string;
  /** The chunk's text, cut at KNOWLEDGE_TEXT_CHARS. */
  text: string;
  score: number;
}

/** Characters of a chunk's text sent to the page in a hit at most. */
export const KNOWLEDGE_TEXT_CHARS = 600;

/** A document opened at a chunk: the viewer shows `text` and marks `start`–`end`. */
export interface KnowledgeChunkView {
  baseId: string;
  documentId: string;
  document: string;
  kind: KnowledgeDocument['kind'];
  place: string;
  /** The document's text around the chunk (the page of a PDF; else up to ~6,000 characters). */
  text: string;
  /** The chunk's place in `text`. */
  start: number;
  end: number;
  /** Whether the document's original file is kept (so it can be downloaded). */
  hasFile: boolean;
}

/** The worker's knowledge room, as `api.knowledge` (see workers/knowledge/knowledge.ts). */
export interface KnowledgeApi {
  list(): Promise<KnowledgeBaseSummary[]>;
  create(draft: KnowledgeBaseDraft): Promise<KnowledgeBaseSummary>;
  /** Changing chunking re-chunks every document; changing the embedding model re-embeds. */
  update(baseId: string, draft: Partial<KnowledgeBaseDraft>): Promise<KnowledgeBaseSummary>;
  remove(baseId: string): Promise<void>;
  /** Starts adding (resolves when the job is queued); progress comes to `watch`'s listener. */
  addFiles(baseId: string, files: KnowledgeFileInput[]): Promise<void>;
  addText(baseId: string, input: { name: string; text: string }): Promise<void>;
  /** Stops the base's job: documents done stay, the one in progress is marked stopped. */
  stop(baseId: string): Promise<void>;
  reindex(baseId: string): Promise<void>;
  removeDocument(baseId: string, documentId: string): Promise<void>;
  search(
    baseIds: string[],
    query: string,
    options?: { limit?: number; mode?: SearchMode },
  ): Promise<KnowledgeSearchHit[]>;
  open(chunkId: string): Promise<KnowledgeChunkView>;
  /** The original file of a document, when kept. */
  file(documentId: string): Promise<{ name: string; type: string; bytes: ArrayBuffer }>;
}
