// Knowledge bases in IndexedDB (KnowledgeStorage, src/knowledge/knowledge-storage.ts, says what
// must stay true). Stores: `knowledgeBases` (each base and its revision), and keyed by base then
// document: `knowledgeDocuments`, `knowledgeTexts`, `knowledgeFiles`, `knowledgeChunks`
// (`[base, document, seq]`) and `knowledgeVectors` (`[base, embedder key, document, seq]`). So a
// base's or a document's records are one key range, and a delete is one request per store (the
// vectors of one document, under every key, are found through `byDocument`). Each write is one
// transaction that also renews the base's revision: a full disk (StorageFullError) or any other
// failure leaves nothing of it written. Reads are bulk `getAll`s in pages, never cursors: a
// cursor over a range is slow in Chromium and quadratic in fake-indexeddb.

import {
  baseNotFound,
  checkDocumentWrite,
  storableVectors,
  chunkIdOf,
  documentNotFound,
  newRevision,
  type DocumentContent,
  type DocumentText,
  type KnowledgeFile,
  type KnowledgeStorage,
  type Revision,
  type VectorEntry,
} from '../knowledge/knowledge-storage.ts';
import type { KnowledgeBaseInfo, KnowledgeChunk, KnowledgeDocument } from '../knowledge/types.ts';
import { DatabaseRef, type IndexedDbServiceOptions } from './connection.ts';
import { Stores, type KnowledgeBaseRecord } from './database.ts';
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

/** Records a bulk read takes at a time (chunks of ~1 KB; vectors of up to ~12 KB). */
const PAGE = 2000;

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
        // Requests run in the order made: the old chunks go before the new ones come.
        const store = tx.objectStore(Stores.knowledgeChunks);
        requests.push(store.delete(prefixed(baseId, documentId)));
        requests.push(dropVectors(tx, baseId, documentId));
        for (const chunk of chunks) requests.push(store.put(chunk));
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
        tx.objectStore(Stores.knowledgeChunks).delete(prefixed(baseId, documentId)),
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
    const range = documentId === undefined ? prefixed(baseId) : prefixed(baseId, documentId);
    const db = await this.database.open();
    return readTransaction(db, [Stores.knowledgeChunks], async (tx) => {
      const store = tx.objectStore(Stores.knowledgeChunks);
      const found: KnowledgeChunk[] = [];
      let page = await store.getAll(range, PAGE);
      while (page.length > 0) {
        found.push(...page);
        if (page.length < PAGE) break;
        const last = page[page.length - 1]!;
        const from = [last.baseId, last.documentId, last.seq];
        page = await store.getAll(IDBKeyRange.bound(from, range.upper, true), PAGE);
      }
      return found;
    });
  }

  async chunk(chunkId: string): Promise<KnowledgeChunk | undefined> {
    const db = await this.database.open();
    return readTransaction(db, [Stores.knowledgeChunks], (tx) =>
      tx.objectStore(Stores.knowledgeChunks).index('byId').get(chunkId),
    );
  }

  async vectors(baseId: string, key: string): Promise<Map<string, Float32Array>> {
    const range = prefixed(baseId, key);
    const db = await this.database.open();
    return readTransaction(db, [Stores.knowledgeVectors], async (tx) => {
      const store = tx.objectStore(Stores.knowledgeVectors);
      const found = new Map<string, Float32Array>();
      let page = await store.getAll(range, PAGE);
      while (page.length > 0) {
        for (const record of page)
          found.set(chunkIdOf(record.documentId, record.seq), record.vector);
        if (page.length < PAGE) break;
        const last = page[page.length - 1]!;
        const from = [baseId, key, last.documentId, last.seq];
        page = await store.getAll(IDBKeyRange.bound(from, range.upper, true), PAGE);
      }
      return found;
    });
  }

  async vectorIds(baseId: string, key: string): Promise<Set<string>> {
    const db = await this.database.open();
    const keys = await readTransaction(db, [Stores.knowledgeVectors], (tx) =>
      tx.objectStore(Stores.knowledgeVectors).getAllKeys(prefixed(baseId, key)),
    );
    return new Set(keys.map((stored) => chunkIdOf(stored[2], stored[3])));
  }

  async putVectors(baseId: string, key: string, entries: readonly VectorEntry[]) {
    return this.write(baseId, async (tx) => {
      const store = tx.objectStore(Stores.knowledgeVectors);
      const [one] = await store.getAll(prefixed(baseId, key), 1);
      const checked = storableVectors(entries, one?.vector.length);
      // A vector is kept only for a chunk that is there now: its document may have gone, or
      // been cut into other chunks, while the embedder worked.
      const documentIds = [...new Set(checked.map(([place]) => place.documentId))];
      const documents = tx.objectStore(Stores.knowledgeDocuments);
      const held = await Promise.all(documentIds.map((id) => documents.get([baseId, id])));
      const counts = new Map(documentIds.map((id, i) => [id, held[i]?.chunkCount ?? 0]));
      const kept = checked.filter(([{ documentId, seq }]) => seq < counts.get(documentId)!);
      await Promise.all(
        kept.map(([{ documentId, seq }, vector]) =>
          store.put({ baseId, key, documentId, seq, vector }),
        ),
      );
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
