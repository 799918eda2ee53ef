// The long parts of a knowledge base's jobs (knowledge-base.ts): embedding chunks in batches, with
// progress and Stop, and a search's query. What must stay true: each batch's vectors are stored in one write as soon as
// they come, so a Stop or a failure keeps the batches done (and `embed` makes only the rest); a
// Stop rejects with an AbortError, before the next batch is asked for.

import type { KnowledgeIndex } from './knowledge-index.ts';
import type { KnowledgeStorage, Revision, VectorEntry } from './knowledge-storage.ts';
import type { Embedder, KnowledgeChunk, KnowledgeDocument, KnowledgeProgress } from './types.ts';

export interface JobOptions {
  signal?: AbortSignal;
  onProgress?: (progress: KnowledgeProgress) => void;
  /** Makes vectors of the chunks (absent: full-text only). */
  embedder?: Embedder;
}

/** What a job needs of its base: where it stores, and how its index follows a write. */
export interface JobContext {
  baseId: string;
  storage: KnowledgeStorage;
  follow(revision: Revision, apply: (index: KnowledgeIndex) => boolean): void;
}

/** How a document's `error` starts when its vectors could not be made (`embed` clears it). */
export const NOT_EMBEDDED = 'Found by its words only:';

/** The AbortError a Stop rejects with. */
export function stopped(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if ((reason as Error | undefined)?.name === 'AbortError') return reason as Error;
  return new DOMException('Stopped', 'AbortError');
}

/** The query's vector by an embedder, asked of each embedder once. */
export function queryVectors(term: string, signal: AbortSignal | undefined) {
  const vectors = new Map<string, Promise<number[]>>();
  return (embedder: Embedder): Promise<number[]> => {
    let vector = vectors.get(embedder.key);
    if (!vector) {
      vector = embedder
        .embed([term], { purpose: 'query', ...(signal ? { signal } : {}) })
        .then((made) => made[0] ?? []);
      vectors.set(embedder.key, vector);
    }
    return vector;
  };
}

/** What is embedded of a chunk: its heading path too, which says what the text is about. */
const textOf = (chunk: KnowledgeChunk) =>
  chunk.heading ? `${chunk.heading}\n\n${chunk.text}` : chunk.text;

/** Embeds `chunks` by `embedder`, batch by batch, storing each batch's vectors as they come. */
export async function embedChunks(
  context: JobContext,
  chunks: readonly KnowledgeChunk[],
  embedder: Embedder,
  options: Omit<JobOptions, 'embedder'>,
  document?: string,
): Promise<void> {
  const { baseId, storage } = context;
  const { signal, onProgress } = options;
  const total = chunks.length;
  let done = 0;
  const report = () =>
    onProgress?.({ baseId, ...(document ? { document } : {}), phase: 'embedding', done, total });
  report();
  const size = Math.max(1, Math.floor(embedder.batchSize) || 1);
  for (let start = 0; start < total; start += size) {
    if (signal?.aborted) throw stopped(signal);
    const batch = chunks.slice(start, start + size);
    const vectors = await embedder.embed(batch.map(textOf), {
      purpose: 'document',
      ...(signal ? { signal } : {}),
    });
    if (signal?.aborted) throw stopped(signal);
    if (vectors.length !== batch.length)
      throw new Error(`The embedder gave ${vectors.length} vectors for ${batch.length} texts.`);
    const entries: VectorEntry[] = batch.map((chunk, i) => [chunk.id, vectors[i]!]);
    const { revision, written } = await storage.putVectors(baseId, embedder.key, entries);
    const kept = new Set(written);
    const byChunk = new Map(
      entries.flatMap(([id, vector]) => (kept.has(id) ? [[id, Float32Array.from(vector)]] : [])),
    );
    context.follow(revision, (index) => index.setVectors(embedder.key, byChunk));
    done += batch.length;
    report();
  }
}

/** Clears the note of documents whose vectors failed before, now that they are all made. */
export async function markEmbedded(
  context: JobContext,
  documents: readonly KnowledgeDocument[],
): Promise<void> {
  for (const document of documents) {
    if (document.status !== 'indexed' || !document.error?.startsWith(NOT_EMBEDDED)) continue;
    const { error: _, ...rest } = document;
    context.follow(await context.storage.putDocument(rest), () => true);
  }
}
