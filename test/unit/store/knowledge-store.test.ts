// IndexedDbKnowledgeStorage over fake-indexeddb, where it differs from the in-memory storage: the
// upgrade from schema 10 that makes its stores, a full disk (nothing of a document is written),
// and how a document's chunks and vectors are packed, one record each: bulk reads past one page,
// vectors added a batch at a time, a chunk read back field for field. The contract both storages keep is
// test/unit/knowledge/knowledge-storage.test.ts.

import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { KnowledgeBase } from '../../../src/knowledge/knowledge-base.ts';
import { chunkIdOf } from '../../../src/knowledge/knowledge-storage.ts';
import type { KnowledgeChunk, KnowledgeDocument } from '../../../src/knowledge/types.ts';
import { DB_VERSION } from '../../../src/store/database.ts';
import { IndexedDbKnowledgeStorage } from '../../../src/store/knowledge-store.ts';
import { IndexedDbQuota } from '../../support/full-disk.ts';
import { freshDbName, rejectionOf } from '../../support/helpers.ts';
import { testEmbedder } from '../../support/knowledge-fixtures.ts';
import {
  SCHEMA_V10,
  SCHEMA_V11,
  createDatabase,
  readSchema,
} from '../../support/schema-fixtures.ts';

const quota = new IndexedDbQuota();
beforeAll(() => quota.install());
afterAll(() => quota.uninstall());

const toClose: IndexedDbKnowledgeStorage[] = [];
afterEach(async () => {
  quota.failWrite(0);
  await Promise.all(toClose.splice(0).map((storage) => storage.close()));
});

function storageOf(dbName = freshDbName()) {
  const storage = new IndexedDbKnowledgeStorage({ dbName });
  toClose.push(storage);
  return storage;
}

const GUIDE = '# Guide\n\n## Roses\nRoses want sun.\n\n## Tomatoes\nTomatoes want potash.';

