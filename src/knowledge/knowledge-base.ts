// A knowledge base, the library's API (Node or the worker): documents added are read into text
// (extract.ts), cut into chunks (chunk.ts), stored (a KnowledgeStorage: in memory, or IndexedDB
// through src/store/knowledge-store.ts) and found by search (knowledge-index.ts, Orama), by their
// words and, with an embedder, by meaning. What must stay true:
// - a document is added whole or not at all: its record, text, file and chunks are one write; a
//   Stop while it is read or embedded removes it again (the call rejects with an AbortError);
//   documents added before stay;
// - a document whose text is stored but whose vectors could not be made stays, `indexed` and
//   found by full-text search, its `error` saying so; the call rejects with a
//   KnowledgeEmbeddingError (`embed` makes the vectors later);
// - a search sees what storage holds now: the index is built from storage when first searched,
//   moved along with this base's own writes, and built again when storage's revision is another
//   (another tab, or another KnowledgeBase on the same storage, wrote);
// - bad input (no name, bad chunking, an id of nothing, an empty query) is an InvalidRequestError
//   or KnowledgeNotFoundError and changes nothing.

import {
  InvalidRequestError,
  isTrellisError,
  KnowledgeEmbeddingError,
  messageOf,
} from '../core/errors.ts';
import { checkChunking, chunkDocument } from './chunk.ts';
import { extractDocument, extractText } from './extract.ts';
import { HeldIndex } from './held-index.ts';
import { mergeHits } from './knowledge-index.ts';
import {
  embedChunks,
  markEmbedded,
  NOT_EMBEDDED,
  queryVectors,
  stopped,
  type JobContext,
  type JobOptions,
} from './knowledge-jobs.ts';
import { baseNotFound, chunkIdOf, type KnowledgeStorage } from './knowledge-storage.ts';
import {
  DEFAULT_CHUNKING,
  type ChunkingOptions,
  type EmbeddingChoice,
  type Embedder,
  type ExtractedDocument,
  type KnowledgeBaseInfo,
  type KnowledgeChunk,
  type KnowledgeDocument,
  type KnowledgeHit,
  type SearchMode,
} from './types.ts';

export type { JobOptions } from './knowledge-jobs.ts';

/** A file to add, or text (pasted, or read elsewhere) under a name. */
export type DocumentInput =
  { name: string; type: string; bytes: Uint8Array } | { name: string; text: string };

export interface AddOptions extends JobOptions {
  /** Keep the original file's bytes (to download it later); default true. Text keeps none. */
  keepFile?: boolean;
}

export interface SearchOptions {
  /** Hits at most (1–100; default 5). */
  limit?: number;
  /**
   * Default: hybrid when an embedder is given and the base has its vectors, else full-text. A
   * hybrid search of a base without those vectors is a full-text one; a vector search, an error.
   */
  mode?: SearchMode;
  embedder?: Embedder;
  /** searchMany: each base's own embedder, by base id (else `embedder`). */
  embedders?: ReadonlyMap<string, Embedder>;
  signal?: AbortSignal;
}

export interface BaseDraft {
  name: string;
  description?: string;
  chunking?: ChunkingOptions;
  embedding?: EmbeddingChoice;
}

/** A change of a base's record; `embedding: null` makes it full-text only. */
export type BaseChange = Partial<Omit<BaseDraft, 'embedding'>> & {
  embedding?: EmbeddingChoice | null;
};

export const MAX_SEARCH_LIMIT = 100;
const NAME_CHARS = 200;

export class KnowledgeBase {
  private readonly index: HeldIndex;
  /** The record as this base last read or wrote it (`info()`). */
  private held: KnowledgeBaseInfo;

  private constructor(
    readonly storage: KnowledgeStorage,
    info: KnowledgeBaseInfo,
  ) {
    this.held = info;
    this.index = new HeldIndex(storage, info.id);
  }

  get id(): string {
    return this.held.id;
  }

