// Knowledge bases in IndexedDB (KnowledgeStorage, src/knowledge/knowledge-storage.ts, says what
// must stay true). Stores: `knowledgeBases` (each base and its revision), and keyed by base then
// document: `knowledgeDocuments`, `knowledgeTexts`, `knowledgeFiles`, `knowledgeChunks` (a
// document's chunks, one record) and `knowledgeVectors` (`[base, embedder key, document, seqs]`:
// a document's vectors by one embedder, one record). One record per document, not per chunk: a
// bulk read costs ~0.1 ms a record in Chromium, so a base of 10,000 chunks read 10,000 records
// before its first search. So a base's or a document's records are one key range, and a delete is
// one request per store (a document's vectors, under every key, are found through `byDocument`).
// Each write is one transaction that also renews the base's revision: a full disk
// (StorageFullError) or any other failure leaves nothing of it written. Reads are bulk `getAll`s
// in pages, never cursors: a cursor over a range is slow in Chromium and quadratic in
// fake-indexeddb.

import {
  baseNotFound,
  checkDocumentWrite,
  storableVectors,
  chunkIdOf,
  documentNotFound,
  newRevision,
  parseChunkId,
  type DocumentContent,
  type DocumentText,
  type KnowledgeFile,
  type KnowledgeStorage,
  type Revision,
  type VectorEntry,
} from '../knowledge/knowledge-storage.ts';
import type { KnowledgeBaseInfo, KnowledgeChunk, KnowledgeDocument } from '../knowledge/types.ts';
import { DatabaseRef, type IndexedDbServiceOptions } from './connection.ts';
import { Stores, type KnowledgeBaseRecord, type KnowledgeChunksRecord } from './database.ts';
import { packChunks, packVectors, seqsOf, unpackVectors, vectorsKey } from './knowledge-records.ts';
import { readTransaction, writeTransaction, type WriteTx } from './transaction.ts';

const STORES = [
  Stores.knowledgeBases,
  Stores.knowledgeDocuments,
  Stores.knowledgeTexts,
  Stores.knowledgeFiles,
  Stores.knowledgeChunks,
  Stores.knowledgeVectors,
];
type KnowledgeTx = WriteTx<typeof STORES>;

/**
 * Records a bulk read takes at a time: each is a whole document's chunks (~1 MB for a thousand)
 * or vectors (~3 MB for a thousand of 768 numbers).
 */
const PAGE = 16;

/** Every key that starts with `prefix`. */
function prefixed(...prefix: (string | number)[]): IDBKeyRange {
  // An array key sorts after every string and number, so `[…, []]` bounds any longer key.
  return IDBKeyRange.bound(prefix, [...prefix, []]);
}

const infoOf = ({ revision: _, ...info }: KnowledgeBaseRecord): KnowledgeBaseInfo => info;

export class IndexedDbKnowledgeStorage implements KnowledgeStorage {
  private readonly database: DatabaseRef;

  constructor(options: IndexedDbServiceOptions = {}) {
    this.database = DatabaseRef.acquire(options.dbName);
  }

  /** Releases this storage's hold on the database connection. */
  close(): Promise<void> {
    return this.database.release();
  }

  async bases(): Promise<KnowledgeBaseInfo[]> {
    const db = await this.database.open();
    const records = await readTransaction(db, [Stores.knowledgeBases], (tx) =>
      tx.objectStore(Stores.knowledgeBases).getAll(),
    );
    return records.map(infoOf).sort((a, b) => a.createdAt - b.createdAt);
  }

  async base(baseId: string): Promise<KnowledgeBaseInfo | undefined> {
    const record = await this.baseRecord(baseId);
    return record && infoOf(record);
  }

  async putBase(info: KnowledgeBaseInfo): Promise<void> {
    const db = await this.database.open();
    await writeTransaction(db, [Stores.knowledgeBases], async (tx) => {
      const store = tx.objectStore(Stores.knowledgeBases);
      const held = await store.get(info.id);
      await store.put({ ...info, revision: held?.revision ?? newRevision() });
    });
  }

  async deleteBase(baseId: string): Promise<void> {
    await this.write(baseId, async (tx) => {
      const range = prefixed(baseId);
      await Promise.all([
        tx.objectStore(Stores.knowledgeBases).delete(baseId),
        ...STORES.slice(1).map((name) => tx.objectStore(name).delete(range)),
      ]);
    });
  }

  async revision(baseId: string): Promise<string | undefined> {
    return (await this.baseRecord(baseId))?.revision;
  }

  async documents(baseId: string): Promise<KnowledgeDocument[]> {
    const db = await this.database.open();
    return readTransaction(db, [Stores.knowledgeDocuments], (tx) =>
      tx.objectStore(Stores.knowledgeDocuments).getAll(prefixed(baseId)),
    );
  }

  async document(documentId: string): Promise<KnowledgeDocument | undefined> {
    const db = await this.database.open();
    return readTransaction(db, [Stores.knowledgeDocuments], (tx) =>
      tx.objectStore(Stores.knowledgeDocuments).index('byId').get(documentId),
    );
  }

