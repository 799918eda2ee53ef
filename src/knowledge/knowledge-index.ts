// The search index of one knowledge base: an Orama database of its chunks (their text, heading
// and document name, BM25) and, when the base has vectors by the embedder it was built for, their
// vectors (cosine similarity); hybrid search is Orama's (both scores, each divided by its best, and
// added with equal weights). Orama is imported when the first index is built, so it is a chunk of
// its own. What must stay true:
// - the index is a copy of what storage held at `revision`: KnowledgeBase moves it along with its
//   own writes (a document's chunks added or removed, vectors added) and builds it again when the
//   stored revision is another;
// - its vectors are all of one embedder (`vectorKey`) and of one length: vectors of another key
//   are never added, and a query vector of another length is refused;
// - a hit names a chunk that was in the base at `revision` (chunks are held here, by id);
// - a build gives the thread back every few tens of ms (a big base's takes seconds), and nothing
//   sees the index before it is whole.

import type {
  AnyIndexStore,
  AnyOrama,
  IIndex,
  Results,
  SearchParams,
  Tokenizer,
} from '@orama/orama';
import { InvalidRequestError } from '../core/errors.ts';
import type { KnowledgeChunk, KnowledgeHit, SearchMode } from './types.ts';

type Orama = typeof import('@orama/orama');
let loading: Promise<Orama> | undefined;
const loadOrama = () => (loading ??= import('@orama/orama'));

/** How long a build holds the thread before it gives way (a frame or two). */
const SLICE_MS = 40;

/**
 * Gives the thread back for a moment, behind whatever waits (a message, a timer). A message of
 * its own, not `scheduler.yield` (whose continuation goes ahead of the worker's other messages)
 * nor a timer (clamped to 4 ms when chained).
 */
function giveWay(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof MessageChannel !== 'function') return void setTimeout(resolve, 0);
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });
}

/** How much a word in a chunk's heading, or in its document's name, counts beside its text. */
const BOOST = { text: 1, heading: 1.5, document: 1.2 } as const;
/** Vector hits below this cosine similarity are not hits at all. */
export const MIN_SIMILARITY = 0.2;

interface IndexedChunk {
  id: string;
  text: string;
  heading: string;
  document: string;
  vector?: number[];
}

export interface IndexInput {
  chunks: readonly KnowledgeChunk[];
  /** Document id → its name. */
  names: ReadonlyMap<string, string>;
  /** The vectors of one embedder, by chunk id. */
  vectors?: { key: string; byChunk: ReadonlyMap<string, Float32Array> };
  revision: string;
}

export class KnowledgeIndex {
  /** The storage revision this index is a copy of (KnowledgeBase moves it along). */
  revision: string;
  private readonly held = new Map<string, { chunk: KnowledgeChunk; document: string }>();
  private readonly byDocument = new Map<string, string[]>();

  private constructor(
    private readonly orama: Orama,
    private readonly db: AnyOrama,
    /** The embedder whose vectors it holds (absent: full-text only). */
    readonly vectorKey: string | undefined,
    /** Their length (absent: it holds none, and takes none until built again). */
    readonly dimension: number | undefined,
    revision: string,
  ) {
    this.revision = revision;
  }

  static async build({ chunks, names, vectors, revision }: IndexInput): Promise<KnowledgeIndex> {
    const orama = await loadOrama();
    const dimension = vectors?.byChunk.values().next().value?.length;
    const db = orama.create({
      schema: {
        text: 'string',
        heading: 'string',
        document: 'string',
        ...(dimension ? { vector: `vector[${dimension}]` as const } : {}),
      },
      // Nothing is sorted by a field, so no field is kept sorted (a copy of every value).
      sort: { enabled: false },
      components: { tokenizer: await tokenizer(), index: scoring(orama) },
    });
    const index = new KnowledgeIndex(orama, db, vectors?.key, dimension, revision);
    // In slices, giving the thread back between them: a build of a big base takes seconds, and the
    // worker's other calls (another base's search, a Stop, progress) go on meanwhile. Nothing sees
    // the index before it is whole.
    let slice = performance.now();
    for (const chunk of chunks) {
      index.insertOne(chunk, names.get(chunk.documentId) ?? '', vectors?.byChunk.get(chunk.id));
      if (performance.now() - slice > SLICE_MS) {
        await giveWay();
        slice = performance.now();
      }
    }
    return index;
  }

