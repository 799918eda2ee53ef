// Where a knowledge base keeps what it holds: the contract (KnowledgeStorage) and its in-memory
// implementation; src/store/knowledge-store.ts is the IndexedDB one. A base holds documents, and
// per document its extracted text, its original file (optional), its chunks and their vectors,
// kept per embedder key so that two models' vectors never mix. What must stay true, in both:
// - a write of a document (its record, text, file, chunks) is all or nothing; new chunks drop the
//   document's vectors (they were of the old chunks); deleting a document deletes all of it, and
//   deleting a base deletes all of its documents, in one step each;
// - every write of a base's content renews its revision and says which it replaced, so an index
//   built at one revision can follow this writer's changes and knows when another wrote;
// - a write naming a base or document that is not there changes nothing and throws
//   KnowledgeNotFoundError; what is read back is a copy (changing it changes nothing stored).

import { InvalidRequestError, KnowledgeNotFoundError } from '../core/errors.ts';
import type { KnowledgeBaseInfo, KnowledgeChunk, KnowledgeDocument, PageSpan } from './types.ts';

/** A document's extracted text, what its chunks' offsets point into. */
export interface DocumentText {
  text: string;
  pages?: PageSpan[];
}

/** A document's original file. */
export interface KnowledgeFile {
  name: string;
  type: string;
  bytes: Uint8Array;
}

/** What a document's write carries beside its record (absent: left as stored). */
export interface DocumentContent {
  text?: DocumentText;
  file?: KnowledgeFile;
  /** The document's chunks, all of them: they replace the stored ones, whose vectors go. */
  chunks?: KnowledgeChunk[];
}

/** The revision of a base a write replaced, and the one it wrote. */
export interface Revision {
  before: string;
  after: string;
}

/** A chunk's vector by one embedder. */
export type VectorEntry = [chunkId: string, vector: Float32Array | readonly number[]];

export interface KnowledgeStorage {
  /** Every base, the oldest first. */
  bases(): Promise<KnowledgeBaseInfo[]>;
  base(baseId: string): Promise<KnowledgeBaseInfo | undefined>;
  /** Creates a base, or changes its record (its content stays). */
  putBase(info: KnowledgeBaseInfo): Promise<void>;
  /** Deletes the base and everything in it. */
  deleteBase(baseId: string): Promise<void>;
  /** The base's revision (`undefined`: no such base). */
  revision(baseId: string): Promise<string | undefined>;
  documents(baseId: string): Promise<KnowledgeDocument[]>;
  /** A document by its id alone, in whichever base. */
  document(documentId: string): Promise<KnowledgeDocument | undefined>;
  /**
   * Writes a document's record, and what `content` carries, in one step. A new document comes
   * with its text and chunks; a write without them changes one that is there (else the document
   * was deleted meanwhile: KnowledgeNotFoundError, nothing written).
   */
  putDocument(document: KnowledgeDocument, content?: DocumentContent): Promise<Revision>;
  deleteDocument(baseId: string, documentId: string): Promise<Revision>;
  text(baseId: string, documentId: string): Promise<DocumentText | undefined>;
  file(baseId: string, documentId: string): Promise<KnowledgeFile | undefined>;
  /** The base's chunks (of one document, if given), each document's in order. */
  chunks(baseId: string, documentId?: string): Promise<KnowledgeChunk[]>;
  /** A chunk by its id alone. */
  chunk(chunkId: string): Promise<KnowledgeChunk | undefined>;
  /** The base's vectors by one embedder, by chunk id. */
  vectors(baseId: string, key: string): Promise<Map<string, Float32Array>>;
  /** The ids of the chunks that have a vector by this embedder (the vectors are not read). */
  vectorIds(baseId: string, key: string): Promise<Set<string>>;
  /**
   * Stores vectors by one embedder. Vectors of chunks that are gone (their document deleted or
   * re-chunked meanwhile) are left out; the ids of those written are returned.
   */
  putVectors(
    baseId: string,
    key: string,
    entries: readonly VectorEntry[],
  ): Promise<{ revision: Revision; written: string[] }>;
}

/** A chunk's id: `${documentId}:${seq}`. */
export const chunkIdOf = (documentId: string, seq: number) => `${documentId}:${seq}`;