  async putDocument(document: KnowledgeDocument, content: DocumentContent = {}) {
    checkDocumentWrite(document, content);
    const { baseId, id: documentId } = document;
    const { text, file, chunks } = content;
    const { revision } = await this.write(baseId, async (tx) => {
      if (!text || !chunks) {
        const held = await tx.objectStore(Stores.knowledgeDocuments).count([baseId, documentId]);
        if (held === 0) throw documentNotFound(documentId);
      }
      const requests: Promise<unknown>[] = [
        tx.objectStore(Stores.knowledgeDocuments).put(document),
      ];
      if (text)
        requests.push(tx.objectStore(Stores.knowledgeTexts).put({ baseId, documentId, ...text }));
      if (file) {
        const { name, type } = file;
        const bytes = file.bytes.slice().buffer;
        requests.push(
          tx.objectStore(Stores.knowledgeFiles).put({ baseId, documentId, name, type, bytes }),
        );
      }
      if (chunks) {
        requests.push(tx.objectStore(Stores.knowledgeChunks).put(packChunks(document, chunks)));
        requests.push(dropVectors(tx, baseId, documentId));
      }
      await Promise.all(requests);
    });
    return revision;
  }

  async deleteDocument(baseId: string, documentId: string): Promise<Revision> {
    const { revision } = await this.write(baseId, async (tx) => {
      const key: [string, string] = [baseId, documentId];
      const documents = tx.objectStore(Stores.knowledgeDocuments);
      if ((await documents.count(key)) === 0) throw documentNotFound(documentId);
      await Promise.all([
        documents.delete(key),
        tx.objectStore(Stores.knowledgeTexts).delete(key),
        tx.objectStore(Stores.knowledgeFiles).delete(key),
        tx.objectStore(Stores.knowledgeChunks).delete(key),
        dropVectors(tx, baseId, documentId),
      ]);
    });
    return revision;
  }

  async text(baseId: string, documentId: string): Promise<DocumentText | undefined> {
    const db = await this.database.open();
    const record = await readTransaction(db, [Stores.knowledgeTexts], (tx) =>
      tx.objectStore(Stores.knowledgeTexts).get([baseId, documentId]),
    );
    if (!record) return undefined;
    return { text: record.text, ...(record.pages ? { pages: record.pages } : {}) };
  }

  async file(baseId: string, documentId: string): Promise<KnowledgeFile | undefined> {
    const db = await this.database.open();
    const record = await readTransaction(db, [Stores.knowledgeFiles], (tx) =>
      tx.objectStore(Stores.knowledgeFiles).get([baseId, documentId]),
    );
    return record && { name: record.name, type: record.type, bytes: new Uint8Array(record.bytes) };
  }

  async chunks(baseId: string, documentId?: string): Promise<KnowledgeChunk[]> {
    const db = await this.database.open();
    return readTransaction(db, [Stores.knowledgeChunks], async (tx) => {
      const store = tx.objectStore(Stores.knowledgeChunks);
      if (documentId !== undefined) {
        const record = await store.get([baseId, documentId]);
        return record ? unpackChunks(record) : [];
      }
      const found: KnowledgeChunk[] = [];
      for await (const page of pages(store, prefixed(baseId), (r) => [r.baseId, r.documentId]))
        for (const record of page) found.push(...unpackChunks(record));
      return found;
    });
  }

  async chunk(chunkId: string): Promise<KnowledgeChunk | undefined> {
    const place = parseChunkId(chunkId);
    // Only the id as chunkIdOf writes it names a chunk ("doc:07" does not).
    if (!place || chunkIdOf(place.documentId, place.seq) !== chunkId) return undefined;
    const db = await this.database.open();
    const stores = [Stores.knowledgeDocuments, Stores.knowledgeChunks];
    return readTransaction(db, stores, async (tx) => {
      const document = await tx
        .objectStore(Stores.knowledgeDocuments)
        .index('byId')
        .get(place.documentId);
      if (!document) return undefined;
      const record = await tx
        .objectStore(Stores.knowledgeChunks)
        .get([document.baseId, document.id]);
      return record && place.seq < record.texts.length ? chunkAt(record, place.seq) : undefined;
    });
  }

  async vectors(baseId: string, key: string): Promise<Map<string, Float32Array>> {
    const db = await this.database.open();
    return readTransaction(db, [Stores.knowledgeVectors], async (tx) => {
      const store = tx.objectStore(Stores.knowledgeVectors);
      const found = new Map<string, Float32Array>();
      for await (const page of pages(store, prefixed(baseId, key), vectorsKey))
        for (const record of page)
          for (const [seq, vector] of unpackVectors(record))
            found.set(chunkIdOf(record.documentId, seq), vector);
      return found;
    });
  }

  async vectorIds(baseId: string, key: string): Promise<Set<string>> {
    const db = await this.database.open();
    const keys = await readTransaction(db, [Stores.knowledgeVectors], (tx) =>
      tx.objectStore(Stores.knowledgeVectors).getAllKeys(prefixed(baseId, key)),
    );
    return new Set(
      keys.flatMap(([, , documentId, seqs]) =>
        seqsOf(seqs).map((seq) => chunkIdOf(documentId, seq)),
      ),
    );
  }