  /** Chunks held. */
  get size(): number {
    return this.held.size;
  }

  /** Whether a vector search can find anything. */
  get hasVectors(): boolean {
    return this.dimension !== undefined;
  }

  /** Adds chunks (a document's, or several's), with their vectors by `vectorKey` if given. */
  insert(
    chunks: readonly KnowledgeChunk[],
    names: ReadonlyMap<string, string>,
    vectors?: ReadonlyMap<string, Float32Array>,
  ): void {
    for (const chunk of chunks)
      this.insertOne(chunk, names.get(chunk.documentId) ?? '', vectors?.get(chunk.id));
  }

  private insertOne(chunk: KnowledgeChunk, document: string, vector: Float32Array | undefined) {
    this.held.set(chunk.id, { chunk, document });
    const ids = this.byDocument.get(chunk.documentId);
    if (ids) ids.push(chunk.id);
    else this.byDocument.set(chunk.documentId, [chunk.id]);
    this.orama.insert(this.db, this.docOf(chunk, document, vector));
  }

  /** Removes a document's chunks (none held: nothing happens). */
  removeDocument(documentId: string): void {
    const ids = this.byDocument.get(documentId);
    if (!ids) return;
    this.byDocument.delete(documentId);
    for (const id of ids) {
      this.held.delete(id);
      this.orama.remove(this.db, id);
    }
  }

  /**
   * Gives chunks their vectors by `key`. False when it cannot (this index holds no vectors yet,
   * so has no field for them): it must be built again.
   */
  setVectors(key: string, vectors: ReadonlyMap<string, Float32Array>): boolean {
    if (key !== this.vectorKey) return true;
    if (this.dimension === undefined) return vectors.size === 0;
    for (const [id, vector] of vectors) {
      const held = this.held.get(id);
      if (!held || vector.length !== this.dimension) continue;
      this.orama.remove(this.db, id);
      this.orama.insert(this.db, this.docOf(held.chunk, held.document, vector));
    }
    return true;
  }

  /**
   * The best chunks for `query` (full-text) or `vector` (the query's, by `vectorKey`), or both
   * (hybrid). Scores are Orama's: BM25 for full-text, cosine for vector, 0–1 for hybrid.
   */
  search(
    query: string,
    options: { limit: number; mode: SearchMode; vector?: readonly number[] },
  ): KnowledgeHit[] {
    const { limit, mode, vector } = options;
    if (mode !== 'fulltext') {
      if (!vector || this.dimension === undefined)
        throw new InvalidRequestError(`A ${mode} search needs the base's vectors and the query's.`);
      if (vector.length !== this.dimension)
        throw new InvalidRequestError(
          `The query's vector has ${vector.length} numbers; the base's vectors have ${this.dimension}.`,
        );
    }
    const text = { term: query, properties: ['text', 'heading', 'document'], boost: BOOST };
    const near = {
      vector: { value: [...(vector ?? [])], property: 'vector' },
      similarity: MIN_SIMILARITY,
    };
    // threshold 1: a chunk with any of the query's words is a hit (0 would want all of them).
    const params: SearchParams<AnyOrama> =
      mode === 'fulltext'
        ? { ...text, limit, threshold: 1 }
        : mode === 'vector'
          ? { mode: 'vector', ...near, limit }
          : { mode: 'hybrid', ...text, ...near, limit, threshold: 1 };
    const results = this.orama.search(this.db, params) as unknown as Results<IndexedChunk>;
    return results.hits.flatMap((hit) => {
      const held = this.held.get(hit.id);
      return held ? [{ chunk: held.chunk, document: held.document, score: hit.score }] : [];
    });
  }

  private docOf(chunk: KnowledgeChunk, document: string, vector?: Float32Array): IndexedChunk {
    const doc: IndexedChunk = {
      id: chunk.id,
      text: chunk.text,
      heading: chunk.heading ?? '',
      document,
    };
    if (vector && this.vectorKey !== undefined && vector.length === this.dimension)
      doc.vector = Array.from(vector);
    return doc;
  }
}

/**
 * Orama's index with two steps mended. Orama counts a token's uses in a field by reading all the
 * field's tokens once per token (quadratic in a chunk's words): here they are counted once. And
 * it counts the chunks that hold a token in a plain object, where the word "constructor" finds
 * Object's own and is counted as in no chunk at all (so it outweighs every rare word): here that
 * object has no prototype. Frequencies and occurrences are otherwise Orama's own.
 */
