// IndexedDbKnowledgeStorage over fake-indexeddb, where it differs from the in-memory storage: the
// upgrade from schema 10 that makes its stores, a full disk (nothing of a document is written),
// and bulk reads past one page. The contract both storages keep is
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

  it('reads a base of more chunks and vectors than one page holds, in order', async () => {
    const storage = storageOf();
    const base = await KnowledgeBase.create(storage, { name: 'Big' });
    const count = 4500;
    const document: KnowledgeDocument = {
      id: 'doc',
      baseId: base.id,
      name: 'big.txt',
      kind: 'text',
      size: count,
      chars: count,
      chunkCount: count,
      status: 'indexed',
      addedAt: 1,
    };
    const chunks: KnowledgeChunk[] = Array.from({ length: count }, (_, seq) => ({
      id: chunkIdOf('doc', seq),
      baseId: base.id,
      documentId: 'doc',
      seq,
      text: 'x',
      start: seq,
      end: seq + 1,
    }));
    await storage.putDocument(document, { text: { text: 'x'.repeat(count) }, chunks });
    const read = await storage.chunks(base.id);
    expect(read.map((chunk) => chunk.seq)).toEqual(chunks.map((chunk) => chunk.seq));
    await storage.putVectors(
      base.id,
      'k',
      chunks.map((chunk) => [chunk.id, [chunk.seq, 1]]),
    );
    const vectors = await storage.vectors(base.id, 'k');
    expect(vectors.size).toBe(count);
    expect([...vectors.get(chunkIdOf('doc', 4321))!]).toEqual([4321, 1]);
  });
});