/** The document and place a chunk id names (`undefined`: not a chunk id). */
export function parseChunkId(chunkId: string): { documentId: string; seq: number } | undefined {
  const cut = chunkId.lastIndexOf(':');
  const seq = Number(chunkId.slice(cut + 1));
  if (cut <= 0 || !Number.isInteger(seq) || seq < 0 || chunkId.slice(cut + 1) === '')
    return undefined;
  return { documentId: chunkId.slice(0, cut), seq };
}

export const baseNotFound = (baseId: string) =>
  new KnowledgeNotFoundError(`There is no knowledge base ${JSON.stringify(baseId)}.`);
export const documentNotFound = (documentId: string) =>
  new KnowledgeNotFoundError(`The knowledge base has no document ${JSON.stringify(documentId)}.`);

/**
 * The vectors as they are stored, checked: numbers all, of one length (and that of the vectors
 * already stored by the same embedder, `stored`), so a search never compares unlike vectors.
 */
export function storableVectors(
  entries: readonly VectorEntry[],
  stored: number | undefined,
): [ids: { documentId: string; seq: number; id: string }, vector: Float32Array][] {
  const length = stored ?? entries[0]?.[1].length;
  return entries.map(([id, value]) => {
    const place = parseChunkId(id);
    if (!place) throw new InvalidRequestError(`${JSON.stringify(id)} is not a chunk id.`);
    if (value.length === 0 || value.length !== length)
      throw new InvalidRequestError(
        `The vector of chunk ${id} has ${value.length} numbers; this embedder's have ${length}.`,
      );
    const vector = Float32Array.from(value);
    if (!vector.every(Number.isFinite))
      throw new InvalidRequestError(`The vector of chunk ${id} holds a value that is no number.`);
    return [{ ...place, id }, vector];
  });
}

/** A document's write, checked: its chunks are its own, numbered from 0 with their ids. */
export function checkDocumentWrite(document: KnowledgeDocument, content: DocumentContent): void {
  content.chunks?.forEach((chunk, i) => {
    if (
      chunk.baseId !== document.baseId ||
      chunk.documentId !== document.id ||
      chunk.seq !== i ||
      chunk.id !== chunkIdOf(document.id, i)
    )
      throw new InvalidRequestError(
        `Chunk ${JSON.stringify(chunk.id)} is not chunk ${i} of document ${document.id}.`,
      );
  });
}

interface HeldDocument {
  record: KnowledgeDocument;
  text?: DocumentText;
  file?: KnowledgeFile;
  chunks: KnowledgeChunk[];
  /** Embedder key → seq → vector. */
  vectors: Map<string, Map<number, Float32Array>>;
}

interface HeldBase {
  info: KnowledgeBaseInfo;
  revision: string;
  documents: Map<string, HeldDocument>;
}

const copy = structuredClone;

/** Knowledge bases in memory: for Node, tests, and pages that keep nothing. */
export class InMemoryKnowledgeStorage implements KnowledgeStorage {
  private readonly held = new Map<string, HeldBase>();

  async bases(): Promise<KnowledgeBaseInfo[]> {
    return [...this.held.values()].map((base) => copy(base.info));
  }

  async base(baseId: string): Promise<KnowledgeBaseInfo | undefined> {
    const base = this.held.get(baseId);
    return base && copy(base.info);
  }

  async putBase(info: KnowledgeBaseInfo): Promise<void> {
    const base = this.held.get(info.id);
    if (base) base.info = copy(info);
    else
      this.held.set(info.id, { info: copy(info), revision: newRevision(), documents: new Map() });
  }

  async deleteBase(baseId: string): Promise<void> {
    if (!this.held.delete(baseId)) throw baseNotFound(baseId);
  }

  async revision(baseId: string): Promise<string | undefined> {
    return this.held.get(baseId)?.revision;
  }

  async documents(baseId: string): Promise<KnowledgeDocument[]> {
    const base = this.held.get(baseId);
    return base ? [...base.documents.values()].map((held) => copy(held.record)) : [];
  }

  async document(documentId: string): Promise<KnowledgeDocument | undefined> {
    for (const base of this.held.values()) {
      const held = base.documents.get(documentId);
      if (held) return copy(held.record);
    }
    return undefined;
  }