function scoring(orama: Orama): IIndex<AnyIndexStore> {
  const own = orama.components.index.createIndex() as unknown as IIndex<AnyIndexStore>;
  const { getInternalDocumentId } = orama.components.internalDocumentIDStore;
  let counted: readonly string[] | undefined;
  let counts = new Map<string, number>();
  type Store = {
    sharedInternalDocumentStore: Parameters<typeof getInternalDocumentId>[0];
    frequencies: Record<string, Record<number, Record<string, number>>>;
    tokenOccurrences: Record<string, Record<string, number>>;
  };
  return {
    ...own,
    create(...args) {
      const index = own.create(...args) as unknown as Store;
      for (const prop of Object.keys(index.tokenOccurrences))
        index.tokenOccurrences[prop] = Object.create(null) as Record<string, number>;
      return index as unknown as AnyIndexStore;
    },
    insertTokenScoreParameters(index, prop, id, tokens, token) {
      if (tokens !== counted) {
        counted = tokens;
        counts = new Map();
        for (const each of tokens) counts.set(each, (counts.get(each) ?? 0) + 1);
      }
      const store = index as unknown as Store;
      const internalId = getInternalDocumentId(store.sharedInternalDocumentStore, id);
      store.frequencies[prop]![internalId]![token] = (counts.get(token) ?? 0) / tokens.length;
      const occurrences = store.tokenOccurrences[prop]!;
      occurrences[token] = (occurrences[token] ?? 0) + 1;
    },
  };
}

/**
 * Words in any script (Orama's English splitter drops every letter outside Latin), lowercased,
 * accents dropped, English words stemmed and the commonest left out; each Chinese or Japanese character is a word of its own
 * (those scripts put no spaces between words). A query is split the same way.
 */
async function tokenizer(): Promise<Tokenizer> {
  const { components } = await loadOrama();
  const english = components.tokenizer.createTokenizer({ language: 'english', stemming: true });
  const stem = (english as unknown as { stemmer: (word: string) => string }).stemmer;
  const cache = new Map<string, string>();
  const normal = (word: string) => {
    let token = cache.get(word);
    if (token === undefined) {
      token = STOP_WORDS.has(word) ? '' : /^[a-z]+$/.test(word) ? stem(word) : word;
      cache.set(word, token);
    }
    return token;
  };
  return {
    language: 'english',
    normalizationCache: cache,
    tokenize(raw: string): string[] {
      if (typeof raw !== 'string') return [raw];
      const tokens = new Set<string>();
      const lower = raw.toLowerCase();
      // Text all ASCII has no accents to drop: the commonest case skips the costliest step.
      const words = ASCII.test(lower) ? lower : lower.normalize('NFKD').replace(/\p{M}+/gu, '');
      for (const word of words.match(WORD) ?? []) tokens.add(normal(word));
      tokens.delete('');
      return [...tokens];
    },
  };
}

/**
 * English words too common to tell chunks apart: left out of the index (a third of a text's
 * words, and those in every chunk, so the most costly to index) and of queries.
 */
const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by for from had has have he her his i if in into is it its ' +
    'me my no not of on or our she so than that the their them then there these they this those ' +
    'to too was we were what when where which while who whom why will with would you your'
  ).split(' '),
);

const ASCII = /^[\x00-\x7f]*$/;
const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}';
const WORD = new RegExp(`[${CJK}]|(?:(?![${CJK}])[\\p{L}\\p{N}])+`, 'gu');

/**
 * Hits of several bases' searches as one list: each base's scores divided by its best (scores of
 * two indexes, BM25 above all, are not comparable as they are), best first; ties keep each
 * base's order, then the bases' order.
 */
export function mergeHits(lists: readonly KnowledgeHit[][], limit: number): KnowledgeHit[] {
  const scored = lists.flatMap((hits, list) => {
    const best = Math.max(0, ...hits.map((hit) => hit.score));
    return hits.map((hit, rank) => ({
      hit: { ...hit, score: best > 0 ? hit.score / best : 0 },
      rank,
      list,
    }));
  });
  scored.sort((a, b) => b.hit.score - a.hit.score || a.rank - b.rank || a.list - b.list);
  return scored.slice(0, limit).map(({ hit }) => hit);
}