describe('IndexedDbKnowledgeStorage', () => {
  it('makes its stores on the upgrade from schema 10, keeping what was there', async () => {
    const dbName = freshDbName();
    const v10 = await createDatabase(dbName, 10, SCHEMA_V10);
    await v10.put('settings', { name: 'theme', value: 'dark' });
    v10.close();

    const storage = storageOf(dbName);
    const base = await KnowledgeBase.create(storage, { name: 'Notes' });
    await base.add({ name: 'guide.md', text: GUIDE });
    expect((await base.search('potash'))[0]!.document).toBe('guide.md');
    await storage.close();
    expect(await readSchema(dbName)).toEqual({ version: DB_VERSION, schema: SCHEMA_V11 });
    const { openDB } = await import('idb');
    const db = await openDB(dbName);
    expect(await db.get('settings', 'theme')).toEqual({ name: 'theme', value: 'dark' });
    db.close();
  });

  it('on a full disk, writes nothing of a document and says the disk is full', async () => {
    const storage = storageOf();
    const base = await KnowledgeBase.create(storage, { name: 'Notes' });
    await base.add({ name: 'first.md', text: GUIDE });
    const revision = await storage.revision(base.id);
    const chunks = await storage.chunks(base.id);

    quota.failWrite(1);
    const bytes = new TextEncoder().encode(GUIDE.repeat(20));
    const error = await rejectionOf(base.add({ name: 'big.md', type: 'text/markdown', bytes }));
    expect(quota.tripped).toBe(true);
    expect(error.name).toBe('StorageFullError');
    expect(error.message).toMatch(/storage .* is full, so nothing was saved/);
    expect((await base.documents()).map((d) => d.name)).toEqual(['first.md']);
    expect(await storage.chunks(base.id)).toEqual(chunks);
    expect(await storage.revision(base.id)).toBe(revision);
    expect((await base.search('roses', { limit: 10 })).map((hit) => hit.document)).toEqual([
      'first.md',
    ]);
  });

  it('on a full disk while embedding, keeps the vectors of the batches stored before', async () => {
    const storage = storageOf();
    const base = await KnowledgeBase.create(storage, { name: 'Notes' });
    const text = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} ${'word '.repeat(150)}`);
    const embedder = testEmbedder({ batchSize: 2 });
    // The first write is the document's; the third, the second batch's vectors.
    quota.failWrite(3);
    const error = await rejectionOf(
      base.add({ name: 'long.txt', text: text.join('\n\n') }, { embedder }),
    );
    expect(error.name).toBe('KnowledgeEmbeddingError');
    expect((error.cause as Error).name).toBe('StorageFullError');
    const [document] = await base.documents();
    expect(document).toMatchObject({ status: 'indexed', error: expect.stringMatching(/full/) });
    expect((await storage.vectorIds(base.id, embedder.key)).size).toBe(2);
  });

  it('reads a base of more documents than one page holds, each one’s chunks and vectors in order', async () => {
    const storage = storageOf();
    const base = await KnowledgeBase.create(storage, { name: 'Big' });
    const written: KnowledgeChunk[] = [];
    for (let d = 0; d < 45; d++) {
      const { document, chunks } = documentOf(base.id, `doc${String(d).padStart(2, '0')}`, 30);
      await storage.putDocument(document, { text: { text: 'x'.repeat(30) }, chunks });
      written.push(...chunks);
    }
    expect(await storage.chunks(base.id)).toStrictEqual(written);
    await storage.putVectors(
      base.id,
      'k',
      written.map((chunk) => [chunk.id, [chunk.seq, 1]]),
    );
    const vectors = await storage.vectors(base.id, 'k');
    expect([...vectors.keys()]).toEqual(written.map((chunk) => chunk.id));
    expect([...vectors.get(chunkIdOf('doc44', 29))!]).toEqual([29, 1]);
    expect([...(await storage.vectorIds(base.id, 'k'))]).toEqual([...vectors.keys()]);
  });

  it('adds vectors to a document a batch at a time, across documents, the latest kept', async () => {
    const storage = storageOf();
    const base = await KnowledgeBase.create(storage, { name: 'Notes' });
    for (const id of ['a', 'b']) {
      const { document, chunks } = documentOf(base.id, id, 8);
      await storage.putDocument(document, { text: { text: 'x'.repeat(8) }, chunks });
    }
    const put = (entries: [string, number, number][]) =>
      storage.putVectors(
        base.id,
        'k',
        entries.map(([documentId, seq, value]) => [chunkIdOf(documentId, seq), [value, seq]]),
      );
    await put([
      ['a', 5, 1],
      ['a', 0, 1],
      ['a', 1, 1],
      ['b', 7, 1],
    ]);
    await storage.deleteDocument(base.id, 'b');
    const { written } = await put([
      ['b', 0, 2],
      ['a', 3, 2],
      ['a', 1, 2],
      ['a', 9, 2],
    ]);
    expect(written).toEqual([chunkIdOf('a', 3), chunkIdOf('a', 1)]);
    const vectors = await storage.vectors(base.id, 'k');
    expect(Object.fromEntries([...vectors].map(([id, vector]) => [id, [...vector]]))).toEqual({
      'a:0': [1, 0],
      'a:1': [2, 1],
      'a:3': [2, 3],
      'a:5': [1, 5],
    });
    expect([...(await storage.vectorIds(base.id, 'k'))].sort()).toEqual([
      'a:0',
      'a:1',
      'a:3',
      'a:5',
    ]);
    // Each vector read is its own: changing one changes no other, nor what is stored.
    vectors.get('a:0')!.fill(9);
    expect([...vectors.get('a:1')!]).toEqual([2, 1]);
    expect([...(await storage.vectors(base.id, 'k')).get('a:0')!]).toEqual([1, 0]);
  });

  it('gives a chunk back as written, absent heading and page absent; an id not as written finds none', async () => {
    const storage = storageOf();
    const base = await KnowledgeBase.create(storage, { name: 'Notes' });
    const { document, chunks } = documentOf(base.id, 'doc', 3);
    chunks[1] = { ...chunks[1]!, heading: 'Setup › Install', page: 4 };
    await storage.putDocument(document, { text: { text: 'xxx' }, chunks });
    expect(await storage.chunk(chunkIdOf('doc', 1))).toStrictEqual(chunks[1]);
    expect(await storage.chunk(chunkIdOf('doc', 2))).toStrictEqual(chunks[2]);
    expect(await storage.chunks(base.id, 'doc')).toStrictEqual(chunks);
    for (const id of ['doc:01', 'doc:3', 'doc:-1', 'doc', 'other:0'])
      expect(await storage.chunk(id)).toBeUndefined();
  });
});

function documentOf(baseId: string, id: string, count: number) {
  const document: KnowledgeDocument = {
    id,
    baseId,
    name: `${id}.txt`,
    kind: 'text',
    size: count,
    chars: count,
    chunkCount: count,
    status: 'indexed',
    addedAt: 1,
  };
  const chunks: KnowledgeChunk[] = Array.from({ length: count }, (_, seq) => ({
    id: chunkIdOf(id, seq),
    baseId,
    documentId: id,
    seq,
    text: `chunk ${seq} of ${id}`,
    start: seq,
    end: seq + 1,
  }));
  return { document, chunks };
}