  static async create(storage: KnowledgeStorage, draft: BaseDraft): Promise<KnowledgeBase> {
    const now = Date.now();
    const info: KnowledgeBaseInfo = {
      id: crypto.randomUUID(),
      name: nameOf(draft.name, 'A knowledge base'),
      description: draft.description?.trim() ?? '',
      chunking: { ...(draft.chunking ?? DEFAULT_CHUNKING) },
      ...(draft.embedding ? { embedding: { ...draft.embedding } } : {}),
      createdAt: now,
      updatedAt: now,
    };
    checkChunking(info.chunking);
    await storage.putBase(info);
    return new KnowledgeBase(storage, info);
  }

  static async open(storage: KnowledgeStorage, baseId: string): Promise<KnowledgeBase> {
    const info = await storage.base(baseId);
    if (!info) throw baseNotFound(baseId);
    return new KnowledgeBase(storage, info);
  }

  /**
   * The record as this base last read or wrote it (opened, updated, or a job started): another
   * tab's change shows once the base is opened again. Jobs read it from storage when they start.
   */
  info(): KnowledgeBaseInfo {
    return structuredClone(this.held);
  }

  /** The record as stored now. */
  private async stored(): Promise<KnowledgeBaseInfo> {
    const info = await this.storage.base(this.id);
    if (!info) throw baseNotFound(this.id);
    this.held = info;
    return info;
  }

  async documents(): Promise<KnowledgeDocument[]> {
    await this.stored();
    const documents = await this.storage.documents(this.id);
    return documents.sort((a, b) => a.addedAt - b.addedAt);
  }

  /** Changes the record. A change of chunking is the caller's to follow with `reindex`. */
  async update(change: BaseChange): Promise<KnowledgeBaseInfo> {
    const held = await this.stored();
    const { embedding: _, ...rest } = held;
    const next: KnowledgeBaseInfo = {
      ...rest,
      ...(change.name !== undefined ? { name: nameOf(change.name, 'A knowledge base') } : {}),
      ...(change.description !== undefined ? { description: change.description.trim() } : {}),
      ...(change.chunking ? { chunking: { ...change.chunking } } : {}),
      updatedAt: Date.now(),
    };
    const embedding = change.embedding === undefined ? held.embedding : change.embedding;
    if (embedding) next.embedding = { ...embedding };
    checkChunking(next.chunking);
    await this.storage.putBase(next);
    this.held = next;
    return structuredClone(next);
  }

  /** Deletes the base and everything in it. */
  async delete(): Promise<void> {
    await this.storage.deleteBase(this.id);
    this.index.drop();
  }

  /** Reads, chunks and stores a document, then embeds its chunks when given an embedder. */
  async add(input: DocumentInput, options: AddOptions = {}): Promise<KnowledgeDocument> {
    const { signal, onProgress, embedder, keepFile = true } = options;
    const name = nameOf(input.name, 'A document');
    const report = (phase: 'reading' | 'indexing' | 'done', done = 0) =>
      onProgress?.({ baseId: this.id, document: name, phase, done, total: 1 });
    const { chunking } = await this.stored();
    report('reading');
    const extracted =
      'bytes' in input
        ? await extractDocument({ ...input, name }, { signal })
        : extractText(name, input.text);
    if (signal?.aborted) throw stopped(signal);
    const id = crypto.randomUUID();
    const chunks = this.chunksOf(id, extracted, chunking);
    report('indexing');
    const document: KnowledgeDocument = {
      id,
      baseId: this.id,
      name,
      kind: extracted.kind,
      size: 'bytes' in input ? input.bytes.byteLength : new TextEncoder().encode(input.text).length,
      chars: extracted.text.length,
      ...(extracted.pages ? { pages: extracted.pages.length } : {}),
      chunkCount: chunks.length,
      status: embedder ? 'indexing' : 'indexed',
      addedAt: Date.now(),
    };
    const { text, pages } = extracted;
    const file =
      'bytes' in input && keepFile ? { name, type: input.type, bytes: input.bytes } : undefined;
    const revision = await this.storage.putDocument(document, {
      text: { text, ...(pages ? { pages } : {}) },
      ...(file ? { file } : {}),
      chunks,
    });
    this.index.follow(revision, (index) => index.insert(chunks, new Map([[id, name]])));
    if (!embedder) {
      report('done', 1);
      return document;
    }
    const done = await this.embedAdded(document, chunks, embedder, options);
    report('done', 1);
    return done;
  }