  async putDocument(document: KnowledgeDocument, content: DocumentContent = {}) {
    const base = this.baseOf(document.baseId);
    checkDocumentWrite(document, content);
    // Copied before anything changes: a value that cannot be stored changes nothing.
    const record = copy(document);
    const { text, file, chunks } = copy(content);
    const found = base.documents.get(document.id);
    if (!found && (!text || !chunks)) throw documentNotFound(document.id);
    const held: HeldDocument = found ?? { record, chunks: [], vectors: new Map() };
    held.record = record;
    if (text) held.text = text;
    if (file) held.file = file;
    if (chunks) {
      held.chunks = chunks;
      held.vectors = new Map();
    }
    base.documents.set(document.id, held);
    return renew(base);
  }

  async deleteDocument(baseId: string, documentId: string): Promise<Revision> {
    const base = this.baseOf(baseId);
    if (!base.documents.delete(documentId)) throw documentNotFound(documentId);
    return renew(base);
  }

  async text(baseId: string, documentId: string): Promise<DocumentText | undefined> {
    const text = this.held.get(baseId)?.documents.get(documentId)?.text;
    return text && copy(text);
  }

  async file(baseId: string, documentId: string): Promise<KnowledgeFile | undefined> {
    const file = this.held.get(baseId)?.documents.get(documentId)?.file;
    return file && copy(file);
  }

  async chunks(baseId: string, documentId?: string): Promise<KnowledgeChunk[]> {
    const documents = [...(this.held.get(baseId)?.documents.values() ?? [])];
    const chosen =
      documentId === undefined ? documents : documents.filter((d) => d.record.id === documentId);
    return chosen.flatMap((held) => copy(held.chunks));
  }

  async chunk(chunkId: string): Promise<KnowledgeChunk | undefined> {
    const place = parseChunkId(chunkId);
    if (!place) return undefined;
    for (const base of this.held.values()) {
      const found = base.documents.get(place.documentId)?.chunks.find((c) => c.seq === place.seq);
      if (found) return copy(found);
    }
    return undefined;
  }

  async vectors(baseId: string, key: string): Promise<Map<string, Float32Array>> {
    const found = new Map<string, Float32Array>();
    for (const [documentId, vectors] of this.byKey(baseId, key))
      for (const [seq, vector] of vectors) found.set(chunkIdOf(documentId, seq), vector.slice());
    return found;
  }

  async vectorIds(baseId: string, key: string): Promise<Set<string>> {
    const ids = new Set<string>();
    for (const [documentId, vectors] of this.byKey(baseId, key))
      for (const seq of vectors.keys()) ids.add(chunkIdOf(documentId, seq));
    return ids;
  }

  async putVectors(baseId: string, key: string, entries: readonly VectorEntry[]) {
    const base = this.baseOf(baseId);
    const stored = this.byKey(baseId, key).next().value?.[1].values().next().value?.length;
    const checked = storableVectors(entries, stored);
    const written: string[] = [];
    for (const [{ documentId, seq, id }, vector] of checked) {
      const held = base.documents.get(documentId);
      if (!held?.chunks.some((chunk) => chunk.seq === seq)) continue;
      let vectors = held.vectors.get(key);
      if (!vectors) held.vectors.set(key, (vectors = new Map()));
      vectors.set(seq, vector);
      written.push(id);
    }
    return { revision: renew(base), written };
  }

  private baseOf(baseId: string): HeldBase {
    const base = this.held.get(baseId);
    if (!base) throw baseNotFound(baseId);
    return base;
  }

  /** Each document's vectors by this embedder. */
  private *byKey(baseId: string, key: string): Generator<[string, Map<number, Float32Array>]> {
    for (const [documentId, held] of this.held.get(baseId)?.documents ?? []) {
      const vectors = held.vectors.get(key);
      if (vectors && vectors.size > 0) yield [documentId, vectors];
    }
  }
}

export const newRevision = (): string => crypto.randomUUID();

function renew(base: HeldBase): Revision {
  const before = base.revision;
  base.revision = newRevision();
  return { before, after: base.revision };
}