  async putVectors(baseId: string, key: string, entries: readonly VectorEntry[]) {
    return this.write(baseId, async (tx) => {
      const store = tx.objectStore(Stores.knowledgeVectors);
      const documents = tx.objectStore(Stores.knowledgeDocuments);
      // (A bad id is refused by storableVectors below.)
      const named = entries.flatMap(([id]) => parseChunkId(id)?.documentId ?? []);
      const documentIds = [...new Set(named)];
      const [held, stored] = await Promise.all([
        Promise.all(documentIds.map((id) => documents.get([baseId, id]))),
        Promise.all(documentIds.map((id) => store.getAll(prefixed(baseId, key, id)))),
      ]);
      // The length this embedder's vectors have: of a record read already, if one was.
      const dimension =
        stored.flat()[0]?.dimension ?? (await store.getAll(prefixed(baseId, key), 1))[0]?.dimension;
      const checked = storableVectors(entries, dimension);
      // A vector is kept only for a chunk that is there now: its document may have gone, or
      // been cut into other chunks, while the embedder worked.
      const counts = new Map(documentIds.map((id, i) => [id, held[i]?.chunkCount ?? 0]));
      const kept = checked.filter(([{ documentId, seq }]) => seq < counts.get(documentId)!);
      // Each touched document's record is read, added to and written again (under a new key when
      // its seqs change: the old one goes first, requests run in the order made).
      const requests: Promise<unknown>[] = [];
      documentIds.forEach((documentId, i) => {
        const mine = kept.filter(([place]) => place.documentId === documentId);
        if (mine.length === 0) return;
        const vectors = new Map(stored[i]!.flatMap(unpackVectors));
        for (const [{ seq }, vector] of mine) vectors.set(seq, vector);
        for (const record of stored[i]!) requests.push(store.delete(vectorsKey(record)));
        requests.push(store.put(packVectors(baseId, key, documentId, vectors)));
      });
      await Promise.all(requests);
      return kept.map(([place]) => place.id);
    }).then(({ revision, result: written }) => ({ revision, written }));
  }

  private async baseRecord(baseId: string): Promise<KnowledgeBaseRecord | undefined> {
    const db = await this.database.open();
    return readTransaction(db, [Stores.knowledgeBases], (tx) =>
      tx.objectStore(Stores.knowledgeBases).get(baseId),
    );
  }

  /**
   * Runs a write of a base's content in one transaction over every knowledge store, after
   * checking the base is there, and renews its revision (a deleted base has none to renew).
   */
  private async write<T>(
    baseId: string,
    body: (tx: KnowledgeTx) => Promise<T>,
  ): Promise<{ revision: Revision; result: T }> {
    const db = await this.database.open();
    return writeTransaction(db, STORES, async (tx) => {
      const bases = tx.objectStore(Stores.knowledgeBases);
      const held = await bases.get(baseId);
      if (!held) throw baseNotFound(baseId);
      const result = await body(tx);
      const after = newRevision();
      if (await bases.count(baseId)) await bases.put({ ...held, revision: after });
      return { revision: { before: held.revision, after }, result };
    });
  }
}

/** Deletes a document's vectors, of every embedder. */
async function dropVectors(tx: KnowledgeTx, baseId: string, documentId: string): Promise<void> {
  const store = tx.objectStore(Stores.knowledgeVectors);
  const keys = await store.index('byDocument').getAllKeys([baseId, documentId]);
  await Promise.all(keys.map((key) => store.delete(key)));
}

/**
 * A range's records, read in pages of PAGE: each page starts after the key (`keyOf`) of the last
 * record of the one before.
 */
async function* pages<R>(
  store: { getAll(range: IDBKeyRange, count: number): Promise<R[]> },
  range: IDBKeyRange,
  keyOf: (record: R) => IDBValidKey,
): AsyncGenerator<R[]> {
  let page = await store.getAll(range, PAGE);
  while (page.length > 0) {
    yield page;
    if (page.length < PAGE) return;
    const from = keyOf(page[page.length - 1]!);
    page = await store.getAll(IDBKeyRange.bound(from, range.upper, true), PAGE);
  }
}

/** Chunk `seq` of a document's record (knowledge-records.ts packs them). */
function chunkAt(record: KnowledgeChunksRecord, seq: number): KnowledgeChunk {
  const { baseId, documentId } = record;
  const chunk: KnowledgeChunk = {
    id: chunkIdOf(documentId, seq),
    baseId,
    documentId,
    seq,
    text: record.texts[seq]!,
    start: record.starts[seq]!,
    end: record.ends[seq]!,
  };
  const heading = record.headings?.[seq];
  if (heading !== undefined) chunk.heading = heading;
  const page = record.pages?.[seq];
  if (page !== undefined) chunk.page = page;
  return chunk;
}

const unpackChunks = (record: KnowledgeChunksRecord): KnowledgeChunk[] =>
  record.texts.map((_, seq) => chunkAt(record, seq));