  /** Removes a document and all of it (its text, file, chunks and vectors). */
  async remove(documentId: string): Promise<void> {
    const revision = await this.storage.deleteDocument(this.id, documentId);
    this.index.follow(revision, (index) => index.removeDocument(documentId));
  }

  /**
   * Cuts every document again with the base's chunking (their vectors go with their old chunks),
   * one document at a time; with an embedder, then embeds the new chunks. A Stop keeps the
   * documents done.
   */
  async reindex(options: JobOptions = {}): Promise<void> {
    const { signal, onProgress, embedder } = options;
    const { chunking } = await this.stored();
    const documents = await this.documents();
    let done = 0;
    for (const document of documents) {
      if (signal?.aborted) throw stopped(signal);
      const progress = { baseId: this.id, document: document.name, total: documents.length };
      onProgress?.({ ...progress, phase: 'indexing', done });
      const text = await this.storage.text(this.id, document.id);
      // A document whose text was never stored (it failed to be read) has nothing to cut again.
      if (text) {
        const chunks = this.chunksOf(document.id, { kind: document.kind, ...text }, chunking);
        const { error: _, ...rest } = document;
        const record: KnowledgeDocument = { ...rest, chunkCount: chunks.length, status: 'indexed' };
        const revision = await this.storage.putDocument(record, { chunks });
        this.index.follow(revision, (index) => {
          index.removeDocument(document.id);
          index.insert(chunks, new Map([[document.id, document.name]]));
        });
      }
      done++;
    }
    if (embedder) await this.embed(embedder, { signal, ...(onProgress ? { onProgress } : {}) });
    onProgress?.({ baseId: this.id, phase: 'done', done, total: documents.length });
  }

  /** Makes the vectors `embedder` has not made yet of this base's chunks. */
  async embed(embedder: Embedder, options: Omit<JobOptions, 'embedder'> = {}): Promise<void> {
    await this.stored();
    const [chunks, have] = await Promise.all([
      this.storage.chunks(this.id),
      this.storage.vectorIds(this.id, embedder.key),
    ]);
    const lacking = chunks.filter((chunk) => !have.has(chunk.id));
    await embedChunks(this.job, lacking, embedder, options);
    await markEmbedded(this.job, await this.storage.documents(this.id));
  }

  /** How many of the base's chunks have a vector by the embedder `key`. */
  async embeddedCount(key: string): Promise<number> {
    return (await this.storage.vectorIds(this.id, key)).size;
  }

  /** Builds the index a search by `embedder` uses, ahead of it (a search meanwhile waits on it). */
  async prepare(embedder?: Embedder): Promise<void> {
    await this.index.current(embedder?.key);
  }

  /** The chunks that best match `query`, best first. */
  async search(query: string, options: SearchOptions = {}): Promise<KnowledgeHit[]> {
    return KnowledgeBase.searchMany([this], query, options);
  }

  /**
   * Searches several bases at once. Each base is searched on its own index, its scores divided by
   * its best (so a base's best hit scores 1, whatever its size or words), and the hits merged by
   * that score; ties keep each base's order. The query is embedded once per embedder.
   */
  static async searchMany(
    bases: readonly KnowledgeBase[],
    query: string,
    options: SearchOptions = {},
  ): Promise<KnowledgeHit[]> {
    const term = query.trim();
    if (!term) throw new InvalidRequestError('Search for some words: the query is empty.');
    const limit = options.limit ?? 5;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT)
      throw new InvalidRequestError(
        `A search returns 1 to ${MAX_SEARCH_LIMIT} hits (${String(limit)} asked).`,
      );
    const queryVector = queryVectors(term, options.signal);
    const unique = [...new Map(bases.map((base) => [base.id, base])).values()];
    const lists = await Promise.all(
      unique.map((base) => {
        const embedder = options.embedders?.get(base.id) ?? options.embedder;
        return base.searchOwn(term, limit, options.mode, embedder, queryVector);
      }),
    );
    return mergeHits(lists, limit);
  }

  private async searchOwn(
    term: string,
    limit: number,
    asked: SearchMode | undefined,
    embedder: Embedder | undefined,
    queryVector: (embedder: Embedder) => Promise<number[]>,
  ): Promise<KnowledgeHit[]> {
    if (asked && asked !== 'fulltext' && !embedder)
      throw new InvalidRequestError(`A ${asked} search needs an embedder to embed the query.`);
    const index = await this.index.current(embedder?.key);
    if (asked === 'vector' && !index.hasVectors)
      throw new InvalidRequestError(
        `This knowledge base has no vectors by ${embedder!.key} yet: embed its documents first, or search its words.`,
      );
    if (!embedder || !index.hasVectors) return index.search(term, { limit, mode: 'fulltext' });
    const mode = asked ?? 'hybrid';
    if (mode === 'fulltext') return index.search(term, { limit, mode });
    return index.search(term, { limit, mode, vector: await queryVector(embedder) });
  }

  private chunksOf(
    documentId: string,
    extracted: ExtractedDocument,
    chunking: ChunkingOptions,
  ): KnowledgeChunk[] {
    return chunkDocument(extracted, chunking).map((chunk, seq) => ({
      ...chunk,
      id: chunkIdOf(documentId, seq),
      baseId: this.id,
      documentId,
      seq,
    }));
  }

  /** Embeds a document just added; a Stop removes it again, a failure leaves it full-text. */
  private async embedAdded(
    document: KnowledgeDocument,
    chunks: readonly KnowledgeChunk[],
    embedder: Embedder,
    options: JobOptions,
  ): Promise<KnowledgeDocument> {
    try {
      await embedChunks(this.job, chunks, embedder, options, document.name);
    } catch (error) {
      if ((error as Error | null)?.name === 'AbortError' || options.signal?.aborted) {
        // Removed meanwhile (another tab deleted it, or its base) is as good as removed here.
        await this.remove(document.id).catch((removal: unknown) => {
          if (!isTrellisError(removal, 'KnowledgeNotFoundError')) throw removal;
        });
        throw options.signal ? stopped(options.signal) : error;
      }
      const failed: KnowledgeDocument = {
        ...document,
        status: 'indexed',
        error: `${NOT_EMBEDDED} its vectors could not be made (${messageOf(error)}).`,
      };
      this.index.follow(await this.storage.putDocument(failed), () => true);
      throw new KnowledgeEmbeddingError(
        `"${document.name}" was added and is found by its words, but its vectors could not be made: ${messageOf(error)}`,
        { cause: error },
      );
    }
    const indexed: KnowledgeDocument = { ...document, status: 'indexed' };
    this.index.follow(await this.storage.putDocument(indexed), () => true);
    return indexed;
  }

  /** What the jobs (knowledge-jobs.ts) need of this base. */
  private get job(): JobContext {
    return {
      baseId: this.id,
      storage: this.storage,
      follow: (revision, apply) => this.index.follow(revision, apply),
    };
  }
}

/** A name as given, trimmed, or an InvalidRequestError. */
function nameOf(name: unknown, what: string): string {
  const trimmed = typeof name === 'string' ? name.trim() : '';
  if (!trimmed) throw new InvalidRequestError(`${what} needs a name.`);
  if (trimmed.length > NAME_CHARS)
    throw new InvalidRequestError(`${what}'s name may be at most ${NAME_CHARS} characters.`);
  return trimmed;
}
